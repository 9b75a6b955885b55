"""Shared data and models for the adapters tests (trained once per session)."""
import numpy as np
import pandas as pd
import pytest

from adapters import TableEncoder, from_frame, load_dataset, train_xgboost


def mixed_frame(n=600, seed=0):
    """Numeric and string columns with missing values; the label needs both kinds."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    colour = rng.choice(["red", "green", "blue", "grün"], n)
    size = rng.choice(["S", "M", "L"], n)
    w = rng.uniform(0, 10, n)
    label = np.where((x > 0) ^ np.isin(colour, ["green", "grün"]), "yes", "no")
    df = pd.DataFrame({"x": x, "colour": colour, "size": size, "w": w.round(2).astype(str),
                       "label": label})
    df.loc[rng.choice(n, 30, replace=False), "x"] = np.nan
    df.loc[rng.choice(n, 30, replace=False), "colour"] = None
    return df


@pytest.fixture(scope="session")
def mixed():
    ds = from_frame(mixed_frame(), "label", positive="yes", name="mixed")
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    return ds, encoder, train_xgboost(ds.X, ds.y, encoder, ds.categorical)


@pytest.fixture(scope="session")
def cancer():
    ds = load_dataset("breast_cancer")
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    return ds, encoder, train_xgboost(ds.X, ds.y, encoder, ds.categorical)


@pytest.fixture(scope="session")
def iris():
    ds = load_dataset("iris")
    encoder = TableEncoder().fit(ds.X, ds.categorical)
    return ds, encoder, train_xgboost(ds.X, ds.y, encoder, ds.categorical)
