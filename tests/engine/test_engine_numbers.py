"""The one number formatter: honest about tiny, huge and nearly-whole values (issue 11, item 5)."""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.format.numbers import (
    ABOUT,
    TIMES_TEN,
    NumberFormat,
    NumberTextError,
    format_exact,
    format_factor,
    format_number,
    format_scientific,
    parse_number,
    parse_shown,
)
from engine.format.writer import to_document
from engine.scenario.edit import with_parameter

finite = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    # Where rounding lies most easily: next to 0 and next to ±1.
    st.floats(min_value=-1e-3, max_value=1e-3),
    st.floats(min_value=0.99, max_value=1.01), st.floats(min_value=-1.01, max_value=-0.99))
places = st.sampled_from([1, 2, 3, 4, 6, 10])
SETTINGS = settings(max_examples=400, deadline=None)


def exponent_of(text: str) -> int:
    """The power of ten of a scientific text, read independently of the formatter."""
    power = text.split(TIMES_TEN)[1]
    return int(power.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")))


def shown_decimal(text: str) -> Decimal:
    """The exact number a shown text stands for, read independently of the formatter."""
    plain = text.replace(ABOUT, "").replace("−", "-")
    if TIMES_TEN in plain:
        return Decimal(plain.split(TIMES_TEN)[0]).scaleb(exponent_of(text))
    return Decimal(plain)


@SETTINGS
@given(finite, places)
def test_a_value_that_is_not_0_or_1_never_prints_as_0_or_1(value: float, p: int) -> None:
    text = format_number(value, p)
    if value == 0:
        assert text == "0"
    else:
        assert shown_decimal(text) != 0, (value, text)
    if abs(value) != 1:
        assert text not in ("1", "−1", "1.0"), (value, text)


@SETTINGS
@given(finite, places)
def test_the_text_reads_back_within_the_stated_precision(value: float, p: int) -> None:
    text = format_number(value, p)
    # p decimals (of the mantissa, when scientific): off by at most half a unit of the last one.
    unit = Decimal(1).scaleb((exponent_of(text) if TIMES_TEN in text else 0) - p)
    assert abs(shown_decimal(text) - Decimal(value)) <= unit / 2, (value, text)


@SETTINGS
@given(finite, places, st.booleans())
def test_the_width_is_bounded_whatever_the_magnitude(value: float, p: int, sci: bool) -> None:
    # A sign, at most 7 integer digits, a point, p decimals; or a sign, a mantissa with p
    # decimals, ×10 and at most a sign and 3 exponent digits.
    assert len(format_number(value, p, scientific=sci)) <= p + 10


@SETTINGS
@given(finite)
def test_exact_text_reads_back_as_the_very_same_float(value: float) -> None:
    assert parse_number(format_exact(value)) == value


@SETTINGS
@given(st.lists(finite, min_size=1, max_size=12), st.sampled_from([2, 3, 4, 6]))
def test_a_grid_shares_one_format_and_its_widest_text_bounds_every_cell(
        cells: list[float], p: int) -> None:
    values = np.array(cells)
    shared = NumberFormat.for_values(values, p)
    texts = [shared.text(v) for v in cells]
    widest = shared.widest(values)
    assert NumberFormat.with_widest(values, p) == (shared, widest)  # one look, the same answer
    assert all(len(t) <= len(widest) for t in texts), (texts, widest)
    if any(abs(v) >= 1e7 for v in cells):
        assert shared.scientific
        assert all(TIMES_TEN in t for v, t in zip(cells, texts, strict=True) if v != 0)


def test_the_row_of_shares_from_the_issue_no_longer_reads_0_1_0() -> None:
    row = [9.6e-7, 0.999999, 5e-8]
    assert [format_number(v, 3) for v in row] == ["9.6×10⁻⁷", f"{ABOUT}1", "5×10⁻⁸"]
    assert sum(row) != 1.0  # the values really are not 0, 1, 0


@pytest.mark.parametrize(("value", "places", "text"), [
    (2.0, 6, "2"), (-0.5, 3, "−0.5"), (1.41421356, 3, "1.414"), (0.0, 3, "0"),
    (1.0, 3, "1"), (-1.0, 3, "−1"), (1.2e8, 3, "1.2×10⁸"), (-1.2e8, 2, "−1.2×10⁸"),
    (1e300, 3, "1×10³⁰⁰"), (0.0004, 3, "4×10⁻⁴"), (0.0004, 4, "0.0004"),
    (1.0004, 3, "≈1"), (-0.99996, 4, "≈−1"), (1234567.25, 2, "1234567.25"),
    (9999999.9999, 3, "1×10⁷"), (0.49, 0, "5×10⁻¹"),
])
def test_examples_of_the_rules(value: float, places: int, text: str) -> None:
    assert format_number(value, places) == text


def test_padding_keeps_the_decimals_and_stays_honest() -> None:
    assert format_number(0.5, 3, pad=True) == "0.500"
    assert format_number(9.6e-7, 3, pad=True) == "9.6×10⁻⁷"
    assert format_number(0.9999, 3, pad=True) == "≈1"


@pytest.mark.parametrize(("value", "text"), [
    (1.5e-12, "1.5×10⁻¹²"), (1e-5, "0.00001"), (1e-6, "1×10⁻⁶"), (0.25, "0.25"),
    (-2.0, "−2"), (1e300, "1×10³⁰⁰"), (123456789.0, "1.23456789×10⁸"), (0.0, "0"),
])
def test_constants_are_written_exactly(value: float, text: str) -> None:
    assert format_exact(value) == text
    assert parse_number(text) == value


def test_typed_scientific_forms_are_read() -> None:
    assert parse_number("1.5×10⁻¹²") == 1.5e-12
    assert parse_number("−9.6 × 10⁻⁷") == -9.6e-7
    assert parse_number("1e300") == 1e300
    assert math.isclose(parse_shown("≈1"), 1.0)


def test_display_decimals_is_an_optional_documented_key_that_round_trips() -> None:
    from engine import load_scenario, parse_scenario
    from engine.format.errors import ScenarioError

    f11 = load_scenario("resources/examples/f11.qkv.json")
    assert f11.decimals is None and "display" not in to_document(f11)
    document = to_document(f11)
    document["display"] = {"decimals": 4}
    chosen = parse_scenario(document)
    assert chosen.decimals == 4 and to_document(chosen)["display"] == {"decimals": 4}
    assert with_parameter(chosen, "X", chosen.X * 2).decimals == 4  # an edit keeps it
    for bad, message in (({"decimals": 0}, "display.decimals: expected a whole number from 1"),
                         ({"digits": 3}, "display.digits: unknown key"),
                         (3, "display: expected an object")):
        document["display"] = bad
        with pytest.raises(ScenarioError, match=message):
            parse_scenario(document)


@pytest.mark.parametrize(("value", "text"), [
    (math.nan, "NaN"), (math.inf, "∞"), (-math.inf, "−∞")])
def test_non_finite_values_read_the_same_in_every_formatter(value: float, text: str) -> None:
    assert format_number(value, 3) == text
    assert format_scientific(value, 3) == text
    assert format_exact(value) == text


def test_scientific_and_fixed_defaults_and_padding() -> None:
    assert format_scientific(0.0) == "0"
    assert format_scientific(123456789.0) == "1.235×10⁸"  # 3 decimals by default
    assert format_scientific(1.5e8, 3, pad=True) == "1.500×10⁸"
    assert format_number(0.0, 3, pad=True) == "0.000"
    assert format_number(120.0, 2) == "120"  # trimming stops at the point
    assert format_number(120.0, 0) == "120"  # no point: no zero is trimmed


def test_a_negative_factor_is_parenthesised_with_its_decimals() -> None:
    assert format_factor(-0.5, 3) == "(−0.5)"
    assert format_factor(-0.99996, 4) == "(≈−1)"
    assert format_factor(1.23456789, 2) == "1.23"


def test_exact_switches_to_scientific_at_ten_million() -> None:
    assert format_exact(9999999.5) == "9999999.5"
    assert format_exact(1e7) == "1×10⁷"
    assert format_exact(-1.5e-5) == "−0.000015"


def test_a_grid_format_chooses_from_its_largest_finite_value() -> None:
    assert NumberFormat.for_values(np.array([1.0])) == NumberFormat(3, False)
    assert NumberFormat.for_values(np.array([math.nan, math.inf])) == NumberFormat(3, False)
    assert NumberFormat.for_values(np.array([100.0, -9999999.0]), 2) == NumberFormat(2, False)
    assert NumberFormat.for_values(np.array([1.0, 1e7]), 2) == NumberFormat(2, True)
    assert NumberFormat(3).text(0.5) == "0.5"
    assert NumberFormat(2, True).text(1234.5) == "1.23×10³"


@pytest.mark.parametrize(("cells", "text"), [
    ([0.0, 0.0], "0"), ([0.0, 2.5], "8.888"), ([0.5, 2.5], "8.888"),
    ([-2.5, 1.0], "−8.888"), ([12.25, 0.001], "88.888"), ([0.00003, 1.0], "8.888×88⁻⁴"),
    ([float("nan"), -float("inf"), 0.0, 2.5], "8.888"), ([float("nan"), 0.0], "0"),
    ([-0.0, -0.001, float("inf")], "−8.888"),
])
def test_the_widest_text_of_a_grid(cells: list[float], text: str) -> None:
    assert NumberFormat(3).widest(np.array(cells)) == text


def test_the_widest_text_of_a_scientific_grid_is_scientific() -> None:
    # 0.5 fits fixed point, but in a scientific grid every cell reads 5.000×10⁻¹.
    assert NumberFormat(3, True).text(0.5) == "5×10⁻¹"
    assert NumberFormat(3, True).widest(np.array([0.5, 1.0])) == "8.888×88⁻⁴"


@pytest.mark.parametrize(("typed", "value"), [
    ("−1,5", -1.5), ("\u20132", -2.0), (" 3,25 ", 3.25)])
def test_typed_minus_signs_and_decimal_commas_are_read(typed: str, value: float) -> None:
    assert parse_number(typed) == value


@pytest.mark.parametrize(("typed", "reason", "message"), [
    ("  ", "empty", "empty: type a number"),
    (" abc ", "not a number", "“abc” is not a number"),
    ("1e999", "not finite", "“1e999” is not a finite number"),
])
def test_text_that_is_not_a_number_says_why(typed: str, reason: str, message: str) -> None:
    with pytest.raises(NumberTextError) as caught:
        parse_number(typed)
    assert (caught.value.text, caught.value.reason, str(caught.value)) == (
        typed.strip(), reason, message)


@pytest.mark.parametrize("p", [1, 2, 3, 6, 10])
def test_a_grid_s_texts_at_once_are_each_cell_s_text(p: int) -> None:
    step = 10.0 ** -p
    rng = np.random.default_rng(p)
    edges = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.0, -1.0, step, -step, step / 2,
             0.49 * step, 1 - step / 2, 1 + step / 2, -1 + 0.4 * step, 1e7 - step / 2,
             1e7 - 1, 9999998.999, 1e300, 5e-324, 0.5, -2.25, 7.0, -3.5, 0.25, 40.0]
    values = np.concatenate([edges, rng.normal(size=400), rng.normal(size=200) * 100 * step,
                             1 + rng.normal(size=200) * 3 * step,
                             -1 + rng.normal(size=200) * 3 * step]).reshape(-1, 5)
    for scientific in (False, True):
        shared = NumberFormat(p, scientific)
        assert shared.texts(values) == [format_number(v, p, scientific=scientific)
                                        for v in values.reshape(-1).tolist()]
    assert NumberFormat(3).texts(np.array([0.1239, -0.9996, 0.0004, 12.5])) == [
        "0.124", "≈−1", "4×10⁻⁴", "12.5"]
