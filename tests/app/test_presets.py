"""The architecture presets (issue 25, item 4): each family's tiny document computes, has the
structure it claims — on the document and in the trace, recomputed here in plain numpy — and
differs from every other family where the families differ; its words exist in both languages."""

from __future__ import annotations

import re
from itertools import combinations
from math import erf
from typing import Any

import numpy as np
import pytest

from app.model.presets import PRESETS, WORDS, preset, preset_document
from app.texts import words_en
from app.texts.example_words import document_words
from app.texts.lookup import step_sections, step_text
from app.texts.preset_words import preset_label, preset_name, preset_note, preset_title
from app.texts.problems import problem_words
from engine import ScenarioError, Trace, compute, explain, parse_scenario
from engine.format.generation_keys import Settings
from engine.generation.run import generate

CJK = re.compile(r"[\u4e00-\u9fff]")


def trace_of(name: str) -> Trace:
    return compute(preset(name, preset_note(name)))


def layer(doc: dict[str, Any], k: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    return doc["layers"][k]["attention"], doc["layers"][k]["block"]


def a(value: Any) -> np.ndarray:
    return np.array(value, dtype=float)


def layer_norm(x: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    centred = x - x.mean(1, keepdims=True)
    return centred / np.sqrt((centred ** 2).mean(1, keepdims=True) + eps)


def rms_norm(x: np.ndarray, eps: float = 1e-5) -> np.ndarray:
    return x / np.sqrt((x ** 2).mean(1, keepdims=True) + eps)


def traits(doc: dict[str, Any]) -> tuple[object, ...]:
    """What a family is made of, read off its document."""
    att, blk = layer(doc)
    positions = doc["positions"]
    experts = blk["ffn"].get("experts", [])
    ffn = experts[0] if experts else blk["ffn"]
    return (positions["kind"], positions.get("rotary_dims"), positions.get("base"), blk["norm"],
            blk["placement"], blk.get("residual", "sequential"), att["causal"],
            att.get("kv_heads", att["heads"]), att.get("window"), "Wg" in ffn,
            ffn["activation"], "".join(b for b in "qkvo" if f"b{b}" in att),
            None if "head" not in doc else
            doc["head"]["unembed"] == [list(c) for c in zip(*doc["embedding"], strict=True)],
            "transform" in doc.get("head", {}), len(experts))


EXPECTED = {
    #            positions  r  base      norm        place   residual  causal kv window gate
    #            activation  biases  tied  masked-LM transform  experts
    "gpt2": ("learned", None, None, "layernorm", "pre", "sequential", True, 2, None, False,
             "gelu_tanh", "qkvo", True, False, 0),
    "llama": ("rope", 4, 10000, "rmsnorm", "pre", "sequential", True, 2, None, True,
              "silu", "", False, False, 0),
    "mistral": ("rope", 4, 10000, "rmsnorm", "pre", "sequential", True, 1, 2, True,
                "silu", "", False, False, 0),
    "mixtral": ("rope", 4, 1_000_000, "rmsnorm", "pre", "sequential", True, 1, None, True,
                "silu", "", False, False, 4),
    "qwen2_moe": ("rope", 4, 1_000_000, "rmsnorm", "pre", "sequential", True, 1, None, True,
                  "silu", "qkv", False, False, 4),
    "qwen2": ("rope", 4, 1_000_000, "rmsnorm", "pre", "sequential", True, 1, None, True,
              "silu", "qkv", True, False, 0),
    "gpt_neox": ("rope", 2, 10000, "layernorm", "pre", "parallel", True, 2, None, False,
                 "gelu", "qkvo", False, False, 0),
    "bert": ("learned", None, None, "layernorm", "post", "sequential", False, 2, None, False,
             "gelu", "qkvo", True, True, 0),
}


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_preset_is_tiny_seeded_and_computes(name: str) -> None:
    doc = preset_document(name)
    assert doc == preset_document(name), "seeded: the same numbers every time"
    assert traits(doc) == EXPECTED[name]
    bert = name == "bert"  # fills a blank: 我 [MASK] 你 。, its vocabulary has [MASK]
    assert doc["tokens"] == ["我", "[MASK]" if bert else "爱", "你", "。"]
    vocab = [*WORDS, "[MASK]"] if bert else WORDS
    assert doc["head"]["vocab"] == vocab
    assert len(doc["layers"]) == 2 and np.shape(doc["embedding"]) == (len(vocab), 8)
    numbers = np.concatenate([a(doc["embedding"]).ravel(),
                              *(a(v).ravel() for lay in doc["layers"]
                                for part in lay.values() for v in part.values()
                                if isinstance(v, list))])
    assert np.all(np.round(numbers, 2) == numbers), "2 decimals, printed short"
    trace = trace_of(name)
    probs = trace.arrays["probs"]
    assert probs.shape == (4, len(vocab))
    np.testing.assert_allclose(probs.sum(1), 1.0, atol=1e-12)
    x = a(doc["embedding"])[doc["token_ids"]]
    if doc["positions"]["kind"] == "learned":
        x = x + a(doc["positions"]["table"])[:4]
    np.testing.assert_allclose(trace.arrays["X"], x, atol=1e-12)


def test_gpt2_adds_learned_positions_and_ties_its_head() -> None:
    doc, trace = preset_document("gpt2"), trace_of("gpt2")
    assert "positions" in [s.id for s in trace.steps]
    np.testing.assert_array_equal(a(doc["head"]["unembed"]), a(doc["embedding"]).T)
    att, blk = layer(doc)
    h = trace.arrays["L1.norm2"] @ a(blk["ffn"]["W1"]) + a(blk["ffn"]["b1"])
    gelu_tanh = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))
    np.testing.assert_allclose(trace.arrays["L1.ffn_hidden"], gelu_tanh, atol=1e-12)
    np.testing.assert_allclose(trace.arrays["L1.norm1"], layer_norm(trace.arrays["X"]),
                               atol=1e-12)
    np.testing.assert_allclose(trace.arrays["L1.Q"], trace.arrays["L1.norm1"] @ a(att["Wq"])
                               + a(att["bq"]), atol=1e-12)


def test_llama_turns_q_and_k_normalises_by_rms_and_gates_its_feed_forward() -> None:
    doc, trace = preset_document("llama"), trace_of("llama")
    att, blk = layer(doc)
    assert not any(key.startswith("b") for key in [*att, *blk["ffn"]])
    ids = [s.id for s in trace.steps]
    assert "L1.rope" in ids and "positions" not in ids
    ffn = next(s for s in trace.steps if s.id == "L1.ffn")
    assert {"L1.ffn_gate", "L1.ffn_up"} <= set(ffn.writes)
    np.testing.assert_allclose(trace.arrays["L1.norm1"], rms_norm(trace.arrays["X"]),
                               atol=1e-12)
    x2 = trace.arrays["L1.norm2"]
    gate = x2 @ a(blk["ffn"]["Wg"])
    silu = gate / (1 + np.exp(-gate))
    np.testing.assert_allclose(trace.arrays["L1.ffn_hidden"], silu * (x2 @ a(blk["ffn"]["W1"])),
                               atol=1e-12)
    # RoPE, half pairing, base 10000 on 4 columns: columns 0 and 2 turn by p radians.
    q, turned = trace.arrays["L1.Q"], trace.arrays["L1.Q_rot"]
    p = np.arange(4)
    np.testing.assert_allclose(turned[:, 0], q[:, 0] * np.cos(p) - q[:, 2] * np.sin(p),
                               atol=1e-12)
    assert not np.allclose(turned[1:], q[1:])


def test_mistral_shares_one_kv_head_and_masks_beyond_its_window() -> None:
    doc, trace = preset_document("mistral"), trace_of("mistral")
    att, _blk = layer(doc)
    assert np.shape(att["Wk"]) == (8, 4) and np.shape(att["Wq"]) == (8, 8)
    weights = trace.arrays["L1.weights"]
    for i, j in ((2, 0), (3, 0), (3, 1)):  # i − j ≥ 2: past the window, though causal allows
        assert np.all(weights[:, i, j] == 0.0)
    for i in range(4):
        assert np.all(weights[:, i, max(0, i - 1):i + 1] > 0)
    # both query heads read the one K: head 2's scores use head 1's keys
    q, k = trace.arrays["L1.Q_rot"], trace.arrays["L1.K_rot"]
    np.testing.assert_allclose(trace.arrays["L1.scores"][1], q[:, 4:] @ k.T / 2, atol=1e-12)


def test_qwen2_has_q_k_v_biases_grouped_heads_and_a_tied_head() -> None:
    doc, trace = preset_document("qwen2"), trace_of("qwen2")
    att, _blk = layer(doc)
    assert {"bq", "bk", "bv"} <= set(att) and "bo" not in att and att["kv_heads"] == 1
    x = trace.arrays["L1.norm1"]
    for name in "QKV":
        low = name.lower()
        np.testing.assert_allclose(trace.arrays[f"L1.{name}"],
                                   x @ a(att[f"W{low}"]) + a(att[f"b{low}"]), atol=1e-12)
    assert np.abs(a(att["bq"])).max() > 0.1
    np.testing.assert_array_equal(a(doc["head"]["unembed"]), a(doc["embedding"]).T)


def test_gpt_neox_turns_half_of_each_head_and_adds_both_branches_at_once() -> None:
    trace = trace_of("gpt_neox")
    q, turned = trace.arrays["L1.Q"], trace.arrays["L1.Q_rot"]
    for head in (0, 4):  # columns 0, 1 of each head turn; 2, 3 pass as they are
        np.testing.assert_array_equal(turned[:, head + 2:head + 4], q[:, head + 2:head + 4])
        assert not np.allclose(turned[1:, head:head + 2], q[1:, head:head + 2])
    x = trace.arrays["X"]
    np.testing.assert_allclose(trace.arrays["L1.norm2"], layer_norm(x), atol=1e-12)
    np.testing.assert_allclose(trace.arrays["L1.resid2"],
                               x + trace.arrays["L1.attn_out"] + trace.arrays["L1.ffn_out"],
                               atol=1e-12)


def test_the_parallel_block_is_one_residual_of_three_terms() -> None:
    """No first residual: norm2 reads X beside attention, and one step adds X, attn_out and
    ffn_out; the feed-forward branch worked here from the document's numbers alone."""
    doc, trace = preset_document("gpt_neox"), trace_of("gpt_neox")
    ids = [s.id for s in trace.steps]
    assert "L1.resid1" not in ids and "L2.resid1" not in ids
    assert ids.index("L1.mix") < ids.index("L1.norm2") < ids.index("L1.ffn") \
        < ids.index("L1.resid2") < ids.index("L2.norm1")
    norm2, resid = (trace.steps[trace.step_index(k)] for k in ("L1.norm2", "L1.resid2"))
    assert norm2.reads == ("X", "layers.0.block.gamma2", "layers.0.block.beta2")
    assert resid.reads == ("X", "L1.attn_out", "L1.ffn_out") and resid.op == "residual"
    assert trace.steps[trace.step_index("L2.resid2")].reads == (
        "L1.resid2", "L2.attn_out", "L2.ffn_out")
    _att, blk = layer(doc)
    x = a(doc["embedding"])[[0, 1, 2, 3]]
    h = layer_norm(x) @ a(blk["ffn"]["W1"]) + a(blk["ffn"]["b1"])
    ffn_out = 0.5 * h * (1 + np.vectorize(erf)(h / np.sqrt(2))) @ a(blk["ffn"]["W2"]) \
        + a(blk["ffn"]["b2"])
    np.testing.assert_allclose(trace.arrays["L1.resid2"],
                               x + trace.arrays["L1.attn_out"] + ffn_out, atol=1e-12)
    said = explain(trace, "L1.resid2", (1, 2)).text()
    assert said.startswith("L1.resid2[1,2] = X[1,2] + L1.attn_out[1,2] + L1.ffn_out[1,2] = ")
    assert said.endswith(f"= {trace.arrays['L1.resid2'][1, 2]:.6f}".replace("-", "−"))
    for lang, reads_x in (("en", "the layer's input X too"), ("zh", "前馈读的也是本层的输入 X")):
        assert reads_x in step_text(trace, trace.step_index("L1.norm2"), lang).summary
        how = step_text(trace, trace.step_index("L1.resid2"), lang).how
        assert "L1.resid2 = X + attn_out + ffn_out" in how
    # γ2 = γ1 and β2 = β1 (initialised): one norm, Phi's form; a γ2 of its own: NeoX's
    shared = step_text(trace, trace.step_index("L1.norm2"), "en").pitfalls
    assert "γ2 and β2 equal γ1 and β1, so norm2 equals norm1" in shared
    blk["gamma2"] = [1.5] * 8
    own = compute(parse_scenario(doc))
    pitfalls = step_text(own, own.step_index("L1.norm2"), "en").pitfalls
    assert "It has its own γ2 and β2" in pitfalls and "equal γ1" not in pitfalls
    np.testing.assert_allclose(own.arrays["L1.norm2"], 1.5 * layer_norm(x), atol=1e-12)


def test_bert_reads_both_ways_normalises_after_the_sum_and_uses_exact_gelu() -> None:
    doc, trace = preset_document("bert"), trace_of("bert")
    weights = trace.arrays["L1.weights"]
    assert np.all(weights > 0), "no causal mask: every token reads every token"
    np.testing.assert_allclose(trace.arrays["L1.norm1"],
                               layer_norm(trace.arrays["X"] + trace.arrays["L1.attn_out"]),
                               atol=1e-12)
    assert "final_norm" not in trace.arrays
    _att, blk = layer(doc)
    h = trace.arrays["L1.norm1"] @ a(blk["ffn"]["W1"]) + a(blk["ffn"]["b1"])
    exact = 0.5 * h * (1 + np.vectorize(erf)(h / np.sqrt(2)))
    np.testing.assert_allclose(trace.arrays["L1.ffn_hidden"], exact, atol=1e-12)
    assert "token types" in preset_note("bert") and "embedding sum" in preset_note("bert")


def test_bert_fills_the_blank_with_its_masked_lm_head_and_is_refused_for_generating() -> None:
    """BERT's head is the masked-language model's: the transform (dense, GELU, LayerNorm of
    ε 10⁻¹²), the tied vocabulary and its bias; the last frame fills [MASK]; no draw, and
    ``generate`` refused with the masked-LM reason in both languages. Without the head, the
    encoder's reason."""
    doc, trace = preset_document("bert"), trace_of("bert")
    head = doc["head"]
    assert [s.id for s in trace.steps[-3:]] == ["transform", "logits", "probs"]
    assert not any(step.op == "sample" for step in trace.steps)
    t = head["transform"]
    z = trace.arrays["L2.norm2"] @ a(t["W"]) + a(t["b"])
    hidden = 0.5 * z * (1 + np.vectorize(erf)(z / np.sqrt(2)))
    out = layer_norm(hidden, 1e-12) * a(t["gamma"]) + a(t["beta"])
    np.testing.assert_allclose(trace.arrays["transform"], out, atol=1e-12)
    np.testing.assert_array_equal(a(head["unembed"]), a(doc["embedding"]).T)
    logits = out @ a(doc["embedding"]).T + a(head["bias"])
    np.testing.assert_allclose(trace.arrays["logits"], logits, atol=1e-12)
    probs = np.exp(logits[1]) / np.exp(logits[1]).sum()
    best = int(np.argmax(probs))
    for lang, words in (("en", f"position 1 → {head['vocab'][best]} (p = "),
                        ("zh", f"第 1 个位置 → {head['vocab'][best]}（p = ")):
        summary = step_text(trace, len(trace.steps) - 1, lang).summary
        assert words + f"{probs[best]:.3f}" in summary, summary
    logits_step = len(trace.steps) - 2
    top = int(np.argmax(logits[-1]))  # the receiver, the last token: its logit is recomputed
    assert head["bias"][top] > 0  # printed as it is (a negative one in parentheses)
    assert (f"+ … + {head['bias'][top]} = {logits[-1, top]:.3f}"
            in step_text(trace, logits_step, "en").check), "the vocabulary bias is a term"
    assert step_text(trace, logits_step, "en").why.startswith("To fill a [MASK], ")
    assert step_text(trace, logits_step, "zh").why.startswith("要填出 [MASK]，")
    assert step_text(trace_of("gpt2"), len(trace_of("gpt2").steps) - 3, "en").why.startswith(
        "To predict the next token")
    headless = {k: v for k, v in doc.items() if k != "head"}
    for scenario, english, chinese in (
            (trace.scenario,
             "head.transform: a masked-language-model head (head.transform) fills [MASK] "
             "positions from both sides: it does not continue the text, so it does not generate",
             "head.transform：掩码语言模型的头（head.transform）根据两侧填出 [MASK] 位置："
             "它不续写文本，所以不生成"),
            (parse_scenario(headless),
             "head.unembed: an encoder reads both directions (no causal mask) and has no "
             "vocabulary head: it does not predict the next token, so it does not generate",
             "head.unembed：编码器双向阅读（没有因果掩码），也没有词表头："
             "它不预测下一个 Token，所以不生成")):
        with pytest.raises(ScenarioError) as refused:
            generate(scenario, 1, Settings(temperature=0.0))
        assert problem_words(refused.value, "en") == english
        assert problem_words(refused.value, "zh") == chinese
    headless = {k: v for k, v in preset_document("gpt2").items() if k != "head"}
    with pytest.raises(ScenarioError, match="needs a vocabulary head"):  # causal: plain
        generate(parse_scenario(headless), 1, Settings(temperature=0.0))
    for note in (preset_note("bert"), preset_note("bert", "zh")):
        assert "[MASK]" in note
    assert "does not generate" in preset_note("bert") and "不生成" in preset_note("bert", "zh")


@pytest.mark.parametrize(("one", "other"), list(combinations(PRESETS, 2)))
def test_presets_differ_pairwise_in_structure_and_in_steps(one: str, other: str) -> None:
    first, second = traits(preset_document(one)), traits(preset_document(other))
    assert first != second
    steps = {name: [(s.id, s.writes) for s in trace_of(name).steps] for name in (one, other)}
    if {one, other} in ({"llama", "mistral"}, {"mistral", "qwen2"}, {"llama", "qwen2"}):
        assert steps[one] == steps[other]  # same steps; what differs is in their numbers
        assert not np.allclose(trace_of(one).arrays["L1.weights"],
                               trace_of(other).arrays["L1.weights"])
    else:
        assert steps[one] != steps[other]


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_has_its_words_in_both_languages(name: str) -> None:
    assert {word_id.split(".")[0] for word_id in words_en.PRESETS} - {"sizes"} == set(PRESETS)
    english, chinese = ((preset_title(name, lang), preset_note(name, lang))
                        for lang in ("en", "zh"))
    assert preset(name).title == english[0]
    assert document_words(*english, "zh") == chinese
    assert document_words(*english, "en") == english
    assert CJK.search(chinese[1]) and CJK.search(preset_label(name, "zh"))
    assert set(re.findall(r"\d+", english[1])) == set(re.findall(r"\d+", chinese[1]))
    assert preset_label(name, "en").startswith(preset_name(name, "en") + " — ")
    assert preset(name, preset_note(name)).note == english[1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_gated_feed_forward_is_explained_as_a_gate(lang: str) -> None:
    """The check sentence prints the receiver's up row, gate and hidden row: up × gate = hidden
    cell by cell, to the 3 decimals printed."""
    trace = trace_of("llama")
    check = step_sections(trace, trace.step_index("L1.ffn"), lang)[-1][1]
    up, gate, hidden = (a([float(x.replace("−", "-")) for x in row.split(", ")[:4]])
                        for row in re.findall(r"\[([^\]]*)\]", check))
    np.testing.assert_allclose(up * gate, hidden, atol=2e-3)
    np.testing.assert_allclose(hidden, trace.arrays["L1.ffn_hidden"][3, :4], atol=5e-4)
    assert ("gate" if lang == "en" else "门") in step_text(
        trace, trace.step_index("L1.ffn"), lang).summary


def test_qwen2_moe_adds_its_gated_shared_expert_to_2_unrenormalised_experts() -> None:
    doc, trace = preset_document("qwen2_moe"), trace_of("qwen2_moe")
    _, blk = layer(doc)
    ffn = blk["ffn"]
    x = trace.arrays["L1.norm2"]
    logits = x @ a(ffn["router"])
    shares = np.exp(logits - logits.max(1, keepdims=True))
    shares /= shares.sum(1, keepdims=True)
    chosen = np.argsort(-shares, axis=1)[:, :2]  # no ties in the seeded numbers
    np.testing.assert_array_equal(trace.arrays["L1.router_chosen"], chosen)
    weights = np.take_along_axis(shares, chosen, 1)  # not divided by their sum
    np.testing.assert_allclose(trace.arrays["L1.router_weights"], weights, atol=1e-12)
    gate = 1 / (1 + np.exp(-(x @ a(ffn["shared_gate"]))))
    np.testing.assert_allclose(trace.arrays["L1.shared_weight"], gate, atol=1e-12)
    assert np.ptp(gate) > 0.2  # the tokens keep visibly different parts of the shared output

    def swiglu(f: dict[str, Any], rows: np.ndarray) -> np.ndarray:
        z = rows @ a(f["Wg"])
        return (z / (1 + np.exp(-z)) * (rows @ a(f["W1"]))) @ a(f["W2"])

    total = gate * swiglu(ffn["shared"], x)
    for i, row in enumerate(x):
        for r in range(2):
            total[i] += weights[i, r] * swiglu(ffn["experts"][chosen[i, r]], row[None])[0]
    np.testing.assert_allclose(trace.arrays["L1.ffn_out"], total, atol=1e-12)


def test_mixtral_routes_each_token_to_2_of_its_4_experts() -> None:
    doc, trace = preset_document("mixtral"), trace_of("mixtral")
    _, blk = layer(doc)
    router = a(blk["ffn"]["router"])
    logits = trace.arrays["L1.norm2"] @ router
    np.testing.assert_allclose(trace.arrays["L1.router_logits"], logits, atol=1e-12)
    shares = np.exp(logits - logits.max(1, keepdims=True))
    shares /= shares.sum(1, keepdims=True)
    chosen = np.argsort(-shares, axis=1)[:, :2]  # no ties in the seeded numbers
    np.testing.assert_array_equal(trace.arrays["L1.router_chosen"], chosen)
    top = np.take_along_axis(shares, chosen, 1)
    np.testing.assert_allclose(trace.arrays["L1.router_weights"],
                               top / top.sum(1, keepdims=True), atol=1e-12)
    assert len(set(chosen.ravel().tolist())) > 2  # the tokens do not all pick the same two
    ids = [s.id for s in trace.steps]
    assert ids.index("L1.router") + 1 == ids.index("L1.experts") and "L1.ffn" not in ids
