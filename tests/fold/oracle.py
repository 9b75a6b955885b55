"""An independent reading of a learned FOLD program, for the sweep in test_bruteforce.

Nothing here calls the package's evaluation or writing code: a rule is evaluated cell by
cell on the raw table, as the documented semantics say (an unknown cell satisfies no
literal; a :class:`~fold.Negated` cell satisfies only ``!=`` of a value it negates), and
the facts plain ``swipl`` reads are written from the raw cells with a quoting of our own.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from fold import Negated


def category(value) -> str:
    """A known categorical cell as the text it stands for (a whole number as an integer)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        return str(value)
    return str(int(value)) if float(value).is_integer() else str(value)


def unknown(value) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def holds(literal, cell) -> bool:
    if unknown(cell):
        return False
    if literal.relation in ("<=", ">"):
        value = float(cell)
        return value <= literal.value if literal.relation == "<=" else value > literal.value
    if isinstance(cell, Negated):
        return literal.relation == "!=" and literal.value in cell.values
    return (category(cell) == literal.value) == (literal.relation == "==")


def fires(rule, row: dict) -> bool:
    """Every literal holds and no exception (with its own exceptions) fires."""
    return (all(holds(lit, row[lit.feature]) for lit in rule.literals)
            and not any(fires(exception, row) for exception in rule.exceptions))


def rows(X: pd.DataFrame) -> list:
    return [dict(zip(X.columns, cells)) for cells in X.itertuples(index=False, name=None)]


def decide(theory, row: dict) -> tuple:
    """(index of the first class with a rule that fires, that rule); (classes, None)."""
    for k, class_rules in enumerate(theory.classes):
        for rule in class_rules.rules:
            if fires(rule, row):
                return k, rule
    return len(theory.classes), None


def decisions(theory, X: pd.DataFrame) -> np.ndarray:
    return np.array([decide(theory, row)[0] for row in rows(X)], dtype=np.int64)


def quote(text: str) -> str:
    """A quoted Prolog atom: printable ASCII as is, every other character escaped."""
    inner = "".join("\\" + ch if ch in "'\\" else ch if " " <= ch <= "~"
                    else f"\\x{ord(ch):x}\\" for ch in text)
    return f"'{inner}'"


def number(value) -> str:
    mantissa, _, exponent = repr(float(value)).partition("e")
    return mantissa + ("" if "." in mantissa else ".0") + (f"e{exponent}" if exponent else "")


def facts(clf, X: pd.DataFrame, as_text=frozenset()) -> str:
    """The facts of ``X`` under the predicate names of ``clf.prolog_``, grouped by
    predicate (``row/1`` and a column named ``row``, ``row/2``, are two predicates).
    ``as_text``: (row, column) pairs of numeric cells written as atoms (``'2.5'``)."""
    program = clf.prolog_
    kinds = dict(zip(clf.schema_.names, clf.schema_.kinds))
    found = []
    for i, row in enumerate(rows(X)):
        found.append(((program.row_predicate, 1), f"{quote(program.row_predicate)}({i})."))
        for name, cell in row.items():
            if unknown(cell):
                continue
            if kinds[name] == "numeric":
                text = quote(repr(float(cell))) if (i, name) in as_text else number(cell)
                pred, values = program.feature_predicates[name], [text]
            elif isinstance(cell, Negated):
                pred = program.negation_predicates[name]
                values = [quote(v) for v in sorted(cell.values)]
            else:
                pred, values = program.feature_predicates[name], [quote(category(cell))]
            found += [((pred, 2), f"{quote(pred)}({i}, {v}).") for v in values]
    found.sort(key=lambda fact: fact[0])  # stable: rows stay in order
    return ":- encoding(utf8).\n" + "".join(text + "\n" for _, text in found)
