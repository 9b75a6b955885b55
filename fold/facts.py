"""A table's cells as Prolog facts, written two ways from the same texts.

* :func:`write_facts` — one fact per known cell, the data format of the
  program file (see :mod:`fold.program`): ``'row'(Id).``,
  ``'feature'(Id, Value).`` and ``'neg_feature'(Id, Value).``. This is what a
  plain ``swipl`` loads after ``fold.pl``.
* :func:`write_rows` — one fact per row, what :class:`~fold.engine.PrologEngine`
  loads: ``'$row'(Cell1, ..., CellK)`` over the columns the rules use,
  ``CellJ`` being the cell's value — for a categorical column, its number in
  the column's list of categories (:attr:`RowFacts.columns`), which the
  engine replaces by the category as it loads the row — or
  ``neg([V1, ...])`` for a cell known not to be any of ``V1, ...``
  (:class:`~fold.Negated`), ``neg([])`` for an unknown cell. A row's Id is
  its position (from :attr:`RowFacts.first_id`). In the engine, each feature
  predicate is a view of the row fact at hand (``runtime.pl``):
  ``'feature'(Row, V)`` holds for the fact of row ``Id`` exactly when the
  cell-fact file has ``'feature'(Id, V)``.

Both writers take each cell's value from :func:`_column_cells`, which formats
every distinct value once — with :func:`~fold.quoting.quote_atom` (categories)
or :func:`~fold.quoting.format_numbers` (numbers, full precision) — so the two
formats hold the same values by construction. (Categories go to the engine by
number because SWI-Prolog reads a small integer two to three times faster than
a quoted atom.)
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .program import ENCODING, PrologProgram
from .quoting import format_numbers, quote_atom
from .table import NUMERIC, ColumnView, Schema

__all__ = ["RowFacts", "write_facts", "write_rows", "ROW_PREDICATE", "CHUNK_ROWS"]

ROW_PREDICATE = "$row"
"""Functor of the engine's row facts (program predicates never start with ``$``)."""

CHUNK_ROWS = 10_000
"""Rows per Prolog list term in :attr:`RowFacts.text` (bounds the reader's stack)."""

_UNKNOWN = "neg([])"


@dataclass(frozen=True)
class _Cells:
    """One column's cells as Prolog text.

    ``codes[i]`` indexes ``texts`` (the distinct known values, formatted), or
    is −1 when row ``i`` has no known value; ``negated`` maps the quoted
    categories some cells negate to the rows that negate them.
    """

    codes: np.ndarray
    texts: list
    negated: dict


def _column_cells(view: ColumnView, name: str, kind: str) -> _Cells:
    if kind == NUMERIC:
        values = view.numeric(name)
        known = ~np.isnan(values)
        codes = np.full(view.n_rows, -1, dtype=np.int64)
        # Factorize the bit patterns: exact (0.0 and -0.0 stay apart).
        known_codes, uniques = pd.factorize(values[known].view(np.int64))
        codes[known] = known_codes
        return _Cells(codes, format_numbers(uniques.view(np.float64)), {})
    cells = view.categorical(name)
    codes, uniques = cells.factorized()
    negated = {quote_atom(value): cells.negated[value] for value in sorted(cells.negated)}
    return _Cells(codes, [quote_atom(v) for v in uniques], negated)


def _wanted(schema: Schema, features) -> list:
    wanted = set(schema.names if features is None else features)
    return [(name, kind) for name, kind in zip(schema.names, schema.kinds) if name in wanted]


def write_facts(program: PrologProgram, view: ColumnView, schema: Schema,
                features=None, ids=None) -> str:
    """The facts of a table for the program file, one per known cell.

    Rows are numbered 0, 1, ... in table order unless ``ids`` are given;
    facts are grouped by predicate, after an ``encoding(utf8)`` directive.

    Parameters
    ----------
    program : PrologProgram
    view : ColumnView
    schema : Schema
    features : iterable of str, optional
        Columns to write (default: all of the schema).
    ids : sequence of int, optional
        Each row's Id, in table order (default ``0, 1, ...``).

    Returns
    -------
    str
    """
    row = quote_atom(program.row_predicate)
    wrong = ValueError(f"ids must be {view.n_rows} distinct integers, one per row")
    try:  # operator.index: 2.5 is no Id, and not 2
        ids = list(range(view.n_rows)) if ids is None else [operator.index(i) for i in ids]
    except TypeError:
        raise wrong from None
    if len(ids) != view.n_rows or len(set(ids)) != len(ids):
        raise wrong
    parts = [f"{ENCODING}\n"] + [f"{row}({i}).\n" for i in ids]
    for name, kind in _wanted(schema, features):
        cells = _column_cells(view, name, kind)
        pred = quote_atom(program.feature_predicates[name])
        rows = np.flatnonzero(cells.codes >= 0)
        texts = np.asarray(cells.texts, dtype=object)[cells.codes[rows]]
        parts += [f"{pred}({ids[i]}, {text}).\n" for i, text in zip(rows.tolist(), texts.tolist())]
        if cells.negated:
            neg = quote_atom(program.negation_predicates[name])
            for value, mask in cells.negated.items():
                parts += [f"{neg}({ids[i]}, {value}).\n" for i in np.flatnonzero(mask).tolist()]
    return "".join(parts)


@dataclass(frozen=True)
class RowFacts:
    """A table as one ``'$row'`` fact per row, ready for the engine.

    Attributes
    ----------
    text : str
        Prolog text: terms ``[Fact, ...].``, each a list of at most
        :data:`CHUNK_ROWS` ground facts ``'$row'(Cell1, ..., CellK)``, in
        row order.
    n_rows : int
    first_id : int
        Id of the first row; the others follow (``first_id + i``).
    columns : str
        Prolog list saying which predicates each cell position feeds, in cell
        order: ``num(Feature)``, or ``cat(Feature, NegFeature, Categories)``
        where a cell ``K`` (an integer) stands for the ``K``-th of the quoted
        ``Categories``.
    """

    text: str
    n_rows: int
    first_id: int
    columns: str


def write_rows(program: PrologProgram, view: ColumnView, schema: Schema,
               features=None, first_id: int = 0) -> RowFacts:
    """The table as one ground fact per row, for :class:`~fold.engine.PrologEngine`.

    Parameters
    ----------
    program : PrologProgram
    view : ColumnView
    schema : Schema
    features : iterable of str, optional
        Columns to include (default: all of the schema); the engine needs
        only those the rules test.
    first_id : int, default=0
        Id of the first row.

    Returns
    -------
    RowFacts
    """
    n = view.n_rows
    wanted = _wanted(schema, features)
    head = f"{quote_atom(ROW_PREDICATE)}("
    if not wanted:
        cells = np.full((n, 1), head + ")", dtype=object)
    else:
        cells = np.empty((n, len(wanted)), dtype=object)
    specs = []
    for j, (name, kind) in enumerate(wanted):
        column = _column_cells(view, name, kind)
        pred = quote_atom(program.feature_predicates[name])
        if kind == NUMERIC:
            texts = column.texts
            specs.append(f"num({pred})")
        else:
            texts = [str(k) for k in range(1, len(column.texts) + 1)]
            neg = quote_atom(program.negation_predicates[name])
            specs.append(f"cat({pred}, {neg}, [{', '.join(column.texts)}])")
        cells[:, j] = _row_cells(column, texts, head if j == 0 else "",
                                 ")" if j == len(wanted) - 1 else "")
    # Row-major, comma-separated: the cells of each chunk of rows, joined,
    # are exactly the Prolog list of its facts.
    chunks = [f"[{','.join(cells[start:start + CHUNK_ROWS].ravel().tolist())}].\n"
              for start in range(0, n, CHUNK_ROWS)]
    return RowFacts(text="".join(chunks), n_rows=n, first_id=first_id,
                    columns=f"[{', '.join(specs)}]")


def _row_cells(cells: _Cells, values: list, open_: str, close: str) -> np.ndarray:
    """Each row's cell text between ``open_`` and ``close``.

    The cell is ``values[code]`` for a known value, ``neg([...])`` for a
    negated one and ``neg([])`` for an unknown one.
    """
    table = np.asarray([open_ + value + close for value in values]
                       + [open_ + _UNKNOWN + close], dtype=object)
    texts = table[cells.codes]                          # code -1 picks _UNKNOWN
    negations: dict[int, list] = {}                     # a negated cell has code -1
    for value, mask in cells.negated.items():
        for i in np.flatnonzero(mask).tolist():
            negations.setdefault(i, []).append(value)
    for i, values in negations.items():
        texts[i] = f"{open_}neg([{','.join(values)}]){close}"
    return texts
