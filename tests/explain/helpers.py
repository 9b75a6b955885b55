"""Shared helpers of the explain tests."""

from __future__ import annotations

from sklearn.compose import make_column_transformer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from adapters import BlackBox, Dataset, TableEncoder, wrap_sklearn


def users_model(dataset: Dataset, classifier) -> BlackBox:
    """A user's scikit-learn model of ``dataset``: its categories one-hot encoded, then
    ``classifier``, fitted on the dataset's labels and wrapped as a black box."""
    model = make_pipeline(
        make_column_transformer((OneHotEncoder(handle_unknown="ignore"),
                                 list(dataset.categorical)), remainder="passthrough"),
        classifier,
    ).fit(dataset.X, dataset.y)
    return wrap_sklearn(model, TableEncoder().fit(dataset.X, dataset.categorical))
