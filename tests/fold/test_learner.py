"""Learning: the FOLD paper's examples, noise, NaN, classical negation, multi-class."""

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris, load_wine
from sklearn.model_selection import train_test_split

from fold import FOLDClassifier, Negated
from fold.learner import FoldLearner, LearnerSettings
from fold.search import EncodedTable
from fold.table import ColumnView, Schema

NAN = np.nan


def _clauses(program: str) -> list:
    """The program's clauses with whitespace collapsed (comments and directives dropped)."""
    body = "\n".join(line for line in program.splitlines()
                     if not line.startswith(("%", ":-")))
    return [re.sub(r"\s+", " ", c).strip() + "." for c in body.split(".\n") if c.strip()]


def test_bird_penguin_gives_the_papers_program():
    # FOLD paper, Example 2: birds fly, penguins are birds that do not, cats do not.
    X = pd.DataFrame({
        "bird": ["yes", "yes", NAN, "yes"],       # tweety, et, kitty, polly
        "penguin": [NAN, NAN, NAN, "yes"],
        "cat": [NAN, NAN, "yes", NAN],
    })
    clf = FOLDClassifier(random_state=0).fit(X, ["fly", "fly", "no", "no"])
    clauses = _clauses(clf.program_)
    assert "'fly'(X) :- 'bird'(X, 'yes'), \\+ 'ab0'(X)." in clauses
    assert "'ab0'(X) :- 'penguin'(X, 'yes')." in clauses
    assert [c for c in clauses if c.startswith(("'fly'", "'ab"))] == [
        "'fly'(X) :- 'bird'(X, 'yes'), \\+ 'ab0'(X).", "'ab0'(X) :- 'penguin'(X, 'yes')."]
    assert clf.predict(X).tolist() == ["fly", "fly", "no", "no"]


def test_exceptions_to_exceptions():
    # super-penguins are penguins that fly: an exception to the exception.
    X = pd.DataFrame({
        "bird": ["yes"] * 11 + [NAN] * 3,
        "penguin": [NAN] * 6 + ["yes"] * 5 + [NAN] * 3,
        "super": [NAN] * 9 + ["yes"] * 2 + [NAN] * 3,
    })
    y = ["fly"] * 6 + ["no"] * 3 + ["fly"] * 2 + ["no"] * 3
    clf = FOLDClassifier(min_support=1, class_order=["fly", "no"]).fit(X, y)
    clauses = _clauses(clf.program_)
    assert "'fly'(X) :- 'bird'(X, 'yes'), \\+ 'ab0'(X)." in clauses
    assert "'ab0'(X) :- 'penguin'(X, 'yes'), \\+ 'ab1'(X)." in clauses
    assert "'ab1'(X) :- 'super'(X, 'yes')." in clauses
    assert (clf.predict(X) == np.array(y)).all()


def test_noise_keeps_the_program_small():
    rng = np.random.default_rng(0)
    n = 3000
    X = pd.DataFrame({"a": rng.random(n), "b": rng.random(n),
                      "c": rng.choice(list("pqrs"), n)})
    clean = np.where(X["a"] > 0.5, "hi", "lo")
    noisy = clean.copy()
    flip = rng.random(n) < 0.15
    noisy[flip] = np.where(clean[flip] == "hi", "lo", "hi")
    clf = FOLDClassifier(random_state=0).fit(X, noisy)
    assert clf.rules_.n_rules <= 4 and clf.rules_.n_literals <= 6, str(clf.rules_)
    assert (clf.predict(X) == clean).mean() >= 0.95


def test_nan_rows_get_no_literal_and_fall_to_the_default():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 10.0, 11.0, 12.0, NAN, NAN]})
    y = ["lo", "lo", "lo", "hi", "hi", "hi", "hi", "lo"]
    clf = FOLDClassifier(min_support=1, class_order=["lo", "hi"]).fit(X, y)
    # the threshold lies halfway between the training values 3 and 10
    assert str(clf.rules_).splitlines()[0] == "lo if a <= 6.5"
    # an unknown value satisfies neither a <= 6.5 nor a > 6.5: both NaN rows get the default
    assert clf.predict(X).tolist()[-2:] == ["hi", "hi"]


def test_classical_negation_is_learned_as_a_separate_predicate():
    rng = np.random.default_rng(1)
    thal = rng.choice(["3", "6", "7"], 300)
    cells = np.array(thal, dtype=object)
    for i in np.flatnonzero(rng.random(300) < 0.4):
        cells[i] = Negated("3") if thal[i] != "3" else NAN
    X = pd.DataFrame({"thal": cells, "age": rng.normal(50, 10, 300)})
    y = np.where(thal != "3", "disease", "healthy")
    clf = FOLDClassifier(random_state=0).fit(X, y)
    assert str(clf.rules_.classes[0]) == "disease if thal != 3"
    assert "'neg_thal'(X, '3')" in clf.program_
    assert "\\+ 'neg_thal'" not in clf.program_ and "\\+ 'thal'" not in clf.program_
    negated_rows = X["thal"].map(lambda c: isinstance(c, Negated)).to_numpy()
    assert (clf.predict(X)[negated_rows] == "disease").all()
    assert (clf.predict(X) == clf.predict_python(X)).all()


@pytest.mark.parametrize("loader, minimum", [(load_iris, 0.9), (load_wine, 0.85)])
def test_multiclass(loader, minimum):
    data = loader(as_frame=True)
    names = np.asarray(data.target_names)[data.target]
    X_train, X_test, y_train, y_test = train_test_split(
        data.data, names, random_state=0, stratify=names)
    clf = FOLDClassifier(random_state=0).fit(X_train, y_train)
    predicted = clf.predict(X_test)
    assert (predicted == y_test).mean() >= minimum
    assert (predicted == clf.predict_python(X_test)).all()
    assert set(clf.classes_) == set(data.target_names)
    assert len(clf.rules_.classes) == len(data.target_names) - 1


def test_same_data_same_program_byte_for_byte():
    data = load_wine(as_frame=True)
    X = data.data.copy()
    X["kind"] = np.where(data.data["alcohol"] > 13, "strong", "mild")
    X.loc[::7, "magnesium"] = NAN
    first = FOLDClassifier(random_state=0).fit(X, data.target)
    second = clone(first).fit(X.copy(), data.target.copy())
    assert first.program_ == second.program_
    assert first.rules_ == second.rules_


def test_class_order_chooses_the_default():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0]})
    clf = FOLDClassifier(class_order=["y", "x"], min_support=1).fit(X, ["x", "x", "y", "y"])
    assert clf.rules_.default == "x"
    with pytest.raises(ValueError, match="class_order"):
        FOLDClassifier(class_order=["x"]).fit(X, ["x", "x", "y", "y"])


def _two_way_interactions(n=400, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({c: rng.choice(["0", "1"], n).astype(object) for c in "abcd"})
    blocked = ((X["a"] == "1") & (X["b"] == "1")) | ((X["c"] == "1") & (X["d"] == "1"))
    return X, np.where(blocked, "no", "yes")


def test_a_class_is_learned_as_a_default_when_that_is_shorter():
    # "yes" is everything but two conjunctions: as a default with two exceptions it takes
    # 4 literals; as rules for "yes" it takes more (the negation of a DNF)
    X, y = _two_way_interactions()
    clf = FOLDClassifier(class_order=["yes", "no"]).fit(X, y)
    (rule,) = clf.rules_.classes[0].rules
    assert rule.literals == () and len(rule.exceptions) == 2
    assert clf.rules_.n_literals == 4
    assert (clf.predict(X) == y).all()
    assert (clf.predict(X) == clf.predict_python(X)).all()
    direct = FOLDClassifier(class_order=["yes", "no"], try_complement=False).fit(X, y)
    assert all(r.literals for r in direct.rules_.classes[0].rules)
    assert direct.rules_.n_literals > 4


def test_noisy_labels_give_the_concept_not_the_noise():
    # the concept needs 2 literals; 20% of the labels are flipped at random
    rng = np.random.default_rng(3)
    n = 1500
    X = pd.DataFrame({"a": rng.random(n), "b": rng.random(n), "c": rng.random(n),
                      "d": rng.choice(list("pqrs"), n)})
    clean = np.where((X["a"] > 0.4) & (X["d"] != "p"), "hi", "lo")
    noisy = clean.copy()
    flip = rng.random(n) < 0.2
    noisy[flip] = np.where(clean[flip] == "hi", "lo", "hi")
    pruned = FOLDClassifier(class_order=["hi", "lo"]).fit(X, noisy)
    plain = FOLDClassifier(class_order=["hi", "lo"], mdl_weight=None).fit(X, noisy)
    assert pruned.rules_.n_literals <= 3, str(pruned.rules_)
    assert plain.rules_.n_literals >= 5 * pruned.rules_.n_literals, str(plain.rules_)
    assert (pruned.predict_python(X) == clean).mean() >= 0.97
    assert (pruned.predict_python(X) == clean).mean() > (plain.predict_python(X) == clean).mean()


def test_plain_fold_without_description_length():
    # mdl_weight=None is FOLD as published: no stopping, pruning or default form
    X, y = _two_way_interactions()
    clf = FOLDClassifier(class_order=["yes", "no"], mdl_weight=None).fit(X, y)
    assert all(r.literals for r in clf.rules_.classes[0].rules)
    assert (clf.predict(X) == clf.predict_python(X)).all()


def _blas_threads():
    from threadpoolctl import threadpool_info

    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


def test_learning_runs_on_one_blas_thread_and_gives_the_threads_back(monkeypatch):
    import fold.learner

    if not _blas_threads():
        pytest.skip("threadpoolctl finds no BLAS library here")
    seen = []
    real = fold.learner.best_literal

    def spy(*args, **kwargs):
        seen.append(_blas_threads())
        return real(*args, **kwargs)

    monkeypatch.setattr(fold.learner, "best_literal", spy)
    before = _blas_threads()
    X, y = load_iris(return_X_y=True, as_frame=True)
    FOLDClassifier(random_state=0).fit(X, y)
    assert seen and all(threads == {1} for threads in seen)
    assert _blas_threads() == before


def test_fits_in_threads_that_overlap_give_the_threads_back_in_any_order():
    from fold.learner import blas_limit

    before = _blas_threads()
    if not before:
        pytest.skip("threadpoolctl finds no BLAS library here")
    first, second = blas_limit(), blas_limit()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # the first fit ends while the second learns
    assert _blas_threads() <= {1}
    second.__exit__(None, None, None)
    assert _blas_threads() == before
    # and real fits in threads, many times over
    import threading

    X, y = load_iris(return_X_y=True, as_frame=True)
    workers = [threading.Thread(target=lambda: FOLDClassifier(random_state=0).fit(X, y))
               for _ in range(6)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert _blas_threads() == before


class _EveryRule(FoldLearner):
    """FOLD learning every rule up to the stopping rule's window (no early stop), and
    counting the rules it learns."""

    def __init__(self, *args, early_stop: bool) -> None:
        super().__init__(*args)
        self.early_stop, self.learned = early_stop, 0

    def learn_rule(self, *args, **kwargs):
        self.learned += 1
        return super().learn_rule(*args, **kwargs)

    def _longer_loses(self, *args) -> bool:
        return self.early_stop and super()._longer_loses(*args)


@pytest.mark.parametrize("seed", range(40))
def test_rules_the_description_length_would_drop_are_not_learned(seed):
    """The early stop gives the very rules of learning every rule of the window (a bound
    40 bits looser changes the rules of seeds 19 and 37), and learns fewer."""
    rng = np.random.default_rng(seed)
    n, noise = [(100, 0.3), (200, 0.05), (400, 0.15)][seed % 3]
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.integers(0, 30, n).astype(float),
                      "c": rng.choice(list("pqrstu"), n).astype(object)})
    y = ((X.a > 0) ^ (X.c == "p")).to_numpy() ^ (rng.random(n) < noise)
    schema = Schema.from_frame(X)
    table = EncodedTable(ColumnView(X, schema), schema)
    theories, learned = [], []
    for early_stop in (True, False):
        learner = _EveryRule(table, LearnerSettings(), early_stop=early_stop)
        theories.append(learner.learn_theory(y.astype(int), ["no", "yes"], [1, 0]))
        learned.append(learner.learned)
    assert theories[0] == theories[1]
    assert learned[0] <= learned[1]


@pytest.mark.parametrize("min_support, b_rules", [(1, ["b if true"]), (3, [])])
def test_a_class_left_alone_gets_true_only_with_min_support_rows(min_support, b_rules):
    # a's rule covers c's two rows too, and only b's two rows are left for b: b got the
    # rule true even below min_support
    X = pd.DataFrame({"x": np.r_[np.arange(40) % 10, [3, 5], [100, 101]].astype(float)})
    y = np.array(["a"] * 40 + ["c"] * 2 + ["b"] * 2)
    clf = FOLDClassifier(min_support=min_support, class_order=["a", "b", "c"]).fit(X, y)
    lines = str(clf.rules_).splitlines()
    assert lines[0] == "a if x <= 54.5" and lines[-1] == "c otherwise"
    assert [line for line in lines if line.startswith("b ")] == b_rules
    assert clf.predict(X[-2:]).tolist() == (["b", "b"] if b_rules else ["c", "c"])


class _Depths(FoldLearner):
    """FOLD recording the depth of every rule it learns."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.depths = []

    def learn_rule(self, pos, neg, depth, **kwargs):
        self.depths.append(depth)
        return super().learn_rule(pos, neg, depth, **kwargs)


@pytest.mark.parametrize("mdl_weight", [0.5, None])
@pytest.mark.parametrize("n_yes", [2, 6, 8])
def test_rows_alike_but_for_their_labels_get_no_exceptions_of_no_literal(mdl_weight, n_yes):
    # no literal tells the rows apart: the rule of no literal got an exception of no
    # literal, that one another, down to max_exception_depth
    X = pd.DataFrame({"x": [1.0] * 10, "c": ["p"] * 10})
    y = np.array([1] * n_yes + [0] * (10 - n_yes))
    schema = Schema.from_frame(X)
    table = EncodedTable(ColumnView(X, schema), schema)
    programs = []
    for depth in (0, 100):
        learner = _Depths(table, LearnerSettings(max_exception_depth=depth,
                                                 mdl_weight=mdl_weight))
        programs.append(learner.learn_theory(y, ["no", "yes"], [1, 0]))
        assert max(learner.depths) <= 2
    assert programs[0] == programs[1]
    assert str(programs[1]) == f"yes{' if true' if n_yes > 5 else ': no rule'}\nno otherwise"
    clf = FOLDClassifier(max_exception_depth=100, mdl_weight=mdl_weight).fit(X, y)
    assert clf.predict(X).tolist() == [int(n_yes > 5)] * 10
