"""Every document the engine accepts opens in the window, draws, tells and exports.

Version-2 documents are generated over every construct of the format
(:mod:`tests.app.generated_documents`); each one is computed, then every step's frame (with the
worked row) is built, every step's text and explanation page written in English and Chinese,
one cell of every array of the trace explained, one PNG and one editable PowerPoint slide
exported, and the document opened in the real window with File → Open.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from app.canvas import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.worked_row import WORKED_STAGES
from app.export.job import run_export
from app.export.settings import FORMATS, ExportRequest
from app.help.html import step_html, step_plain
from app.texts import step_text
from app.window.studio import StudioWindow
from engine import Trace, compute, explain, parse_scenario
from tests.app.driving import close_window, open_window
from tests.app.generated_documents import (
    CONSTRUCTS,
    EXAMPLES,
    Spec,
    build,
    constructs,
    specs,
)

GENERATED = 20
"""Documents drawn at random besides the :data:`EXAMPLES`: 29 in all, about 2½ minutes here."""
LANGS = ("en", "zh")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("generated")


@pytest.fixture
def studio(qtbot: QtBot) -> Iterator[StudioWindow]:
    window = open_window(qtbot)
    yield window
    close_window(window)


def test_the_examples_meet_every_construct() -> None:
    met = set().union(*(constructs(spec) for spec in EXAMPLES))
    assert met == CONSTRUCTS


def draw_every_step(trace: Trace) -> None:
    """Every step's frame, with the worked row at the steps that have one."""
    for k, step in enumerate(trace.steps):
        lang = LANGS[k % 2]
        frame = FrameItem(trace, k, FrameOptions(lang=lang, worked_row=True))
        assert frame.step_index == k and frame.boundingRect().width() > 0
        assert (frame.worked_row is not None) == (WORKED_STAGES[step.op] is not None), step.id


def tell_every_step(trace: Trace) -> None:
    """Every step's text and explanation page in both languages."""
    for k in range(len(trace.steps)):
        for lang in LANGS:
            text = step_text(trace, k, lang)
            assert all(text.sections()) and text.summary, (trace.steps[k].id, lang)
            assert text.check in step_plain(text, lang)
            assert step_html(text, lang).count("<h4>") == 4


def explain_every_array(trace: Trace) -> None:
    """One cell (the last) of every array of the trace, explained with its value."""
    for k, (name, values) in enumerate(trace.arrays.items()):
        if values.size == 0:  # no cell to explain (the statistics of a norm that is off)
            continue
        cell = tuple(int(size) - 1 for size in values.shape)
        explanation = explain(trace, name, cell, LANGS[k % 2])
        assert explanation.value == pytest.approx(float(values[cell]), abs=1e-9), name
        assert explanation.formula, name


def export_one_step(trace: Trace, folder: Path, name: str) -> None:
    """One PNG and one editable PowerPoint slide of the middle step."""
    step = len(trace.steps) // 2
    [png] = run_export(trace, ExportRequest(format="png", steps=(step,), destination=folder,
                                            name=name, width=480))
    image = QImage(str(png))
    assert (image.width(), image.height()) == (480, 270)
    [deck] = run_export(trace, ExportRequest(format="pptx", steps=(step,),
                                             destination=folder / f"{name}.pptx"))
    with zipfile.ZipFile(deck) as pptx:
        slides = [n for n in pptx.namelist() if n.startswith("ppt/slides/slide")
                  and n.endswith(".xml")]
        assert len(slides) == 1
        assert "<a:tbl>" in pptx.read(slides[0]).decode(), "editable: a native table"


def open_in_window(window: StudioWindow, document: dict[str, object], path: Path) -> None:
    """File → Open of the document: switched in whole, its first frame drawn, no refusal."""
    path.write_text(json.dumps(document), encoding="utf-8")
    assert window.open_path(path), window.statusBar().currentMessage()
    assert window.state.scenario.title == document["title"] and window.state.path == path
    frame = window.canvas.frame
    assert isinstance(frame, FrameItem) and frame.trace is window.state.trace
    assert not window.statusBar().currentMessage().startswith("⚠")
    last = len(window.state.trace.steps) - 1
    window.state.set_step(last)
    assert window.canvas.frame is not None and window.canvas.frame.step_index == last


@pytest.mark.slow
@settings(max_examples=GENERATED, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(spec=specs())
@example(spec=EXAMPLES[0])
@example(spec=EXAMPLES[1])
@example(spec=EXAMPLES[2])
@example(spec=EXAMPLES[3])
@example(spec=EXAMPLES[4])
@example(spec=EXAMPLES[5])
@example(spec=EXAMPLES[6])
@example(spec=EXAMPLES[7])
@example(spec=EXAMPLES[8])
@example(spec=EXAMPLES[9])
def test_every_generated_document_opens_draws_tells_and_exports(
        spec: Spec, studio: StudioWindow, folder: Path) -> None:
    document = build(spec)
    trace = compute(parse_scenario(document))
    assert np.isfinite(trace.arrays[trace.steps[-1].writes[0]]).all()
    draw_every_step(trace)
    tell_every_step(trace)
    explain_every_array(trace)
    name = f"doc{spec.seed}"
    export_one_step(trace, folder, name)
    open_in_window(studio, document, folder / f"{name}.qkv.json")


def export_three_steps(trace: Trace, steps: tuple[int, int, int], fmt: str,
                       folder: Path) -> str:
    """Three steps exported in ``fmt`` (480 wide, Chinese): each file over 1 kB; a deck's
    slides' text (empty for another format)."""
    per_step = FORMATS[fmt].per_step
    destination = folder if per_step else folder / f"three.{fmt}"
    written = run_export(trace, ExportRequest(format=fmt, steps=steps, destination=destination,
                                              name="three", width=480, lang="zh", dwell=0.5))
    assert len(written) == (3 if per_step else 1)
    assert all(path.stat().st_size > 1000 for path in written)
    if fmt != "pptx":
        return ""
    with zipfile.ZipFile(written[0]) as pptx:
        slides = sorted(n for n in pptx.namelist()
                        if n.startswith("ppt/slides/slide") and n.endswith(".xml"))
        assert len(slides) == 3
        return "".join(pptx.read(n).decode() for n in slides)


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_the_embedding_steps_export_in_every_format(fmt: str, qtbot: QtBot,
                                                     tmp_path: Path) -> None:
    """BERT's embedding steps (scaled rows, + positions + types, the norm → X) in every export
    format, titled in Chinese."""
    trace = compute(parse_scenario(build(EXAMPLES[6])))
    assert [step.id for step in trace.steps[:3]] == ["embed", "positions", "embedding_norm"]
    text = export_three_steps(trace, (0, 1, 2), fmt, tmp_path)
    if fmt == "pptx":
        assert "嵌入相加" in text and "嵌入规范化" in text


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_the_masked_lm_steps_export_in_every_format(fmt: str, qtbot: QtBot,
                                                     tmp_path: Path) -> None:
    """BERT's masked-LM head (the transform, the logits, the probabilities that fill [MASK])
    in every export format, titled and filled in Chinese."""
    trace = compute(parse_scenario(build(EXAMPLES[9])))
    assert [step.id for step in trace.steps[-3:]] == ["transform", "logits", "probs"]
    last = len(trace.steps) - 1
    text = export_three_steps(trace, (last - 2, last - 1, last), fmt, tmp_path)
    if fmt == "pptx":
        assert "掩码语言模型的变换" in text and "填空" in text
