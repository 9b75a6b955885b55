"""Decision lists (JAIR 2022 Alg. 3) and decision sets (Alg. 4), also multi-class.

Each step learns one conjunctive term for the majority class ``v`` of the rows that are
left, as a one-clause DNF: a one-clause CNF learned on "not ``v``" and complemented. Rows
are distinct binary rows with per-class counts (identical rows merged, see
:mod:`imli.rows`).

* Decision list: the rows the term covers are removed; the next term is learned on the rest.
* Decision set: only the rows it covers *correctly* are removed, and they stay in the next
  queries labelled "not ``v``", so the next term learns to avoid them (overlap reduction).
  The rules are then listed most precise (on the training rows) first, as a tie between
  rules goes to the earliest.

The default label is the class of a term that fires on every row left, if one is learned
(in a decision set the next terms then learn its exceptions); otherwise the majority class of
the training rows no rule decides; when every row is decided, JAIR's choice: the majority
class among classes no rule predicts, else the overall majority class.
"""

from __future__ import annotations

import numpy as np

from .literals import literal_matrix
from .rows import weigh
from .strategies import Budget, Data, Setting, best_of, greedy, minibatch, run_query

__all__ = ["decision_list", "decision_set", "learn_term"]

Term = frozenset[int]


def learn_term(
    setting: Setting,
    X: np.ndarray,
    target: np.ndarray,
    other: np.ndarray,
    budget: Budget,
    batch_size: int | None,
    n_passes: int,
    rng: np.random.Generator,
) -> Term | None:
    """One conjunctive term true on the ``target`` rows and false on the ``other`` rows.

    Parameters
    ----------
    setting : Setting
    X : ndarray of bool, shape (d, m)
        Distinct rows.
    target, other : ndarray of int, shape (d,)
        How many rows of each pattern belong (do not belong) to the target class.
    budget : Budget
    batch_size : int or None
    n_passes : int
    rng : Generator

    Returns
    -------
    frozenset of int or None
        Literal indices of the term; ``None`` if no term improves on predicting nothing.
    """
    data = Data.of(weigh(X, other, target))  # CNF form: the clause holds on "other"
    if batch_size is None or len(data.rows) <= batch_size:
        # all distinct rows fit in one batch: the whole query is no larger than a batch's
        clauses, _ = run_query(setting, data, 1, budget)
        if clauses is None:
            clauses = greedy(setting, data, 1).clauses
    else:
        result = minibatch(setting, data, 1, budget, batch_size, n_passes, rng)
        if result is None or not result.clauses:
            # A batch takes whole distinct rows with all their copies: where rows repeat
            # often, each batch holds a pattern or two and none learns a term (nothing
            # polishes a list's terms). The greedy term on all rows, if it pays, is taken.
            result = best_of(result, greedy(setting, data, 1))
        clauses = result.clauses
    if not clauses:
        return None  # the CNF is "true": the term never fires
    return frozenset(setting.space.negate(j) for j in clauses[0])


def _fires(term: Term, L: np.ndarray) -> np.ndarray:
    if not term:
        return np.ones(L.shape[0], dtype=bool)
    return L[:, sorted(term)].all(axis=1)


def _next_rule(setting, X, L, remaining, live, budget, batch_size, n_passes, rng):
    """The list's next ``(term, class)``, or None when no rule improves on the default.

    Alg. 3 learns a term for the majority class of the rows left. When none pays alone (a
    class that is the rest of a conjunction), the next classes are tried, each kept only
    if its rule lowers the objective: otherwise the list would end here, as one class for
    every row left.
    """
    totals = remaining.sum(axis=0)
    majority = int(np.argmax(totals))
    for v in np.argsort(-totals, kind="stable"):
        v = int(v)
        target = remaining[live, v]
        if not target.any():
            return None
        other = remaining[live].sum(axis=1) - target
        term = learn_term(setting, X[live], target, other, budget, batch_size, n_passes, rng)
        if term and (v == majority or _pays(setting, term, v, majority, L, remaining)):
            return term, v
    return None


def _pays(setting: Setting, term: Term, v: int, majority: int, L: np.ndarray,
          remaining: np.ndarray) -> bool:
    """Whether the rule ``term → v`` lowers ``|R| + λ·|E|`` of the rows left against giving
    them all the ``majority`` class."""
    fires = _fires(term, L)
    wrong_now = remaining.sum() - remaining[:, majority].sum()
    wrong_then = (remaining[fires].sum() - remaining[fires, v].sum()
                  + remaining[~fires].sum() - remaining[~fires, majority].sum())
    weights = setting.weights
    return weights.cost(len(term), int(wrong_then)) < weights.cost(0, int(wrong_now))


def _default(counts: np.ndarray, undecided: np.ndarray, predicted: list[int]) -> int:
    left = undecided.sum(axis=0)
    if left.sum() > 0:
        return int(np.argmax(left))
    totals = counts.sum(axis=0)
    missing = [c for c in range(counts.shape[1]) if c not in predicted]
    if missing:
        return int(missing[int(np.argmax(totals[missing]))])
    return int(np.argmax(totals))


def decision_list(
    setting: Setting,
    X: np.ndarray,
    counts: np.ndarray,
    n_rules: int,
    budget: Budget,
    batch_size: int | None,
    n_passes: int,
    rng: np.random.Generator,
) -> tuple[list[tuple[Term, int]], int]:
    """Learn up to ``n_rules`` (term, class) pairs and a default class (Alg. 3).

    Parameters
    ----------
    setting : Setting
    X : ndarray of bool, shape (d, m)
        Distinct rows.
    counts : ndarray of int, shape (d, n_classes)
        Rows per pattern and class.
    n_rules : int
    budget : Budget
    batch_size : int or None
    n_passes : int
    rng : Generator

    Returns
    -------
    rules : list of (frozenset of int, int)
        Term (literal indices) and class index, in order.
    default : int
        Class index of the default rule.
    """
    L = literal_matrix(X)
    remaining = counts.copy()
    rules: list[tuple[Term, int]] = []
    # Past the time limit, each term is the greedy one (run_query flags the time-out), as
    # a CNF falls back to its greedy rule: the list stays useful rather than stopping.
    for _ in range(n_rules):
        if remaining.sum() == 0:
            break
        live = remaining.sum(axis=1) > 0
        step = setting.after([t for t, _ in rules])
        found = _next_rule(step, X, L, remaining, live, budget, batch_size, n_passes, rng)
        if found is None:  # the rows left all go to the default
            break
        term, v = found
        fires = _fires(term, L) & live
        if not fires.any():
            break
        rules.append((term, v))
        remaining[fires] = 0
    return rules, _default(counts, remaining, [v for _, v in rules])


def decision_set(
    setting: Setting,
    X: np.ndarray,
    counts: np.ndarray,
    n_rules: int,
    budget: Budget,
    batch_size: int | None,
    n_passes: int,
    rng: np.random.Generator,
) -> tuple[list[tuple[Term, int]], int]:
    """Learn up to ``n_rules`` (term, class) pairs with overlap reduction (Alg. 4).

    Parameters and returns are those of :func:`decision_list`.
    """
    L = literal_matrix(X)
    remaining = counts.copy()
    covered = np.zeros(counts.shape[0], dtype=np.int64)  # correctly covered so far
    rules: list[tuple[Term, int]] = []
    default = None
    # classes no term picks out of the rest (too few thresholds, say) are passed over: a
    # later class may still have a rule of its own
    passed = np.zeros(counts.shape[1], dtype=bool)
    while len(rules) < n_rules:  # past the time limit, greedy terms (see decision_list)
        left = np.where(passed, 0, remaining.sum(axis=0))
        if left.sum() == 0:
            break
        v = int(np.argmax(left))
        target = remaining[:, v]
        other = remaining.sum(axis=1) - target + covered
        live = (target + other) > 0
        term = learn_term(
            setting.after([t for t, _ in rules]), X[live], target[live], other[live], budget,
            batch_size, n_passes, rng
        )
        if term is None:  # no term for v pays: another class may have one
            passed[v] = True
            continue
        if not term:
            # Fires on every row: the default rule. Its rows count as covered, so the next
            # terms learn the exceptions to it, which precede it as every rule does.
            if default is not None:
                break
            default = v
            covered += remaining[:, v]
            remaining[:, v] = 0
            continue
        fires = _fires(term, L)
        if not (fires & (remaining[:, v] > 0)).any():
            passed[v] = True
            continue
        rules.append((term, v))
        covered[fires] += remaining[fires, v]
        remaining[fires, v] = 0
    fired_any = np.zeros(counts.shape[0], dtype=bool)
    precision = []
    for term, v in rules:
        fires = _fires(term, L)
        fired_any |= fires
        precision.append(counts[fires, v].sum() / max(1, counts[fires].sum()))
    undecided = np.where(fired_any[:, None], 0, counts)
    # A tie between rules goes to the earliest (DecisionSet.predict): list the most precise
    # on the training rows first, so a later rule learned for the rows an earlier one gets
    # wrong decides them.
    order = sorted(range(len(rules)), key=lambda i: -precision[i])
    if default is None:
        default = _default(counts, undecided, [v for _, v in rules])
    return [rules[i] for i in order], default
