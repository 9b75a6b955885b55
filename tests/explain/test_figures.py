"""Figures are rounded a half up, as the decimal number report.json writes."""

import math
from fractions import Fraction

import pytest

from explain.figures import decimals, significant
from explain.report_md import fmt


def _half_up(fraction: Fraction, places: int) -> str:
    scaled = math.floor(fraction * 10**places + Fraction(1, 2))
    return f"{scaled // 10**places}.{scaled % 10**places:0{places}d}"


def test_every_share_of_up_to_400_rows_rounds_as_its_exact_fraction():
    # k/80 is a half at three decimals for every odd k: formatting the binary double
    # gave 0.912 for 73/80 but 0.988 for 79/80
    for n in range(1, 401):
        for k in range(n + 1):
            assert decimals(k / n, 3) == _half_up(Fraction(k, n), 3), (k, n)


@pytest.mark.parametrize("value, places, shown", [
    (73 / 80, 3, "0.913"), (71 / 80, 3, "0.888"), (79 / 80, 3, "0.988"), (39 / 80, 3, "0.488"),
    (0.125, 2, "0.13"), (0.375, 2, "0.38"), (1.0, 3, "1.000"), (0.0, 3, "0.000"),
    (0.2, 0, "0"), (2.5, 0, "3"), (float("nan"), 3, "nan"),
    (-0.0005, 3, "-0.001"), (-0.0004, 3, "0.000"), (-0.0, 3, "0.000"), (-2.5, 0, "-3"),
    (0.9995, 3, "1.000"), (float("-inf"), 3, "-inf"),
])
def test_decimals(value, places, shown):
    assert decimals(value, places) == shown


@pytest.mark.parametrize("value, digits, shown", [
    (0.0625, 2, "0.063"), (0.03125, 2, "0.031"), (0.0498, 2, "0.050"), (0.0498, 3, "0.0498"),
    (0.0996, 2, "0.10"), (0.00345, 2, "0.0035"), (0.5, 2, "0.50"),
])
def test_significant(value, digits, shown):
    assert significant(value, digits) == shown


def test_the_reports_figures_round_so():
    assert fmt(73 / 80) == "0.913" and fmt([71 / 80, 79 / 80]) == "0.888–0.988"


def test_class_weights_are_shown_to_three_digits_without_an_exponent():
    from explain.report_md import class_weights_text

    # a class 1 in 2000 rows weighs 1999: f"{w:.3g}" showed it as ×2e+03
    weights = {"ok": 1.0, "fraud": 1999.0, "odd": 12.35, "half": 2.5, "few": 291 / 9}
    assert class_weights_text({"class_weights": weights}) == (
        "'ok' ×1, 'fraud' ×1999, 'odd' ×12.4, 'half' ×2.5, 'few' ×32.3")
    assert class_weights_text({"class_weights": None}) == ""


def test_a_share_that_would_round_to_an_end_is_not_shown_as_that_end():
    # 1,999 rows of 2,000 read "1.000", as if the surrogate agreed on every row
    assert fmt(1999 / 2000) == ">0.999" and fmt(1 / 2500) == "<0.001"
    assert fmt(1.0) == "1.000" and fmt(0.0) == "0.000"  # the ends themselves
    assert fmt(0.9994) == "0.999" and fmt(1.0004) == "1.000"  # not a share: seconds
    assert fmt([1 / 2500, 1999 / 2000]) == "<0.001–>0.999"
