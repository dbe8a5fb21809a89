"""The trace-size estimate counts the arrays of the draw of the next token (4 vocabulary-long
arrays at most and the chosen id) for a document that can generate, and nothing for one with
targets."""

from __future__ import annotations

from typing import Any

import pytest

import engine.scenario.scenario
from engine import ScenarioError, compute, parse_scenario
from engine.forward.size import trace_numbers
from tests.engine.generation_documents import cases


def _size(doc: dict[str, Any], draws: bool) -> int:
    scenario = parse_scenario(doc)
    vocab = len(scenario.head.vocab)  # type: ignore[union-attr]
    return trace_numbers(scenario.n, scenario.d, scenario.layers, 0, vocab, draws)


def test_the_draw_adds_four_vocabulary_rows_and_one_id() -> None:
    doc = cases()["three-layers"]
    assert _size(doc, True) - _size(doc, False) == 4 * 3 + 1
    drawn = compute(parse_scenario(doc)).arrays
    assert sum(drawn[name].size for name in drawn if name.startswith("gen1.")) <= 4 * 3 + 1


def test_a_document_whose_draw_passes_the_limit_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    doc = cases()["three-layers"]
    trained = {**doc, "targets": [0, 1, 2]}
    monkeypatch.setattr(engine.scenario.scenario, "MAX_TRACE_NUMBERS", _size(doc, False))
    parse_scenario(trained)  # targets: no draw, so within the limit
    with pytest.raises(ScenarioError, match="the trace would hold"):
        parse_scenario(doc)
