"""Property: on random tables with hostile names and values, SWI-Prolog = Python."""

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fold import FOLDClassifier, Negated
from tests.fold.helpers import HOSTILE, python_decisions, run_swipl

names = st.one_of(st.sampled_from(HOSTILE), st.text(min_size=1, max_size=8))
values = st.one_of(st.sampled_from(HOSTILE[:12]), st.text(max_size=5))


@st.composite
def tables(draw):
    n_rows = draw(st.integers(4, 30))
    columns = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    frame = {}
    for name in columns:
        if draw(st.booleans()):
            cells = draw(st.lists(
                st.one_of(st.floats(-1e6, 1e6, allow_nan=False), st.just(np.nan),
                          st.sampled_from([0.1, 1 / 3, -0.0, 5e-324])),
                min_size=n_rows, max_size=n_rows))
            frame[name] = pd.Series(cells, dtype=float)
        else:
            pool = draw(st.lists(values, min_size=1, max_size=4, unique=True))
            cell = st.one_of(st.sampled_from(pool), st.just(np.nan),
                             st.sampled_from(pool).map(Negated))
            frame[name] = pd.Series(draw(st.lists(cell, min_size=n_rows, max_size=n_rows)),
                                    dtype=object)
    labels = draw(st.lists(values, min_size=2, max_size=3, unique=True))
    y = draw(st.lists(st.sampled_from(labels), min_size=n_rows, max_size=n_rows))
    return pd.DataFrame(frame), np.array(y, dtype=object)


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
