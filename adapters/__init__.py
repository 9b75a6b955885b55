"""The outside world as the project's types: datasets, the table encoder, black boxes.

>>> from adapters import load_dataset, TableEncoder, train_xgboost
>>> ds = load_dataset("breast_cancer")                  # positive class: malignant
>>> encoder = TableEncoder().fit(ds.X, ds.categorical)
>>> box = train_xgboost(ds.X, ds.y, encoder, ds.categorical)
>>> box.predict_proba_encoded(encoder.transform(ds.X)).shape
(569, 2)
"""
from .blackbox import BlackBox, relabel_classes
from .dataset import Dataset
from .datasets import BUNDLED, from_frame, load_dataset
from .encoding import TableEncoder
from .errors import InputError
from .model_file import dropped_columns_read, load_xgboost, restrict_to_model
from .target import rest_name
from .wrappers import wrap_callable, wrap_sklearn
from .xgboost_box import train_xgboost

__all__ = [
    "BUNDLED",
    "BlackBox",
    "Dataset",
    "InputError",
    "TableEncoder",
    "dropped_columns_read",
    "from_frame",
    "load_dataset",
    "load_xgboost",
    "relabel_classes",
    "rest_name",
    "restrict_to_model",
    "train_xgboost",
    "wrap_callable",
    "wrap_sklearn",
]
