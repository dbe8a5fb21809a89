"""A mixture's shared expert on the canvas, in the texts, the titles and the screen reader, in
both languages: the hand-made document of tests/engine/test_engine_shared_expert.py (three
tokens, three experts, two chosen, and the shared expert behind its sigmoid gate), its numbers
computed by hand there and here."""

from __future__ import annotations

import math

import numpy as np
import pytest

from app.canvas import FrameOptions
from app.canvas.describe import FACTS
from app.canvas.frame import FrameItem
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.texts.lookup import step_text
from app.texts.titles import step_title
from engine import Trace, compute, parse_scenario
from engine.generation.append import extend
from engine.generation.kv_cache import cache_of, next_position
from tests.engine.test_engine_shared_expert import shared_document

GATE_A = 1 / (1 + math.exp(-1.0))  # token a = (1, 0): x · w_g = 1


@pytest.fixture(scope="module")
def trace() -> Trace:
    return compute(parse_scenario(shared_document()))


def _index(trace: Trace, step_id: str) -> int:
    return next(k for k, step in enumerate(trace.steps) if step.id == step_id)


@pytest.mark.parametrize(("lang", "titles", "words"), [
    ("en", ["norm2", "choice 1: its expert's output", "choice 2: its expert's output",
            "shared_gate", "shared expert's gate", "shared expert's output", "router_weights",
            "ffn_out"], ["→ σ →", "x → shared expert's FFN →",
                         "Σ weight · output + gate · shared ="]),
    ("zh", ["norm2", "第 1 个选择：其专家的输出", "第 2 个选择：其专家的输出", "shared_gate",
            "共享专家的门控", "共享专家的输出", "router_weights", "ffn_out"],
     ["→ σ →", "x → 共享专家的前馈 →", "Σ 权重 · 输出 + 门控 · 共享 ="]),
])
def test_the_experts_frame_prints_the_shared_experts_gate_and_output(
        qapp: object, trace: Trace, lang: str, titles: list[str], words: list[str]) -> None:
    frame = FrameItem(trace, _index(trace, "L1.experts"), FrameOptions(lang=lang))
    grids = frame.items_of(MatrixGrid)
    assert [g.spec.title for g in grids] == titles
    np.testing.assert_array_equal(grids[3].spec.values, [[1.0], [-1.0]])  # w_g, d × 1
    gates = [1 / (1 + math.exp(-z)) for z in (1.0, -2.0, 2.0)]
    np.testing.assert_allclose(grids[4].spec.values, [[g] for g in gates], rtol=0, atol=1e-16)
    np.testing.assert_array_equal(grids[5].spec.values,
                                  [[0.5, -0.5], [0.5, -0.5], [0.25, -0.25]])
    shown = [t.text for t in frame.items_of(TextItem)]
    for word in words:
        assert word in shown


@pytest.mark.parametrize(("lang", "how", "pitfall"), [
    ("en", f"x · w_g = 1, so its gate σ(1) = {GATE_A:.6f} keeps that part of the shared output",
     "need not add up to 1"),
    ("zh", f"x · w_g = 1，门控 σ(1) = {GATE_A:.6f} 决定保留共享输出的多少", "不必等于 1"),
])
def test_the_experts_are_told_with_the_shared_gates_numbers(trace: Trace, lang: str, how: str,
                                                            pitfall: str) -> None:
    text = step_text(trace, _index(trace, "L1.experts"), lang, receiver=0)
    assert how in text.how and pitfall in text.pitfalls
    # a: experts 0, 1 (weights e/(e + 1), 1/(e + 1)), first columns 1 and 0; shared 0.5
    first = math.e / (math.e + 1)
    assert f"{first:.6f}·1 + {1 - first:.6f}·0 + {GATE_A:.6f}·0.5 = " \
           f"{first + GATE_A * 0.5:.6f}" in text.check


@pytest.mark.parametrize(("lang", "title"), [
    ("en", "Layer 1 · Experts: the chosen feed-forwards and the gated shared one, summed"),
    ("zh", "第 1 层 · 专家：选中的前馈网络与带门控的共享专家，相加"),
])
def test_the_experts_title_names_the_shared_expert(trace: Trace, lang: str, title: str) -> None:
    assert step_title(trace.steps[_index(trace, "L1.experts")], trace.scenario, lang) == title


@pytest.mark.parametrize(("lang", "gate"), [
    ("en", f"L1.shared_weight, row c: {1 / (1 + math.exp(-2.0)):.3f}"),
    ("zh", f"L1.shared_weight 中“c”一行：{1 / (1 + math.exp(-2.0)):.3f}"),
])
def test_the_screen_reader_reads_the_gate_and_the_shared_output(trace: Trace, lang: str,
                                                                gate: str) -> None:
    step = trace.steps[_index(trace, "L1.experts")]
    facts = FACTS["experts"](trace, step, 2, FrameOptions(lang=lang))  # token c
    assert len(facts) == 5 and facts[2] == gate
    assert facts[3].endswith("0.25, −0.25")


def test_a_token_generated_through_the_kv_cache_runs_the_shared_expert_as_a_recompute() -> None:
    """The document with token ids and an embedding (the rows X, then two more), a vocabulary
    head: each token through the cache gets the gate and the sum a full recompute gives."""
    doc = shared_document()
    doc.pop("X")
    doc.pop("tokens")
    doc.update(token_ids=[0, 1, 2], embedding=[[1.0, 0.0], [0.0, 2.0], [1.0, -1.0]],
               head={"unembed": [[1.0, 0.0, -1.0], [0.5, 1.0, 0.0]], "vocab": ["a", "b", "c"]})
    document = parse_scenario(doc)
    cache = cache_of(compute(document))
    for token in (2, 0):
        row = next_position(cache, token)
        document = extend(document, token)
        full = compute(document)
        for name in ("shared_weight", "shared_out", "ffn_out"):
            np.testing.assert_allclose(row.arrays["L1." + name], full.arrays["L1." + name][-1:],
                                       rtol=0, atol=1e-12)
        np.testing.assert_allclose(row.probs, full.arrays["probs"][-1], rtol=0, atol=1e-12)
        cache = row.cache
