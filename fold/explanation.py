"""Why a row gets its label: the rule that fired and the exceptions that did not."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .quoting import number_text, readable
from .rules import Literal, Rule, Theory
from .table import NUMERIC, ColumnView

__all__ = ["Explanation", "explain_row"]


@dataclass(frozen=True)
class Explanation:
    """The reason for one prediction.

    Parameters
    ----------
    label : object
        The predicted label, as :meth:`fold.FOLDClassifier.predict` gives it.
    rule : Rule or None
        The rule that fired, or None when the row fell through to the default.
    exceptions : tuple of Rule
        The fired rule's exceptions (none of them held for this row).
    text : str
        The explanation in words.
    prolog : str
        SWI-Prolog's justification of ``label(Id, Class)`` (its proof).
    row_id : int, default=0
        The ``Id`` of the row in :attr:`prolog`: its index label in the table
        given to ``explain`` when that is an integer, else 0.
    summary : str, default=""
        The reason on one line: the rule that fired, each of its literals with the row's
        value, then why its exceptions do not hold (each at its first literal that fails,
        without its text, or, its literals holding, overruled by its own exception that
        holds); or, for the default, why each rule does not fire. An exception that holds
        is named by its own literals, each with the row's value, and its own exceptions,
        which do not hold, only counted (``unless …``; the text spells them out). The
        rules of earlier classes that do not fire before a rule of a later class does are
        left out.
    """

    label: object
    rule: Rule | None
    exceptions: tuple
    text: str
    prolog: str
    row_id: int = 0
    summary: str = ""

    def __str__(self) -> str:
        return f"{self.text}\n\nProlog justification:\n{self.prolog}"


def _label(label: object) -> str:
    """A class label as the words show it: its ``repr``, a numpy scalar's as the plain
    Python value (``'a'``, not ``np.str_('a')``)."""
    return repr(label.item() if isinstance(label, np.generic) else label)


def _cell(view: ColumnView, literal: Literal, row: int) -> str:
    if literal.kind == NUMERIC:
        value = view.numeric(literal.feature)[row]
        # as the Prolog justification shows it (a whole number without .0), exactly
        return "unknown" if np.isnan(value) else number_text(value)
    cells = view.categorical(literal.feature)
    if cells.known[row] is not None:
        return repr(cells.known[row])
    negated = sorted(v for v, mask in cells.negated.items() if mask[row])
    return f"known not {', '.join(map(repr, negated))}" if negated else "unknown"


def _is(view: ColumnView, literal: Literal, row: int) -> str:
    """The row's cell that ``literal`` tests: ``feature is value``."""
    return f"{readable(literal.feature, name=True)} is {_cell(view, literal, row)}"


def _first_failure(rule: Rule, view: ColumnView, row: int, brief: bool = False) -> str:
    """Why ``rule`` does not fire on ``row``: its first literal that fails, or its
    exception that holds. ``brief`` (for a summary): that exception named by its own
    literals, its own exceptions left out (``unless …``) and counted."""
    for literal in rule.literals:
        if not literal.covers(view)[row]:
            return f"{literal} fails ({_is(view, literal, row)})"
    for exception in rule.exceptions:
        if exception.covers(view)[row]:
            shown = (str(replace(exception, exceptions=()))
                     + (" unless …" if exception.exceptions else "")) if brief else exception
            return f"its exception [{shown}] holds ({_reasons(exception, view, row, brief)})"
    return "it fires"  # pragma: no cover - only called on rules that do not fire


def _reasons(rule: Rule, view: ColumnView, row: int, brief: bool = False) -> str:
    """Why ``rule`` holds on ``row``, in one line: its cells, and why each of its
    exceptions does not hold (``brief``: how many of them there are)."""
    parts = [_is(view, lit, row) for lit in rule.literals]
    n = len(rule.exceptions)
    if brief and n:
        parts.append("its own exception does not hold" if n == 1
                     else f"none of its {n} own exceptions holds")
    elif n:
        parts += [f"not [{exception}]: {_first_failure(exception, view, row)}"
                  for exception in rule.exceptions]
    return "; ".join(parts) or "it has no condition"


def _holds(rule: Rule, view: ColumnView, row: int) -> list:
    """Why ``rule`` fires on ``row``: each literal with the row's cell, then why each of
    its exceptions does not hold."""
    parts = [f"{lit}   ({_is(view, lit, row)})" for lit in rule.literals]
    parts = parts or ["true (the rule has no condition)"]
    return parts + [f"and not the exception [{exception}]: "
                    f"{_first_failure(exception, view, row)}"
                    for exception in rule.exceptions]


def _not_held(exception: Rule, view: ColumnView, row: int) -> str:
    """Why ``exception`` does not hold, for the one line of :func:`_fired`: its first
    literal that fails; when every literal holds, those literals said to be overruled by
    its own exception that holds (the exception to the exception, not the rule's)."""
    why = _first_failure(exception, view, row, brief=True)
    if not exception.body_covers(view)[row]:
        return why
    held = " and ".join(map(str, exception.literals)) or "true"
    return f"{held} is overruled, as {why}"


def _fired(what: str, rule: Rule, view: ColumnView, row: int) -> str:
    """:func:`_holds` on one line, after ``what``: each literal with the row's cell, then,
    without their text, why the exceptions do not hold."""
    held = ", ".join(f"{lit} ({_is(view, lit, row)})" for lit in rule.literals)
    line = f"{what}: {held}" if held else f"{what} (it has no condition)"
    if rule.exceptions:
        line += "; no exception holds: " + ", ".join(
            _not_held(exception, view, row) for exception in rule.exceptions)
    return line


def explain_row(theory: Theory, view: ColumnView, row: int) -> tuple:
    """Explain row ``row`` of ``view`` in words.

    Returns
    -------
    (label, rule or None, text, summary)
        ``summary`` is the reason on one line (:attr:`Explanation.summary`).
    """
    # the rules of the classes tried before, each with why it does not fire: in full, and
    # briefly for the summary
    failed, brief = [], []
    for class_rules in theory.classes:
        for number, rule in enumerate(class_rules.rules, 1):
            if rule.covers(view)[row]:
                shown = _label(class_rules.label)
                what = f"rule {number} of class {shown} fired"
                why = _holds(rule, view, row)
                lines = [f"Predicted {shown}: {what}:", *(f"  {part}" for part in why)]
                if failed:
                    lines += ["Rules of earlier classes, which do not fire:",
                              *(f"  {part}" for part in failed)]
                summary = _fired(what, rule, view, row)
                return class_rules.label, rule, "\n".join(lines), summary
        for number, rule in enumerate(class_rules.rules, 1):
            which = f"rule {number} of class {_label(class_rules.label)} does not fire: "
            failed.append(which + _first_failure(rule, view, row))
            brief.append(which + _first_failure(rule, view, row, brief=True))
    default = f"Predicted {_label(theory.default)} (the default)"
    if not theory.rules:
        return (theory.default, None, f"{default}: the program has no rule.",
                "the program has no rule")
    lines = [f"{default}: no rule of an earlier class fired:",
             *(f"  {part}" for part in failed)]
    return theory.default, None, "\n".join(lines), "no rule fired: " + "; ".join(brief)
