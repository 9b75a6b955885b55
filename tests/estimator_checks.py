"""Checks both learners' estimators must pass, written once."""

import warnings

import numpy as np
import pandas as pd


def check_an_array_keeps_categories_that_read_as_numbers(estimator):
    """Fitted on a frame whose text column reads as numbers (``"01"``, ``"1.0"``), the
    estimator given the same rows as an array predicts them alike, with scikit-learn's
    one warning: ``"01"`` is not ``"1.0"``, nor 1."""
    X = pd.DataFrame({"code": ["01", "1.0", "02", "2"] * 8, "w": np.arange(32.0)})
    y = np.where(X["code"].isin(["01", "2"]), "yes", "no")
    clf = estimator.fit(X, y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert (clf.predict(X.to_numpy()) == y).all()
    assert [str(w.message) for w in caught] == [
        f"X does not have valid feature names, but {type(estimator).__name__} was fitted "
        "with feature names"]
