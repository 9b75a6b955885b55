"""An independent reading of a learned FOLD program, for the sweep in test_bruteforce.

Nothing here calls the package's evaluation or writing code: a rule is evaluated cell by
cell on the raw table, as the documented semantics say (an unknown cell satisfies no
literal; a :class:`~fold.Negated` cell satisfies only ``!=`` of a value it negates), and
the facts plain ``swipl`` reads are written from the raw cells with a quoting of our own.
"""

from __future__ import annotations

import ast
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


# -- the printed rules (``str(clf.rules_)``), read back -------------------------------

_OPERATORS = (" unless (", " not in {", " in {", " otherwise", " if ", " and ", " or ",
              " == ", " != ", " <= ", " > ", ", ", "(", ")", "}")


def _tokens(line: str) -> list:
    """("T", text) for a name or value (as is, or a Python string literal), ("OP", op)."""
    out, word, depth, i = [], "", 0, 0
    while i < len(line):
        if not word and line[i] in "'\"":  # a quoted name or value: find its end
            j = i + 1
            while line[j] != line[i]:
                j += 2 if line[j] == "\\" else 1
            out.append(("T", ast.literal_eval(line[i:j + 1])))
            i = j + 1
            continue
        op = next((op for op in _OPERATORS if line.startswith(op, i)), None)
        # a bracket inside a name or value comes in pairs ("width (cm)")
        if op == "(" and word or op == ")" and depth:
            depth += 1 if op == "(" else -1
            op = None
        if op is None:
            word += line[i]
            i += 1
            continue
        if word:
            out.append(("T", word))
            word = ""
        out.append(("OP", op))
        i += len(op)
    if word:
        out.append(("T", word))
    return out


class _Reader:
    def __init__(self, tokens: list) -> None:
        self.tokens, self.at = tokens, 0

    def take(self, kind: str, text: str | None = None) -> str:
        got_kind, got = self.tokens[self.at]
        assert got_kind == kind and (text is None or got == text), (self.tokens, self.at)
        self.at += 1
        return got

    def next_is(self, text: str) -> bool:
        return self.at < len(self.tokens) and self.tokens[self.at] == ("OP", text)

    def rule(self) -> tuple:
        """(literals, exceptions); a literal is (feature, relation, value text)."""
        literals = []
        if self.tokens[self.at] == ("T", "true"):
            self.at += 1
        else:
            literals = self.item()
            while self.next_is(" and "):
                self.at += 1
                literals += self.item()
        exceptions = []
        if self.next_is(" unless ("):
            self.at += 1
            exceptions = self.exception()
            while self.next_is(" or "):
                self.at += 1
                exceptions += self.exception()
            self.take("OP", ")")
        return literals, exceptions

    def exception(self) -> list:
        if self.next_is("("):
            self.at += 1
            rule = self.rule()
            self.take("OP", ")")
            return [rule]
        literals, exceptions = self.rule()
        if literals and all(relation == "in" for _, relation, _ in literals):  # a set
            return [([(feature, "==", value)], []) for feature, _, value in literals]
        return [(literals, exceptions)]

    def item(self) -> list:
        feature = self.take("T")
        relation = self.take("OP").strip()
        if relation in ("in {", "not in {"):
            values = [self.take("T")]
            while self.next_is(", "):
                self.at += 1
                values.append(self.take("T"))
            self.take("OP", "}")
            relation = "in" if relation == "in {" else "!="
            return [(feature, relation, value) for value in values]
        return [(feature, relation, self.take("T"))]


def read_printed(text: str) -> tuple:
    """``str(theory)`` read back: ([(label text, [rule, ...]), ...], default label text)."""
    classes = []
    for line in text.splitlines():
        tokens = _tokens(line)
        label = tokens[0][1]
        if tokens[1:] == [("OP", " otherwise")]:
            return classes, label
        if line.endswith(": no rule"):
            classes.append((line.removesuffix(": no rule"), []))
            continue
        reader = _Reader(tokens[2:])
        assert tokens[1] == ("OP", " if ")
        rule = reader.rule()
        assert reader.at == len(reader.tokens), line
        if classes and classes[-1][0] == label:
            classes[-1][1].append(rule)
        else:
            classes.append((label, [rule]))
    raise AssertionError("no default line")


def _printed_holds(literal: tuple, cell) -> bool:
    feature, relation, value = literal
    if unknown(cell):
        return False
    if relation in ("<=", ">"):
        return float(cell) <= float(value) if relation == "<=" else float(cell) > float(value)
    if isinstance(cell, Negated):
        return relation == "!=" and value in cell.values
    return (category(cell) == value) == (relation == "==")


def _printed_fires(rule: tuple, row: dict) -> bool:
    literals, exceptions = rule
    return (all(_printed_holds(lit, row[lit[0]]) for lit in literals)
            and not any(_printed_fires(e, row) for e in exceptions))


def printed_labels(text: str, X: pd.DataFrame) -> list:
    """Each row's label text as the printed rules decide it."""
    classes, default = read_printed(text)
    return [next((label for label, rules in classes
                  if any(_printed_fires(rule, row) for rule in rules)), default)
            for row in rows(X)]
