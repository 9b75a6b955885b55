"""The FOLD algorithm: default rules, exceptions, exceptions to exceptions.

``fold(E+, E-)`` covers the positives one rule at a time (sequential
covering). Each rule is specialised general-to-specific, adding the literal
of highest information gain, until it covers few enough negatives
(``covered negatives <= exception_ratio * covered positives``), no literal
helps, or the rule is ``max_rule_length`` long. When the best single
literal could be chance (no feature says anything alone, as in
``(a > 0) xor (b > 0)``), a rule's first literals come from a two-literal
lookahead instead (:mod:`fold.lookahead`). Negatives the rule still
covers are exceptions: ``fold`` is called again with positives and
negatives swapped, and what it learns becomes the rule's ``ab`` predicate
(``\\+ ab(X)`` in the body). Exceptions to exceptions come from the same
recursion. Rules that cover fewer than ``min_support`` positives, or no more
positives than negatives, are not kept (noise).

After each ``fold`` call the rules are cleaned up (the paper's clean-up): a
literal is dropped when the rule without it covers no more negatives, and a
rule is dropped when the others already cover all its positives.

With a description-length weight (``mdl_weight``, :mod:`fold.pruning`) three
things keep the programs small on noisy data:

* *stopping*: ``fold`` stops adding rules once the description length of its
  rules has grown :data:`STOP_BITS` bits above the smallest seen, and keeps
  the prefix of rules where it was smallest (RIPPER's stopping rule); it stops
  sooner, with the same rules, once no longer prefix can be the smallest;
* *post-pruning*: each class's rules are pruned while the description length
  of the class's training labels decreases, literal thresholds are moved to
  where they make the fewest errors, and pruning runs again;
* *orientation*: besides rules for the class (the rest is not the class),
  the class can be described as a default with exceptions,
  ``class :- not ab(X)`` with ``ab`` the rules learned for the other rows
  (``try_complement``); the shorter description is kept.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

import numpy as np
from threadpoolctl import ThreadpoolController

from .pruning import DescriptionLength, Node, prune_theory, refine_thresholds
from .rules import ClassRules, Literal, Rule, Theory
from .lookahead import ALPHA, best_pair, chance_probability
from .search import EncodedTable, best_literal, split_gain

__all__ = ["LearnerSettings", "FoldLearner", "STOP_BITS", "BLAS_THREADS"]

#: A rule set stops growing once its description length is this many bits
#: above the smallest seen (RIPPER's 64 bits).
STOP_BITS = 64.0
#: BLAS threads while learning (None: the library's own). The lookahead's matrix products
#: are small: on one thread they take no longer on an idle machine (adult's too) and far
#: less when another job holds a core (BENCHMARKS.md, ``bench_fold --blas-threads``). The
#: limit is the process's: while a fit learns, BLAS work in other threads has it too.
BLAS_THREADS: int | None = 1


@dataclass(frozen=True)
class LearnerSettings:
    """Stopping and noise parameters of the search (already validated)."""

    exception_ratio: float = 0.5
    min_gain: float = 0.0
    max_rule_length: int | None = None
    max_exception_depth: int = 4
    min_support: int = 1
    mdl_weight: float | None = 0.5
    try_complement: bool = True
    lookahead: bool = True


def _keys(found) -> tuple:
    """The literal key of a :class:`~fold.search.Candidate` as a one-tuple; () for None."""
    return () if found is None else ((found.column, found.relation, found.index),)


class FoldLearner:
    """Learn rules on an :class:`~fold.search.EncodedTable`.

    Parameters
    ----------
    table : EncodedTable
    settings : LearnerSettings
    """

    def __init__(self, table: EncodedTable, settings: LearnerSettings) -> None:
        self.table = table
        self.settings = settings
        self._cover_cache: dict[Node, np.ndarray] = {}
        self.length = None
        if settings.mdl_weight is not None:
            tests = [2 * len(col.values) for col in table.columns]
            self.length = DescriptionLength(tests, settings.mdl_weight)

    # -- coverage ---------------------------------------------------------
    def covers(self, node: Node) -> np.ndarray:
        """Mask over all rows of the rows ``node`` fires on."""
        mask = self._cover_cache.get(node)
        if mask is None:
            mask = np.ones(self.table.n_rows, dtype=bool)
            for key in node.literals:
                mask &= self.table.mask(*key)
            for exception in node.exceptions:
                mask &= ~self.covers(exception)
            self._cover_cache[node] = mask
        return mask

    def _union(self, nodes) -> np.ndarray:
        mask = np.zeros(self.table.n_rows, dtype=bool)
        for node in nodes:
            mask |= self.covers(node)
        return mask

    def description_length(self, nodes, pos: np.ndarray, neg: np.ndarray) -> float:
        """Bits of ``nodes`` and of their errors on ``pos`` vs ``neg`` (row indices)."""
        fires = self._union(nodes)
        fired_pos, fired_neg = int(fires[pos].sum()), int(fires[neg].sum())
        fired = fired_pos + fired_neg
        return (sum(self.length.theory_bits(node) for node in nodes)
                + self.length.error_bits(fired, fired_neg, len(pos) + len(neg) - fired,
                                         len(pos) - fired_pos))

    # -- learning ---------------------------------------------------------
    def fold(self, pos: np.ndarray, neg: np.ndarray, depth: int = 0,
             bare: bool = False) -> tuple:
        """Rules covering ``pos`` and few of ``neg`` (row index arrays).

        ``bare``: these are the exceptions of a rule of no literal, on its rows. A first
        rule of no literal would be that rule's problem with the roles swapped, its own
        exceptions that rule's problem again, and so on down to ``max_exception_depth``;
        each level ends up firing on all its rows or on none, so the nesting only says
        what the rule says alone (FOLD-R++ learns no exception when its literal search
        finds nothing). It is not learned: ``fold`` stops there.
        """
        s = self.settings
        rules: list[Node] = []
        remaining = pos
        best_bits, best_count = np.inf, 0
        fires = np.zeros(self.table.n_rows, dtype=bool)
        theory_bits, n_rows = 0.0, len(pos) + len(neg)
        while len(remaining) >= max(1, s.min_support):
            node = self.learn_rule(remaining, neg, depth,
                                   needs_literal=bare and len(remaining) == len(pos))
            if node is None:
                break
            mask = self.covers(node)
            tp = int(mask[remaining].sum())
            fp = int(mask[neg].sum())
            if tp < max(1, s.min_support) or tp <= fp:
                break
            rules.append(node)
            remaining = remaining[~mask[remaining]]
            if self.length is None:
                continue
            fires |= mask
            theory_bits += self.length.theory_bits(node)
            fired_neg = int(fires[neg].sum())
            fired = len(pos) - len(remaining) + fired_neg
            bits = theory_bits + self.length.error_bits(fired, fired_neg, n_rows - fired,
                                                        len(remaining))
            if bits < best_bits:
                best_bits, best_count = bits, len(rules)
            elif bits > best_bits + STOP_BITS:
                break
            if self._longer_loses(theory_bits, fired_neg, n_rows, best_bits):
                break
        if self.length is not None:
            rules = rules[:best_count]
        rules = [self._prune_literals(node, neg) for node in rules]
        return self._prune_rules(rules, pos)

    def _longer_loses(self, theory_bits: float, fired_neg: int, n_rows: int,
                      best_bits: float) -> bool:
        """Whether no longer prefix of the rules can be shorter than ``best_bits``: more
        rules add bits and fire on no fewer negatives, and the errors' bits grow with the
        errors, so not even a prefix that missed no positive would be kept. ``fold`` then
        learns no more rules (they would be dropped): the same rules, sooner."""
        floor = theory_bits + self.length.error_bits(0, fired_neg, n_rows, 0)
        return floor > best_bits + 1e-9  # a margin for the rounding of the bits' sums

    def learn_rule(self, pos: np.ndarray, neg: np.ndarray, depth: int,
                   needs_literal: bool = False) -> Node | None:
        """One default rule (with its exceptions) for ``pos`` against ``neg``; None when
        it ``needs_literal`` (see :meth:`fold`) and has none."""
        s = self.settings
        literals: list[tuple] = []
        while s.max_rule_length is None or len(literals) < s.max_rule_length:
            if literals and len(neg) <= s.exception_ratio * len(pos):
                break
            found = best_literal(self.table, pos, neg, frozenset(literals), s.min_gain,
                                 s.min_support)
            keys = (self._lookahead(found, pos, neg) if not literals and s.lookahead
                    else _keys(found))
            if not keys:
                break
            for key in keys[:None if s.max_rule_length is None
                            else s.max_rule_length - len(literals)]:
                literals.append(key)
                mask = self.table.mask(*key)
                pos, neg = pos[mask[pos]], neg[mask[neg]]
        if needs_literal and not literals:
            return None
        exceptions: tuple = ()
        if len(neg) and depth < s.max_exception_depth:
            exceptions = self.fold(neg, pos, depth + 1, bare=not literals)
        return Node(tuple(literals), exceptions)

    def _lookahead(self, found, pos: np.ndarray, neg: np.ndarray) -> tuple:
        """The first literals of a rule: the best single literal ``found`` (none when it
        is None), or a pair of literals (:mod:`fold.lookahead`) when ``found`` could be
        chance and the pair gains more than it and the best literal after it together."""
        s = self.settings
        table = self.table
        keys = _keys(found)
        if found is not None and chance_probability(found.gain, len(pos) + len(neg),
                                                    2 * table.n_slots) < ALPHA:
            return keys
        pair = best_pair(table, pos, neg, s.min_support,
                         beat=-np.inf if found is None else found.gain)
        if pair is not None and pair[2] <= s.min_gain:  # the pair is one test, as gains go
            pair = None
        if pair is None or found is None:
            return keys if pair is None else pair[:2]
        # the pair must also gain more than the greedy search's first two literals
        mask = table.mask(*keys[0])
        after = best_literal(table, pos[mask[pos]], neg[mask[neg]], frozenset(keys),
                             s.min_gain, s.min_support)
        if after is not None:
            mask = mask & table.mask(after.column, after.relation, after.index)
        greedy = split_gain(int(mask[pos].sum()), int(mask[neg].sum()), len(pos), len(neg))
        return keys if greedy >= pair[2] else pair[:2]

    # -- clean-up ---------------------------------------------------------
    def _prune_literals(self, node: Node, neg: np.ndarray) -> Node:
        covered_neg = int(self.covers(node)[neg].sum())
        literals = list(node.literals)
        i = 0
        while i < len(literals):
            trial = Node(tuple(literals[:i] + literals[i + 1:]), node.exceptions)
            if trial.literals and int(self.covers(trial)[neg].sum()) <= covered_neg:
                literals.pop(i)
            else:
                i += 1
        return Node(tuple(literals), node.exceptions)

    def _prune_rules(self, rules: list, pos: np.ndarray) -> tuple:
        """Drop, smallest first, each rule whose positives other kept rules all cover."""
        covered = [self.covers(node)[pos] for node in rules]
        # How many kept rules cover each positive: linear in the rules, not quadratic.
        count = np.sum(covered, axis=0, dtype=np.int64) if rules else None
        dropped = set()
        for index in sorted(range(len(rules)), key=lambda i: int(covered[i].sum())):
            if (count[covered[index]] >= 2).all():
                count[covered[index]] -= 1
                dropped.add(index)
        return tuple(node for i, node in enumerate(rules) if i not in dropped)

    # -- post-pruning -----------------------------------------------------
    def polish(self, nodes: tuple, pos: np.ndarray, neg: np.ndarray) -> tuple:
        """Prune, refine thresholds and prune again (:mod:`fold.pruning`).

        Returns the polished rules and their description length.
        """
        pos_mask = np.zeros(self.table.n_rows, dtype=bool)
        pos_mask[pos] = True
        neg_mask = np.zeros(self.table.n_rows, dtype=bool)
        neg_mask[neg] = True
        nodes, bits = prune_theory(tuple(nodes), self.covers, pos_mask, neg_mask, self.length)
        refined = refine_thresholds(nodes, self.covers, pos_mask, neg_mask, self.table)
        if refined != nodes:
            nodes, bits = prune_theory(refined, self.covers, pos_mask, neg_mask, self.length)
        return nodes, bits

    def learn_class(self, pos: np.ndarray, neg: np.ndarray) -> tuple:
        """The rules of one class: ``pos`` against ``neg`` (row indices)."""
        if not len(pos):
            return ()
        if not len(neg):  # the class's rows are all that is left: the rule ``true``
            return (Node((), ()),) if len(pos) >= self.settings.min_support else ()
        nodes = self.fold(pos, neg)
        if self.length is None:
            return nodes
        nodes, bits = self.polish(nodes, pos, neg)
        if self.settings.try_complement and self.settings.max_exception_depth > 0:
            complement = (Node((), self.fold(neg, pos, 1)),)
            complement, complement_bits = self.polish(complement, pos, neg)
            if complement_bits < bits:
                nodes = complement
        return nodes

    # -- results ----------------------------------------------------------
    def to_rule(self, node: Node) -> Rule:
        """The public, immutable :class:`~fold.rules.Rule` of a node."""
        literals = tuple(
            Literal(self.table.columns[j].name, relation,
                    self.table.literal_value(j, relation, k))
            for (j, relation, k) in node.literals
        )
        return Rule(literals, tuple(self.to_rule(e) for e in node.exceptions))

    def learn_theory(self, y: np.ndarray, labels: list, order: list) -> Theory:
        """Learn one class at a time, in ``order``; the last class is the default.

        Parameters
        ----------
        y : ndarray of int
            Class index of each training row (into ``labels``).
        labels : list
            Class labels.
        order : list of int
            Class indices in decision order; ``order[-1]`` is the default.
        """
        remaining = np.arange(self.table.n_rows)
        classes = []
        with blas_limit():
            for k in order[:-1]:
                pos = remaining[y[remaining] == k]
                neg = remaining[y[remaining] != k]
                nodes = self.learn_class(pos, neg)
                covered = self._union(nodes)
                remaining = remaining[~covered[remaining]]
                classes.append(ClassRules(labels[k], tuple(self.to_rule(n) for n in nodes)))
        return Theory(tuple(classes), labels[order[-1]])


@cache
def _blas() -> ThreadpoolController:
    # the libraries are found once: a limit then costs microseconds, not milliseconds
    return ThreadpoolController()


_limit_lock = threading.Lock()
_limit_users = 0
_limiter = None


@contextmanager
def blas_limit():
    """:data:`BLAS_THREADS` BLAS threads while the block runs, in every thread of the
    process; fits learning at once in several threads share one limit, set by the first
    to start and lifted by the last to end (a limit per fit would restore another fit's
    count, and could leave the process on one thread). The last lifts it only while a
    library still has the limit's count: if someone else (IMLI's own limit, the user) has
    set another since, that one stands."""
    global _limit_users, _limiter
    with _limit_lock:
        if _limit_users == 0 and BLAS_THREADS is not None:
            _limiter = (_blas().limit(limits=BLAS_THREADS, user_api="blas"), BLAS_THREADS)
        _limit_users += 1
    try:
        yield
    finally:
        with _limit_lock:
            _limit_users -= 1
            if _limit_users == 0 and _limiter is not None:
                limiter, threads = _limiter
                if any(lib.num_threads == threads
                       for lib in _blas().select(user_api="blas").lib_controllers):
                    limiter.restore_original_limits()
                _limiter = None
