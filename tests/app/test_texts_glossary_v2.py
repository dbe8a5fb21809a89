"""The glossary's version-2 terms (issue 23): each in both languages, each worked example's
numbers the engine's and equal to an independent computation here."""

from __future__ import annotations

import math

import numpy as np
import pytest

from app.model.operands import kv_head
from app.texts import LANGUAGES, glossary_entry
from engine import compute, parse_scenario
from engine.forward.alibi import alibi_bias, alibi_slopes
from engine.forward.numerics import key_visibility, rms_norm
from engine.forward.positions import sinusoidal_table
from tests.engine.v2_documents import CASES
from tests.examples import trace_of

V2_TERMS = ("RoPE", "positional-encoding", "ALiBi", "cross-attention", "encoder", "grouped-query",
            "sliding-window", "key-mask", "QK-norm")


def examples(term_id: str) -> list[str]:
    return [glossary_entry(term_id, lang).example for lang in LANGUAGES]


def in_every_example(term_id: str, *texts: str) -> None:
    for example in examples(term_id):
        for text in texts:
            assert text in example, (term_id, text, example)


@pytest.mark.parametrize("term_id", V2_TERMS)
def test_every_version_2_term_is_in_both_languages(term_id: str) -> None:
    en, zh = (glossary_entry(term_id, lang) for lang in ("en", "zh"))
    assert en.term != zh.term or term_id in ("ALiBi", "QK-norm")
    assert en.definition != zh.definition and en.example != zh.example


def test_rope_equal_distance_equal_score() -> None:
    scores = trace_of("rope").arrays["scores"][0]
    # q = k = [1, 1, 0, 0] turned by p·θ, θ = (1, 0.1), pairs (0, 2) and (1, 3): q_i·k_j ÷ √4
    # = (cos(i − j) + cos(0.1·(i − j))) / 2
    by_hand = [(math.cos(d) + math.cos(0.1 * d)) / 2 for d in (1, 2)]
    assert scores[1, 0] == pytest.approx(by_hand[0]) == pytest.approx(scores[2, 1])
    assert scores[2, 0] == pytest.approx(by_hand[1])
    in_every_example("RoPE", f"scores[1, 0] = scores[2, 1] = {by_hand[0]:.3f}",
                     f"scores[2, 0] = {by_hand[1]:.3f}")


def test_sinusoidal_row_of_position_1() -> None:
    row = sinusoidal_table(2, 2)[1]
    assert row == pytest.approx([math.sin(1), math.cos(1)])
    in_every_example("positional-encoding", f"[{row[0]:.3f}, {row[1]:.3f}]",
                     f"[{1 + row[0]:.3f}, {row[1]:.3f}]")


def test_alibi_slopes_and_bias() -> None:
    slopes = alibi_slopes(2)
    assert list(slopes) == [2 ** -4, 2 ** -8] == [0.0625, 0.00390625]
    bias = alibi_bias(slopes, 4, causal=True)[0, 3, 0]
    assert bias == -3 * 0.0625
    in_every_example("ALiBi", "2⁻⁴ = 0.0625", "2⁻⁸ = 0.00390625", "−3 · 0.0625 = −0.1875")


def test_cross_attention_and_encoder_shares() -> None:
    trace = trace_of("encoder-decoder")
    cross = trace.arrays["L1.cross.weights"][0, 1]  # “我” over I, love, you
    assert cross.sum() == pytest.approx(1)
    en, zh = examples("cross-attention")
    assert f"“love” {cross[1]:.6f}, “I” {cross[0]:.6f} and “you” {cross[2]:.6f}" in en
    assert f"“love”{cross[1]:.6f}，给“I”{cross[0]:.6f}，给“you”{cross[2]:.6f}" in zh
    encoder = trace.arrays["enc.L1.weights"][0, 0]  # “I” over I, love, you: none masked
    assert np.all(encoder > 0) and encoder.sum() == pytest.approx(1)
    shares = [f"{v:.6f}" for v in encoder]
    assert " and ".join([", ".join(shares[:2]), shares[2]]) in examples("encoder")[0]
    assert "、".join(shares[:2]) + " 和 " + shares[2] in examples("encoder")[1]


def test_grouped_query_shapes_and_groups() -> None:
    trace = compute(parse_scenario(CASES["grouped_query_4_heads_2_kv"]()))
    attention = trace.scenario.layers[0].attention
    assert (attention.heads, attention.d_k) == (4, 2)
    assert trace.arrays["L1.Q"].shape[1] == 8
    assert trace.arrays["L1.K"].shape[1] == trace.arrays["L1.V"].shape[1] == 4
    assert [kv_head(attention, h) for h in range(4)] == [0, 0, 1, 1]
    in_every_example("grouped-query", "8", "4")


def test_sliding_window_of_2() -> None:
    visible = key_visibility(5, 5, causal=True, window=2)
    assert list(visible[4]) == [False, False, False, True, True]
    trace = compute(parse_scenario(CASES["window_2"]()))
    weights = trace.arrays["L1.weights"]
    assert np.all(weights[:, 4, :3] == 0) and np.all(weights[:, 4, 3:] > 0)
    in_every_example("sliding-window", "w = 2", "4", "3", "0")


def test_key_mask_hides_a_key_from_every_row() -> None:
    trace = compute(parse_scenario(CASES["key_mask"]()))
    assert trace.scenario.layers[0].attention.key_mask == (True, True, False, True)
    weights = trace.arrays["L1.weights"]
    assert np.all(weights[:, :, 2] == 0)
    assert weights.sum(axis=-1) == pytest.approx(np.ones(weights.shape[:2]))
    in_every_example("key-mask", "[1, 1, 0, 1]")


def test_qk_rmsnorm_of_3_4() -> None:
    q = np.array([3.0, 4.0])
    by_hand = q / math.sqrt((9 + 16) / 2)
    assert rms_norm(q[None, :], np.ones(2), 0.0)[0] == pytest.approx(by_hand)
    in_every_example("QK-norm", "√12.5", f"[{by_hand[0]:.3f}, {by_hand[1]:.3f}]")
