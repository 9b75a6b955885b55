import numpy as np
import pandas as pd

from explain.transform import binary_columns, binary_view, selection_mask, table_view


def _table():
    return pd.DataFrame(
        {
            "x": [0.5, 1.5, 2.5, np.nan],
            "c": np.array(["a", "b", np.nan, "a"], dtype=object),
        }
    )


def test_columns_keep_exact_thresholds_and_unique_names():
    cols = binary_columns(["x"], {}, {"x": np.array([1.00001, 1.00002, 3.0])})
    names = [c.name for c in cols]
    assert len(set(names)) == len(names) == 6
    assert [c.value for c in cols if c.relation == "<="] == [1.00001, 1.00002, 3.0]
    assert {c.relation for c in cols} == {"<=", ">"}


def test_names_that_read_as_tests_are_quoted_and_stay_distinct():
    # column "a == b" with category "c" and column "a" with category "b == c"
    cols = binary_columns(["a == b", "a"], {"a == b": ["c"], "a": ["b == c"]}, {})
    assert [c.name for c in cols] == ["'a == b' == c", "a == 'b == c'"]
    X = pd.DataFrame({"a == b": ["c", "d"], "a": ["e", "b == c"]})
    assert binary_view(X, cols).to_numpy().tolist() == [[True, False], [False, True]]


def test_edges_move_into_the_gaps_of_the_training_values():
    edges = {"x": np.array([0.30000001192092896, 1000.0150000000001, 2.0, 2000.0])}
    values = {"x": np.array([0.1, 0.5, 1000.01, 1000.02, 2.0, 3.0, np.nan])}
    cols = binary_columns(["x"], {}, edges, values)
    assert [c.value for c in cols if c.relation == "<="] == [0.3, 2.5, 1000.015, 2000.0]
    assert [c.name for c in cols if c.relation == ">"] == [
        "x > 0.3", "x > 2.5", "x > 1000.015", "x > 2000.0"]   # beyond the largest: kept


def test_binary_view_sets_only_selected_features():
    X = _table()
    cols = binary_columns(["x", "c"], {"c": ["a", "b"]}, {"x": np.array([1.0, 2.0])})
    selected = selection_mask(np.array([[0, -1], [1, -1], [0, 1], [0, 1]]), 2)
    view = binary_view(X, cols, selected)
    assert view.shape == (4, 6)
    # row 0: only x selected, x = 0.5
    assert view.iloc[0].to_dict() == {
        "x <= 1.0": True, "x <= 2.0": True, "x > 1.0": False, "x > 2.0": False,
        "c == a": False, "c == b": False,
    }
    # row 1: only c selected
    assert view.iloc[1]["c == b"] and not view.iloc[1][["x <= 1.0", "x <= 2.0", "x > 1.0", "x > 2.0"]].any()
    # row 2: c missing -> no c column set even though selected; x = 2.5
    assert view.iloc[2][["x > 1.0", "x > 2.0"]].all() and not view.iloc[2][["c == a", "c == b"]].any()
    # row 3: x missing -> unknown everywhere
    assert not view.iloc[3][["x <= 1.0", "x <= 2.0", "x > 1.0", "x > 2.0"]].any()
    assert view.iloc[3]["c == a"]


def test_raw_view_uses_every_feature():
    X = _table()
    cols = binary_columns(["x", "c"], {"c": ["a", "b"]}, {"x": np.array([1.0])})
    view = binary_view(X, cols)
    assert view["x > 1.0"].tolist() == [False, True, True, False]
    assert view["c == a"].tolist() == [True, False, False, True]


def test_table_view_masks_unselected_cells():
    X = _table()
    selected = np.array([[True, False], [False, True], [True, True], [False, False]])
    out = table_view(X, selected)
    assert out["x"].iloc[0] == 0.5 and out["x"].iloc[2] == 2.5
    assert np.isnan(out["x"].iloc[1]) and np.isnan(out["x"].iloc[3])
    assert out["c"].iloc[1] == "b"
    assert pd.isna(out["c"].iloc[0]) and pd.isna(out["c"].iloc[3])
    assert out.dtypes["c"] == object


def test_selection_mask_ignores_padding():
    mask = selection_mask(np.array([[2, 0, -1]]), 4)
    assert mask.tolist() == [[True, False, True, False]]
