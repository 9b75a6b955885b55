"""Query reductions: dominated literal groups, against their definition."""

import numpy as np
import pytest

from imli.reduction import _strictly_contained, group_literals, undominated


def dominated_by_definition(L, labels, groups, feature_of):
    """Groups some other group dominates, pair by pair (the docstring's definition)."""
    reps = np.array([g[0] for g in groups])
    pos, neg = L[labels][:, reps], L[~labels][:, reps]
    out = set()
    for b in range(len(reps)):
        # a is true on every positive b is true on, false on every negative b is false on
        dominates = (pos >= pos[:, [b]]).all(axis=0) & (neg <= neg[:, [b]]).all(axis=0)
        dominates[b] = False
        if feature_of is not None:
            dominates &= feature_of[reps] == feature_of[reps[b]]
        if dominates.any():
            out.add(b)
    return out


@pytest.mark.parametrize("rows, n_literals, by_feature", [
    (7, 40, False), (25, 300, True), (70, 1300, False), (130, 900, True),
])
def test_undominated_drops_exactly_the_dominated_groups(rows, n_literals, by_feature):
    # sizes span one and several 64-bit words and more than one chunk of groups
    rng = np.random.default_rng(rows)
    # thresholds on a few features give chains of dominated literals, as binarized data do
    values = rng.normal(size=(rows, n_literals // 10 + 1))
    feature_of = rng.integers(0, values.shape[1], n_literals)
    cuts = rng.normal(size=n_literals)
    L = np.where(rng.random(n_literals) < 0.5, values[:, feature_of] <= cuts,
                 values[:, feature_of] > cuts)
    labels = rng.random(rows) < 0.4
    fid = feature_of if by_feature else None
    groups = group_literals(L, np.arange(n_literals), fid)
    preferred = {int(groups[0][0]), int(groups[-1][0])}
    kept = undominated(L, labels, groups, preferred, fid)
    dominated = dominated_by_definition(L, labels, groups, fid)
    expected = [g for i, g in enumerate(groups)
                if i not in dominated or preferred.intersection(g.tolist())]
    assert 0 < len(dominated) < len(groups)
    assert [g.tolist() for g in kept] == [g.tolist() for g in expected]


def test_containment_does_not_depend_on_the_chunk_size():
    rng = np.random.default_rng(1)
    sets = rng.random((130, 700)) < 0.5
    sets[:, :300] |= sets[:, 300:600]  # the first 300 hold the next 300
    whole = _strictly_contained(sets)
    assert whole[300:600].all() and whole.sum() >= 300
    for cells in (1, 3000, 1 << 30):  # one column at a time ... everything at once
        assert np.array_equal(_strictly_contained(sets, cells=cells), whole)
