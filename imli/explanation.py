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
from .predicates import _is_missing, format_value, readable, to_numbers
from .rules import CNF, Clause, Literal

__all__ = ["Explanation", "check_values", "explain_row"]


@dataclass(frozen=True)
class Explanation:
    """The reason for one prediction.

    Attributes
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
    """

    label: object
    decisive: tuple
    text: str

    def __str__(self) -> str:
        return self.text


def _shown_cell(cell: object) -> str:
    return "missing" if _is_missing(cell) else format_value(cell)


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
        if (bool(p.evaluate(cell)[0]) != literal.negated) != holds:
            raise ValueError(
                f"values do not match X: with {readable(p.feature, name=True)} "
                f"{'missing' if _is_missing(cell[0]) else '= ' + format_value(cell[0])}, "
                f"{literal} would {'fail' if holds else 'hold'}, "
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


def _lines(clause: Clause, B: np.ndarray, values: dict, which: bool,
           first: bool = False) -> list[str]:
    """The literals of ``clause`` that are ``which`` (true or false), each with the row's
    value; only the first of them when ``first``."""
    found = [f"      {lit}   ({_value(lit, B, values)})" for lit in clause.literals
             if bool(lit.evaluate(B)[0]) == which]
    return found[:1] if first else found


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
    if isinstance(rule, CNF):
        if fired.all():
            label, decisive = positive, tuple(rule.clauses)
            count, one = _count(n, n, "clause")
            several = any(sum(bool(lit.evaluate(B)[0]) for lit in c.literals) > 1
                          for c in decisive)
            shown = "literals shown" if several else "literal shown"
            head = (f"{_shown(label)}: {count} "
                    + (f"holds, by the {shown}" if one else f"hold, each by the {shown}")
                    if n else f"{_shown(label)}: the rule is TRUE (it has no clause)")
            body = [_block(c, c, B, values, True) for c in decisive]
        else:
            label = negative
            decisive = tuple(c for c, f in zip(rule.clauses, fired) if not f)
            count, one = _count(len(decisive), n, "clause")
            head = f"{_shown(label)}: {count} " + (
                "fails, every literal of it false" if one
                else "fail, every literal of each false")
            body = [_block(c, c, B, values, False) for c in decisive]
    elif fired.any():
        label = positive
        decisive = tuple(c for c, f in zip(rule.clauses, fired) if f)
        count, one = _count(len(decisive), n, "term")
        head = f"{_shown(label)}: {count} " + (
            "holds, every literal of it true" if one else "hold, every literal of each true")
        body = [_block(c, c, B, values, True) for c in decisive]
    else:
        label, decisive = negative, tuple(rule.clauses)
        if n == 1:
            head = f"{_shown(label)}: its one term fails at the literal shown"
        else:
            head = (f"{_shown(label)}: no term holds; each fails at the literal shown"
                    if n else f"{_shown(label)}: the rule is FALSE (it has no term)")
        body = [_block(c, c, B, values, False, first=True) for c in decisive]
    return Explanation(label, decisive, "\n".join([head, *body]))


def _collection(rules, B: np.ndarray, values: dict, label: object) -> Explanation:
    fired = rules.fired(B)[0]
    body = []
    if not rules.rules:
        return Explanation(label, (), f"{_shown(label)}: it has no rule (ALWAYS {_shown(label)})")
    if isinstance(rules, DecisionList):
        k = int(np.argmax(fired)) if fired.any() else len(rules.rules)
        decisive = rules.rules[k:k + 1]
        head = (f"{_shown(label)}: rule {k + 1} fires" if decisive
                else f"{_shown(label)}: no rule fires, so the default (ELSE)")
        body += [_block(f"fails: {r}", r.term, B, values, False, first=True)
                 for r in rules.rules[:k]]
        body += [_block(f"fires: {r}", r.term, B, values, True) for r in decisive]
    else:
        decisive = tuple(r for r, f in zip(rules.rules, fired) if f and r.label == label)
        others = [r for r, f in zip(rules.rules, fired) if f and r.label != label]
        if decisive:
            # labels told apart as Python values, as DecisionSet.predict does
            votes: dict = {}
            for r in others:
                votes[r.label] = votes.get(r.label, 0) + 1
            tied = [other for other, v in votes.items() if v == len(decisive)]
            head = (f"{_shown(label)}: {len(decisive)} of its rules fire" if len(decisive) > 1
                    else f"{_shown(label)}: one of its rules fires")
            if tied:
                head += (f", as many as for {' and '.join(_shown(t) for t in tied)}; the "
                         "tie goes to the label whose first rule to fire comes earlier")
            body += [_block(f"fires: {r}", r.term, B, values, True) for r in decisive]
            body += [f"  fires too, {'tied' if r.label in tied else 'outvoted'}: {r}"
                     for r in others]
        else:
            head = f"{_shown(label)}: no rule fires, so the default (OTHERWISE)"
            body += [_block(f"fails: {r}", r.term, B, values, False, first=True)
                     for r in rules.rules]
    return Explanation(label, tuple(decisive), "\n".join([head, *body]))


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
