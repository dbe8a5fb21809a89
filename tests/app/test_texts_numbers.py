"""Every number and token a step text quotes belongs to the open document.

For every built-in example, variants of them, and random valid documents: each number printed in
any field of any step text, in either language, equals at the frames' precision a value of that
document's trace or parameters, a size, or a value of the same document with one option flipped;
and no text names a token or vocabulary entry the document lacks.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.texts import LANGUAGES, speaker_notes, step_text
from app.texts.printed import printed_places
from engine import ScenarioError, Trace, compute, format_number, parse_scenario
from engine.format.numbers import format_exact

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "resources" / "examples").glob("*.qkv.json"))
NUMBER = re.compile(r"(?<![\w.])≈?[−-]?\d+(?:\.\d+)?(?:×10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?(?![\w])")
FLIPS: list[tuple[str, Any]] = [
    ("attention.causal", "not"), ("attention.scale", "not"), ("block.final_norm", "not"),
    ("block.norm", {"layernorm": "rmsnorm", "rmsnorm": "layernorm", "none": "layernorm"}),
    ("block.placement", {"pre": "post", "post": "pre"}),
]
CJK = re.compile(r"[\u4e00-\u9fff]")


def flipped(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The document with each one option flipped (those that apply)."""
    out = []
    for path, change in FLIPS:
        section, key = path.split(".")
        if not isinstance(document.get(section), dict):
            continue
        copy = json.loads(json.dumps(document))
        value = copy[section].get(key, {"causal": True, "scale": True, "final_norm": False,
                                        "norm": "layernorm", "placement": "pre"}[key])
        copy[section][key] = (not value) if change == "not" else change[value]
        out.append(copy)
    return out


def row_statistics(array: np.ndarray) -> list[float]:
    """Per-row means, variances, mean squares and sums of a 2-D array, computed here."""
    rows = array.reshape(-1, array.shape[-1])
    return [*rows.mean(axis=1), *rows.var(axis=1), *(rows ** 2).mean(axis=1), *rows.sum(axis=1)]


def values_of(trace: Trace) -> list[float]:
    """Every value a text may quote from one trace, computed independently where derived."""
    s = trace.scenario
    a = s.attention
    values: list[float] = [0, 1, s.n, s.d, a.heads, a.d_k, a.d_v, a.heads * a.d_k,
                           a.heads * a.d_v, a.d_out, math.sqrt(a.d_k), *range(s.n)]
    for array in trace.arrays.values():
        values += [float(v) for v in array.ravel()]
        if array.ndim >= 2 and array.size:  # (a norm that is off has 0 statistics per row)
            values += row_statistics(array)
            values += [float(v) for v in np.abs(array).ravel()]
            values += [float(v) for v in np.linalg.norm(array, axis=-1).ravel()]  # |q| (RoPE)
    scores, visible = trace.arrays["scores"], trace.visible
    for h in range(scores.shape[0]):
        for i in range(s.n):
            row = scores[h, i][visible[i]]
            exps = np.exp(row - row.max())
            values += [*exps, exps.sum()]
    for path in s.parameter_paths():
        values += [float(v) for v in np.asarray(s.parameter(path)).ravel()]
        values += list(np.asarray(s.parameter(path)).shape)
    if s.token_ids is not None:
        values += list(s.token_ids)
    if s.block is not None:
        b = s.block
        values += [b.eps, len(b.vocab), int(b.ffn.W1.shape[1])]
        source = trace.arrays[trace.steps[trace.step_index("ffn")].reads[0]]
        z = source @ b.ffn.W1 + (b.ffn.b1 if b.ffn.b1 is not None else 0.0)
        values += [float(v) for v in z.ravel()]
    return values


def allowed_numbers(document: dict[str, Any]) -> set[str]:
    """Every allowed number as the texts print it."""
    shown: set[str] = set()
    places = printed_places(compute(parse_scenario(document)))  # the frames' (issue 23)
    for doc in [document, *flipped(document)]:
        try:
            trace = compute(parse_scenario(doc))
        except ScenarioError:
            continue
        for value in values_of(trace):
            shown.add(format_number(float(value), places))
            shown.add(format_exact(float(value)))  # ε as the canvas writes it
    return shown


def texts_of(trace: Trace) -> list[tuple[str, str]]:
    """``(where, text)`` for every field of every step text and speaker note, both languages."""
    out = []
    for k, step in enumerate(trace.steps):
        for lang in LANGUAGES:
            text = step_text(trace, k, lang)
            for field in ("summary", "why", "how", "pitfalls", "check"):
                out.append((f"{step.id}.{field}.{lang}", getattr(text, field)))
            out.append((f"{step.id}.notes.{lang}", speaker_notes(trace, k, lang)))
    return out


def check_document(document: dict[str, Any], foreign: set[str]) -> None:
    trace = compute(parse_scenario(document))
    allowed = allowed_numbers(document)
    own = set(trace.scenario.tokens) | set(
        trace.scenario.block.vocab if trace.scenario.block is not None else ())
    for where, text in texts_of(trace):
        stripped = text
        for label in sorted(own, key=len, reverse=True):
            stripped = stripped.replace(label, " ")  # a token like "p2" is not a number
        for match in NUMBER.finditer(stripped):
            assert match.group() in allowed, (where, match.group(), text)
        for label in foreign - own:
            assert not re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text), (where, label, text)


def example_documents() -> dict[str, dict[str, Any]]:
    return {p.name: json.loads(p.read_text("utf-8")) for p in EXAMPLES}


def foreign_labels() -> set[str]:
    """Labels of every example that could be mistaken for nothing else: CJK, or with a digit,
    or a word no text of F11 or G01 uses."""
    docs = example_documents()
    plain = " ".join(text for name in ("f11.qkv.json", "g01.qkv.json")
                     for _, text in texts_of(compute(parse_scenario(docs[name]))))
    labels: set[str] = set()
    for doc in docs.values():
        labels |= set(doc.get("tokens", [])) | set((doc.get("block") or {}).get("vocab", []))
    return {label for label in labels if CJK.search(label) or re.search(r"\d", label)
            or not re.search(rf"(?<!\w){re.escape(label)}(?!\w)", plain)}


FOREIGN = foreign_labels()


def test_every_example_quotes_only_its_own_numbers_and_tokens() -> None:
    for name, document in example_documents().items():
        if "layers" in document or "encoder" in document:
            continue  # the allowed numbers are gathered for one unprefixed layer only
        check_document(document, FOREIGN)
        for other in flipped(document):  # the variants a teacher reaches with one option
            try:
                parse_scenario(other)
            except ScenarioError:
                continue
            check_document(other, FOREIGN)
        assert name


def test_the_check_rejects_a_number_of_another_document() -> None:
    """The checker itself can fail: F11's numbers are not G01's."""
    docs = example_documents()
    g01 = compute(parse_scenario(docs["g01.qkv.json"]))
    allowed = allowed_numbers(docs["g01.qkv.json"])
    assert "1.414214" in allowed and "3.911" not in allowed and "8.044" not in allowed
    assert any("p2" in text for _, text in texts_of(g01))
    assert "爱" in FOREIGN and "p2" in FOREIGN


def test_g01_texts_quote_g01() -> None:
    g01 = compute(parse_scenario(example_documents()["g01.qkv.json"]))
    projections = step_text(g01, g01.step_index("projections"), "en")
    # LayerNorm([0, 2]) with ε = 1e-5 is [−0.999995, 0.999995], as G01's frames print it
    assert "Q[p2, 0] = (−0.999995)·1 + 0.999995·0 = −0.999995" in projections.check
    assert "norm1" in projections.summary and "X" not in projections.summary
    zh = step_text(g01, g01.step_index("projections"), "zh")
    assert zh.summary.startswith("norm1 的每一行")
    f11_mask_off = json.loads(json.dumps(example_documents()["f11.qkv.json"]))
    f11_mask_off["attention"]["causal"] = False
    off = compute(parse_scenario(f11_mask_off))
    weights = step_text(off, off.step_index("weights"), "en")
    assert "mask hides" not in weights.summary + weights.how
    assert "No row has a single visible key" in weights.pitfalls


# -- random valid documents ---------------------------------------------------------------------

small = st.integers(-3, 3).map(float) | st.sampled_from([0.5, -0.5, 1.5, 0.25])


def matrix(rows: int, cols: int) -> st.SearchStrategy[list[list[float]]]:
    return st.lists(st.lists(small, min_size=cols, max_size=cols), min_size=rows, max_size=rows)


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 4))
    heads = draw(st.integers(1, 2))
    d_k = draw(st.integers(1, 2))
    d = draw(st.integers(1, 4))
    width = heads * d_k
    attention: dict[str, Any] = {
        "heads": heads, "causal": draw(st.booleans()), "scale": draw(st.booleans()),
        "Wq": draw(matrix(d, width)), "Wk": draw(matrix(d, width)), "Wv": draw(matrix(d, width))}
    block = draw(st.booleans())
    if draw(st.booleans()) or block:
        attention["Wo"] = draw(matrix(width, d))
    doc: dict[str, Any] = {"format": "qkv-studio", "version": 1, "title": "random",
                           "tokens": [f"t{i}" for i in range(n)], "X": draw(matrix(n, d)),
                           "attention": attention}
    if block:
        hidden = draw(st.integers(1, 3))
        vocab = draw(st.integers(0, 3))
        doc["block"] = {
            "norm": draw(st.sampled_from(["layernorm", "rmsnorm", "none"])),
            "placement": draw(st.sampled_from(["pre", "post"])),
            "final_norm": draw(st.booleans()),
            "ffn": {"W1": draw(matrix(d, hidden)), "W2": draw(matrix(hidden, d)),
                    "activation": draw(st.sampled_from(["relu", "gelu", "silu", "identity"]))}}
        if vocab:
            doc["block"]["unembed"] = draw(matrix(d, vocab))
            doc["block"]["vocab"] = [f"v{j}" for j in range(vocab)]
    return doc


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_random_documents_quote_only_their_own_numbers(document: dict[str, Any]) -> None:
    try:
        parse_scenario(document)
    except ScenarioError:
        return
    check_document(document, FOREIGN)
