"""LIME's one-hot view of categories (the LIME-FOLD paper's propositionalized columns):
the extra features, the classical negations they give, and how both learners read them."""
import numpy as np
import pandas as pd
import pytest

from adapters import InputError, from_frame
from explain.learners import fit_learner
from explain.lime_runner import LimeConfig, explain_rows, make_explainer
from explain.lime_sampling import SamplingTables, one_hot_negations, sample_neighbourhoods
from explain.pipeline import RunConfig, run_pipeline
from explain.report_details import add_details
from explain.transform import (BinaryColumn, Negations, binary_view, negation_mask,
                               selection_mask, table_view)
from fold import Negated
from tests.explain.test_lime_support import MIXED_CATEGORICAL, mixed

ONE_HOT = LimeConfig(num_samples=400, top_k=3, n_jobs=1, categories="one-hot")


def test_the_extra_features_say_a_sample_is_not_a_category():
    X, _, predict = mixed()
    explainer = make_explainer(X, LimeConfig(discretizer="quartile"), MIXED_CATEGORICAL)
    tables = SamplingTables.from_explainer(explainer)
    negations = one_hot_negations(explainer.feature_values, MIXED_CATEGORICAL)
    # workclass has 4 values and color 3: one feature each
    assert negations.tolist() == [[1, p] for p in range(4)] + [[4, p] for p in range(3)]
    hood = sample_neighbourhoods(tables, X[:6], [1, 1, 2, 2, 3, 3], 50)
    plain, wide = hood.binary(), hood.binary(negations=negations)
    d = X.shape[1]
    assert wide.shape == (6, d + len(negations), 50)
    np.testing.assert_array_equal(wide[:, :d], plain)
    for r in range(6):
        for e, (j, p) in enumerate(negations):
            codes = hood.codes[hood.pool[r], j]
            if hood.row_codes[r, j] == p:  # the row's own category: its own column says it
                assert (wide[r, d + e] == 1.0).all()
            else:
                np.testing.assert_array_equal(wide[r, d + e, 1:], codes[1:] != p)
                assert wide[r, d + e, 0] == 1.0


def test_one_hot_explanations_name_negations_by_category_code():
    X, _, predict = mixed()
    value = explain_rows(X, X[:40], predict, LimeConfig(num_samples=400, n_jobs=1),
                         categorical_features=MIXED_CATEGORICAL)
    one_hot = explain_rows(X, X[:40], predict, LimeConfig(num_samples=400, n_jobs=1,
                                                           categories="one-hot"),
                           categorical_features=MIXED_CATEGORICAL)
    assert value.negations.shape == (0, 2) and (value.features < X.shape[1]).all()
    assert one_hot.negations.tolist() == [[1, c] for c in range(4)] + [[4, c] for c in range(3)]
    assert (one_hot.features < X.shape[1] + 7).all()
    negated = one_hot.features >= X.shape[1]
    assert negated.any()  # workclass == 0 raises the odds: "not 0" explains other rows
    e = one_hot.features[negated] - X.shape[1]
    rows = np.nonzero(negated)[0]
    column, code = one_hot.negations[e, 0], one_hot.negations[e, 1]
    # a negation never names the row's own category
    assert (X[rows, column] != code).all()
    with pytest.raises(ValueError, match="needs the batched engine"):
        LimeConfig(engine="reference", categories="one-hot")
    with pytest.raises(ValueError, match="categories must be one of"):
        LimeConfig(categories="onehot")
    # lime's default kernel width, 0.75 * sqrt(features), counts the one-hot features
    width = make_explainer(X, LimeConfig(discretizer="quartile", categories="one-hot"),
                           MIXED_CATEGORICAL).base.kernel_fn.keywords["kernel_width"]
    assert width == pytest.approx(0.75 * np.sqrt(X.shape[1] + 7))
    assert "categories" not in LimeConfig().result_items()  # old cache keys still serve
    assert LimeConfig(categories="one-hot").result_items()["categories"] == "one-hot"


def test_the_views_keep_negations_as_classical_negations():
    X = pd.DataFrame({"city": ["a", "b", "c", None, "a"], "x": [1.0, 2.0, 3.0, 4.0, 5.0]})
    selected = np.array([[False, True], [False, False], [True, False], [False, False],
                         [False, False]])
    negations = Negations(("city", "city"), ("b", "c"),
                          np.array([[True, True], [True, False], [True, False],
                                    [True, False], [False, False]]))
    table = table_view(X, selected, negations)
    # row 0 is not b nor c; row 1's own value is b: nothing to say; row 2 keeps its value;
    # row 3 is missing: unknown
    assert table["city"].iloc[0] == Negated("b", "c")
    assert pd.isna(table["city"].iloc[1]) and table["city"].iloc[2] == "c"
    assert pd.isna(table["city"].iloc[3]) and pd.isna(table["city"].iloc[4])
    columns = [BinaryColumn("city", "==", "a", "city == a"),
               BinaryColumn("city", "!=", "b", "city != b")]
    lime = binary_view(X, columns, selected, negations)
    assert lime["city != b"].tolist() == [True, False, True, False, False]
    assert lime["city == a"].tolist() == [False] * 5
    raw = binary_view(X, columns)
    assert raw["city != b"].tolist() == [True, False, True, False, True]
    assert negations.by_feature() == {"city": ["b", "c"]}
    features = np.array([[0, 2, 3], [1, -1, -1]])
    assert selection_mask(features, 2).tolist() == [[True, False], [False, True]]
    assert negation_mask(features, 2, 2).tolist() == [[True, True], [False, False]]


@pytest.fixture(scope="module")
def not_b():
    """A label that the city not being b decides (with x)."""
    rng = np.random.default_rng(0)
    n = 400
    x = rng.normal(size=n)
    city = rng.choice(list("abcd"), n)
    y = np.where(x + 2 * (city != "b") - 1.5 > 0, "yes", "no")
    ds = from_frame(pd.DataFrame({"x": x, "city": city, "y": y}), "y")
    return run_pipeline(ds, RunConfig(lime=ONE_HOT))


def test_both_learners_learn_from_negations_and_prolog_agrees(not_b):
    result = not_b
    lime_rows = result.views["fold"]["train_lime"]
    assert any(isinstance(c, Negated) for c in lime_rows["city"])
    assert any(" != " in c for c in result.views["imli"]["train_lime"].columns)
    fold = result.learners["fold"].estimator
    for view in ("train_lime", "test_lime", "test"):
        rows = result.views["fold"][view]
        np.testing.assert_array_equal(fold.predict(rows), fold.predict_python(rows))
    report = result.report
    assert report["lime"]["categories"] == "one-hot"
    assert report["parameters"]["lime"]["categories"] == "one-hot"
    assert min(report["learners"][k]["fidelity_test"] for k in ("imli", "fold")) >= 0.9
    details = add_details(result)["lime"]["feature_frequency"]
    assert {f["feature"] for f in details} == {"x", "city"}  # a negation counts for its column


def test_imli_explains_a_lime_row_that_negates_categories(not_b):
    # IMLI was given FOLD's Negated cell as the row's value, and refused it: "values do not
    # match X"; explain/ hands it the categories the cell negates
    result = not_b
    lime_imli, lime_fold = result.views["imli"]["test_lime"], result.views["fold"]["test_lime"]
    negated = [i for i, c in enumerate(lime_fold["city"]) if isinstance(c, Negated)]
    assert negated
    naming_city = 0  # the reasons whose rule tests city show the negation
    for i in negated:
        why = result.learners["imli"].explain(lime_imli.iloc[[i]], lime_fold.iloc[[i]])
        assert why.label == result.predictions["imli"]["test_lime"][i]
        if "city" in why.summary:
            assert "(city is known not " in why.summary
            naming_city += 1
    assert naming_city
    # a negation the rule's `!=` test does not name leaves that test false, as in FOLD
    columns = [BinaryColumn("city", "!=", v, f"city != {v}") for v in ("b", "d")]
    binary = pd.DataFrame(np.random.default_rng(0).integers(0, 2, (80, 2)).astype(bool),
                          columns=[c.name for c in columns])
    learner = fit_learner("imli", binary, (binary.all(axis=1)).astype(int).to_numpy(),
                          {"batch_size": None, "rule_type": "CNF"}, 0, columns, ("no", "yes"))
    row = pd.DataFrame({"city != b": [True], "city != d": [False]})
    why = learner.explain(row, pd.DataFrame({"city": [Negated("b", "c")], "x": [0.5]}))
    assert why.label == 0 and "city != d fails (city is known not b, c)" in why.summary


def test_too_few_samples_counts_the_one_hot_features():
    import warnings

    X, _, predict = mixed()
    d = X.shape[1]  # and 7 negations: workclass's 4 categories and color's 3
    for categories, warned in (("value", False), ("one-hot", True)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            explain_rows(X, X[:2], predict, LimeConfig(num_samples=d + 3, top_k=3, n_jobs=1,
                                                       categories=categories),
                         categorical_features=MIXED_CATEGORICAL)
        said = [str(w.message) for w in caught if "samples per row" in str(w.message)]
        assert said == ([f"LIME draws {d + 3} samples per row to weigh {d + 7} features: "
                         f"the local fits have no more samples than features, so their "
                         f"weights are mostly the ridge penalty's; use more than {d + 7} "
                         f"samples (--num-samples)"] if warned else [])


def test_imli_excludes_a_negation_lime_stated_for_no_row_as_nothing():
    # the up-front check took 'a != y' (a's categories can be negated), IMLI's fit then
    # refused it as an unknown feature: no explanation negated y, so no such column
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.choice(["x", "y", "z"], 60), "b": rng.normal(size=60)})
    frame["t"] = np.where((frame.a == "x") | (frame.b > 0.5), "yes", "no")
    lime = LimeConfig(num_samples=100, n_jobs=1, top_k=2, categories="one-hot")
    names = ["a != x", "a != y", "a != z"]
    result = run_pipeline(from_frame(frame, "t", positive="yes"),
                          RunConfig(lime=lime, learners=("imli",),
                                    imli_params={"exclude_features": names}))
    imli = result.report["learners"]["imli"]
    assert imli["params"]["exclude_features"] == ["a != x"]  # the run's one negation
    assert "!=" not in imli["rules"]
    with pytest.raises(InputError, match=r"^include_features names 'a != y', a negated "
                                         r"category the explanations of no training row "
                                         r"state in this run: no rule can test it$"):
        run_pipeline(from_frame(frame, "t", positive="yes"),
                     RunConfig(lime=lime, learners=("imli",),
                               imli_params={"include_features": ["a != y"]}))
