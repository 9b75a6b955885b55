"""LIME's neighbourhood sampling, for a batch of rows at once.

:class:`SamplingTables` reads everything lime's ``LimeTabularExplainer`` samples from (each
feature's values and frequencies, each bin's bounds, mean and standard deviation) into
arrays, and :func:`sample_neighbourhoods` draws the perturbations of many rows with numpy.

What lime 0.2.0.1 does for one row (``LimeTabularExplainer.__data_inverse`` with a
discretizer): for every column in order, ``random_state.choice(values, num_samples,
p=frequencies)`` picks a bin (numeric column) or a category (categorical column); then for
every numeric column in the discretizer's order, ``scipy.stats.truncnorm.rvs`` draws a value
inside each sampled bin of samples ``1..num_samples-1`` (one uniform per value, inverse CDF).
The first sample is the row itself. The regression sees a 0/1 matrix: 1 where the sample's
bin (or category) equals the row's.

Two modes:

``exact``
    Consumes a ``numpy.random.RandomState`` exactly as lime does (``choice`` draws
    ``num_samples`` uniforms per column; ``truncnorm.rvs`` one uniform per value through
    ``truncnorm._ppf``), so the perturbations are bit-for-bit lime's for the same seed.
``fast``
    Same distribution from a ``numpy.random.Generator`` (PCG64) per row: bins and
    categories by the same inverse CDF of uniforms (a table lookup instead of a binary
    search), values inside a bin by the truncated normal's inverse CDF
    ``ndtri(Φ(a) + u·(Φ(b) − Φ(a)))`` on per-bin constants (no ``scipy.stats`` call).

Lime's zero-width-bin defect: a bin whose minimum equals its maximum (the lowest bin of a
feature whose minimum is also its first quantile, e.g. 30% of the rows at the minimum) is
not sampled by ``truncnorm`` and receives ``(min - mean) / std`` — about 0.0 — instead of its
value. Fast mode always gives such a bin its value; exact mode does with
``fix_zero_width_bins=True`` (the default) and reproduces lime with ``False``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special

from explain.lime_truncnorm import ExactTruncnormPPF

__all__ = ["SamplingTables", "FastConstants", "Neighbourhoods", "one_hot_negations",
           "sample_neighbourhoods"]


_CELLS = 1024  # lookup cells per feature for the categorical draws (a power of two)


@dataclass(frozen=True)
class Neighbourhoods:
    """The perturbations of a batch of rows.

    Lime's perturbations do not depend on the row explained (with a discretizer every column
    is drawn from the training distribution); only sample 0 (the row itself) and the 0/1
    view do. Rows explained with the same seed therefore share their samples ``1..n-1``,
    which are drawn, stored and sent to the black box once; each row's 0/1 view is made
    when asked for (:meth:`binary`), so a batch's local fits can run a few rows at a time.

    Parameters
    ----------
    rows : ndarray of float64, shape (n_rows, n_features)
        The rows explained (sample 0 of each neighbourhood).
    samples : ndarray of float64, shape (n_seeds, num_samples - 1, n_features)
        Samples ``1..n-1`` in the input space, once per distinct seed of the batch.
    pool : ndarray of int, shape (n_rows,)
        Which entry of ``samples`` each row's neighbourhood uses.
    codes : ndarray of int, shape (n_seeds, n_features, num_samples)
        Per seed, feature-major: the position of each sample's bin / category among its
        feature's values (column 0 unused: sample 0 is the row).
    row_codes : ndarray of int, shape (n_rows, n_features)
        The same position for each row's own bin / category, -1 where lime never draws it.
    """

    rows: np.ndarray
    samples: np.ndarray
    pool: np.ndarray
    codes: np.ndarray
    row_codes: np.ndarray

    def binary(self, which=slice(None), negations=None) -> np.ndarray:
        """The 0/1 view of rows ``which``.

        Parameters
        ----------
        which : slice or ndarray of int, default=slice(None)
            The rows (positions in :attr:`rows`).
        negations : ndarray of int of shape (E, 2), optional
            (column, position among the column's values), from :func:`one_hot_negations`:
            adds the LIME-FOLD paper's one-hot view of categories. Feature
            ``n_features + e`` is 1.0 where a sample's category is not that value (lime's
            ``f_v = 0`` on a one-hot column ``f_v`` the row does not have); constant 1.0
            for a row whose own category it is (that feature is the row's own column).

        Returns
        -------
        ndarray of float64 of shape (n, n_features + E, num_samples)
            1.0 where a sample's bin / category equals the row's (feature-major per row:
            the layout the weighted Gram matrices are computed from); sample 0 is the row
            itself.
        """
        pool, row_codes = self.pool[which], self.row_codes[which]
        d = self.codes.shape[1]
        extra = 0 if negations is None else len(negations)
        out = np.empty((len(pool), d + extra, self.codes.shape[2]))
        for r in range(len(pool)):
            np.equal(self.codes[pool[r]], row_codes[r][:, None], out=out[r, :d],
                     casting="unsafe")
        if extra:
            columns, positions = negations[:, 0], negations[:, 1]
            for r in range(len(pool)):
                np.not_equal(self.codes[pool[r]][columns], positions[:, None],
                             out=out[r, d:], casting="unsafe")
            own = row_codes[:, columns] == positions[None, :]
            out[:, d:][own] = 1.0
        out[:, :, 0] = 1.0
        return out

    def black_box_input(self) -> np.ndarray:
        """What the black box sees.

        Returns
        -------
        ndarray of float64 of shape (n_rows + n_seeds * (num_samples - 1), n_features)
            The rows, then every distinct seed's samples.
        """
        return np.concatenate([self.rows, self.samples.reshape(-1, self.rows.shape[1])])

    def responses(self, proba: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """Each row's neighbourhood response: the probability of its label.

        Parameters
        ----------
        proba : ndarray of shape (len(black_box_input()), n_classes)
            The black box's probabilities of :meth:`black_box_input`.
        labels : ndarray of int of shape (R,)
            The class explained per row.

        Returns
        -------
        ndarray of float64 of shape (R, num_samples)
            Per row, the probability of its label on each sample (sample 0: the row).
        """
        n_rows = len(self.rows)
        shared = proba[n_rows:].reshape(len(self.samples), self.samples.shape[1], -1)
        y = np.empty((n_rows, self.samples.shape[1] + 1))
        y[:, 0] = proba[np.arange(n_rows), labels]
        y[:, 1:] = shared[self.pool[:, None], np.arange(shared.shape[1]), labels[:, None]]
        return y

    @property
    def inverse(self) -> np.ndarray:
        """Every row's whole neighbourhood in the input space, as lime's ``inverse``.

        Stacked row after row: shape (n_rows * num_samples, n_features).
        """
        n_rows, d = self.rows.shape
        out = np.empty((n_rows, self.samples.shape[1] + 1, d))
        out[:, 0] = self.rows
        out[:, 1:] = self.samples[self.pool]
        return out.reshape(-1, d)


class SamplingTables:
    """Everything lime samples from, as flat arrays (built once per explainer).

    Use :meth:`from_explainer`. Bins of numeric feature ``k`` (position in
    :attr:`numeric`) are addressed by the flat index ``k * max_bins + bin``.

    Parameters
    ----------
    values : sequence of ndarray
        Each column's values as lime samples them (bin indices for numeric columns).
    cdfs : sequence of ndarray
        Each column's cumulative value frequencies, ending at 1.
    numeric : array-like of int
        The discretized features, in the order lime undiscretizes them.
    edges : sequence of ndarray
        Per numeric feature, the discretizer's bin edges (``np.searchsorted`` gives the
        bin).
    stats : sequence of 4 ndarray of shape (n_numeric, max_bins)
        Per bin: lime's ``mins``, ``maxs``, ``means`` and ``stds``.
    fix_zero_width_bins : bool, default=True
        Whether zero-width bins yield their value (``True``) or lime's ``(min-mean)/std``.

    Attributes
    ----------
    n_features : int
        Number of columns.
    lower, upper, loc, scale, a, b : ndarray, shape (n_numeric * max_bins,)
        Per bin: lime's ``mins``, ``maxs``, ``means``, ``stds`` and the standardized
        bounds ``a = (lower - loc) / scale``, ``b = (upper - loc) / scale``.
    """

    def __init__(self, values, cdfs, numeric, edges, stats, fix_zero_width_bins=True):
        self.n_features = len(values)
        self.numeric = np.asarray(numeric, dtype=np.intp)
        self.edges = tuple(edges)
        self.cdfs = tuple(cdfs)
        self.lower, self.upper, self.loc, self.scale = (s.ravel() for s in stats)
        self.a = (self.lower - self.loc) / self.scale
        self.b = (self.upper - self.loc) / self.scale
        self.fix_zero_width_bins = bool(fix_zero_width_bins)
        n_bins = stats[0].shape[1]
        # every feature's values end to end; a draw is a "global value index" into them
        self.offsets = np.concatenate([[0], np.cumsum([len(v) for v in values])])
        self.all_values = np.concatenate(values)
        self.categorical = np.setdiff1d(np.arange(self.n_features), self.numeric)
        self.bin_flat = np.zeros(len(self.all_values), dtype=np.intp)
        for k, f in enumerate(self.numeric):
            chunk = slice(self.offsets[f], self.offsets[f + 1])
            self.bin_flat[chunk] = k * n_bins + values[f].astype(int)
        # per global value index: the cdf below the value, and the value's probability
        self.cdf_below = np.concatenate([np.concatenate([[0.0], c[:-1]]) for c in cdfs])
        self.probability = np.concatenate(cdfs) - self.cdf_below
        self._build_lookup()

    @classmethod
    def from_explainer(cls, explainer, fix_zero_width_bins: bool = True) -> "SamplingTables":
        """Read the tables of a fitted ``lime.lime_tabular.LimeTabularExplainer``.

        Parameters
        ----------
        explainer : LimeTabularExplainer
            Built with ``discretize_continuous=True`` (the only setting this engine copies).
        fix_zero_width_bins : bool, default=True
            See the module docstring.

        Returns
        -------
        SamplingTables
            The explainer's sampling tables.

        Raises
        ------
        ValueError
            If the explainer has no discretizer.
        """
        disc = explainer.discretizer
        if disc is None:
            raise ValueError("the batched LIME engine needs an explainer built with "
                             "discretize_continuous=True")
        values, cdfs = [], []
        for j in range(len(explainer.feature_names)):
            values.append(np.asarray(explainer.feature_values[j], dtype=np.float64))
            cdf = np.asarray(explainer.feature_frequencies[j], dtype=np.float64).cumsum()
            cdf /= cdf[-1]  # exactly RandomState.choice's cdf
            cdfs.append(cdf)
        numeric = np.array(list(disc.means), dtype=np.intp)
        n_bins = max((len(disc.means[f]) for f in numeric), default=1)
        stats = [np.zeros((len(numeric), n_bins)), np.ones((len(numeric), n_bins)),
                 np.zeros((len(numeric), n_bins)), np.ones((len(numeric), n_bins))]
        for k, f in enumerate(numeric):
            for table, source in zip(stats, (disc.mins, disc.maxs, disc.means, disc.stds)):
                table[k, :len(source[f])] = source[f]
        edges = [np.asarray(disc.maxs[f][:-1], dtype=np.float64) for f in numeric]
        return cls(values, cdfs, numeric, edges, stats, fix_zero_width_bins)

    def _build_lookup(self):
        """Per feature and cell ``[c/G, (c+1)/G)`` of the unit interval: the draws below the
        cell, and the one cdf boundary inside it (``inf`` if none; cells holding several
        boundaries are flagged and searched exactly)."""
        d, cells = self.n_features, _CELLS
        starts = np.arange(cells) / cells
        ends = np.arange(1, cells + 1) / cells
        self._below = np.empty((d, cells), dtype=np.intp)
        self._boundary = np.full((d, cells), np.inf)
        self._several = np.zeros((d, cells), dtype=bool)
        for j, cdf in enumerate(self.cdfs):
            below = np.searchsorted(cdf, starts, side="left")
            inside = np.searchsorted(cdf, ends, side="left") - below
            self._below[j] = below + self.offsets[j]
            one = inside == 1
            self._boundary[j, one] = cdf[below[one]]
            self._several[j] = inside > 1
        self._cell_offsets = (np.arange(d) * cells)[:, None]
        self._searched = np.flatnonzero(self._several.any(axis=1))
        self._below, self._boundary, self._several = (
            t.ravel() for t in (self._below, self._boundary, self._several))

    def draw(self, uniforms: np.ndarray) -> np.ndarray:
        """Global value indices of lime's ``choice`` draws.

        Parameters
        ----------
        uniforms : ndarray of float64 of shape (d, n)
            Uniform draws in [0, 1), one row per column.

        Returns
        -------
        ndarray of int of shape (d, n)
            ``offsets[j] + np.searchsorted(cdf_j, u, side="right")`` for every element
            (what ``RandomState.choice(values, p=...)`` computes), by table lookup.
        """
        cell = (uniforms * _CELLS).astype(np.intp)
        cell += self._cell_offsets
        index = self._below[cell]
        index += uniforms >= self._boundary[cell]
        for j in self._searched:
            hit = self._several[cell[j]]
            if hit.any():
                index[j, hit] = self.offsets[j] + np.searchsorted(
                    self.cdfs[j], uniforms[j, hit], side="right")
        return index

    def row_index(self, rows: np.ndarray) -> np.ndarray:
        """Global value index of each row's bin / category.

        Parameters
        ----------
        rows : ndarray of shape (R, d)
            Encoded rows.

        Returns
        -------
        ndarray of int of shape (R, d)
            The index, -1 where lime never draws it (a category or bin absent from the
            training data).
        """
        codes = self.discretize(rows)
        index = np.full(codes.shape, -1, dtype=np.intp)
        for j in range(self.n_features):
            values = self.all_values[self.offsets[j]:self.offsets[j + 1]]
            pos = np.minimum(np.searchsorted(values, codes[:, j]), len(values) - 1)
            index[:, j] = np.where(values[pos] == codes[:, j], self.offsets[j] + pos, -1)
        return index

    def discretize(self, rows: np.ndarray) -> np.ndarray:
        """Bin index (numeric columns) or value (categorical columns) of each row.

        Parameters
        ----------
        rows : ndarray of shape (..., d)
            Encoded rows.

        Returns
        -------
        ndarray of float64 of the same shape
            The codes lime's discretizer gives.
        """
        codes = np.array(rows, dtype=np.float64, copy=True)
        for k, f in enumerate(self.numeric):
            codes[..., f] = np.searchsorted(self.edges[k], np.asarray(rows)[..., f])
        return codes


class FastConstants:
    """Per-value constants of the fast sampler, indexed by global value index.

    The uniform ``u`` that drew bin ``k`` (``C[k-1] <= u < C[k]`` in the feature's cdf)
    also places the value inside it: ``v = (u - C[k-1]) / p[k]`` is uniform on [0, 1)
    and independent of ``k``, so no second uniform is needed. The value is the truncated
    normal's inverse CDF ``ndtri(Φ(a) + v·(Φ(b) − Φ(a)))`` (mirrored for bins right of the
    mean, where the left tail is more accurate), scaled, shifted and clipped to the bin.
    A zero-width bin yields its value; a bin whose mass underflows sits at its bound
    nearest the mean.

    Parameters
    ----------
    tables : SamplingTables
        The tables the constants are computed from.
    """

    def __init__(self, tables: SamplingTables):
        a, b = tables.a, tables.b
        right = a >= 0
        p_low = special.ndtr(np.where(right, -b, a))
        width = special.ndtr(np.where(right, -a, b)) - p_low
        point = (a == b) | ~(width > 0)
        loc = tables.loc.copy()
        scale = np.where(right, -tables.scale, tables.scale)
        nearest = np.clip(0.0, a, b)
        loc[point] = np.where(a[point] == b[point], tables.lower[point],
                              loc[point] + tables.scale[point] * nearest[point])
        scale[point], p_low[point], width[point] = 0.0, 0.5, 0.0
        flat = tables.bin_flat

        def per_value(per_bin):
            # Categorical values index bin 0, which does not exist without numeric features;
            # their entries are never read.
            return per_bin[flat] if per_bin.size else np.zeros(flat.shape)

        with np.errstate(divide="ignore", invalid="ignore"):
            slope = np.where(tables.probability > 0, per_value(width) / tables.probability, 0.0)
        self.cdf_below, self.slope, self.p_low = tables.cdf_below, slope, per_value(p_low)
        self.scale, self.loc = per_value(scale), per_value(loc)
        self.lower, self.upper = per_value(tables.lower), per_value(tables.upper)

    def values(self, index: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
        """Truncated-normal values of the draws ``index`` made from ``uniforms``.

        Parameters
        ----------
        index : ndarray of int
            Global value indices of numeric bins (:meth:`SamplingTables.draw`).
        uniforms : ndarray of float64 of the same shape
            The uniforms that drew them.

        Returns
        -------
        ndarray of float64 of the same shape
            Each draw's value inside its bin.
        """
        z = uniforms - self.cdf_below[index]
        z *= self.slope[index]
        z += self.p_low[index]
        np.minimum(z, 1.0, out=z)
        z = special.ndtri(z)
        z *= self.scale[index]
        z += self.loc[index]
        np.maximum(z, self.lower[index], out=z)
        return np.minimum(z, self.upper[index], out=z)


def _exact_values(tables, ppf, flat, generator):
    """Lime's undiscretized values of bins ``flat`` (n_numeric, n), consuming ``generator``
    as ``truncnorm.rvs`` does, feature after feature; sample 0 (the row) is left at 0."""
    out = np.zeros(flat.shape)
    flat = flat[:, 1:]
    a = tables.a[flat]
    draw = a != tables.b[flat]  # lime's min_max_unequal
    values = tables.lower[flat] if tables.fix_zero_width_bins else a
    idx = flat[draw]
    x = ppf(generator.random_sample(len(idx)), idx)
    x *= tables.scale[idx]
    x += tables.loc[idx]
    values[draw] = x
    out[:, 1:] = values
    return out


def _input_block(tables, index, uniforms, generator, mode, constants, ppf):
    """The samples of one row in the input space, feature-major (d, n)."""
    numeric, categorical = tables.numeric, tables.categorical
    if not len(numeric):
        return tables.all_values[index]
    drawn = index[numeric] if len(categorical) else index
    if mode == "exact":
        values = _exact_values(tables, ppf, tables.bin_flat[drawn], generator)
    else:
        values = constants.values(drawn, uniforms[numeric] if len(categorical) else uniforms)
    if not len(categorical):
        return values
    block = np.empty(index.shape)
    block[categorical] = tables.all_values[index[categorical]]
    block[numeric] = values
    return block


def one_hot_negations(feature_values, categorical) -> np.ndarray:
    """The one-hot view's extra features.

    Parameters
    ----------
    feature_values : sequence of array-like
        Each column's values as lime samples them (``explainer.feature_values``).
    categorical : sequence of int
        The categorical columns.

    Returns
    -------
    ndarray of int of shape (E, 2)
        (column, position among the column's values), for every value of every
        categorical column with more than two values (with two, "not the other value" is
        the row's own column again).
    """
    pairs = [(j, p) for j in sorted(int(c) for c in categorical)
             if len(feature_values[j]) > 2 for p in range(len(feature_values[j]))]
    return np.array(pairs, dtype=np.intp).reshape(-1, 2)


def sample_neighbourhoods(tables, rows, seeds, num_samples, mode="fast", constants=None,
                          ppf=None) -> Neighbourhoods:
    """Draw lime's perturbations of every row of a batch.

    Parameters
    ----------
    tables : SamplingTables
        What lime samples from.
    rows : ndarray of shape (R, n_features)
        The rows explained (encoded, no NaN).
    seeds : sequence of int
        One seed per row; row ``r``'s samples depend on ``seeds[r]`` only, and rows with
        the same seed share them (drawn once).
    num_samples : int
        Samples per neighbourhood, the row itself included.
    mode : {"fast", "exact"}, default="fast"
        ``exact`` consumes the seeds as lime does; ``fast`` uses faster generators.
    constants : FastConstants, optional
        Cached ``FastConstants(tables)`` (fast mode).
    ppf : ExactTruncnormPPF, optional
        Cached ``ExactTruncnormPPF(tables.a, tables.b)`` (exact mode).

    Returns
    -------
    Neighbourhoods
        The batch's samples, shared by rows of one seed.

    Raises
    ------
    ValueError
        If ``mode`` is neither ``"fast"`` nor ``"exact"``.
    """
    if mode not in ("fast", "exact"):
        raise ValueError(f"mode must be 'fast' or 'exact', got {mode!r}")
    rows = np.asarray(rows, dtype=np.float64)
    n_rows, d = rows.shape
    n = int(num_samples)
    if mode == "exact":
        ppf = ppf or ExactTruncnormPPF(tables.a, tables.b)
    else:
        constants = constants or FastConstants(tables)
    row_index = tables.row_index(rows)
    distinct, pool = np.unique(np.asarray(seeds, dtype=np.int64), return_inverse=True)
    pool = pool.reshape(-1)
    widest = int(np.diff(tables.offsets).max(initial=1))
    dtype = np.int16 if widest <= np.iinfo(np.int16).max else np.int32
    starts = tables.offsets[:-1]
    row_codes = np.where(row_index >= 0, row_index - starts, -1).astype(dtype)
    codes = np.empty((len(distinct), d, n), dtype=dtype)
    samples = np.empty((len(distinct), n - 1, d))
    for u, seed in enumerate(distinct):  # one seed at a time keeps the work arrays in cache
        if mode == "exact":
            generator = np.random.RandomState(int(seed))
            uniforms = generator.random_sample(d * n).reshape(d, n)
        else:
            generator = np.random.default_rng(int(seed))
            uniforms = generator.random((d, n))
        index = tables.draw(uniforms)
        np.subtract(index, starts[:, None], out=codes[u], casting="unsafe")
        block = _input_block(tables, index, uniforms, generator, mode, constants, ppf)
        samples[u] = block[:, 1:].T
    return Neighbourhoods(rows, samples, pool, codes, row_codes)
