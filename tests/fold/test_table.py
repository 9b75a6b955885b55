"""Reading categorical cells: numbers by value; the per-distinct-value reading equals
the cell-by-cell one, its factorization included."""

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from fold import Negated
from fold.table import _read_cells, _read_distinct, category, read_categorical

CELLS = st.one_of(
    st.sampled_from(["a", "b", "x'y", "", "1", "True", "ünï", "a\x00", "caf\u00e9",
                     "cafe\u0301"]),
    st.sampled_from(["a", "b", "1", "caf\u00e9", "cafe\u0301"]).map(Negated),
    st.tuples(st.sampled_from(["a", "1"]), st.sampled_from(["b", "True"])).map(
        lambda t: Negated(*t)),
    st.sampled_from([None, np.nan, pd.NA]),
    st.sampled_from([1, True, 1.0, 0, False, np.int64(2)]),
)


def _same(found, expected):
    assert list(found.known) == list(expected.known)
    assert found.negated.keys() == expected.negated.keys()
    for value, mask in expected.negated.items():
        assert np.array_equal(found.negated[value], mask), value
    # the fast reading's factorization (kept from its own) is pandas' of the known cells
    codes, uniques = found.factorized()
    fresh_codes, fresh_uniques = pd.factorize(expected.known, use_na_sentinel=True)
    assert codes.tolist() == fresh_codes.tolist()
    assert list(uniques) == list(fresh_uniques)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(CELLS, max_size=30))
def test_reading_equals_cell_by_cell(cells):
    series = pd.Series(cells, dtype=object)
    expected = _read_cells(series, series.to_numpy(dtype=object),
                           np.asarray(pd.isna(series.to_numpy(dtype=object)), dtype=bool))
    _same(read_categorical(series), expected)


def test_numbers_are_categories_by_value_and_booleans_stay_apart():
    # 1 == True == 1.0 in Python: 1 and 1.0 are the category "1", True is "True"
    series = pd.Series(["a", 1, True, 1.0, np.int64(1), 2.5, "1.0", None], dtype=object)
    cells = series.to_numpy(dtype=object)
    assert _read_distinct(cells, np.asarray(pd.isna(cells))) is None  # read cell by cell
    assert list(read_categorical(series).known) == [
        "a", "1", "True", "1", "1", "2.5", "1.0", None]
    assert Negated(1.0, np.float32(2.0), False).values == {"1", "2", "False"}
    assert category(10**20) == "100000000000000000000" and category(-0.0) == "0"


def test_negations_and_unknowns():
    series = pd.Series(["a", Negated("a", "b"), np.nan, Negated("b"), "b"], dtype=object)
    cells = series.to_numpy(dtype=object)
    assert _read_distinct(cells, np.asarray(pd.isna(cells))) is not None  # the fast reading
    read = read_categorical(series)
    assert list(read.known) == ["a", None, None, None, "b"]
    assert read.negated["a"].tolist() == [False, True, False, False, False]
    assert read.negated["b"].tolist() == [False, True, False, True, False]
    assert not read.negated_mask("z").any()


def test_integers_that_float64_merges_are_warned_of():
    # 400 ids above 2**62 became one number: a separable column gave a program with no
    # condition, silently
    import warnings

    import pytest

    from fold.table import read_numeric

    big = pd.Series(np.array([2**62 + k for k in range(400)], dtype=np.int64))
    with pytest.warns(UserWarning, match=r"column 'b' holds integers beyond 2\*\*53 .* "
                                         r"\(400 distinct values become 1\)"):
        read_numeric(big, "b")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_numeric(pd.Series(np.array([2**53 - k for k in range(400)], dtype=np.int64)), "b")
        read_numeric(pd.Series([2.0**62, 2.0**62 + 2**12]), "b")  # floats: as given


def test_cells_that_do_not_hash_are_read_as_their_text():
    series = pd.Series([[1], [2], None, [1]], dtype=object)
    cells = read_categorical(series)
    assert list(cells.known) == ["[1]", "[2]", None, "[1]"] and cells.negated == {}


def test_text_is_read_in_its_composed_form():
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    for cells in ([nfd, "a", nfc, Negated(nfd)], [nfd, 1, nfc, Negated(nfd)]):
        found = read_categorical(pd.Series(cells, dtype=object))
        codes, uniques = found.factorized()
        assert found.known[0] == found.known[2] == nfc and found.negated.keys() == {nfc}
        assert codes[0] == codes[2] and nfd not in list(uniques)
    assert category(nfd) == nfc and Negated(nfd) == Negated(nfc)
