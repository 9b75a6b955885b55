"""Writing a learned :class:`~fold.rules.Theory` as an SWI-Prolog program.

The program is plain Prolog (no module header, no project code needed) and
exactly the learned model. Its data are facts, one per known cell:

* ``'row'(Id).`` for every row (``Id`` = 0, 1, ... in table order);
* ``'feature'(Id, Value).`` for every known cell — numbers for numeric
  columns (at full precision, a whole number below 1e16 as an integer:
  :func:`~fold.quoting.number_text`), quoted atoms for categories; an
  unknown cell has no fact;
* ``'neg_feature'(Id, Value).`` for a :class:`~fold.Negated` cell: classical
  negation, a separate predicate, never negation as failure.

Every name and value is written by :func:`~fold.quoting.quote_atom` or
:func:`~fold.quoting.format_number` (facts: :func:`fold.facts.write_facts`).
Both files start with ``:- encoding(utf8).``: plain ``swipl`` otherwise reads
a file in the locale's encoding, and under ``LANG=C`` would read ``'é'`` and
``'è'`` as one atom. The query is ``'label'(Id, Class)``. ``row/1`` and ``label/2`` are named
first, so they keep their names; any other predicate name that would clash
(with them, with each other, with SWI-Prolog's built-ins or with the hooks of
module ``user``, such as ``portray/1``) gets a ``_1``, ``_2``... suffix. The
mapping is kept in :class:`PrologProgram`, and the program's header names the
predicates of every column whose predicates were renamed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import FoldInputError
from .quoting import format_number, format_term, quote_atom
from .rules import Literal, Rule, Theory
from .table import NUMERIC, Schema

__all__ = ["PrologProgram", "write_program", "ENCODING"]

#: First line of the program and facts files: their text is UTF-8 whatever the locale.
ENCODING = ":- encoding(utf8)."

# Functors that mean something to the clause reader or loader whatever their arity
# ('.'/2 is a dict call in a body, '=>'/2 a single-sided-unification clause, '/'/2 and
# '//'/2 cannot be declared dynamic); every other operator of SWI-Prolog 9 was tried.
_SPECIAL = frozenset({
    ":-", "-->", "?-", "=>", ":", ",", ";", "->", "*->", "|", "\\+", "{}", "[]",
    ".", "/", "//",
    "dynamic", "discontiguous", "multifile", "module", "table", "initialization",
})


@dataclass(frozen=True)
class PrologProgram:
    """A program's source text and the predicate names it uses.

    Parameters
    ----------
    text : str
        The SWI-Prolog source.
    row_predicate : str
        Name of ``row/1`` (unquoted): ``row`` unless the engine reserves it.
    label_predicate : str
        Name of ``label/2`` (unquoted): ``label`` unless the engine reserves it.
    class_predicates : tuple of str
        The class predicates, in decision order.
    label_terms : tuple of str
        Prolog text of each label (decision order, default last).
    feature_predicates : dict
        Feature name -> predicate name of its facts.
    negation_predicates : dict
        Feature name -> predicate name of its classical negations.
    """

    text: str
    row_predicate: str
    label_predicate: str
    class_predicates: tuple
    label_terms: tuple
    feature_predicates: dict
    negation_predicates: dict



class _Names:
    """Allocate predicate names: distinct, and never a reserved one."""

    def __init__(self, reserved: frozenset) -> None:
        self.reserved = reserved
        self.used: set = set()

    def take(self, base: str, arity: int) -> str:
        if base in _SPECIAL or base.startswith("$"):
            base = f"p_{base}"
        name, i = base, 0
        while ((name, arity) in self.used or (name, arity) in self.reserved
               or name in _SPECIAL or name.startswith("$")):
            i += 1
            name = f"{base}_{i}"
        self.used.add((name, arity))
        return name


def _class_base(label: object) -> str:
    return label if isinstance(label, str) and label else f"class_{label}"


class _Writer:
    def __init__(self, schema: Schema, names: _Names) -> None:
        self.names = names
        self.row = names.take("row", 1)
        self.label = names.take("label", 2)
        self.features = {f: names.take(f, 2) for f in schema.names}
        self.negations = {f: names.take(f"neg_{f}", 2)
                          for f, kind in zip(schema.names, schema.kinds) if kind != NUMERIC}
        self.kinds = dict(zip(schema.names, schema.kinds))
        self.clauses: dict[str, list[str]] = {}
        self.n_ab = 0

    def literal(self, lit: Literal, var: str) -> str:
        kind = self.kinds.get(lit.feature)
        if kind is None:
            raise FoldInputError(f"literal {lit} tests {lit.feature!r}, which is not a column "
                                 "of the schema")
        if (kind == NUMERIC) != (lit.kind == NUMERIC):
            # Python would read the column the literal's way; the program could not
            raise FoldInputError(f"literal {lit} is a {lit.kind} test of the {kind} column "
                                 f"{lit.feature!r}")
        pred = quote_atom(self.features[lit.feature])
        if lit.relation in ("<=", ">"):
            op = "=<" if lit.relation == "<=" else ">"
            return f"{pred}(X, {var}), number({var}), {var} {op} {format_number(lit.value)}"
        value = quote_atom(lit.value)
        if lit.relation == "==":
            return f"{pred}(X, {value})"
        neg = quote_atom(self.negations[lit.feature])
        return f"( {pred}(X, {var}), {var} \\== {value} ; {neg}(X, {value}) )"

    def rule(self, head: str, rule: Rule) -> None:
        goals = [self.literal(lit, f"V{i}") for i, lit in enumerate(rule.literals, 1)]
        if not goals:
            goals = [f"{quote_atom(self.row)}(X)"]
        if rule.exceptions:
            ab = self.names.take(f"ab{self.n_ab}", 1)
            self.n_ab += 1
            self.clauses.setdefault(ab, [])
            goals.append(f"\\+ {quote_atom(ab)}(X)")
            for exception in rule.exceptions:
                self.rule(ab, exception)
        body = ",\n    ".join(goals)
        self.clauses.setdefault(head, []).append(f"{quote_atom(head)}(X) :-\n    {body}.")


def _renamed_columns(schema: Schema, writer: _Writer) -> list:
    """Header lines naming the predicates of each column that were renamed."""
    lines = []
    for feature in schema.names:
        preds = [(writer.features[feature], feature)]
        if feature in writer.negations:
            preds.append((writer.negations[feature], f"neg_{feature}"))
        if any(pred != wanted for pred, wanted in preds):
            facts = ", ".join(f"{quote_atom(pred)}(Id, Value)" for pred, _ in preds)
            lines.append(f"% Column {quote_atom(feature)}: {facts}.")
    if lines:
        lines.insert(0, "% Columns whose predicates are renamed to avoid a clash:")
    return lines


#: Most classes a program may decide between (SWI-Prolog 9's reader overflows its C stack
#: on the nested if-then-else of about 50,000, and crashes the embedding process).
MAX_CLASSES = 10_000


def check_classes(n: int) -> None:
    """Refuse ``n`` classes when a program cannot decide between that many."""
    if n > MAX_CLASSES:
        raise FoldInputError(f"y has {n} classes; FOLD learns at most {MAX_CLASSES:,} (its "
                             "program decides between them in one if-then-else, which "
                             "SWI-Prolog cannot read near 50,000)")


def write_program(theory: Theory, schema: Schema, reserved: frozenset) -> PrologProgram:
    """Write ``theory`` as SWI-Prolog source.

    Parameters
    ----------
    theory : Theory
    schema : Schema
        The columns the theory was learned on (all are declared dynamic).
    reserved : frozenset of (str, int)
        Predicate indicators that must not be defined (SWI-Prolog built-ins
        and hooks, :meth:`~fold.engine.PrologEngine.reserved_predicates`).

    Returns
    -------
    PrologProgram
    """
    check_classes(len(theory.labels))
    names = _Names(reserved)
    writer = _Writer(schema, names)
    class_preds = []
    for class_rules in theory.classes:
        pred = names.take(_class_base(class_rules.label), 1)
        class_preds.append(pred)
        writer.clauses.setdefault(pred, [])
        for rule in class_rules.rules:
            writer.rule(pred, rule)
    label_terms = tuple(format_term(label) for label in theory.labels)

    row, label = quote_atom(writer.row), quote_atom(writer.label)
    lines = [
        ENCODING,
        "% Learned by fold.FOLDClassifier: default rules with exceptions (FOLD).",
        f"% Facts: {row}(Id) for every row; Feature(Id, Value) for every known",
        "% cell (unknown cells have none); neg_Feature(Id, Value) when the value",
        "% is known not to be Value (classical negation).",
        *_renamed_columns(schema, writer),
        f"% Query: {label}(Id, Class). Classes: {', '.join(label_terms)}.",
        "",
        f":- dynamic({row}/1).",
    ]
    for feature in schema.names:
        lines.append(f":- dynamic({quote_atom(writer.features[feature])}/2).")
        if feature in writer.negations:
            lines.append(f":- dynamic({quote_atom(writer.negations[feature])}/2).")
    for pred in class_preds:
        lines.append(f":- dynamic({quote_atom(pred)}/1).")
    lines.append("")
    for pred, clauses in writer.clauses.items():
        lines.extend(clauses)
        lines.append("")
    branches = [f"{quote_atom(p)}(X) -> Label = {t}" for p, t in zip(class_preds, label_terms)]
    branches.append(f"Label = {label_terms[-1]}")
    lines.append(f"{label}(X, Label) :-")
    lines.append(f"    {row}(X),")
    lines.append("    (   " + "\n    ;   ".join(branches) + "\n    ).")
    return PrologProgram(
        text="\n".join(lines) + "\n",
        row_predicate=writer.row,
        label_predicate=writer.label,
        class_predicates=tuple(class_preds),
        label_terms=label_terms,
        feature_predicates=dict(writer.features),
        negation_predicates=dict(writer.negations),
    )

