"""Peer surrogates that the benchmarks run beside IMLI and FOLD, on the same rows and labels.

Every peer learns the black box's labels of the training fold from the raw training rows (no
LIME), and is scored on the same test rows as our learners:

==========  ===========================================  ==================================
name        model                                        rules / literals
==========  ===========================================  ==================================
foldrpp     FOLD-R++ (PyPI ``foldrpp``, ratio 0.5)       clauses of its flattened program
                                                         (defaults and ``ab`` exceptions) /
                                                         their feature tests (the ``not ab``
                                                         calls are not literals)
ripper      RIPPER (PyPI ``wittgenstein``, k=2)          rules of the ruleset / conditions;
                                                         a bounded bin ``a < x <= b`` counts
                                                         as two, an open bin as one
tree3       ``DecisionTreeClassifier(max_depth=3)``      leaves predicting the positive
tree5       ``DecisionTreeClassifier(max_depth=5)``      class / their path conditions, with
                                                         looser thresholds on the same
                                                         feature and direction dropped
==========  ===========================================  ==================================

The counting matches ours: IMLI counts each threshold or category test of its rule once;
FOLD counts default and exception clauses as rules and their feature tests as literals
(``fold.rules``: ``n_rules``, ``n_literals``), not the calls linking a rule to its exceptions.

The rule learners' semantics for an unknown value (a condition on it fails) are those of our
LIME-filtered views, so FOLD-R++ and RIPPER are also scored on the LIME-filtered test rows. A
tree routes an unknown value to a child whatever its test says, so that score is left out.

``foldrpp`` and ``wittgenstein`` are the ``bench`` extra; they are imported when a peer is
fitted, and a missing one raises an ImportError naming the extra.
"""
from __future__ import annotations

import contextlib
import copy
import importlib
import time
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

from explain.pipeline import prediction_scores

__all__ = ["PEERS", "PEER_LABELS", "BENCH_EXTRA", "FoldRppPeer", "RipperPeer", "TreePeer",
           "make_peer", "evaluate_peer"]

BENCH_EXTRA = "pip install 'surrogate-rules[bench]'"


def _bench_import(module: str, distribution: str):
    """Import a peer's package, or say which extra provides it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"the {distribution} peer is not installed: {BENCH_EXTRA}") from exc


# ---------------------------------------------------------------------------- FOLD-R++

class FoldRppPeer:
    """FOLD-R++ (Wang & Gupta 2022) through the ``foldrpp`` package.

    The package reads rows as dicts: numeric values as ``float``, categorical values as
    ``str``; an unknown value is a missing key (so every test on it fails). Attribute names
    are lower-cased with spaces as ``_`` by the package; names that collide that way are
    prefixed with their column index.

    Parameters
    ----------
    ratio : float, default=0.5
        FOLD-R++'s exception ratio (the package's and the paper's default).

    Attributes
    ----------
    n_rules_, rule_size_ : int
        Clauses of the flattened program (defaults and exceptions) and their feature tests;
        the ``not ab`` calls are not counted, as in our FOLD.
    rules_text_ : str
        The program as ``foldrpp`` prints it (thresholds rounded to 3 digits by foldrpp).
    """

    name = "foldrpp"
    unknown_aware = True

    def __init__(self, ratio: float = 0.5):
        self.ratio = ratio

    def fit(self, X: pd.DataFrame, y: np.ndarray, categorical=()) -> FoldRppPeer:
        foldrpp = _bench_import("foldrpp", "foldrpp")
        categorical = set(categorical)
        keys = [str(c).lower().replace(" ", "_") for c in X.columns]
        if len(set(keys)) < len(keys):
            keys = [f"c{i}_{k}" for i, k in enumerate(keys)]
        self.keys_ = dict(zip(X.columns, keys))
        self.categorical_ = [c for c in X.columns if c in categorical]
        str_attrs = [self.keys_[c] for c in self.categorical_]
        num_attrs = [self.keys_[c] for c in X.columns if c not in categorical]
        model = foldrpp.Foldrpp(str_attrs, num_attrs, "label", "1")
        model.fit(self._rows(X, y), ratio=self.ratio)
        self.model_ = model
        # flatten_rules edits the rules it is given (atom exceptions move into the bodies);
        # work on a copy so that prediction uses the rules exactly as learned.
        flat = foldrpp.flatten_rules(copy.deepcopy(model.rules), model.rule_head)
        self.n_rules_ = len(flat)
        self.rule_size_ = sum(len(set(map(tuple, main))) for _, main, _ in flat)
        self.rules_text_ = "\n".join(foldrpp.decode_rules(flat))
        return self

    def _rows(self, X: pd.DataFrame, y=None) -> list[dict]:
        rows = []
        cat = set(self.categorical_)
        columns = list(X.columns)
        for i, values in enumerate(X.itertuples(index=False, name=None)):
            row = {}
            for col, value in zip(columns, values):
                if pd.isna(value):
                    continue
                row[self.keys_[col]] = str(value) if col in cat else float(value)
            if y is not None:
                row["label"] = int(y[i])
            rows.append(row)
        return rows

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        return np.asarray(self.model_.predict(self._rows(X)), dtype=np.int64)


# ------------------------------------------------------------------------------ RIPPER

class RipperPeer:
    """RIPPER (Cohen 1995) through ``wittgenstein``, positive class 1.

    wittgenstein bins each numeric feature into (at most) 10 quantile bins and learns
    conditions ``feature = bin``; an unknown value falls in no bin.

    Parameters
    ----------
    k : int, default=2
        Optimization passes (RIPPER-k).
    random_state : int, default=0

    Attributes
    ----------
    n_rules_, rule_size_ : int
        Rules and conditions, a bounded bin counting as two literals.
    rules_text_ : str
    """

    name = "ripper"
    unknown_aware = True

    def __init__(self, k: int = 2, random_state: int = 0):
        self.k = k
        self.random_state = random_state

    def fit(self, X: pd.DataFrame, y: np.ndarray, categorical=()) -> RipperPeer:
        wittgenstein = _bench_import("wittgenstein", "wittgenstein")
        model = wittgenstein.RIPPER(k=self.k, random_state=self.random_state)
        with _quiet_pandas():
            model.fit(X.reset_index(drop=True), np.asarray(y, dtype=np.int64), pos_class=1)
        self.model_ = model
        bins = model.bin_transformer_.bins_ or {}
        rules = model.ruleset_.rules
        self.n_rules_ = len(rules)
        self.rule_size_ = sum(_ripper_literals(cond, bins) for rule in rules for cond in rule.conds)
        self.rules_text_ = "\n".join(" AND ".join(str(c) for c in rule.conds) for rule in rules)
        return self

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        with _quiet_pandas():
            predicted = self.model_.predict(X.reset_index(drop=True))
        return np.asarray(predicted, dtype=np.int64)


@contextlib.contextmanager
def _quiet_pandas():
    """Silence pandas 3's notice about wittgenstein's ``select_dtypes(include="object")``."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="For backward compatibility, 'str' dtypes")
        yield


def _ripper_literals(cond, bins: dict) -> int:
    """1 for a category or an open bin (``<b``, ``>a``), 2 for a bounded bin ``a - b``."""
    if cond.feature not in bins:
        return 1
    value = str(cond.val)
    return 1 if value.startswith(("<", ">")) else 2


# ------------------------------------------------------------------------ decision tree

@dataclass(frozen=True)
class _Column:
    """One input column of the tree: a numeric feature, or ``feature == category``."""

    feature: str
    category: str | None = None


class TreePeer:
    """A depth-limited CART tree (scikit-learn) as a rule surrogate.

    Categorical features are one-hot encoded with the training fold's categories (an unknown
    or unseen category sets none of them); numeric NaN is handled by scikit-learn's native
    missing-value support.

    Parameters
    ----------
    max_depth : int
    random_state : int, default=0

    Attributes
    ----------
    n_rules_ : int
        Leaves predicting class 1.
    rule_size_ : int
        Their path conditions after dropping implied ones (a looser threshold in the same
        direction on the same feature; ``c != v`` under ``c == w``).
    rules_text_ : str
    """

    unknown_aware = False

    def __init__(self, max_depth: int, random_state: int = 0):
        self.max_depth = max_depth
        self.random_state = random_state

    @property
    def name(self) -> str:
        return f"tree{self.max_depth}"

    def fit(self, X: pd.DataFrame, y: np.ndarray, categorical=()) -> TreePeer:
        categorical = set(categorical)
        columns = []
        for col in X.columns:
            if col in categorical:
                values = sorted({str(v) for v in X[col] if not pd.isna(v)})
                columns.extend(_Column(col, v) for v in values)
            else:
                columns.append(_Column(col))
        self.columns_ = columns
        tree = DecisionTreeClassifier(max_depth=self.max_depth, random_state=self.random_state)
        tree.fit(self._matrix(X), np.asarray(y, dtype=np.int64))
        self.tree_model_ = tree
        paths = _positive_paths(tree, columns)
        self.n_rules_ = len(paths)
        self.rule_size_ = sum(len(p) for p in paths)
        self.rules_text_ = "\n".join(
            " AND ".join(_describe(lit) for lit in path) or "TRUE" for path in paths)
        return self

    def _matrix(self, X: pd.DataFrame) -> np.ndarray:
        out = np.empty((len(X), len(self.columns_)), dtype=np.float64)
        for j, column in enumerate(self.columns_):
            values = X[column.feature]
            if column.category is None:
                out[:, j] = pd.to_numeric(values).to_numpy(dtype=np.float64, na_value=np.nan)
            else:
                out[:, j] = [0.0 if pd.isna(v) else float(str(v) == column.category)
                             for v in values]
        return out

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        return self.tree_model_.predict(self._matrix(X)).astype(np.int64)


def _positive_paths(tree: DecisionTreeClassifier, columns: list[_Column]) -> list[list[tuple]]:
    """Root-to-leaf conditions of every leaf whose prediction is class 1, simplified."""
    t = tree.tree_
    positive = list(tree.classes_).index(1) if 1 in tree.classes_ else None
    paths: list[list[tuple]] = []

    def walk(node: int, path: list[tuple]) -> None:
        left, right = t.children_left[node], t.children_right[node]
        if left == right:  # a leaf
            if positive is not None and int(np.argmax(t.value[node][0])) == positive:
                paths.append(_simplify(path))
            return
        column = columns[t.feature[node]]
        threshold = float(t.threshold[node])
        if column.category is None:
            walk(left, path + [(column.feature, "<=", threshold)])
            walk(right, path + [(column.feature, ">", threshold)])
        else:  # one-hot: <= 0.5 is "not this category"
            walk(left, path + [(column.feature, "!=", column.category)])
            walk(right, path + [(column.feature, "==", column.category)])

    walk(0, [])
    return paths


def _simplify(path: list[tuple]) -> list[tuple]:
    """Drop conditions implied by others on the same feature (order kept)."""
    tightest: dict[tuple, float] = {}
    equal = {f for f, op, _ in path if op == "=="}
    for feature, op, value in path:
        if op == "<=":
            tightest[(feature, op)] = min(value, tightest.get((feature, op), np.inf))
        elif op == ">":
            tightest[(feature, op)] = max(value, tightest.get((feature, op), -np.inf))
    kept, seen = [], set()
    for feature, op, value in path:
        if op in ("<=", ">"):
            if value != tightest[(feature, op)] or (feature, op) in seen:
                continue
            seen.add((feature, op))
        elif op == "!=" and feature in equal:
            continue
        kept.append((feature, op, value))
    return kept


def _describe(literal: tuple) -> str:
    feature, op, value = literal
    return f"{feature} {op} {value!r}" if isinstance(value, float) else f"{feature} {op} {value}"


# ------------------------------------------------------------------------ registry

PEERS = ("foldrpp", "ripper", "tree3", "tree5")
PEER_LABELS = {"foldrpp": "FOLD-R++", "ripper": "RIPPER", "tree3": "tree (depth 3)",
               "tree5": "tree (depth 5)"}


def make_peer(name: str, random_state: int = 0):
    """A fresh, unfitted peer by name (one of :data:`PEERS`)."""
    if name == "foldrpp":
        return FoldRppPeer()
    if name == "ripper":
        return RipperPeer(random_state=random_state)
    if name in ("tree3", "tree5"):
        return TreePeer(max_depth=int(name[-1]), random_state=random_state)
    raise ValueError(f"unknown peer {name!r}; choose from {', '.join(PEERS)}")


def evaluate_peer(peer, X_train: pd.DataFrame, bb_train, X_test: pd.DataFrame, bb_test,
                  y_test, categorical=(), X_test_lime: pd.DataFrame | None = None) -> dict:
    """Fit ``peer`` on the black box's training labels and score it like our learners.

    Parameters
    ----------
    peer : FoldRppPeer, RipperPeer or TreePeer
    X_train, X_test : pandas.DataFrame
        Raw rows (NaN = unknown).
    bb_train, bb_test : array-like of 0/1
        The black box's labels.
    y_test : array-like of 0/1
        Ground truth of the test rows.
    categorical : sequence of str
    X_test_lime : pandas.DataFrame, optional
        The LIME-filtered test rows (FOLD's view); scored only for peers whose tests fail on
        unknown values.

    Returns
    -------
    dict
        The scores of the pipeline's learner report
        (:func:`explain.pipeline.prediction_scores`: ``fidelity_test`` and its interval
        ``fidelity_test_ci``, ``fidelity_test_lime`` and its interval or neither,
        ``fidelity_train``, ``accuracy_test``, ``precision_test``, ``recall_test``,
        ``f1_test``), ``rule_size``, ``n_rules``, ``fit_seconds``, ``rules``, and
        ``test_predictions`` (the peer's labels of ``X_test``).
    """
    started = time.perf_counter()
    peer.fit(X_train, np.asarray(bb_train), categorical)
    fit_seconds = time.perf_counter() - started
    predicted = {"test": np.asarray(peer.predict(X_test)),
                 "train_raw": np.asarray(peer.predict(X_train))}
    if X_test_lime is not None and peer.unknown_aware:
        predicted["test_lime"] = np.asarray(peer.predict(X_test_lime))
    entry = prediction_scores(predicted, np.asarray(bb_train), np.asarray(bb_test),
                              np.asarray(y_test))
    entry.update({"rule_size": int(peer.rule_size_), "n_rules": int(peer.n_rules_),
                  "fit_seconds": fit_seconds, "rules": peer.rules_text_,
                  "test_predictions": predicted["test"]})
    return entry
