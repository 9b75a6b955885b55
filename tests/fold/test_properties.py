"""Property: on random tables with hostile names and values, SWI-Prolog = Python."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fold import FOLDClassifier
from tests.fold.helpers import python_decisions, run_swipl, tables


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(tables(), st.sampled_from([1, 2]))
def test_prolog_equals_python_on_every_row(table, min_support):
    X, y = table
    clf = FOLDClassifier(min_support=min_support).fit(X, y)
    assert (clf.evaluate_prolog(X).decisions == python_decisions(clf, X)).all()
    assert (clf.predict(X) == clf.predict_python(X)).all()


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(tables())
def test_plain_swipl_agrees_on_hostile_tables(tmp_path, table):
    X, y = table
    clf = FOLDClassifier(min_support=1).fit(X, y)
    assert (run_swipl(clf, X, tmp_path) == python_decisions(clf, X)).all()


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(tables())
def test_explain_agrees_with_predict_on_every_row(table):
    X, y = table
    clf = FOLDClassifier(min_support=1, mdl_weight=None).fit(X, y)
    predicted = clf.predict(X)
    decisions = clf.evaluate_prolog(X).decisions
    n_classes = len(clf.rules_.classes)
    for i in range(len(X)):
        why = clf.explain(X.iloc[[i]])
        assert why.label == predicted[i]
        k = int(decisions[i])
        assert (why.rule is None) if k == n_classes else why.rule in clf.rules_.classes[k].rules
        # the proof's top level: the classes before the row's fail, its own holds
        steps = [line for line in why.prolog.splitlines()
                 if line.startswith("  ") and not line.startswith("   ")
                 and line.endswith((" fails:", " holds because"))]
        assert [s.endswith(" fails:") for s in steps] == [True] * k + [False] * (k < n_classes)
