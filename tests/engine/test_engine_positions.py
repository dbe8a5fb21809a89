"""Positional encodings against independent arithmetic written out here, and their refusals.

Every expected value is computed in this file by a route other than engine/forward/positions.py:
loops over cells, the complex-number form of a rotation, the published formulas with known values.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ScenarioError
from engine.forward.alibi import alibi_bias, alibi_slopes
from engine.forward.positions import (
    added_rows,
    check_stack,
    parse_positions,
    rope_angles,
    rope_frequencies,
    rotate,
    sinusoidal_table,
)
from engine.forward.rope_scaling import RopeScaling
from engine.scenario.positions import Positions

RNG = np.random.default_rng(14)


# -- independent references ------------------------------------------------------------------

def rope_by_loops(rows: np.ndarray, heads: int, r: int, base: float, pairing: str) -> np.ndarray:
    """RoPE cell by cell: head, position, pair, with the 2 × 2 rotation matrix."""
    n, width = rows.shape
    d_k = width // heads
    out = rows.copy()
    for head in range(heads):
        for p in range(n):
            for i in range(r // 2):
                theta = base ** (-2 * i / r)
                c, s = math.cos(p * theta), math.sin(p * theta)
                a, b = (i, i + r // 2) if pairing == "half" else (2 * i, 2 * i + 1)
                a, b = head * d_k + a, head * d_k + b
                x, y = rows[p, a], rows[p, b]
                out[p, a], out[p, b] = c * x - s * y, s * x + c * y
    return out


def rope_by_complex(rows: np.ndarray, r: int, base: float) -> np.ndarray:
    """Interleaved RoPE of one head as complex numbers: (q0 + i·q1)·e^{i·p·θ}."""
    n = rows.shape[0]
    z = rows[:, 0:r:2] + 1j * rows[:, 1:r:2]
    theta = base ** (-np.arange(r // 2) * 2.0 / r)
    turned = z * np.exp(1j * np.arange(n)[:, None] * theta[None, :])
    out = rows.copy()
    out[:, 0:r:2], out[:, 1:r:2] = turned.real, turned.imag
    return out


# -- sinusoidal --------------------------------------------------------------------------------

def test_sinusoidal_known_values() -> None:
    table = sinusoidal_table(3, 4)
    assert table[0].tolist() == [0.0, 1.0, 0.0, 1.0]
    assert table[1, 0] == pytest.approx(math.sin(1.0), abs=1e-15)
    assert table[1, 1] == pytest.approx(math.cos(1.0), abs=1e-15)
    assert table[2, 2] == pytest.approx(math.sin(2 / 100), abs=1e-15)  # 10000^(2/4) = 100
    assert table[2, 3] == pytest.approx(math.cos(2 / 100), abs=1e-15)


def test_sinusoidal_odd_width_and_base_by_loops() -> None:
    n, d, base = 5, 5, 7.5
    expected = np.array([[(math.sin if c % 2 == 0 else math.cos)(p / base ** (2 * (c // 2) / d))
                          for c in range(d)] for p in range(n)])
    np.testing.assert_allclose(sinusoidal_table(n, d, base), expected, rtol=0, atol=1e-14)


# -- learned -----------------------------------------------------------------------------------

def test_learned_rows_start_at_the_offset() -> None:
    table = np.arange(12.0).reshape(6, 2)
    positions = parse_positions({"kind": "learned", "table": table.tolist(), "offset": 2},
                                "positions", n=3, d=2)
    rows = added_rows(positions, 3, 2)
    assert rows is not None
    assert rows.tolist() == [[4.0, 5.0], [6.0, 7.0], [8.0, 9.0]]


def test_non_additive_kinds_add_no_rows() -> None:
    for kind in ("none", "rope", "alibi"):
        assert added_rows(parse_positions({"kind": kind}, "positions", 2, 2), 2, 2) is None


# -- RoPE --------------------------------------------------------------------------------------

@pytest.mark.parametrize("pairing", ["half", "interleaved"])
@pytest.mark.parametrize(("heads", "d_k", "r"), [(1, 4, 4), (2, 4, 4), (2, 6, 4), (1, 8, 2)])
def test_rope_matches_the_rotation_cell_by_cell(pairing: str, heads: int, d_k: int,
                                                r: int) -> None:
    rows = RNG.normal(size=(5, heads * d_k))
    turned = rotate(rows, heads, rope_angles(5, r, 100.0), pairing)
    np.testing.assert_allclose(turned, rope_by_loops(rows, heads, r, 100.0, pairing),
                               rtol=0, atol=1e-13)


def test_partial_rope_leaves_the_other_columns_untouched() -> None:
    rows = RNG.normal(size=(4, 2 * 6))
    turned = rotate(rows, 2, rope_angles(4, 2, 10000.0), "half")
    for head in range(2):
        kept = slice(head * 6 + 2, head * 6 + 6)
        assert np.array_equal(turned[:, kept], rows[:, kept])
    assert not np.allclose(turned[1:, 0:2], rows[1:, 0:2])


def test_interleaved_rope_is_multiplication_by_a_unit_complex_number() -> None:
    rows = RNG.normal(size=(6, 6))
    turned = rotate(rows, 1, rope_angles(6, 4, 10.0), "interleaved")
    np.testing.assert_allclose(turned, rope_by_complex(rows, 4, 10.0), rtol=0, atol=1e-13)


def test_half_pairing_is_interleaved_with_the_columns_reordered() -> None:
    rows = RNG.normal(size=(4, 4))
    order = [0, 2, 1, 3]  # half pairs (0, 2) and (1, 3); interleaved pairs (0, 1) and (2, 3)
    half = rotate(rows, 1, rope_angles(4, 4, 10.0), "half")
    interleaved = rotate(rows[:, order], 1, rope_angles(4, 4, 10.0), "interleaved")
    np.testing.assert_allclose(half[:, order], interleaved, rtol=0, atol=1e-14)


def test_position_zero_is_not_turned() -> None:
    rows = RNG.normal(size=(3, 4))
    for pairing in ("half", "interleaved"):
        assert np.array_equal(rotate(rows, 1, rope_angles(3, 4, 10000.0), pairing)[0], rows[0])


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
def test_rope_keeps_lengths_and_scores_depend_only_on_the_offset(pairing: str) -> None:
    q, k = RNG.normal(size=4), RNG.normal(size=4)
    n = 9
    angles = rope_angles(n, 4, 10.0)
    Q = rotate(np.tile(q, (n, 1)), 1, angles, pairing)
    K = rotate(np.tile(k, (n, 1)), 1, angles, pairing)
    # Turning q and k by the same position leaves q·k unchanged.
    for p in range(n):
        assert Q[p] @ K[p] == pytest.approx(q @ k, abs=1e-12)
        assert np.linalg.norm(Q[p]) == pytest.approx(np.linalg.norm(q), abs=1e-12)
    # The score of query position i and key position j depends on i − j alone.
    scores = Q @ K.T
    for offset in range(-3, 4):
        cells = [scores[i, i - offset] for i in range(n) if 0 <= i - offset < n]
        np.testing.assert_allclose(cells, cells[0], rtol=0, atol=1e-12)
    assert scores[3, 1] != pytest.approx(scores[3, 2])


def test_rope_angles_are_position_times_frequency() -> None:
    angles = rope_angles(3, 4, 10000.0)
    assert angles.tolist() == [[0.0, 0.0], [1.0, 0.01], [2.0, 0.02]]


# -- ALiBi -------------------------------------------------------------------------------------

def test_alibi_default_slopes_for_eight_heads_are_halves() -> None:
    assert alibi_slopes(8).tolist() == [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128,
                                        1 / 256]
    np.testing.assert_allclose(alibi_slopes(4), [2**-2, 2**-4, 2**-6, 2**-8], rtol=1e-15)


def test_alibi_bias_grid_causal_and_not() -> None:
    slopes = np.array([0.5, 0.25])
    causal = alibi_bias(slopes, 3, causal=True)
    assert causal[0].tolist() == [[0.0, 0.5, 1.0], [-0.5, 0.0, 0.5], [-1.0, -0.5, 0.0]]
    assert causal[1, 2].tolist() == [-0.5, -0.25, 0.0]
    both = alibi_bias(slopes, 3, causal=False)
    assert both[0].tolist() == [[0.0, -0.5, -1.0], [-0.5, 0.0, -0.5], [-1.0, -0.5, 0.0]]
    assert not np.signbit(causal).any(where=causal == 0)  # 0, never −0, on the diagonal


def test_document_slopes_replace_the_default() -> None:
    positions = parse_positions({"kind": "alibi", "slopes": [1, 0.1]}, "positions", 3, 2)
    assert positions.head_slopes(2).tolist() == [1.0, 0.1]
    assert Positions(kind="alibi").head_slopes(2).tolist() == [2**-4, 2**-8]


# -- refusals ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "message"), [
    ({"kind": "learned", "table": [[0, 0]] * 4, "offset": 2},
     "positions.table: expected at least 5 rows for n = 3 from offset 2, got 4"),
    ({"kind": "learned", "table": [[0, 0, 0]] * 3},
     "positions.table: expected 2 columns to match d=2, got 3"),
    ({"kind": "learned"}, "positions.table: missing: a learned table needs one row per position"),
    ({"kind": "learned", "table": [[0, 0]] * 3, "offset": -1},
     "positions.offset: expected a whole number from 0 to 512, got -1"),
    ({"kind": "rope", "rotary_dims": 3},
     "positions.rotary_dims: expected an even number (columns turn in pairs), got 3"),
    ({"kind": "rope", "pairing": "neox"},
     'positions.pairing: expected one of "half" | "interleaved", got "neox"'),
    ({"kind": "rope", "base": 0}, "positions.base: expected a number above 0, got 0"),
    ({"kind": "sinusoidal", "base": -2.5}, "positions.base: expected a number above 0, got -2.5"),
    ({"kind": "sinusoidal", "base": "big"}, 'positions.base: expected a number, got "big"'),
    ({"kind": "absolute"}, 'positions.kind: expected one of "none" | "sinusoidal" | "learned" | '
                           '"rope" | "alibi", got "absolute"'),
    ({"kind": "alibi", "slopes": []}, "positions.slopes: expected one slope per head (1 to 64), "
                                      "got 0"),
    ({"kind": "sinusoidal", "table": [[0]]},
     "positions.table: belongs to kind learned, not sinusoidal"),
    ({"kind": "alibi", "base": 10}, "positions.base: belongs to kind sinusoidal or rope, not "
                                    "alibi"),
    ({"kind": "rope", "theta": 10}, "positions.theta: unknown key (allowed for kind rope: kind, "
                                    "base, rotary_dims, pairing, scaling, context)"),
    ({"kind": "rope", "scaling": {"type": "dynamic", "factor": 2}},
     'positions.scaling.type: expected one of "linear" | "llama3" | "yarn" | "longrope", got '
     '"dynamic"'),
    ({"kind": "rope", "scaling": {"type": "longrope"}}, "positions.scaling.short_factor: missing"),
    ({"kind": "rope", "scaling": {"type": "longrope", "short_factor": [1, -2]}},
     "positions.scaling.short_factor[1]: expected a number above 0, got -2.0"),
    ({"kind": "rope", "scaling": {"factor": 2}}, "positions.scaling.type: missing"),
    ({"kind": "rope", "scaling": {"type": "linear"}}, "positions.scaling.factor: missing"),
    ({"kind": "rope", "scaling": {"type": "linear", "factor": 0}},
     "positions.scaling.factor: expected a number above 0, got 0"),
    ({"kind": "rope", "scaling": {"type": "linear", "factor": 2, "beta_fast": 3}},
     "positions.scaling.beta_fast: unknown key (allowed here: type, factor)"),
    ({"kind": "rope", "scaling": {"type": "yarn", "factor": 2}},
     "positions.scaling.original_max_position_embeddings: missing"),
    ({"kind": "rope", "scaling": {"type": "llama3", "factor": 8, "low_freq_factor": 2,
                                  "high_freq_factor": 2, "original_max_position_embeddings": 64}},
     "positions.scaling.high_freq_factor: low_freq_factor and high_freq_factor are both 2.0: "
     "llama3 divides by their difference"),
    ({"kind": "rope", "scaling": {"type": "yarn", "factor": 4, "beta_fast": 1e308,
                                  "original_max_position_embeddings": 64}},
     "positions.scaling.beta_fast: yarn takes ln(64 / (2π·β)), not a finite number for "
     "β = 1e+308"),
    ({"kind": "rope", "scaling": {"type": "yarn", "factor": 4, "beta_slow": 5e-324,
                                  "original_max_position_embeddings": 64}},
     "positions.scaling.beta_slow: yarn takes ln(64 / (2π·β)), not a finite number for "
     "β = 5e-324"),
    ({"kind": "rope", "base": 1, "scaling": {"type": "yarn", "factor": 4,
                                             "original_max_position_embeddings": 64}},
     "positions.base: yarn divides by ln base, which is 0 for base 1"),
    ("rope", 'positions: expected an object, got "rope"'),
])
def test_malformed_positions_are_refused_naming_the_place(value: object, message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_positions(value, "positions", n=3, d=2)
    assert str(caught.value) == message


def test_encoder_positions_are_named_by_their_own_place() -> None:
    with pytest.raises(ScenarioError, match=r"^encoder\.positions\.rotary_dims: expected an even"):
        parse_positions({"kind": "rope", "rotary_dims": 5}, "encoder.positions", 3, 2)


@pytest.mark.parametrize(("positions", "attentions", "message"), [
    (Positions(kind="rope", rotary_dims=6), [("layers.0.attention", 1, 6),
                                             ("layers.1.attention", 1, 4)],
     "positions.rotary_dims: 6 is more than d_k = 4 of layers.1.attention"),
    (Positions(kind="rope"), [("attention", 1, 3)],
     "positions.rotary_dims: attention has an odd d_k = 3: give an even rotary_dims (columns "
     "turn in pairs)"),
    (Positions(kind="rope"), [("layers.0.attention", 1, 4), ("layers.1.attention", 2, 2)],
     "positions.rotary_dims: 4 (by default the d_k of layers.0.attention) is more than d_k = 2 "
     "of layers.1.attention"),
    (Positions(kind="rope", scaling=RopeScaling("longrope", short_factor=(1.0, 2.0, 3.0))),
     [("attention", 1, 4)],
     "positions.scaling.short_factor: expected 2 factors, one per turned pair of columns (r/2), "
     "got 3"),
    (Positions(kind="alibi", slopes=np.array([0.5, 0.25, 0.125])),
     [("layers.0.attention", 3, 2), ("layers.1.attention", 2, 4)],
     "positions.slopes: expected 2 numbers to match the 2 heads of layers.1.attention, got 3"),
])
def test_positions_that_do_not_fit_the_stack_are_refused(
        positions: Positions, attentions: list[tuple[str, int, int]], message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        check_stack(positions, "positions", attentions)
    assert str(caught.value) == message


def test_positions_that_fit_pass() -> None:
    check_stack(Positions(kind="rope", rotary_dims=4), "positions",
                [("layers.0.attention", 2, 4), ("layers.1.attention", 1, 6)])
    check_stack(Positions(kind="rope"), "positions", [("attention", 1, 2), ("b", 1, 6)])
    check_stack(Positions(kind="alibi", slopes=np.array([1.0, 2.0])), "positions",
                [("attention", 2, 3)])
    check_stack(Positions(kind="alibi"), "positions", [("a", 2, 3), ("b", 4, 1)])


def test_positions_round_trip_through_their_document() -> None:
    for doc in ({"kind": "none"}, {"kind": "sinusoidal", "base": 100},
                {"kind": "learned", "table": [[1, 2], [3, 4], [5, 6]], "offset": 1},
                {"kind": "rope", "base": 10000, "rotary_dims": 2, "pairing": "interleaved"},
                {"kind": "alibi", "slopes": [0.5, 0.25]}):
        positions = parse_positions(doc, "positions", 2, 2)
        assert positions.to_document(lambda a: a.tolist()) == doc


LLAMA3 = {"type": "llama3", "factor": 8, "low_freq_factor": 1, "high_freq_factor": 8,
          "original_max_position_embeddings": 256}


def test_a_scaling_multiplies_each_frequency_as_its_formula_says() -> None:
    """Base 500, r = 8: θ = 1, 0.2115, 0.0447, 0.00946 (wavelengths 6.3, 29.7, 140.5, 664)."""
    theta = np.power(500.0, -np.arange(4) / 4)
    linear = parse_positions({"kind": "rope", "base": 500, "scaling": {"type": "linear",
                                                                      "factor": 4}}, "p", 3, 8)
    assert np.allclose(rope_angles(3, 8, 500.0, linear.scaling)[2], 2 * theta / 4, rtol=1e-15)
    llama3 = parse_positions({"kind": "rope", "base": 500, "scaling": LLAMA3}, "p", 3, 8)
    # wavelength below 256/8 = 32 kept; above 256 divided by 8; between, s = (256/λ − 1)/7
    s = (256 * theta[2] / (2 * np.pi) - 1) / 7
    assert np.allclose(rope_frequencies(8, 500.0, llama3.scaling),
                       [theta[0], theta[1], theta[2] * ((1 - s) / 8 + s), theta[3] / 8],
                       rtol=1e-15)
    yarn = parse_positions({"kind": "rope", "base": 500, "scaling": {
        "type": "yarn", "factor": 4, "original_max_position_embeddings": 64}}, "p", 3, 8)
    assert yarn.scaling is not None
    # low = ⌊8·ln(64/(32·2π))/(2 ln 500)⌋ → 0, high = ⌈8·ln(64/2π)/(2 ln 500)⌉ = 2: ramp 0, ½, 1, 1
    ramp = np.array([0, 0.5, 1, 1])
    assert np.allclose(rope_frequencies(8, 500.0, yarn.scaling), theta * (ramp / 4 + 1 - ramp),
                       rtol=1e-15)
    assert yarn.turn_factor == pytest.approx(0.1 * np.log(4) + 1, rel=1e-15)
    rows = np.array([[1.0, 0.0]])
    assert np.allclose(rotate(rows, 1, np.zeros((1, 1)), "half", yarn.turn_factor),
                       [[yarn.turn_factor, 0.0]], rtol=1e-15)


def test_a_scaling_is_written_back_with_every_setting() -> None:
    positions = parse_positions({"kind": "rope", "scaling": {
        "type": "yarn", "factor": 4, "original_max_position_embeddings": 64}}, "p", 3, 8)
    written = positions.to_document(lambda a: a.tolist())
    assert written["scaling"] == {"type": "yarn", "factor": 4,
                                  "original_max_position_embeddings": 64, "beta_fast": 32,
                                  "beta_slow": 1, "truncate": True,
                                  "attention_factor": 0.1 * np.log(4) + 1}
    again = parse_positions(written, "p", 3, 8)
    assert again.scaling == positions.scaling
    plain = parse_positions({"kind": "rope", "scaling": LLAMA3}, "p", 3, 8)
    assert plain.to_document(lambda a: a.tolist())["scaling"] == LLAMA3
