"""Every op kind has an entry in every consumer's table, and each entry works on a real step.

Adding a member to ``engine.forward.step.Op`` without its picture, map label, description,
worked-row stage, picture options, tape role, explanation, facts (``engine.kinds``), way of
being shown (``canvas.shown``) or a worksheet's check sentence fails here.
"""

from __future__ import annotations

import re
from typing import get_args

import pytest
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.compose import PICTURE_OPTIONS
from app.canvas.describe import FACTS, describe_frame
from app.canvas.route_map import MAP_LABELS
from app.canvas.shown import SHOWN
from app.canvas.steps import STEP_LAYOUTS
from app.canvas.worked_row import WORKED_STAGES
from app.export.worksheet_plan import CHECKS
from app.model.examples import example_path
from app.model.operands import ROLES
from app.model.presets import preset_document
from app.texts.lookup import OP_PLANS, step_text
from app.texts.step_labels import step_label
from app.texts.titles import step_title
from engine import Step, Trace, compute, explain, load_scenario, parse_scenario
from engine.arithmetic.cells import EXPLAINERS
from engine.forward.step import Op
from engine.scenario.op_kinds import KINDS
from engine.scenario.op_table import TABLES, missing_ops
from tests.engine import generation_documents
from tests.engine.v2_documents import CASES

CONSUMERS = {
    "canvas.layout": STEP_LAYOUTS,
    "canvas.map_label": MAP_LABELS,
    "canvas.describe": FACTS,
    "canvas.worked_row": WORKED_STAGES,
    "canvas.picture_options": PICTURE_OPTIONS,
    "tape.role": ROLES,
    "explain": EXPLAINERS,
    "texts.plans": OP_PLANS,
    "engine.kinds": KINDS,
    "canvas.shown": SHOWN,
    "export.check": CHECKS,
}
"""Every consumer's table: a new one must be listed here as well as made with op_table."""


def test_every_consumer_has_its_table_recorded() -> None:
    for name, table in CONSUMERS.items():
        assert TABLES[name] is table, name


@pytest.mark.parametrize("consumer", sorted(TABLES))
def test_every_op_has_an_entry_in_every_table(consumer: str) -> None:
    table = TABLES[consumer]
    assert missing_ops(table) == [], f"{consumer} lacks an entry for these op kinds"
    assert set(table) == set(get_args(Op)), f"{consumer} has entries for unknown op kinds"


def test_missing_ops_names_what_a_table_lacks() -> None:
    table = dict(STEP_LAYOUTS)
    del table["rope"], table["probs"]
    assert missing_ops(table) == ["rope", "probs"]


def _traces() -> list[Trace]:
    names = ("f11", "encoder-decoder", "rope", "tokenizer", "three-layers")
    generating = generation_documents.cases()["three-layers"]
    with_targets = {**generating, "targets": [1, 2, 0]}
    capped = {**generating, "head": {**generating["head"], "softcap": 0.5}}
    return [compute(load_scenario(example_path(name))) for name in names] + [
        compute(parse_scenario(CASES[case]()))
        for case in ("sinusoidal", "qk_norm_rmsnorm", "mixture_of_experts")] + [
        compute(parse_scenario(doc)) for doc in (generating, with_targets, capped,
                                                 preset_document("bert"))]


def _one_step_per_op() -> dict[Op, tuple[Trace, Step]]:
    found: dict[Op, tuple[Trace, Step]] = {}
    for trace in _traces():
        for step in trace.steps:
            found.setdefault(step.op, (trace, step))
    return found


@pytest.mark.slow
def test_every_op_walks_through_every_consumer_on_a_real_step(qtbot: QtBot) -> None:
    found = _one_step_per_op()
    assert set(found) == set(get_args(Op)), "an example for every op kind"
    for op, (trace, step) in found.items():
        index = trace.step_index(step.id)
        for lang in ("en", "zh"):
            frame = FrameItem(trace, index, FrameOptions(lang=lang, worked_row=True))
            assert frame.route_map is not None
            current = frame.route_map.current
            assert current is not None and current.step_index == index, op
            assert describe_frame(trace, index, FrameOptions(lang=lang), step.title), op
            told = step_text(trace, index, lang)
            assert told.summary and told.check, op
        chinese = step_title(step, trace.scenario, "zh")
        assert re.search(r"[\u4e00-\u9fff]", chinese), (op, chinese)  # a title of its own
        assert step_label(step, "zh") and step_label(step, "en"), op
        assert isinstance(PICTURE_OPTIONS[op](trace, step), tuple)
        written = next((name for name in step.writes if name in trace.arrays), None)
        if written is None:  # attention's inputs step draws X and the weights only
            assert op == "inputs"
            continue
        array = trace.arrays[written]
        cell = explain(trace, written, (0,) * array.ndim)
        assert cell.value == float(array[(0,) * array.ndim]), op
