"""Report details: the table's values as the disagreement rows show them."""
from types import SimpleNamespace

import numpy as np
import pandas as pd

from explain.report_details import table_row, whole_number_columns


def _result(train: pd.DataFrame, test: pd.DataFrame):
    """What the two functions read of a pipeline result: FOLD's raw and test views."""
    return SimpleNamespace(views={"fold": {"train_raw": train, "test": test}})


def test_whole_numbers_are_ints_up_to_where_repr_takes_exponent_form():
    # as labels are (adapters.columns.number_label): beyond 2**53 too, a whole float is
    # exactly its integer
    train = pd.DataFrame({"age": [52.0, np.nan], "huge": [1e308, 2.0],
                          "edge": [2.0**53 + 2, -(2.0**53)], "half": [0.5, 1.0],
                          "last": [9999999999999998.0, 1.0], "e16": [1e16, 1.0],
                          "c": ["a", "b"]})
    test = train.iloc[[0]]
    result = _result(train, test)
    assert whole_number_columns(result) == ["age", "edge", "last"]
    assert table_row(result, 0).iloc[0]["edge"] == 2**53 + 2
    row = table_row(result, 0)
    assert row.iloc[0]["age"] == 52 and type(row.iloc[0]["age"]) is int
    assert str(row.iloc[0]["huge"]) == "1e+308"  # not the 309 digits of int(1e308)
    assert type(row.iloc[0]["half"]) is not int
