"""How the reports round a figure: a half up, as the decimal number report.json writes.

``f"{0.9125:.3f}"`` gives ``0.912`` but ``f"{0.9875:.3f}"`` gives ``0.988``: formatting
rounds the binary double, which lies a little below or above the half. A fidelity of 73
rows of 80 would read 0.912 in the reports and 0.9125 in report.json, a shared fraction
round one way here and the other way there; rounding the shortest decimal text of the
double (:func:`repr`, what report.json holds) treats every half alike.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

__all__ = ["decimals", "significant"]


def decimals(value: float, places: int) -> str:
    """``value`` to ``places`` decimals, a half rounded up (away from zero).

    Parameters
    ----------
    value : float
        The figure.
    places : int
        Decimals shown.

    Returns
    -------
    str
        The rounded figure with exactly ``places`` decimals (``nan``, ``inf`` as Python
        writes them); a negative figure that rounds to zero is shown as zero, unsigned.

    Examples
    --------
    >>> decimals(73 / 80, 3), decimals(79 / 80, 3), decimals(0.125, 2)
    ('0.913', '0.988', '0.13')
    """
    if not math.isfinite(value):
        return f"{value:.{places}f}"
    rounded = Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-places),
                                                   rounding=ROUND_HALF_UP)
    return f"{rounded.copy_abs() if rounded.is_zero() else rounded:f}"  # no "-0.000"


def significant(value: float, digits: int) -> str:
    """A positive ``value`` to ``digits`` significant digits, a half rounded up.

    Parameters
    ----------
    value : float
        A positive, finite figure such as a p-value.
    digits : int
        Significant digits shown, trailing zeros kept.

    Returns
    -------
    str
        The rounded figure in positional notation (``0.050``, ``0.0034``).

    Examples
    --------
    >>> significant(0.0625, 2), significant(0.04998, 2), significant(0.0996, 2)
    ('0.063', '0.050', '0.10')
    """
    exact = Decimal(repr(float(value)))
    places = digits - 1 - exact.adjusted()
    rounded = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    if rounded.adjusted() > exact.adjusted():  # rounded up to the next power of ten
        places -= 1
    return decimals(value, max(places, 0))
