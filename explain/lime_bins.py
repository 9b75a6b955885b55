"""LIME's entropy bins: MDL-tested cuts, free of the scale and offset of a feature's values.

lime's ``EntropyDiscretizer`` fits a depth-3 entropy tree per numeric feature on the
values themselves and keeps every cut it makes. Two things go wrong with that:

- scikit-learn's trees work in 32-bit floats and treat values less than 1e-7 apart as
  equal, so a feature on a small scale (lengths in metres, 5e-7) gets no cut, and values
  with a large offset (timestamps in seconds) merge. :class:`RankEntropyDiscretizer` fits
  the tree on each feature's ranks (the position of a value among the distinct training
  values): the tree chooses its cuts by the order of the values alone, so it finds the
  same ones on any scale. Each cut is then placed midway between the two training values
  around it, as lime's tree places it.
- a tree without a stopping rule cuts even where the labels do not depend on the
  feature. Worse, a feature that matters only together with another (the model's label
  is ``(a > 0) xor (b > 0)``) looks like noise to a one-feature tree, which then cuts it
  at random places, and no rule built from those bins can express the model. The tree's
  first cut is therefore put to Fayyad and Irani's MDL test (1993, the discretization the
  LIME-FOLD paper uses): if it fails, the labels do not depend on the feature alone, and
  the feature gets lime's model-blind quartiles instead of the tree's cuts. A feature
  whose first cut passes keeps all of the tree's cuts, as in lime (testing each cut
  top-down as Fayyad and Irani do was measured and not adopted: BENCHMARKS.md).

The midpoint matters beyond which training rows a cut separates: lime samples a
perturbed value inside its bin, truncated at the bin's edges, so moving an edge within
its gap moves the samples. Placing the cuts where IMLI's threshold columns put them
(:func:`imli.predicates.short_between`) was measured and not adopted (BENCHMARKS.md).
"""

from __future__ import annotations

import numpy as np
from lime.discretize import EntropyDiscretizer
from sklearn.tree import DecisionTreeClassifier

__all__ = ["RankEntropyDiscretizer", "mdl_accepts"]


def _entropy(counts: np.ndarray) -> float:
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log2(p)).sum())


def mdl_accepts(left: np.ndarray, right: np.ndarray) -> bool:
    """Fayyad and Irani's MDL test of a binary cut.

    Parameters
    ----------
    left, right : array of int
        Class counts of the rows on each side of the cut (the same classes, in order).

    Returns
    -------
    bool
        Whether the cut's information gain exceeds the cost of describing it:
        ``gain > (log2(N - 1) + log2(3**k - 2) - (k·E - k1·E1 - k2·E2)) / N``, with ``k``
        the classes present on both sides together and ``E`` the class entropy
        (Fayyad & Irani, IJCAI 1993).
    """
    left, right = np.asarray(left, dtype=np.float64), np.asarray(right, dtype=np.float64)
    both = left + right
    n = both.sum()
    if n < 2 or left.sum() == 0 or right.sum() == 0:
        return False
    e, e1, e2 = _entropy(both), _entropy(left), _entropy(right)
    k, k1, k2 = (int((c > 0).sum()) for c in (both, left, right))
    gain = e - (left.sum() * e1 + right.sum() * e2) / n
    # log2(3**k - 2) is k·log2(3) to double precision from k = 34 on (3.0**k overflows)
    bits = np.log2(3.0 ** k - 2) if k < 34 else k * np.log2(3.0)
    delta = bits - (k * e - k1 * e1 - k2 * e2)
    return gain > (np.log2(n - 1) + delta) / n


class RankEntropyDiscretizer(EntropyDiscretizer):
    """Lime's entropy discretizer on ranks, for the features whose first cut passes MDL.

    A feature whose tree's first (root) cut fails :func:`mdl_accepts`, or that has no cut,
    gets its quartiles (lime's ``QuartileDiscretizer``'s edges; one edge, the value, for a
    constant feature).

    Parameters
    ----------
    data : ndarray of shape (n_train, n_features)
        The training rows.
    categorical_features : list of int
        Columns not to discretize.
    feature_names : list of str
        Column names (lime's bin names use them).
    labels : array-like of shape (n_train,)
        The black box's labels of the training rows; required, although lime's signature
        makes it optional.
    random_state : int, RandomState or None, default=None
        Seeds the trees.
    """

    def bins(self, data, labels):
        """The cut points of each feature to discretize (lime calls it when built).

        Parameters
        ----------
        data : ndarray of shape (n_train, n_features)
            The training rows.
        labels : array-like of shape (n_train,)
            The black box's labels of the training rows.

        Returns
        -------
        list of ndarray of float64
            Per feature of ``to_discretize``, in order: the midpoints between the values
            the tree cuts between, or the quartiles.
        """
        classes, codes = np.unique(labels, return_inverse=True)
        bins = []
        for feature in self.to_discretize:
            values = np.asarray(data[:, feature], dtype=np.float64)
            distinct, ranks = np.unique(values, return_inverse=True)
            tree = DecisionTreeClassifier(criterion="entropy", max_depth=3,
                                          random_state=self.random_state)
            tree.fit(ranks.reshape(-1, 1).astype(np.float64), codes)
            split = tree.tree_.children_left > -1
            if not split[0] or not _root_passes(tree.tree_, ranks, codes, len(classes)):
                bins.append(np.unique(np.percentile(values, [25, 50, 75])))
                continue
            # A cut between ranks k and k + 1 sits at k + 0.5.
            below = np.floor(np.sort(tree.tree_.threshold[split])).astype(np.intp)
            bins.append(distinct[below] / 2 + distinct[below + 1] / 2)
        return bins


def _root_passes(tree, ranks, codes, n_classes) -> bool:
    left = ranks <= tree.threshold[0]
    return mdl_accepts(np.bincount(codes[left], minlength=n_classes),
                       np.bincount(codes[~left], minlength=n_classes))
