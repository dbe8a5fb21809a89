"""The bilingual teaching texts: complete for every step, in both languages, and true.

Every trace of the built-in examples, and of variants built here (post-norm, RMSNorm, no norm, no
final norm, causal off, scale off, with and without Wo, token ids, other activations), must find
a title and a full text in English and Simplified Chinese. The numbers the texts quote are
recomputed with the engine, and the checks they ask students to do are run.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.texts import (
    EXPLAIN_KEYS,
    HEADINGS,
    LANGUAGES,
    TERM_IDS,
    GlossaryEntry,
    StepText,
    glossary,
    glossary_en,
    glossary_entry,
    glossary_zh,
    linked_terms,
    speaker_notes,
    step_sections,
    step_text,
    step_title,
)
from engine import Scenario, ScenarioError, Step, Trace, compute, parse_scenario

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "resources" / "examples"
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")

EXPECTED_KEYS = {
    "input.embed", "attention.inputs", "attention.projections", "attention.scores",
    "attention.weights", "attention.mix", "block.norm1", "block.norm1_post", "block.norm2",
    "block.norm2_post", "block.resid1", "block.resid2", "block.resid2_post", "block.ffn",
    "block.final_norm", "block.logits", "block.probs", "block.loss", "block.sample",
    "block.norm3", "block.norm4",
}
EXPECTED_STEP_IDS = {"embed", "inputs", "projections", "scores", "weights", "mix", "norm1",
                     "resid1", "norm2", "ffn", "resid2", "final_norm", "logits", "probs", "loss",
                     "sample", "norm3", "norm4"}
EXPECTED_TERMS = ["Wq", "Wk", "Wv", "Wo", "QKV", "shares", "I", "Norm", "LayerNorm", "RMSNorm",
                  "gamma", "beta", "epsilon", "pre-norm", "post-norm", "causal-mask", "residual",
                  "FFN", "logits", "probabilities", "softmax", "scale", "heads", "embedding",
                  "RoPE", "positional-encoding", "ALiBi", "cross-attention", "encoder",
                  "grouped-query", "sliding-window", "key-mask", "QK-norm", "KV-cache",
                  "temperature", "top-k", "top-p", "cross-entropy", "teacher-forcing",
                  "ablation", "attention-sink", "logit-lens"]
FORMS = {"en": glossary_en.FORMS, "zh": glossary_zh.FORMS}
FIELDS = ("summary", "why", "how", "pitfalls", "check")


# -- scenarios -------------------------------------------------------------------------------


def document(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.qkv.json").read_text("utf-8"))
    return data


def edited(doc: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A deep copy of ``doc`` with ``a__b=value`` set at ``a.b`` (``None`` removes the key)."""
    out = copy.deepcopy(doc)
    for path, value in changes.items():
        keys = path.split("__")
        node = out
        for key in keys[:-1]:
            node = node[key]
        if value is None:
            node.pop(keys[-1], None)
        else:
            node[keys[-1]] = value
    return out


def identity(n: int) -> list[list[float]]:
    return np.eye(n).tolist()


def variant_documents() -> dict[str, dict[str, Any]]:
    docs = {path.name.removesuffix(".qkv.json"): document(path.name.removesuffix(".qkv.json"))
            for path in sorted(EXAMPLES.glob("*.qkv.json"))}
    docs = {name: doc for name, doc in docs.items() if doc["version"] == 1}  # the v1 texts
    g01, f11 = docs["g01"], docs["f11"]
    tokenizer, multihead = docs["tokenizer"], docs["multihead"]
    docs.update({
        "g01-post": edited(g01, block__placement="post", block__final_norm=False),
        "g01-post-final": edited(g01, block__placement="post", block__final_norm=True),
        "g01-rmsnorm": edited(g01, block__norm="rmsnorm"),
        "g01-rmsnorm-post": edited(g01, block__norm="rmsnorm", block__placement="post"),
        "g01-none": edited(g01, block__norm="none"),
        "g01-none-post": edited(g01, block__norm="none", block__placement="post"),
        "g01-no-final": edited(g01, block__final_norm=False),
        "g01-output-norms": edited(g01, block__norm="rmsnorm", block__gamma3=[1.5, 0.5],
                                   block__gamma4=[0.8, 1.2]),
        "g01-no-head": edited(g01, block__unembed=None, block__vocab=None),
        "g01-not-causal": edited(g01, attention__causal=False),
        "g01-not-scaled": edited(g01, attention__scale=False),
        "g01-no-wo": edited(g01, attention__Wo=None),
        "g01-gelu": edited(g01, block__ffn__activation="gelu"),
        "g01-silu": edited(g01, block__ffn__activation="silu", block__placement="post"),
        "g01-identity": edited(g01, block__ffn__activation="identity"),
        "f11-not-causal": edited(f11, attention__causal=False),
        "f11-not-scaled": edited(f11, attention__scale=False),
        "f11-plain": edited(f11, attention__causal=False, attention__scale=False),
        "f11-wo": edited(f11, attention__Wo=identity(2), attention__bo=[0.5, -0.5]),
        "f11-biases": edited(f11, attention__bq=[1, 0], attention__bk=[0, 1],
                             attention__bv=[1, 1]),
        "tokenizer-block": edited(tokenizer, block={
            "norm": "rmsnorm", "placement": "post",
            "ffn": {"W1": identity(4), "activation": "relu", "W2": identity(4)},
            "unembed": [[1, 0], [0, 1], [1, 1], [0, -1]], "vocab": ["yes", "no"]}),
        "tokenizer-not-causal": edited(tokenizer, attention__causal=False),
        # token ids and a head: the trace ends with the draw; with targets, with the loss
        "tokenizer-targets": edited(tokenizer, targets=[1, 0, 1], block={
            "ffn": {"W1": identity(4), "W2": identity(4)},
            "unembed": [[1, 0], [0, 1], [1, 1], [0, -1]], "vocab": ["yes", "no"]}),
        "multihead-block": edited(multihead, attention__scale=False, block={
            "ffn": {"W1": identity(6), "W2": identity(6)}, "final_norm": False}),
    })
    return docs


DOCUMENTS = variant_documents()
SCENARIOS: dict[str, Scenario] = {name: parse_scenario(doc) for name, doc in DOCUMENTS.items()}
TRACES: dict[str, Trace] = {name: compute(s) for name, s in SCENARIOS.items()}
TOKEN_LABELS = sorted({label for s in SCENARIOS.values() for label in (*s.tokens,
                       *(s.block.vocab if s.block is not None else ()))}, key=len, reverse=True)


def trace_with(name: str, **changes: Any) -> Trace:
    return compute(parse_scenario(edited(DOCUMENTS[name], **changes)))


def text_of(key: str, lang: str, name: str | None = None) -> StepText:
    """The text of the first step with ``explain_key`` ``key`` in a trace that has one."""
    names = [name] if name is not None else list(TRACES)
    for each in names:
        trace = TRACES[each]
        for k, step in enumerate(trace.steps):
            if step.explain_key == key:
                return step_text(trace, k, lang)
    raise KeyError(key)


def all_step_texts() -> list[tuple[str, str, str, str]]:
    """``(lang, key, field, text)`` for every field of every step text of every document."""
    return [(lang, step.explain_key, field, getattr(step_text(trace, k, lang), field))
            for trace in TRACES.values() for k, step in enumerate(trace.steps)
            for lang in LANGUAGES for field in FIELDS]


ALL_TEXTS = all_step_texts()


def without_labels(text: str) -> str:
    """``text`` with the examples' token and vocabulary labels (我, 爱, 检查 …) removed."""
    for label in TOKEN_LABELS:
        text = text.replace(label, "")
    return text


def sentences(text: str, lang: str) -> int:
    ends = r"[。！？]" if lang == "zh" else r"[.!?](?=\s|$)"
    return len(re.findall(ends, text))


# -- coverage --------------------------------------------------------------------------------


def version_one(trace: Trace) -> bool:
    """A trace of a version-1 document: one layer in the shorthand, no positions."""
    scenario = trace.scenario
    return scenario.shorthand and getattr(scenario.positions, "kind", "none") == "none"


def test_every_explain_key_of_every_variant_has_a_text() -> None:
    shorthand = [trace for trace in TRACES.values() if version_one(trace)]
    produced = {step.explain_key for trace in shorthand for step in trace.steps}
    assert produced == EXPECTED_KEYS
    assert set(EXPLAIN_KEYS) == EXPECTED_KEYS
    assert {step.id for trace in shorthand for step in trace.steps} == EXPECTED_STEP_IDS
    # Every step of the version-2 examples (layers, cross-attention) has a text too.
    for trace in TRACES.values():
        for k in range(len(trace.steps)):
            for lang in ("en", "zh"):
                assert step_text(trace, k, lang).summary, (trace.scenario.title, k, lang)


def test_variants_cover_every_option() -> None:
    scenarios = list(SCENARIOS.values())
    blocks = [s.block for s in scenarios if s.block is not None]
    assert {s.attention.causal for s in scenarios} == {True, False}
    assert {s.attention.scale for s in scenarios} == {True, False}
    assert {s.attention.Wo is not None for s in scenarios} == {True, False}
    assert {s.token_ids is not None for s in scenarios} == {True, False}
    assert {b.norm for b in blocks} == {"layernorm", "rmsnorm", "none"}
    assert {b.placement for b in blocks} == {"pre", "post"}
    assert {b.final_norm for b in blocks} == {True, False}
    assert {b.ffn.activation for b in blocks} == {"relu", "gelu", "silu", "identity"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", sorted(EXPECTED_KEYS))
def test_step_text_has_all_five_fields(key: str, lang: str) -> None:
    text = text_of(key, lang)
    assert isinstance(text, StepText)
    for field in FIELDS:
        value = getattr(text, field)
        assert isinstance(value, str)
        assert value == value.strip()
        assert len(value) >= 15, (key, lang, field)
        assert "\n" not in value
    assert text.sections() == (text.why, text.how, text.pitfalls, text.check)
    trace = TRACES["g01" if key.startswith("block") else "f11"]
    assert step_sections(trace, 1, lang) == list(
        zip(HEADINGS[lang], step_text(trace, 1, lang).sections(), strict=True))


@pytest.mark.parametrize("key", sorted(EXPECTED_KEYS))
def test_languages_differ_and_are_the_right_script(key: str) -> None:
    en, zh = text_of(key, "en"), text_of(key, "zh")
    for field in FIELDS:
        english, chinese = getattr(en, field), getattr(zh, field)
        assert english != chinese
        assert CJK.search(chinese), (key, field, chinese)
        assert not CJK.search(without_labels(english)), (key, field, english)


def test_english_texts_quote_token_labels_only_from_the_document() -> None:
    # English texts quote the open document's tokens: 爱 from F11, 检查 from the tokenizer …
    assert "爱" in text_of("attention.weights", "en", "f11").how
    assert "检查" in text_of("input.embed", "en", "tokenizer").pitfalls
    assert "爱" not in text_of("attention.weights", "en", "g01").how
    # … and nothing else in them is Chinese.
    leftovers = {ch for lang, _, _, text in ALL_TEXTS if lang == "en"
                 for ch in CJK.findall(without_labels(text))}
    assert leftovers == set()


def test_texts_are_short() -> None:
    for lang, key, field, text in ALL_TEXTS:
        count = sentences(text, lang)
        if field == "summary":
            assert count == 1, text
        else:
            assert 1 <= count <= 3, text
        prose = re.sub(r"\[[^\]]*\]", "[]", text)  # a quoted row counts as one word
        assert len(prose) <= (170 if lang == "zh" else 380), (key, field, text)


def test_headings() -> None:
    assert HEADINGS["zh"] == ("为什么需要", "怎样实现", "可能的代价与误解", "如何判断是否做对")
    assert HEADINGS["en"] == ("Why it is needed", "How it is done",
                              "Costs and common misreadings", "How to check it is right")
    assert set(HEADINGS) == set(LANGUAGES) == {"en", "zh"}


def test_errors() -> None:
    f11 = TRACES["f11"]
    with pytest.raises(ValueError, match="fr"):
        step_text(f11, 2, "fr")
    unknown = Trace(scenario=f11.scenario, arrays=f11.arrays, visible=f11.visible,
                    steps=(Step("odd", "Odd", (), (), "attention.nothing", "embed"),))
    with pytest.raises(KeyError):
        step_text(unknown, 0, "en")
    with pytest.raises(ValueError):
        step_text(unknown, 0, "fr")  # the language is checked first
    with pytest.raises(ValueError):
        glossary("de")
    with pytest.raises(KeyError):
        glossary_entry("attention", "zh")
    with pytest.raises(ValueError):
        linked_terms("softmax", "EN")
    trace = TRACES["f11"]
    with pytest.raises(ValueError):
        step_title(trace.steps[0], trace.scenario, "")


# -- the words of the domain -----------------------------------------------------------------


def test_shares_are_not_called_weights() -> None:
    """Softmax outputs are shares; "weights" / "权重" only ever names the parameters' W."""
    for lang, key, field, text in ALL_TEXTS:
        if lang == "en":
            for match in re.finditer(r"weight", text, re.IGNORECASE):
                assert text[match.start() - 12: match.end() + 1] == "parameters' weights", (
                    key, field)
        else:
            for match in re.finditer("权重", text):
                assert "参数" in text[max(0, match.start() - 16): match.start()], (key, field)
    assert "份额" in text_of("attention.weights", "zh").summary
    assert "shares" in text_of("attention.weights", "en").summary


def test_norm_and_placement_misreadings_are_addressed() -> None:
    assert "not probability normalisation" in glossary_entry("Norm", "en").definition
    assert "不是概率归一化" in glossary_entry("Norm", "zh").definition
    assert "not a stage of training" in glossary_entry("post-norm", "en").definition
    assert "不是训练阶段" in glossary_entry("post-norm", "zh").definition
    assert "not two phases of training" in text_of("block.norm1_post", "en").pitfalls
    assert "不是训练的两个阶段" in text_of("block.norm1_post", "zh").pitfalls
    assert "probabilities" in text_of("block.norm1", "en").pitfalls
    assert "概率" in text_of("block.norm1", "zh").pitfalls


# -- the numbers the texts quote are the engine's ----------------------------------------------


def shown(values: Any, decimals: int | None = None) -> str:
    """Numbers as the texts print them: true minus, integers bare, else fixed decimals."""
    def one(x: float) -> str:
        if x == int(x):
            text = str(int(x))
        elif decimals is None:
            text = f"{x:g}"
        else:
            text = f"{x:.{decimals}f}"
        return text.replace("-", "−")
    array = np.asarray(values, dtype=float)
    if array.ndim == 0:
        return one(float(array))
    return "[" + ", ".join(one(float(x)) for x in array) + "]"


def test_quoted_sums_are_right() -> None:
    # softmax([−1, 1, 1.5]) at the six decimals G01's frames print
    assert "0.048611 + 0.359188 + 0.592201 = 1" in text_of("block.probs", "en", "g01").check
    assert "0.804 + 0.196 = 1" in text_of("attention.weights", "zh", "f11").check
    assert "2 ÷ √2 = 1.414" in text_of("attention.scores", "en", "f11").check


def test_glossary_numbers_are_the_engines() -> None:
    layer = TRACES["norms"].arrays["norm1"][0]
    rms = trace_with("norms", block__norm="rmsnorm").arrays["norm1"][0]
    for lang in LANGUAGES:
        assert shown(layer) in glossary_entry("LayerNorm", lang).example
        assert shown(layer) in glossary_entry("Norm", lang).example
        assert shown(rms, 3) in glossary_entry("RMSNorm", lang).example
        assert "4×6" in glossary_entry("Wo", lang).example
        assert "4×6" in glossary_entry("heads", lang).example
        assert shown(TRACES["f11"].arrays["weights"][0, 1], 3) in glossary_entry(
            "softmax", lang).example
        assert shown(TRACES["g01"].arrays["norm1"][1], 6) in glossary_entry(
            "epsilon", lang).example
    multihead = SCENARIOS["multihead"].attention
    assert multihead.Wo is not None
    assert (multihead.heads, multihead.d_v, multihead.Wo.shape) == (2, 2, (4, 6))
    logits = np.array([-1.0, 1.0, 1.5])
    probs = np.exp(logits) / np.exp(logits).sum()
    assert shown(probs, 3) in glossary_entry("probabilities", "en").example


# -- the checks the texts ask students to do hold in the engine ----------------------------------


def test_check_editing_wv_keeps_the_shares() -> None:
    before = TRACES["f11"]
    after = trace_with("f11", attention__Wv=[[1, 2], [3, 4]])
    np.testing.assert_array_equal(before.arrays["weights"], after.arrays["weights"])
    assert not np.allclose(before.arrays["mixed"], after.arrays["mixed"])
    assert "Wv" in text_of("attention.weights", "en").check
    assert "Wv" in text_of("attention.mix", "zh").check


def test_check_wq_and_wk_widths_must_match() -> None:
    with pytest.raises(ScenarioError, match="Wk"):
        parse_scenario(edited(DOCUMENTS["f11"], attention__Wk=[[1, 0, 0], [0, 1, 0]]))
    assert "refuses a Wk" in text_of("attention.inputs", "en").check
    assert "Wk 会被程序拒绝" in text_of("attention.inputs", "zh").check


def test_check_one_visible_key_has_share_one() -> None:
    for changes in ({}, {"attention__Wq": [[9, -3], [0.5, 7]]}, {"attention__Wk": [[0, 0],
                                                                                   [0, 0]]}):
        weights = trace_with("single-key", **changes).arrays["weights"]
        assert weights[0, 0, 0] == 1.0
        assert weights[0, 0, 1:].sum() == 0.0
    np.testing.assert_allclose(TRACES["f11"].arrays["weights"].sum(axis=-1), 1.0)


def test_check_scaling_off_multiplies_by_root_dk() -> None:
    scaled, raw = TRACES["f11"].arrays["scores"], TRACES["f11-not-scaled"].arrays["scores"]
    np.testing.assert_allclose(raw, scaled * math.sqrt(2))


def test_check_norms() -> None:
    g01 = TRACES["g01"].arrays
    for name in ("norm1", "norm2", "final_norm"):
        np.testing.assert_allclose(g01[name].mean(axis=1), 0.0, atol=1e-12)
        np.testing.assert_allclose((g01[name] ** 2).mean(axis=1), 1.0, atol=1e-4)
    np.testing.assert_array_equal(TRACES["g01-none"].arrays["norm1"], g01["X"])
    post = TRACES["g01-none-post"].arrays
    np.testing.assert_array_equal(post["norm2"], post["resid2"])


def test_check_residuals_and_ffn() -> None:
    g01 = TRACES["g01"].arrays
    np.testing.assert_allclose(g01["resid1"] - g01["X"], g01["attn_out"])
    np.testing.assert_allclose(g01["resid2"] - g01["resid1"], g01["ffn_out"])
    assert g01["ffn_hidden"][1, 0] == 0.0
    assert g01["resid2"][1, 0] == g01["resid1"][1, 0]
    zero_v = trace_with("g01", attention__Wv=[[0, 0], [0, 0]]).arrays
    np.testing.assert_array_equal(zero_v["resid1"], zero_v["X"])
    linear = TRACES["g01-identity"].arrays
    np.testing.assert_allclose(linear["ffn_hidden"], linear["norm2"] @ np.eye(2))
    post = TRACES["g01-post"].arrays
    np.testing.assert_allclose(post["resid2"] - post["norm1"], post["ffn_out"])


def test_check_probabilities_follow_logits() -> None:
    for name in ("g01", "g01-post-final", "tokenizer-block"):
        arrays = TRACES[name].arrays
        np.testing.assert_allclose(arrays["probs"].sum(axis=1), 1.0)
        np.testing.assert_array_equal(np.argsort(arrays["logits"], axis=1),
                                      np.argsort(arrays["probs"], axis=1))


def test_check_mix_lies_within_the_visible_values() -> None:
    for name in ("f11", "f11-not-causal", "multihead", "single-key"):
        trace = TRACES[name]
        a, v = trace.scenario.attention, trace.arrays["V"]
        for head in range(a.heads):
            columns = slice(head * a.d_v, (head + 1) * a.d_v)
            for i in range(trace.scenario.n):
                seen = v[trace.visible[i], columns]
                mixed = trace.arrays["mixed"][i, columns]
                assert np.all(mixed >= seen.min(axis=0) - 1e-12)
                assert np.all(mixed <= seen.max(axis=0) + 1e-12)


def test_check_embedding_rows() -> None:
    trace = TRACES["tokenizer"]
    scenario = trace.scenario
    assert scenario.token_ids == (7, 12, 3)
    assert scenario.embedding is not None
    np.testing.assert_array_equal(trace.arrays["X"], scenario.embedding[[7, 12, 3]])
    table = scenario.embedding.copy()
    table[5] = [9, 9, 9, 9]
    unused = trace_with("tokenizer", embedding=table.tolist())
    np.testing.assert_array_equal(unused.arrays["X"], trace.arrays["X"])
    # The text's check edits the first row no token uses: ids 7, 12 and 3 leave row 0 free,
    # and with rows 0, 1 and 2 used, row 3.
    embed = trace.step_index("embed")
    assert "Edit table row 0, which no token uses" in step_text(trace, embed, "en").check
    taken = trace_with("tokenizer", token_ids=[0, 1, 2])
    assert "Edit table row 3, which no token uses" in step_text(taken, embed, "en").check


# -- titles ----------------------------------------------------------------------------------


STEPS = [(name, k) for name, trace in TRACES.items() for k in range(len(trace.steps))]


@pytest.mark.parametrize(("name", "k"), STEPS)
def test_titles_exist_in_both_languages(name: str, k: int) -> None:
    trace = TRACES[name]
    step = trace.steps[k]
    en = step_title(step, trace.scenario, "en")
    zh = step_title(step, trace.scenario, "zh")
    # English titles are the engine's own, never a second copy; in a layer, "Layer 2: …" reads
    # "Layer 2 · …".
    _label, _, title = step.title.partition(": ")
    assert en == step.title if not step.layer else en.endswith(f" · {title}")
    assert en and zh and en != zh
    assert CJK.search(zh)
    assert not CJK.search(en)


NORM_NAMES = {"en": {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm", "none": "no norm"},
              "zh": {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm", "none": "关闭"}}
ACTIVATION_NAMES = {"en": {"relu": "ReLU", "gelu": "GELU", "silu": "SiLU",
                           "identity": "identity"},
                    "zh": {"relu": "ReLU", "gelu": "GELU", "silu": "SiLU", "identity": "恒等"}}
MARKS = {"causal": {"en": "causal mask", "zh": "因果掩码"},
         "scale": {"en": "√dₖ", "zh": "√dₖ"},
         "wo": {"en": "Wo", "zh": "Wo"},
         "post": {"en": "Post-norm", "zh": "后置规范化"}}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(TRACES))
def test_titles_reflect_the_options(name: str, lang: str) -> None:
    trace = TRACES[name]
    scenario, a = trace.scenario, trace.scenario.attention
    for step in trace.steps:
        title = step_title(step, scenario, lang)
        if step.id == "weights":
            assert (MARKS["causal"][lang] in title.lower()) == a.causal, title
        if step.id == "scores":
            assert (MARKS["scale"][lang] in title) == a.scale, title
        if step.id == "mix":
            assert (MARKS["wo"][lang] in title) == (a.Wo is not None), title
        if step.id in ("norm1", "norm2", "final_norm"):
            assert scenario.block is not None
            assert f"{NORM_NAMES[lang][scenario.block.norm]}" in title, title
            others = set(NORM_NAMES[lang].values()) - {NORM_NAMES[lang][scenario.block.norm]}
            assert not any(other in title for other in others), title
            is_post = step.explain_key.endswith("_post")
            assert title.startswith(MARKS["post"][lang]) == is_post, title
        if step.id == "ffn":
            assert scenario.block is not None
            assert ACTIVATION_NAMES[lang][scenario.block.ffn.activation] in title, title


def test_titles_switch_with_one_option() -> None:
    f11, plain = TRACES["f11"], TRACES["f11-plain"]
    pairs = {(step_title(s, f11.scenario, "zh"), step_title(p, plain.scenario, "zh"))
             for s, p in zip(f11.steps, plain.steps, strict=True) if s.id in ("scores", "weights")}
    assert pairs == {("分数 q·k，再除以 √dₖ", "分数 q·k"),
                     ("因果掩码与 softmax 份额", "softmax 份额")}


# -- glossary --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_glossary_has_every_term(lang: str) -> None:
    entries = glossary(lang)
    assert list(TERM_IDS) == EXPECTED_TERMS
    assert [e.term_id for e in entries] == EXPECTED_TERMS
    for entry in entries:
        assert isinstance(entry, GlossaryEntry)
        assert glossary_entry(entry.term_id, lang) == entry
        assert entry.term and entry.definition and entry.example
        assert "\n" not in entry.definition + entry.example
        assert sentences(entry.definition, lang) == 1, entry.definition
        assert re.search(r"\d", entry.example), entry.example  # a worked example with numbers
        if lang == "zh":
            assert CJK.search(entry.definition), entry
        else:
            assert not CJK.search(without_labels(entry.definition + entry.term)), entry
    assert set(FORMS[lang]) == set(EXPECTED_TERMS)


@pytest.mark.parametrize("term_id", EXPECTED_TERMS)
def test_glossary_term_differs_between_languages_and_links_to_itself(term_id: str) -> None:
    en, zh = glossary_entry(term_id, "en"), glossary_entry(term_id, "zh")
    assert en.definition != zh.definition
    assert en.example != zh.example or term_id == "I"
    for lang, entry in (("en", en), ("zh", zh)):
        assert term_id in {t for _, _, t in linked_terms(entry.term, lang)}, (lang, entry.term)


def test_glossary_examples_from_the_brief() -> None:
    assert "LayerNorm([1, 3]) = [−1, 1]" in glossary_entry("Norm", "en").example
    assert "[3, −2]·[[1, 0], [0, 1]] = [3, −2]" in glossary_entry("I", "zh").example
    assert "0.804" in glossary_entry("shares", "zh").example
    assert "weights W" in glossary_entry("shares", "en").definition
    assert "参数 W" in glossary_entry("shares", "zh").definition


# -- linked terms ----------------------------------------------------------------------------


def terms(text: str, lang: str) -> list[tuple[str, str]]:
    return [(text[start:end], term) for start, end, term in linked_terms(text, lang)]


def test_linked_terms_finds_layernorm_and_softmax_in_step_texts() -> None:
    how = text_of("block.norm1", "en").how
    found = terms(how, "en")
    assert ("LayerNorm", "LayerNorm") in found
    assert ("RMSNorm", "RMSNorm") in terms(text_of("block.norm1", "en", "g01-rmsnorm").how, "en")
    assert ("γ", "gamma") in found
    assert all(term != "Norm" for _, term in found)  # "Norm" inside "LayerNorm" is not linked
    summary = text_of("attention.weights", "en").summary
    assert ("softmax", "softmax") in terms(summary, "en")
    assert ("shares", "shares") in terms(summary, "en")
    zh = terms(text_of("block.probs", "zh").summary, "zh")
    assert zh == [("softmax", "softmax"), ("logits", "logits"), ("概率", "probabilities")]


def test_linked_terms_longest_first_and_boundaries() -> None:
    text = "Pre-norm: the norm of x, then Wo; a Word about the vocabulary head and two heads."
    assert terms(text, "en") == [("Pre-norm", "pre-norm"), ("norm", "Norm"), ("Wo", "Wo"),
                                 ("heads", "heads")]
    assert terms("LayerNorm 不是概率归一化，而是层规范化。", "zh") == [
        ("LayerNorm", "LayerNorm"), ("层规范化", "LayerNorm")]
    assert terms("Wq的份额", "zh") == [("Wq", "Wq"), ("份额", "shares")]
    assert terms("Causal mask and softmax shares", "en") == [
        ("Causal mask", "causal-mask"), ("softmax", "softmax"), ("shares", "shares")]
    assert linked_terms("", "en") == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_linked_terms_spans_are_sorted_disjoint_and_slice_to_a_form(lang: str) -> None:
    texts = [text for text_lang, _, _, text in ALL_TEXTS if text_lang == lang]
    texts += [e.definition for e in glossary(lang)] + [e.example for e in glossary(lang)]
    trace = TRACES["g01"]
    texts += [step_title(s, trace.scenario, lang) for s in trace.steps]
    linked = set()
    for text in texts:
        spans = linked_terms(text, lang)
        for (_, end1, _), (start2, _, _) in itertools.pairwise(spans):
            assert end1 <= start2
        for start, end, term in spans:
            assert 0 <= start < end <= len(text)
            forms = FORMS[lang][term]
            assert text[start:end] in forms or text[start:end].lower() in forms
            linked.add(term)
    assert len(linked) >= 20  # the texts use nearly every term


# -- speaker notes ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", ["f11", "g01", "g01-post", "tokenizer"])
def test_speaker_notes(name: str, lang: str) -> None:
    trace = TRACES[name]
    for k, step in enumerate(trace.steps):
        notes = speaker_notes(trace, k, lang)
        text = step_text(trace, k, lang)
        lines = notes.split("\n")
        assert lines[0] == step_title(step, trace.scenario, lang)
        assert lines[1] == text.summary
        positions = [lines.index(heading) for heading in HEADINGS[lang]]
        assert positions == sorted(positions)
        for position, body in zip(positions, text.sections(), strict=True):
            assert lines[position - 1] == ""
            assert lines[position + 1] == body
        other = "zh" if lang == "en" else "en"
        assert not any(heading in notes for heading in HEADINGS[other])


# -- no Qt -----------------------------------------------------------------------------------


def test_importing_texts_loads_no_qt() -> None:
    code = ("import sys, app.texts\n"
            "from app.texts import step_text, glossary\n"
            "from engine import compute, load_scenario\n"
            "trace = compute(load_scenario('resources/examples/f11.qkv.json'))\n"
            "step_text(trace, 2, 'zh'); glossary('en')\n"
            "bad = sorted(m for m in sys.modules\n"
            "             if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph'))\n"
            "print(bad)\n"
            "sys.exit(1 if bad else 0)\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "[]"
