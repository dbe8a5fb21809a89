"""Texts of version-2 steps that version 1 has not: the QK-norm and the cross-attention's
projections, with their own numbers."""

from __future__ import annotations

import numpy as np

from app.texts import step_text, step_title
from engine import compute, format_number, parse_scenario
from tests.engine.test_engine_positions_trace import scaled_trace
from tests.engine.v2_documents import CASES, encoder_decoder


def _row(values: np.ndarray) -> str:
    return "[" + ", ".join(format_number(float(v), 3) for v in values) + "]"


def test_qk_norm_text_quotes_the_heads_own_normed_q() -> None:
    trace = compute(parse_scenario(CASES["qk_norm_rmsnorm"]()))  # γ_q = [1.2, 0.7]
    index = trace.step_index("L1.qk_norm")
    q = trace.arrays["L1.Q"][-1, 2:4]  # head 2 of the last position
    normed = q / np.sqrt(np.mean(q ** 2) + 1e-5) * np.array([1.2, 0.7])
    en = step_text(trace, index, "en", head=1)
    zh = step_text(trace, index, "zh", head=1)
    assert f"q {_row(q)} becomes {_row(normed)}" in en.how
    assert "RMSNorm of each head's 2 columns of q (ε = 0.00001)" in en.how
    assert f"q {_row(q)} 变为 {_row(normed)}" in zh.how
    assert "QK 规范化（RMSNorm）" in step_title(trace.steps[index], trace.scenario, "zh")


def test_qk_norm_layernorm_text_takes_the_layers_epsilon() -> None:
    trace = compute(parse_scenario(CASES["qk_norm_layernorm_then_rope"]()))  # ε = 0.01
    index = trace.step_index("L1.qk_norm")
    q = trace.arrays["L1.Q"][-1, :4]
    centred = q - q.mean()
    normed = centred / np.sqrt(np.mean(centred ** 2) + 0.01) * np.array([1.0, 0.5, 2.0, -1.0])
    for lang in ("en", "zh"):
        how = step_text(trace, index, lang).how
        assert "LayerNorm" in how and "ε = 0.01" in how
        assert _row(normed) in how


def test_cross_projection_text_with_more_target_than_source_tokens() -> None:
    doc = encoder_decoder(70)  # 3 source tokens
    doc["tokens"] = ["a", "b", "c", "d", "e"]
    doc["X"] = (np.arange(20).reshape(5, 4) / 10).tolist()
    trace = compute(parse_scenario(doc))
    index = trace.step_index("L1.cross.projections")
    k, v = trace.arrays["L1.cross.K"][2], trace.arrays["L1.cross.V"][2]  # the last source row
    q = trace.arrays["L1.cross.Q"][4]
    en, zh = step_text(trace, index, "en").how, step_text(trace, index, "zh").how
    assert "K = enc.memory·Wk and V = enc.memory·Wv" in en
    assert f"gives q = {_row(q)}; the memory row of “here” gives k = {_row(k)} and " \
           f"v = {_row(v)}." in en
    assert f"记忆中“here”的行得到 k = {_row(k)}、v = {_row(v)}。" in zh


def test_the_steps_around_the_cross_attention_name_their_own_arrays() -> None:
    trace = compute(parse_scenario(encoder_decoder(70)))
    norm = trace.step_index("L1.cross.norm")
    en, zh = step_text(trace, norm, "en"), step_text(trace, norm, "zh")
    assert en.summary == ("Before cross-attention, each row of L1.resid1 is rescaled on its own "
                          "by the block's LayerNorm.")
    assert zh.summary == "进入交叉注意力之前，L1.resid1 的每一行各自用本块的 LayerNorm 重新定标。"
    resid = trace.step_index("L1.cross.resid")
    stream, attn = trace.arrays["L1.resid1"][-1], trace.arrays["L1.cross.attn_out"][-1]
    total = f"{_row(stream)} + {_row(attn)} = {_row(stream + attn)}"
    assert step_text(trace, resid, "en").how == (
        f"L1.cross.resid = L1.resid1 + L1.cross.attn_out, entry by entry. For “je”: {total}.")
    assert step_text(trace, resid, "zh").how == (
        f"L1.cross.resid = L1.resid1 + L1.cross.attn_out，逐个数相加。“je”：{total}。")
    post = compute(parse_scenario(encoder_decoder(71, placement="post")))
    text = step_text(post, post.step_index("L2.cross.norm"), "en")
    assert text.summary.startswith("In post-norm, the cross residual sum")


def test_the_rope_text_says_what_the_scaling_does_in_both_languages() -> None:
    llama3 = scaled_trace({"type": "llama3", "factor": 8, "low_freq_factor": 1,
                           "high_freq_factor": 8, "original_max_position_embeddings": 256})
    index = llama3.step_index("L1.rope")
    assert step_text(llama3, index, "en").how.endswith(
        " The frequencies are scaled (llama3): a pair whose wavelength 2π/θᵢ is below 32 keeps "
        "its θᵢ, above 256 divides it by 8, and between the two blends both.")
    assert step_text(llama3, index, "zh").how.endswith(
        "频率经过缩放（llama3）：波长 2π/θᵢ 小于 32 的对保留 θᵢ，大于 256 的对把它除以 8，介于两者"
        "之间的对在两者间平滑过渡。")
    # yarn over 64 positions, base 500, r = 8: the ramp runs from pair 0 to pair 2
    yarn = scaled_trace({"type": "yarn", "factor": 4, "original_max_position_embeddings": 64})
    assert step_text(yarn, index, "zh").how.endswith(
        "频率经过缩放（yarn）：第 0 对之后的对沿斜坡从 θᵢ 过渡到 θᵢ/4，到第 2 对完全到达；"
        "cos 和 sin 乘以 1.139。")
    plain = scaled_trace({"type": "linear", "factor": 4})
    assert step_text(plain, index, "en").how.endswith(
        "becomes " + _row(plain.arrays["L1.Q_rot"][-1, :4])[:-1] + ", …]. The frequencies are "
        "scaled (linear): every θᵢ is divided by 4.")
    longrope = scaled_trace({"type": "longrope", "short_factor": [1, 1.5, 2, 4],
                             "attention_factor": 1.2})
    assert step_text(longrope, index, "zh").how.endswith(
        "频率经过缩放（longrope）：每一对的 θᵢ 除以它自己的短系数，cos 和 sin 乘以 1.2。")
