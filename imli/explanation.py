"""Why a row gets its label from an IMLI rule: the clauses, terms or rules that decide it.

For a CNF the label is positive when every clause holds (each by a literal that holds)
and negative when a clause fails (every one of its literals false); for a DNF, positive
when a term holds and negative when every term fails (each at a false literal). A
decision list is decided by the first rule that fires, after the rules before it failed;
a decision set by the vote of the rules that fire.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .decisions import DecisionList, DecisionSet, _shown
from .predicates import (_category_text, _is_missing, composed, format_value, readable,
                         to_numbers)
from .rules import CNF, Clause, Literal

__all__ = ["Explanation", "check_values", "explain_row"]


@dataclass(frozen=True)
class Explanation:
    """The reason for one prediction.

    Parameters
    ----------
    label : object
        The predicted label.
    decisive : tuple
        What decides the label: the clauses of a CNF that hold (positive) or fail
        (negative); the terms of a DNF that hold (positive) or all of them, failing
        (negative); the rule of a decision list that fired (empty for its default), or the
        rules of a decision set that fired with the label.
    text : str
        The explanation in words, each literal with the row's value of its feature.
    summary : str, default=""
        The same reason on one line, without the label: what decides it and its literals,
        each with the row's value (``its one clause holds, by the literal shown: age > 42.5
        (age is 52)``), a false literal said to fail, an empty clause or term as its
        constant (``TRUE (no literal)``); the literals of the rules that fail before a
        decision list's rule fires, and of a decision set's rules that fire outvoted, left
        out.
    """

    label: object
    decisive: tuple
    text: str
    summary: str = ""

    def __str__(self) -> str:
        return self.text


def _shown_cell(cell: object) -> str:
    """A row's cell as the words show it, in FOLD's words: an empty one (missing, or not
    selected) is ``unknown``; a frozenset of categories the value is known not to be is
    ``known not a, b``."""
    if isinstance(cell, frozenset):
        return "known not " + ", ".join(sorted(_shown_value(v) for v in cell))
    return "unknown" if _is_missing(cell) else _shown_value(cell)


def _shown_value(value: object) -> str:
    """A value as :func:`format_value` shows it, quoted where it reads as the word for an
    empty cell: a category ``unknown`` (as in the bank marketing table's ``job``) is
    ``'unknown'``; text in its composed form (NFC), as the rules compare it."""
    text = format_value(composed(value) if isinstance(value, str) else value)
    return repr(text) if text.casefold() == "unknown" else text


def _test_holds(predicate, cell: np.ndarray) -> bool:
    """Whether ``predicate`` holds on ``cell`` (an object array of one cell). A frozenset
    of categories (the value is known to be none of them) satisfies ``c != v`` for each
    ``v`` in it and no other test."""
    if isinstance(cell[0], frozenset):
        return predicate.relation == "!=" and _category_text(predicate.value) in {
            _category_text(v) for v in cell[0]}
    return bool(predicate.evaluate(cell)[0])


def check_values(rule, B: np.ndarray, values: dict) -> None:
    """Refuse ``values`` (a row's cells by feature name, given beside its binary row ``B``)
    that lack a feature the rule tests, or whose value would not make a literal hold or
    fail as it does on ``B`` (another row's values, say).

    Raises
    ------
    ValueError
        Naming the feature.
    """
    for literal in rule.literals:
        p = literal.predicate
        if p is None:
            continue
        if p.feature not in values:
            raise ValueError(f"values has no column {p.feature!r}, a feature the rule tests; "
                             "give the row's original value of each feature")
        cell = np.empty(1, dtype=object)
        cell[0] = values[p.feature]
        if p.is_threshold:
            try:
                to_numbers(cell)
            except (TypeError, ValueError):
                raise ValueError(
                    f"values holds {readable(cell[0])} for {readable(p.feature, name=True)}, "
                    f"which {p} reads as a number; give the row's original values") from None
        holds = bool(literal.evaluate(B)[0])
        # a complemented column holds where the test does not, a missing value included
        if (_test_holds(p, cell) != literal.negated) != holds:
            raise ValueError(
                f"values do not match X: {readable(p.feature, name=True)} is "
                f"{_shown_cell(cell[0])}, so {literal} would {'fail' if holds else 'hold'}, "
                f"but it {'holds' if holds else 'fails'} on X; give the same row's values")


def _value(literal: Literal, B: np.ndarray, values: dict) -> str:
    """The row's value that ``literal`` tests: the feature's cell when the rule names a
    feature of the input, else the 0 or 1 of the binary column (named as in ``fit``; called
    a column when it stands for a test, whose feature may bear the same name)."""
    p = literal.predicate
    if p is not None and p.feature in values:
        return f"{readable(p.feature, name=True)} is {_shown_cell(values[p.feature])}"
    column = "" if p is None else "column "
    return f"{column}{readable(literal.name, name=True)} is {int(B[0, literal.column])}"


def _chosen(clause: Clause, B: np.ndarray, which: bool, first: bool = False) -> list:
    """The literals of ``clause`` that are ``which`` (true or false) on the row; only the
    first of them when ``first``."""
    found = [lit for lit in clause.literals if bool(lit.evaluate(B)[0]) == which]
    return found[:1] if first else found


def _lines(clause: Clause, B: np.ndarray, values: dict, which: bool,
           first: bool = False) -> list[str]:
    """The literals of ``clause`` that are ``which``, each with the row's value."""
    return [f"      {lit}   ({_value(lit, B, values)})"
            for lit in _chosen(clause, B, which, first)]


def _brief(clause: Clause, B: np.ndarray, values: dict, which: bool,
           first: bool = False) -> str:
    """The literals of ``clause`` that are ``which`` on one line, each with the row's
    value, a false one said to fail; an empty clause (term) as its constant, ``TRUE (no
    literal)`` or ``FALSE (no literal)``."""
    if not clause.literals:
        return f"{clause} (no literal)"
    fails = "" if which else " fails"
    return ", ".join(f"{lit}{fails} ({_value(lit, B, values)})"
                     for lit in _chosen(clause, B, which, first))


def _summary(what: str, parts: list[tuple], B: np.ndarray, values: dict) -> str:
    """``what`` decides, then each ``(clause, which, first)`` of ``parts`` as
    :func:`_brief` gives it, one clause from the next by ``; ``."""
    shown = "; ".join(_brief(c, B, values, which, first) for c, which, first in parts)
    return f"{what}: {shown}" if shown else what


def _block(title: object, clause: Clause, B, values, which: bool, first: bool = False) -> str:
    """``title`` on a line, then the literals of ``clause`` that are ``which``."""
    return "\n".join([f"  {title}", *_lines(clause, B, values, which, first)])


def _count(k: int, n: int, noun: str) -> tuple[str, bool]:
    """``k`` of ``n`` clauses (terms) in words, and whether that is one (a singular verb)."""
    if n == 1:
        return f"its one {noun}", True
    if k == n:
        return (f"both {noun}s" if n == 2 else f"all {n} {noun}s"), False
    return f"{k} of {n} {noun}s", k == 1


def _normal(rule, B: np.ndarray, values: dict, positive: object,
            negative: object) -> Explanation:
    fired = rule.fired(B)[0]
    n = len(rule.clauses)
    first = False  # each decisive clause (term) with all its literals that are ``which``
    if isinstance(rule, CNF):
        if fired.all():
            label, decisive, which = positive, tuple(rule.clauses), True
            count, one = _count(n, n, "clause")
            several = any(sum(bool(lit.evaluate(B)[0]) for lit in c.literals) > 1
                          for c in decisive)
            shown = "literals shown" if several else "literal shown"
            what = (f"{count} " + (f"holds, by the {shown}" if one
                                   else f"hold, each by the {shown}")
                    if n else "the rule is TRUE (it has no clause)")
        else:
            label, which = negative, False
            decisive = tuple(c for c, f in zip(rule.clauses, fired) if not f)
            count, one = _count(len(decisive), n, "clause")
            what = f"{count} " + ("fails, every literal of it false" if one
                                  else "fail, every literal of each false")
    elif fired.any():
        label, which = positive, True
        decisive = tuple(c for c, f in zip(rule.clauses, fired) if f)
        count, one = _count(len(decisive), n, "term")
        what = f"{count} " + ("holds, every literal of it true" if one
                              else "hold, every literal of each true")
    else:
        label, decisive, which, first = negative, tuple(rule.clauses), False, True
        if n == 1:
            what = "its one term fails at the literal shown"
        else:
            what = ("no term holds; each fails at the literal shown"
                    if n else "the rule is FALSE (it has no term)")
    body = [_block(c, c, B, values, which, first) for c in decisive]
    summary = _summary(what, [(c, which, first) for c in decisive], B, values)
    return Explanation(label, decisive, "\n".join([f"{_shown(label)}: {what}", *body]),
                       summary)


def _collection(rules, B: np.ndarray, values: dict, label: object) -> Explanation:
    fired = rules.fired(B)[0]
    if not rules.rules:
        what = "it has no rule"
        return Explanation(label, (), f"{_shown(label)}: {what} (ALWAYS {_shown(label)})",
                           what)
    # (title, rule, which, first) of each rule shown; the summary keeps those that decide
    shown = []
    if isinstance(rules, DecisionList):
        k = int(np.argmax(fired)) if fired.any() else len(rules.rules)
        decisive = rules.rules[k:k + 1]
        what = f"rule {k + 1} fires" if decisive else "no rule fires, so the default (ELSE)"
        shown += [(f"fails: {r}", r, False, True) for r in rules.rules[:k]]
        shown += [(f"fires: {r}", r, True, False) for r in decisive]
        deciding = shown[-1:] if decisive else shown
        extra = []
    else:
        decisive = tuple(r for r, f in zip(rules.rules, fired) if f and r.label == label)
        others = [r for r, f in zip(rules.rules, fired) if f and r.label != label]
        if decisive:
            # labels told apart as Python values, as DecisionSet.predict does
            votes: dict = {}
            for r in others:
                votes[r.label] = votes.get(r.label, 0) + 1
            tied = [other for other, v in votes.items() if v == len(decisive)]
            what = (f"{len(decisive)} of its rules fire" if len(decisive) > 1
                    else "one of its rules fires")
            if tied:
                what += (f", as many as for {' and '.join(_shown(t) for t in tied)}; the "
                         "tie goes to the label whose first rule to fire comes earlier")
            shown += [(f"fires: {r}", r, True, False) for r in decisive]
            extra = [f"  fires too, {'tied' if r.label in tied else 'outvoted'}: {r}"
                     for r in others]
        else:
            what = "no rule fires, so the default (OTHERWISE)"
            shown += [(f"fails: {r}", r, False, True) for r in rules.rules]
            extra = []
        deciding = shown
    body = [_block(title, r.term, B, values, which, first) for title, r, which, first in shown]
    summary = _summary(what, [(r.term, which, first) for _, r, which, first in deciding],
                       B, values)
    return Explanation(label, tuple(decisive),
                       "\n".join([f"{_shown(label)}: {what}", *body, *extra]), summary)


def explain_row(rule, B: np.ndarray, values: dict, classes: np.ndarray,
                label: object) -> Explanation:
    """The explanation of one row.

    Parameters
    ----------
    rule : CNF, DNF, DecisionList or DecisionSet
        The learned rule (``IMLIClassifier.rules_``).
    B : ndarray of bool, shape (1, n_literal_columns)
        The row as the rule reads it (binarized).
    values : dict
        The row's cells by feature name, to show beside each literal; a literal whose
        feature is not in it (or that has no predicate) shows its column's 0 or 1.
    classes : ndarray
        ``classes_``; a CNF/DNF's positive class is the second.
    label : object
        The predicted label (that of ``predict``).

    Returns
    -------
    Explanation
    """
    if isinstance(rule, DecisionList | DecisionSet):
        return _collection(rule, B, values, label)
    return _normal(rule, B, values, classes[1], classes[0])
