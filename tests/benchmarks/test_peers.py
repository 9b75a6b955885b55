"""Peer surrogates: the real libraries on a small scikit-learn table, and the literal counts.

FOLD-R++ and RIPPER come from the ``bench`` extra; CI installs only ``.[dev]``, so their
tests skip when the package is missing (and only then).
"""
import sys
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer

from benchmarks.peers import (BENCH_EXTRA, PEERS, FoldRppPeer, TreePeer, _ripper_literals,
                              _simplify, evaluate_peer, make_peer)
from explain.metrics import agreement_interval

SKIP_REASON = ("{} is in the bench extra, which CI does not install (only .[dev]); "
               "pip install 'surrogate-rules[bench]' to run this test")
NEEDS = {"foldrpp": "foldrpp", "ripper": "wittgenstein"}


def _needs(peer: str) -> None:
    module = NEEDS.get(peer)
    if module:
        pytest.importorskip(module, reason=SKIP_REASON.format(module))


@pytest.fixture(scope="module")
def table():
    """Breast cancer (200 train / 120 test rows) with NaN and a categorical column."""
    bunch = load_breast_cancer(as_frame=True)
    X = bunch.data.iloc[:, :8].copy()
    y = 1 - bunch.target.to_numpy()  # malignant = 1
    X.iloc[::9, 2] = np.nan
    size = pd.Series(np.where(X["mean area"] > 700, "large", "small"), dtype=object)
    size[::13] = np.nan
    X["size"] = size
    X_lime = X.copy()
    X_lime.iloc[:, 3:] = np.nan
    train, test = np.arange(200), np.arange(200, 320)
    return X.iloc[train], y[train], X.iloc[test], y[test], X_lime.iloc[test]


@pytest.mark.parametrize("name", PEERS)
def test_peer_scores_like_our_learners(name, table):
    _needs(name)
    X_train, y_train, X_test, y_test, X_lime = table
    # y_test stands for both the black box's labels and the ground truth here
    entry = evaluate_peer(make_peer(name), X_train, y_train, X_test, y_test, y_test,
                          categorical=["size"], X_test_lime=X_lime)
    for key in ("fidelity_test", "fidelity_train", "accuracy_test", "f1_test"):
        assert 0.0 <= entry[key] <= 1.0
    assert entry["fidelity_test"] == entry["accuracy_test"]
    assert entry["fidelity_test"] > 0.8
    assert entry["n_rules"] >= 1 and entry["rule_size"] >= entry["n_rules"] - 1
    assert entry["fit_seconds"] >= 0 and isinstance(entry["rules"], str)
    assert ("fidelity_test_lime" in entry) == (name in ("foldrpp", "ripper"))
    # the intervals our learners report, from the peer's own labels
    agree = int(np.sum(entry["test_predictions"] == y_test))
    assert entry["fidelity_test_ci"] == agreement_interval(agree, len(y_test))
    assert ("fidelity_test_lime_ci" in entry) == ("fidelity_test_lime" in entry)


def test_a_peers_intervals_are_against_the_black_box_not_the_truth(table):
    X_train, y_train, X_test, y_test, X_lime = table
    truth = 1 - y_test  # a black box that is wrong on every test row
    entry = evaluate_peer(make_peer("tree3"), X_train, y_train, X_test, y_test, truth,
                          categorical=["size"])
    agree = int(np.sum(entry["test_predictions"] == y_test))
    assert entry["fidelity_test_ci"] == agreement_interval(agree, len(y_test))
    assert entry["accuracy_test"] == pytest.approx(1 - entry["fidelity_test"])


@pytest.mark.parametrize("name", PEERS)
def test_peer_is_deterministic_and_predicts_labels(name, table):
    _needs(name)
    X_train, y_train, X_test, _, _ = table
    first = make_peer(name, random_state=3).fit(X_train, y_train, ["size"])
    second = make_peer(name, random_state=3).fit(X_train, y_train, ["size"])
    assert first.rules_text_ == second.rules_text_
    pred = first.predict(X_test)
    assert pred.dtype == np.int64 and set(np.unique(pred)) <= {0, 1}
    np.testing.assert_array_equal(pred, second.predict(X_test))


def test_foldrpp_counts_exception_clauses_and_feature_tests():
    _needs("foldrpp")
    X = pd.DataFrame({"x": np.arange(1.0, 13.0)})
    y = np.array([1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0])
    peer = FoldRppPeer().fit(X, y)
    # label :- x =< 8, not ab1.   ab1 :- x > 3, x =< 5.
    assert peer.rules_text_.splitlines() == [
        "label(X,'1') :- x(X,N1), N1=<8.0, not ab1(X,'True').",
        "ab1(X,'True') :- x(X,N1), N1>3.0, N1=<5.0.",
    ]
    # two clauses; three feature tests (the "not ab1" call is not a literal, as in our FOLD)
    assert (peer.n_rules_, peer.rule_size_) == (2, 3)
    np.testing.assert_array_equal(peer.predict(X), y)


def test_foldrpp_unknown_value_fails_every_test():
    _needs("foldrpp")
    X = pd.DataFrame({"x": np.arange(1.0, 13.0)})
    y = (X["x"] <= 6).to_numpy().astype(int)
    peer = FoldRppPeer().fit(X, y)
    assert peer.predict(pd.DataFrame({"x": [np.nan, 2.0]})).tolist() == [0, 1]


def test_tree_rules_are_positive_leaves_with_their_paths():
    X = pd.DataFrame({"a": [1.0, 2, 3, 4, 5, 6, 7, 8],
                      "c": pd.Series(list("xzyyxzyy"), dtype=object)})
    y = np.array([0, 0, 1, 1, 0, 0, 0, 0])  # a <= 4 and c == y
    peer = TreePeer(max_depth=3).fit(X, y, ["c"])
    assert peer.rules_text_ == "a <= 4.5 AND c == y"
    assert (peer.n_rules_, peer.rule_size_) == (1, 2)
    np.testing.assert_array_equal(peer.predict(X), y)
    # an unseen or unknown category sets no one-hot column
    unseen = pd.DataFrame({"a": [3.0, 3.0], "c": pd.Series(["z", np.nan], dtype=object)})
    assert peer.predict(unseen).tolist() == [0, 0]


def test_simplify_drops_implied_conditions():
    path = [("a", "<=", 5.0), ("c", "!=", "x"), ("a", "<=", 3.0), ("b", ">", 1.0),
            ("b", ">", 2.0), ("c", "==", "y")]
    assert _simplify(path) == [("a", "<=", 3.0), ("b", ">", 2.0), ("c", "==", "y")]


def test_ripper_bounded_bin_counts_two_literals():
    bins = {"f": ["<1.0", "1.0 - 2.0", ">2.0"]}
    cond = lambda feature, val: SimpleNamespace(feature=feature, val=val)  # noqa: E731
    assert _ripper_literals(cond("f", "1.0 - 2.0"), bins) == 2
    assert _ripper_literals(cond("f", "-2.5 - -1.0"), bins) == 2
    assert _ripper_literals(cond("f", "<1.0"), bins) == 1
    assert _ripper_literals(cond("f", ">2.0"), bins) == 1
    assert _ripper_literals(cond("colour", "red"), bins) == 1


@pytest.mark.parametrize("name, module", [("foldrpp", "foldrpp"), ("ripper", "wittgenstein")])
def test_missing_package_names_the_extra(name, module, monkeypatch):
    monkeypatch.setitem(sys.modules, module, None)  # makes the import fail
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0]})
    with pytest.raises(ImportError, match=r"surrogate-rules\[bench\]"):
        make_peer(name).fit(X, np.array([0, 0, 1, 1]))
    assert "surrogate-rules[bench]" in BENCH_EXTRA


def test_unknown_peer_is_refused():
    with pytest.raises(ValueError, match="choose from"):
        make_peer("c45")
