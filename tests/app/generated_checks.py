"""The checks every generated document passes (the test_generated_* modules, split so that
two workers share them): computed, then every step's frame (with the worked row) built, every
step's text and explanation page written in English and Chinese, one cell of every array of the
trace explained, one step exported in every format (PNG, SVG, PDF, editable PowerPoint; two
steps as GIF and MP4), the model view painted with every head's sink figure, and the document
opened in the real window with File → Open; a document that can generate then draws two tokens
with Generate next, and its run is exported."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path

import imageio_ffmpeg
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from PIL import Image
from pypdf import PdfReader
from PySide6.QtCore import QSize
from PySide6.QtGui import QImage

from app.canvas import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.lens_view import LensItem, LensOptions
from app.canvas.model_view import ModelViewItem, ModelViewOptions
from app.canvas.worked_row import WORKED_STAGES
from app.export.job import run_export
from app.export.picture_export import picture_frame
from app.export.render import render_image
from app.export.run_pages import run_selection
from app.export.settings import ExportRequest
from app.help.html import step_html, step_plain
from app.texts import step_text
from app.window.studio import StudioWindow
from engine import ScenarioError, Trace, compute, explain, parse_scenario
from engine.generation.append import can_generate
from engine.generation.run import generate
from engine.scenario.op_kinds import head_output
from tests.app.generated_documents import EXAMPLES, GENERATED, Spec, build, specs

LANGS = ("en", "zh")
Check = Callable[[Spec, StudioWindow, Path], None]
"""A test of generated documents: the spec, a window (the ``window`` fixture), a folder."""


def examples_test(first: int, end: int) -> Check:
    """The test of :data:`EXAMPLES` ``[first:end]``, one test each (a module per slice)."""

    @pytest.mark.slow
    @pytest.mark.parametrize("spec", EXAMPLES[first:end], ids=lambda spec: f"seed{spec.seed}")
    def test_the_example_opens_draws_tells_and_exports(spec: Spec, window: StudioWindow,
                                                      tmp_path: Path) -> None:
        check_document(spec, window, tmp_path)

    return test_the_example_opens_draws_tells_and_exports


def drawn_test() -> Check:
    """The test of :data:`GENERATED` documents drawn at random (each module that holds it draws
    its own)."""

    @pytest.mark.slow
    @settings(max_examples=GENERATED, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                     HealthCheck.data_too_large])
    @given(spec=specs())
    def test_a_drawn_document_opens_draws_tells_and_exports(spec: Spec, window: StudioWindow,
                                                            tmp_path: Path) -> None:
        check_document(spec, window, tmp_path)

    return test_a_drawn_document_opens_draws_tells_and_exports


def check_document(spec: Spec, window: StudioWindow, folder: Path) -> None:
    """The document of ``spec`` computes finite numbers, draws, tells, explains, exports and
    opens in ``window`` (its files written into ``folder``)."""
    document = build(spec)
    trace = compute(parse_scenario(document))
    assert np.isfinite(trace.arrays[trace.steps[-1].writes[0]]).all()
    draw_every_step(trace)
    tell_every_step(trace)
    explain_every_array(trace)
    name = f"doc{spec.seed}"
    export_one_step(trace, folder, name)
    paint_the_model_view(trace, LANGS[spec.seed % 2])
    paint_the_lens(trace, LANGS[(spec.seed + 1) % 2])
    open_in_window(window, document, folder / f"{name}.qkv.json")


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
    """The middle step in every format: PNG pages, SVG pictures, PDF pages and editable
    PowerPoint slides (a step too small for a projector is split, page for slide, into as many
    parts as F5 shows); the middle and last steps as an animated GIF and an MP4."""
    step = len(trace.steps) // 2
    pngs = run_export(trace, ExportRequest(format="png", steps=(step,), destination=folder,
                                           name=name, width=480))
    assert pngs
    for png in pngs:
        image = QImage(str(png))
        assert (image.width(), image.height()) == (480, 270)
    [deck] = run_export(trace, ExportRequest(format="pptx", steps=(step,),
                                             destination=folder / f"{name}.pptx"))
    with zipfile.ZipFile(deck) as pptx:
        slides = [n for n in pptx.namelist() if n.startswith("ppt/slides/slide")
                  and n.endswith(".xml")]
        assert len(slides) == len(pngs), "a slide per page"
        assert any("<a:tbl>" in pptx.read(slide).decode() for slide in slides), \
            "editable: a native table"
    svgs = run_export(trace, ExportRequest(format="svg", steps=(step,), destination=folder,
                                           name=name, width=480))
    assert len(svgs) == len(pngs) and all(
        'width="480"' in svg.read_text("utf-8") for svg in svgs)
    [pdf] = run_export(trace, ExportRequest(format="pdf", steps=(step,),
                                            destination=folder / f"{name}.pdf"))
    assert len(PdfReader(pdf).pages) == len(pngs), "a page per part"
    export_animations(trace, folder, name, (step, len(trace.steps) - 1))


def export_animations(trace: Trace, folder: Path, name: str, steps: tuple[int, int]) -> None:
    """``steps`` as an animated GIF and an MP4, a frame (or more, a step shown in parts) each."""
    [gif] = run_export(trace, ExportRequest(format="gif", steps=steps, width=480,
                                            destination=folder / f"{name}.gif"))
    with Image.open(gif) as animation:
        assert animation.size == (480, 270) and animation.n_frames >= len(steps)
    [mp4] = run_export(trace, ExportRequest(format="mp4", steps=steps, width=480, dwell=0.5,
                                            destination=folder / f"{name}.mp4"))
    frames, seconds = imageio_ffmpeg.count_frames_and_secs(str(mp4))
    assert frames >= 1 and seconds >= 0.5 * len(steps) - 0.05


def paint_the_model_view(trace: Trace, lang: str) -> None:
    """The model view: a thumbnail per head of every attention, its sink figure the numpy mean
    of the shares on key 0 over the rows that see it, a share said on hover, painted small."""
    item = ModelViewItem(trace, ModelViewOptions(receiver=0, lang=lang))
    assert [shares.step for shares in item.layers] == [
        k for k, step in enumerate(trace.steps) if step.id.endswith("weights")], "every attention"
    for row, shares in enumerate(item.layers):
        sees = trace.visible_for(trace.steps[shares.step].scope)[:, 0]
        weights = trace.arrays[trace.steps[shares.step].writes[0]].reshape(
            shares.weights.shape)
        expected = weights[:, sees, 0].mean(axis=1) if sees.any() else np.zeros(shares.heads)
        np.testing.assert_allclose(item.sinks[row], expected, rtol=1e-12)
        assert item.hover_text(item.thumb_rect(row, shares.heads - 1).center()).startswith(
            item.head_label(row, shares.heads - 1))
    image = render_image(picture_frame(item, item.title(), item.options.theme), QSize(480, 270))
    assert (image.width(), image.height()) == (480, 270)


def paint_the_lens(trace: Trace, lang: str) -> None:
    """The logit lens: its last row is the document's own probabilities (the most probable
    token and its p), each cell's hover names its row, painted small; a document without a
    vocabulary head is refused at ``head``."""
    head = trace.scenario.head
    if head is None or head.unembed is None:
        with pytest.raises(ScenarioError, match=r"^head: "):
            LensItem(trace, LensOptions(lang=lang))
        return
    item = LensItem(trace, LensOptions(receiver=0, lang=lang))
    probs = trace.arrays["probs"]
    assert len(item.readings) == len(trace.scenario.layers) + 1
    for position in range(len(item.tokens)):
        best, p = item.cell_value(len(item.readings) - 1, position)
        assert best == int(np.argmax(probs[position])) and p == probs[position, best]
    last = item.cell_rect(len(item.readings) - 1, len(item.tokens) - 1).center()
    assert item.hover_text(last).startswith(item.row_label(len(item.readings) - 1))
    image = render_image(picture_frame(item, item.title(), item.options.theme), QSize(480, 270))
    assert (image.width(), image.height()) == (480, 270)


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
    head = document.get("head")
    if isinstance(head, dict) and head.get("unembed") == "embedding.T":
        edit_the_tied_embedding(window)
    if can_generate(window.state.scenario):
        generate_in_window(window, path.parent)


def generate_in_window(window: StudioWindow, folder: Path) -> None:
    """Generate next pressed twice: the tokens the engine's run draws with the same settings,
    the longer document's head the one worked out from scratch, each token's own steps drawn,
    the run exported as a PDF page per token, and two undos back at the start."""
    start = window.state.scenario
    for _ in range(2):
        assert window.generation.generate(), window.statusBar().currentMessage()
    made = window.state.scenario
    assert made.generation is not None
    assert made.token_ids == generate(start, 2, made.generation.settings).scenario.token_ids
    whole = compute(made)
    scores = head_output(whole.steps)
    np.testing.assert_allclose(window.state.trace.arrays[scores], whole.arrays[scores],
                               rtol=1e-9, atol=1e-12)
    for t in (1, 2):
        window.state.view_token(t)
        frame = window.canvas.frame
        assert isinstance(frame, FrameItem)
        assert frame.trace.scenario.n == start.n + t - 1, "the tokens token t was drawn from"
        assert frame.step_index == len(frame.trace.steps) - 1, "its draw"
    window.state.view_token(None)
    chosen = run_selection(made, None, lambda trace: ())
    [pdf] = run_export(chosen.trace, ExportRequest(format="pdf", steps=chosen.steps,
                                                   destination=folder / "run.pdf"),
                       pages=chosen.pages)
    assert len(PdfReader(pdf).pages) == 2, "a page per token"
    for _ in range(2):
        window.undo_action.trigger()
    assert window.state.scenario.token_ids == start.token_ids


def edit_the_tied_embedding(window: StudioWindow) -> None:
    """A cell of an embedding the head is tied to, typed in the window: the head's number is
    the same, the logits the edited document's (worked out again here), and a save writes
    the head as the embedding's transpose again."""
    table = np.array(window.state.scenario.parameter("embedding"))
    value = float(table[1, 2]) + 0.5
    assert window.state.edit_cell("embedding", 1, 2, value)
    scenario = window.state.scenario
    assert scenario.parameter("head.unembed")[2, 1] == value
    expected = compute(scenario).arrays
    logits = "logits_uncapped" if "logits_uncapped" in expected else "logits"
    assert np.array_equal(window.state.trace.arrays[logits], expected[logits])
    assert window.state.path is not None
    assert window.save()
    saved = json.loads(window.state.path.read_text("utf-8"))
    assert saved["head"]["unembed"] == "embedding.T" and saved["embedding"][1][2] == value
