"""The engine's row facts and the program file's cell facts hold the same data."""

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from pyswip import Prolog

from fold import FOLDClassifier, Negated, get_engine, quote_atom
from fold.engine import _spec
from fold.facts import CHUNK_ROWS, write_facts, write_rows
from fold.table import ColumnView
from tests.fold.helpers import tables

NAN = np.nan


def _same_facts(clf, X, directory) -> bool:
    """Load the row facts as the engine does; compare every data-predicate
    solution on the fact of each row, the row named by its Id, with the facts
    of the program file (``==``: -0.0 is not 0.0)."""
    view = ColumnView(X, clf.schema_)
    rows = write_rows(clf.prolog_, view, clf.schema_)
    files = {"program": clf.program_, "rows": rows.text, "spec": _spec(clf.prolog_, rows),
             "facts": write_facts(clf.prolog_, view, clf.schema_)}
    path = {}
    for name, text in files.items():
        path[name] = quote_atom(str(directory / f"{name}.pl"))
        (directory / f"{name}.pl").write_text(text, encoding="utf-8")
    goal = (
        f"read_file_to_string({path['program']}, P, [encoding(utf8)]), "
        f"read_file_to_string({path['rows']}, R, [encoding(utf8)]), "
        f"read_file_to_string({path['spec']}, S, [encoding(utf8)]), "
        "term_string(spec(Row, _, _, Cols), S), "
        "fold_runtime:views(Row, Cols, Views), fold_runtime:data_predicates(Views, Preds), "
        "fold_runtime:row_term(Cols, T), "
        "in_temporary_module(M, fold_runtime:load(M, P, R, Row, Cols, plain), "
        "  findall(G, (call_nth(M:T, N1), Id is N1 - 1, member(N/A, Preds), "
        "              functor(G0, N, A), arg(1, G0, T), M:G0, "
        "              fold_runtime:row_as_id(Id, G0, G)), Gs)), "
        f"read_file_to_terms({path['facts']}, Fs0, [encoding(utf8)]), "
        "exclude(==((:- encoding(utf8))), Fs0, Fs), "
        "msort(Gs, Sorted), msort(Fs, Sorted2), "
        "( Sorted == Sorted2 -> Same = yes ; Same = no )")
    # findall leaves the big intermediate texts unbound: pyswip returns only Same.
    return list(Prolog.query(f"findall(Same, ({goal}), [Answer])"))[0]["Answer"] == "yes"


def test_row_facts_and_cell_facts_agree_on_a_small_table(tmp_path):
    X = pd.DataFrame({"bird": ["yes", "yes", NAN, "yes"],
                      "penguin": [NAN, Negated("yes", "x'y"), Negated("no"), "yes"],
                      "w": [1.0, NAN, -0.0, 1e-05]})
    clf = FOLDClassifier(min_support=1).fit(X, ["fly", "fly", "no", "no"])
    assert _same_facts(clf, X, tmp_path)
    rows = write_rows(clf.prolog_, ColumnView(X, clf.schema_), clf.schema_)
    assert rows.text == (
        "['$row'(1,neg([]),1),'$row'(1,neg(['x\\'y','yes']),neg([])),"
        "'$row'(neg([]),neg(['no']),0),'$row'(1,1,1.0e-05)].\n")  # whole: as words show them
    assert rows.columns == ("[cat('bird', 'neg_bird', ['yes']), "
                            "cat('penguin', 'neg_penguin', ['yes']), num('w')]")


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(tables())
def test_row_facts_and_cell_facts_agree_on_hostile_tables(tmp_path, table):
    X, y = table
    clf = FOLDClassifier(min_support=1).fit(X, y)
    assert _same_facts(clf, X, tmp_path)


def test_rows_come_in_chunks_in_row_order():
    X = pd.DataFrame({"a": np.arange(CHUNK_ROWS + 5, dtype=float)})
    clf = FOLDClassifier().fit(X, X["a"] > 7)
    rows = write_rows(clf.prolog_, ColumnView(X, clf.schema_), clf.schema_, first_id=7)
    chunks = rows.text.splitlines()
    assert len(chunks) == 2 and all(c.startswith("[") and c.endswith("].") for c in chunks)
    assert chunks[0].startswith("['$row'(0),'$row'(1),")
    assert chunks[1].endswith(f"'$row'({CHUNK_ROWS + 4})].")
    assert rows.n_rows == CHUNK_ROWS + 5 and rows.first_id == 7


def test_rows_without_columns_are_empty_facts():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0]})
    clf = FOLDClassifier().fit(X, ["p", "p", "p"])
    rows = write_rows(clf.prolog_, ColumnView(X, clf.schema_), clf.schema_, features=())
    assert rows.text == "['$row'(),'$row'(),'$row'()].\n" and rows.columns == "[]"
    assert get_engine().evaluate(clf.prolog_, rows, timeout=10).decisions.tolist() == [0] * 3
