"""LIME's entropy bins, free of the scale and offset of a feature's values.

lime's ``EntropyDiscretizer`` fits a depth-3 entropy tree per numeric feature on the
values themselves. scikit-learn's trees work in 32-bit floats and treat values less than
1e-7 apart as equal, so a feature on a small scale (lengths in metres, 5e-7) gets no cut
and falls back to its median, and values with a large offset (timestamps in seconds)
merge. :class:`RankEntropyDiscretizer` fits the same tree on each feature's ranks (the
position of a value among the distinct training values): the tree chooses its cuts by the
order of the values alone, so it finds the same ones on any scale. Each cut is then
placed midway between the two training values around it, as lime's tree places it.

The midpoint matters beyond which training rows a cut separates: lime samples a
perturbed value inside its bin, truncated at the bin's edges, so moving an edge within
its gap moves the samples. Placing the cuts where IMLI's threshold columns put them
(:func:`imli.predicates.short_between`) was measured and not adopted (BENCHMARKS.md).
"""

from __future__ import annotations

import numpy as np
from lime.discretize import EntropyDiscretizer
from sklearn.tree import DecisionTreeClassifier

__all__ = ["RankEntropyDiscretizer"]


class RankEntropyDiscretizer(EntropyDiscretizer):
    """lime's entropy discretizer with each feature's tree fitted on ranks.

    Parameters are lime's ``EntropyDiscretizer``'s (``labels`` required). A feature on
    which the tree finds no cut gets its median as the one edge, as in lime.
    """

    def bins(self, data, labels):
        bins = []
        for feature in self.to_discretize:
            values = np.asarray(data[:, feature], dtype=np.float64)
            distinct, ranks = np.unique(values, return_inverse=True)
            tree = DecisionTreeClassifier(criterion="entropy", max_depth=3,
                                          random_state=self.random_state)
            tree.fit(ranks.reshape(-1, 1).astype(np.float64), labels)
            split = tree.tree_.children_left > -1
            if not split.any():
                bins.append(np.array([np.median(values)]))
                continue
            # A cut between ranks k and k + 1 sits at k + 0.5.
            below = np.floor(np.sort(tree.tree_.threshold[split])).astype(np.intp)
            bins.append(distinct[below] / 2 + distinct[below + 1] / 2)
        return bins
