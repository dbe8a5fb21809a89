"""Every fact a step text or title quotes comes from the step's own layer, cross-attention or
encoder layer, not from the document's first layer."""

from __future__ import annotations

import numpy as np
import pytest

from app.model.presets import preset
from app.texts import step_text, step_title
from app.texts.facts import facts_for
from engine import Trace, compute, format_number, parse_scenario
from tests.engine.v2_documents import CASES, Doc, attention, document, encoder_decoder


def _two_layers() -> Doc:
    """Layer 1: LayerNorm, ε 1e-5, GELU, scaled, causal, 2 heads. Layer 2: RMSNorm, ε 0.01,
    ReLU, unscaled, no mask, 1 head."""
    doc = document(80, layers=2)
    second = doc["layers"][1]
    second["block"].update(norm="rmsnorm", eps=0.01)
    second["block"]["ffn"]["activation"] = "relu"
    second["attention"] = attention(np.random.default_rng(81), 4, heads=1, d_k=2, d_v=2,
                                    scale=False, causal=False)
    return doc


@pytest.fixture(scope="module")
def trace() -> Trace:
    return compute(parse_scenario(_two_layers()))


def _text(trace: Trace, step_id: str, lang: str) -> str:
    text = step_text(trace, trace.step_index(step_id), lang)
    return " ".join([text.summary, *text.sections()])


def _title(trace: Trace, step_id: str, lang: str) -> str:
    return step_title(trace.steps[trace.step_index(step_id)], trace.scenario, lang)


def test_norm_kind_and_epsilon_are_the_layers_own(trace: Trace) -> None:
    x = trace.arrays["L1.resid2"][-1]  # what layer 2's first norm reads, last position
    mean_square = format_number(float(np.mean(x ** 2)), 3)
    en, zh = _text(trace, "L2.norm1", "en"), _text(trace, "L2.norm1", "zh")
    assert f"has mean square {mean_square} (ε = 0.01)" in en
    assert "LayerNorm subtracts" not in en and "0.00001" not in en
    assert f"平方的平均值为 {mean_square}（ε = 0.01）" in zh
    assert "LayerNorm 减去" not in zh and "0.00001" not in zh
    assert "RMSNorm" in _title(trace, "L2.norm1", "zh")
    assert "LayerNorm" in _title(trace, "L1.norm1", "zh")
    assert "(ε = 0.00001)" in _text(trace, "L1.norm1", "en")


def test_activation_is_the_layers_own(trace: Trace) -> None:
    en, zh = _text(trace, "L2.ffn", "en"), _text(trace, "L2.ffn", "zh")
    assert "ReLU shows 0" in en and "GELU" not in en
    assert "ReLU 给出 0" in zh and "GELU" not in zh
    assert "ReLU" in _title(trace, "L2.ffn", "zh") and "GELU" in _title(trace, "L1.ffn", "zh")


def test_scaling_and_mask_are_the_layers_own(trace: Trace) -> None:
    assert "scaling is off" in _text(trace, "L2.scores", "en")
    assert "关闭了缩放" in _text(trace, "L2.scores", "zh")
    assert "√dₖ" not in _title(trace, "L2.scores", "zh")
    assert "√dₖ" in _title(trace, "L1.scores", "zh")
    assert "with no mask, each position reads all 4" in _text(trace, "L2.weights", "en")
    assert "没有掩码" in _text(trace, "L2.weights", "zh")
    assert _title(trace, "L2.weights", "zh") == "第 2 层 · softmax 份额"
    assert "因果掩码" in _title(trace, "L1.weights", "zh")


def test_heads_outside_attention_are_the_layers_own(trace: Trace) -> None:
    assert facts_for(trace, trace.step_index("L2.resid1"), head=1).heads == 1
    assert facts_for(trace, trace.step_index("L1.resid1"), head=1).head == 1


def test_only_the_last_layer_is_followed_by_the_final_norm(trace: Trace) -> None:
    assert "the next layer reads it as it is" in _text(trace, "L1.resid2", "en")
    assert "下一层直接读取这个和" in _text(trace, "L1.resid2", "zh")
    assert "the final norm follows here" in _text(trace, "L2.resid2", "en")
    assert "后面接了最终 Norm" in _text(trace, "L2.resid2", "zh")


def test_placement_is_the_layers_own() -> None:
    doc = document(82, layers=2)
    doc["layers"][1]["block"]["placement"] = "post"
    trace = compute(parse_scenario(doc))
    assert "the norm comes in the next step" in _text(trace, "L2.resid1", "en")
    assert "Norm 在下一步" in _text(trace, "L2.resid1", "zh")
    assert "even though attention read norm1" in _text(trace, "L1.resid1", "en")


def test_encoder_layer_and_cross_attention_facts_are_their_own() -> None:
    doc = encoder_decoder(83)
    doc["encoder"]["layers"][1]["block"]["ffn"]["activation"] = "gelu"
    doc["layers"][0]["cross_attention"]["scale"] = False
    trace = compute(parse_scenario(doc))
    assert "GELU keeps large positive values" in _text(trace, "enc.L2.ffn", "en")
    assert "GELU 让较大的正数" in _text(trace, "enc.L2.ffn", "zh")
    assert "ReLU shows 0" in _text(trace, "enc.L1.ffn", "en")
    assert "scaling is off" in _text(trace, "L1.cross.scores", "en")
    assert "√dₖ" not in _title(trace, "L1.cross.scores", "zh")
    assert "divided by √dₖ = √2" in _text(trace, "L1.scores", "en")


def test_the_encoders_final_norm_is_told_as_a_final_norm_of_its_own_kind() -> None:
    trace = compute(parse_scenario(CASES["encoder_decoder_rmsnorm_default_final_norm"]()))
    index = trace.step_index("enc.final_norm")
    x = trace.arrays[trace.steps[index].reads[0]][-1]
    square = format_number(float(np.mean(x ** 2)), 3)
    en, zh = step_text(trace, index, "en"), step_text(trace, index, "zh")
    assert en.summary.startswith("The block's output is normed once more")
    assert f"has mean square {square} (ε = 0.00001)" in en.how and "RMSNorm" in en.how
    assert "logit" not in en.check  # the encoder has no vocabulary head
    assert zh.summary == "本块输出在离开本块之前再逐行做一次 Norm。"
    assert f"平方的平均值为 {square}" in zh.how


@pytest.mark.parametrize(("preset_name", "english", "chinese"), [
    ("llama", "Feed-forward: SwiGLU hidden units, then back to d", "前馈网络：SwiGLU 隐藏单元"),
    ("gpt2", "Feed-forward: GELU (tanh form) hidden units, then back to d",
     "前馈网络：GELU（tanh 形式）隐藏单元"),
    ("bert", "Feed-forward: GELU hidden units, then back to d", "前馈网络：GELU 隐藏单元")])
def test_a_feed_forward_is_headed_by_its_functions_name_not_the_options_code(
        preset_name: str, english: str, chinese: str) -> None:
    """A gated SiLU feed-forward is SwiGLU, gelu_tanh is GELU in its tanh form: the headings
    speak the literature's names, never ``gated silu`` or ``gelu_tanh``."""
    trace = compute(preset(preset_name))
    step = next(s for s in trace.steps if s.op == "ffn")
    assert step.title == f"Layer 1: {english}"
    assert step_title(step, trace.scenario, "en").endswith(english)
    assert chinese in step_title(step, trace.scenario, "zh")
