"""``scipy.stats.truncnorm``'s inverse CDF, bit for bit, with the per-bin work done once.

Lime draws a perturbed value inside a bin with ``truncnorm.rvs(a, b, loc, scale)``, which
in scipy is ``truncnorm._ppf(u, a, b) * scale + loc`` for one uniform ``u`` per value.
``_ppf`` spends most of its time on terms that depend only on ``(a, b)`` — the log mass of
the interval and the log CDF of its outer bound — and on a general ``logsumexp``. A bin has
one ``(a, b)``, so :class:`ExactTruncnormPPF` computes those terms once per bin and evaluates
the rest with the same floating-point operations scipy performs, in the same order.

That reproduction follows scipy's private code (``scipy/stats/_continuous_distns.py`` and
``scipy/special/_logsumexp.py``), so it is verified when built: on the bins at hand and a
grid of probabilities, it must equal ``truncnorm._ppf`` exactly, or the class falls back to
calling ``truncnorm._ppf`` itself (slower, equally exact).
"""

from __future__ import annotations

import numpy as np
from scipy import special
from scipy.stats import truncnorm

__all__ = ["ExactTruncnormPPF"]

try:  # scipy's own log mass of [a, b], used so the per-bin constants are scipy's values
    from scipy.stats._continuous_distns import _log_gauss_mass
except ImportError:  # pragma: no cover - a future scipy; the self-check then fails over
    _log_gauss_mass = None

_LOG2 = np.log(2.0)


class ExactTruncnormPPF:
    """``truncnorm._ppf(q, a[i], b[i])`` for many ``q`` and bin indices ``i``.

    Parameters
    ----------
    a, b : ndarray
        Standardized bounds per bin (any shape; bins are addressed by flat index). Bins
        with ``a == b`` are never evaluated (lime does not sample them).

    Attributes
    ----------
    reproduces_scipy : bool
        Whether the fast evaluation matched ``truncnorm._ppf`` bit for bit on the
        self-check; when ``False`` every call goes through ``truncnorm._ppf``.
    """

    def __init__(self, a: np.ndarray, b: np.ndarray):
        self.a = np.asarray(a, dtype=np.float64).ravel()
        self.b = np.asarray(b, dtype=np.float64).ravel()
        live = self.a < self.b
        self.right = self.a >= 0  # scipy's case_right
        self.tail = np.zeros_like(self.a)
        self.mass = np.zeros_like(self.a)
        self.reproduces_scipy = False
        if _log_gauss_mass is None or not live.any():
            return
        a, b = self.a[live], self.b[live]
        with np.errstate(all="ignore"):
            self.tail[live] = np.where(a >= 0, special.log_ndtr(-b), special.log_ndtr(a))
            self.mass[live] = _log_gauss_mass(a, b)
        self.reproduces_scipy = self._self_check(np.flatnonzero(live))

    def _self_check(self, live: np.ndarray) -> bool:
        q = np.array([0.0, 1e-300, 1e-17, 1e-9, 0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999,
                      1 - 1e-12, 0.9999999999999999])
        q = np.concatenate([q, np.random.RandomState(0).random_sample(64)])
        idx = np.repeat(live, len(q))
        qq = np.tile(q, len(live))
        with np.errstate(all="ignore"):
            want = truncnorm._ppf(qq, self.a[idx], self.b[idx])
            got = self._fast(qq, idx)
        return bool(np.array_equal(want, got, equal_nan=True))

    def _fast(self, q: np.ndarray, idx: np.ndarray) -> np.ndarray:
        right = self.right[idx]
        log_q = np.log(q)
        if right.any():
            log_q[right] = np.log1p(-q[right])
        log_q += self.mass[idx]
        tail = self.tail[idx]
        # logsumexp([tail, log_q], axis=0) as scipy computes it for two real terms:
        # log1p(exp(lo - hi)) + log(m) + hi, m = number of terms equal to the maximum.
        hi = np.maximum(tail, log_q)
        s = np.minimum(tail, log_q)
        s -= hi
        np.exp(s, out=s)
        equal = tail == log_q
        s[equal] = 0.0
        out = np.log1p(s)
        out[equal] += _LOG2
        out += hi
        bad = ~np.isfinite(out)
        if bad.any():
            out[bad] = np.log(np.exp(tail[bad]) + np.exp(log_q[bad]))
        x = special.ndtri_exp(out)
        x[right] = -x[right]
        return x

    def __call__(self, q: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """Inverse CDF at probabilities ``q`` of bins ``idx`` (flat indices).

        Parameters
        ----------
        q : ndarray of float64
        idx : ndarray of int, same shape

        Returns
        -------
        ndarray of float64
            Standardized values (multiply by the bin's scale, add its loc).
        """
        with np.errstate(all="ignore"):
            if self.reproduces_scipy:
                return self._fast(q, idx)
            return truncnorm._ppf(q, self.a[idx], self.b[idx])
