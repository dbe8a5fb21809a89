"""View → Logit lens and ``qkv-studio export FILE --view lens``: each layer's most probable token at
each position, its probability printed, checked against an independent LayerNorm · unembed ·
softmax of the stream; refused for a document without a vocabulary head, in both languages."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pypdf import PdfReader
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas.lens_view import LensItem, LensOptions
from app.cli import main
from app.model.examples import resolve_document
from app.window.studio import StudioWindow
from engine import Trace, compute, load_scenario

STREAMS = ("X", "L1.resid2", "L2.resid2", "L3.resid2")
"""three-layers' stream entering layer 1, then leaving each of its three layers."""


@pytest.fixture(scope="module")
def trace() -> Trace:
    return compute(load_scenario(resolve_document("three-layers")))


def logits_by_hand(trace: Trace, stream: str) -> np.ndarray:
    """LayerNorm(stream) · unembed, written out: three-layers' final norm is a LayerNorm
    (γ = 1, β = 0, ε = 1e-5) and its head has no bias."""
    rows = trace.arrays[stream]
    head = trace.scenario.head
    assert head is not None and head.unembed is not None and head.bias is None
    mean = rows.mean(axis=1, keepdims=True)
    var = ((rows - mean) ** 2).mean(axis=1, keepdims=True)
    normed = (rows - mean) / np.sqrt(var + 1e-5) * head.gamma_f + head.beta_f
    logits: np.ndarray = normed @ head.unembed
    return logits


def by_hand(trace: Trace, stream: str) -> np.ndarray:
    """softmax(:func:`logits_by_hand`)."""
    logits = logits_by_hand(trace, stream)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return probs


def test_every_cell_is_the_streams_most_probable_token_read_through_the_head(
        qapp: QApplication, trace: Trace) -> None:
    item = LensItem(trace, LensOptions())
    assert [reading.stream for reading in item.readings] == list(STREAMS)
    assert [item.row_label(row) for row in range(4)] == \
        ["embedding", "after L1", "after L2", "after L3 = output"]
    for row, stream in enumerate(STREAMS):
        expected = by_hand(trace, stream)
        for position in range(3):
            best, p = item.cell_value(row, position)
            assert best == int(np.argmax(expected[position]))
            assert p == pytest.approx(float(expected[position, best]), rel=1e-12)
            assert item.cell_words(row, position) == (trace.tokens_of("vocab")[best],
                                                      f"{expected[position, best]:.3f}")
    last = item.readings[-1].probs
    assert np.array_equal(last, trace.arrays["probs"]), "the last row is the probabilities"


def test_a_cells_hover_names_its_stream_and_its_most_probable_tokens(
        qapp: QApplication, trace: Trace) -> None:
    item = LensItem(trace, LensOptions())
    expected = by_hand(trace, "L2.resid2")[1]
    logits = logits_by_hand(trace, "L2.resid2")[1]
    order = np.argsort(-expected, kind="stable")
    text = item.hover_text(item.cell_rect(2, 1).center())
    vocab = trace.tokens_of("vocab")
    assert text.startswith("after L2, position 1 “爱”: row 1 of L2.resid2 → final norm")
    assert text.endswith("; ".join(
        f"“{vocab[i]}” p {expected[i]:.3f} (logit {logits[i]:.3f})".replace("-", "−")
        for i in order))
    assert item.hover_text(item.cell_rect(0, 0).topLeft() - item.cell_rect(0, 0).center()) == ""


def test_a_one_layer_documents_title_says_its_one_layer(qapp: QApplication) -> None:
    trace = compute(load_scenario(resolve_document("encoder-decoder")))
    assert len(trace.scenario.layers) == 1
    assert LensItem(trace, LensOptions()).title() == (
        "Logit lens: what the model would predict if it stopped before or after its one layer")
    assert LensItem(trace, LensOptions(lang="zh")).title() == (
        "逐层读出（logit lens）：假如模型在它唯一的一层之前或之后就停下，它会预测什么")


def test_the_lens_speaks_chinese(qapp: QApplication, trace: Trace) -> None:
    item = LensItem(trace, LensOptions(lang="zh"))
    assert item.title() == ("逐层读出（logit lens）：假如模型在这 3 层的每一层之后就停下，"
                            "它会预测什么")
    assert [item.row_label(row) for row in range(4)] == ["嵌入", "L1 之后", "L2 之后",
                                                         "L3 之后 = 输出"]
    assert item.hover_text(item.cell_rect(1, 0).center()).startswith(
        "L1 之后，位置 0“我”：L1.resid2 的第 0 行 → 最终归一化")


def test_view_logit_lens_opens_the_documents_lens_with_its_receiver(
        stack: StudioWindow, qtbot: QtBot) -> None:
    window = stack
    assert window.view_menu.lens_action.shortcut().toString() == "Ctrl+Shift+L"
    window.state.set_receiver(1)
    window.view_menu.lens_action.trigger()
    shown = window.view_menu.lens
    assert shown is not None
    qtbot.waitExposed(shown)
    assert isinstance(shown.item, LensItem) and shown.item.receiver == 1
    assert shown.windowTitle() == shown.item.title()
    np.testing.assert_array_equal(shown.item.readings[-1].probs,
                                  window.state.trace.arrays["probs"])


def test_a_document_without_a_head_says_why_and_opens_no_lens(window: StudioWindow) -> None:
    assert window.state.scenario.head is None  # F11
    assert window.view_menu.show_lens(window) is None
    assert window.view_menu.lens is None
    assert window.statusBar().currentMessage() == (
        "head: the logit lens reads each layer through a vocabulary head (head.unembed and "
        "head.vocab): this document has none")


def export(capsys: pytest.CaptureFixture[str], document: str,
           *arguments: str) -> tuple[int, str, str]:
    status = main(["export", document, "--view", "lens", *arguments])
    out, err = capsys.readouterr()
    return status, out, err


def test_png_svg_pdf_and_pptx_print_every_cell(qapp: QApplication, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               trace: Trace) -> None:
    png, svg, pdf, pptx = (tmp_path / f"lens.{suffix}" for suffix in ("png", "svg", "pdf", "pptx"))
    for path in (png, svg, pdf, pptx):
        assert export(capsys, "three-layers", "--format", path.suffix[1:], "--out",
                      str(path)) == (0, f"{path}\n", "")
    with Image.open(png) as image:
        assert image.size == (1920, 1080)
    figures = [f"{by_hand(trace, stream)[p].max():.3f}" for stream in STREAMS for p in range(3)]
    svg_text = svg.read_text(encoding="utf-8")
    pdf_text = PdfReader(pdf).pages[0].extract_text()
    for figure in figures:
        assert f">{figure}<" in svg_text and figure in pdf_text
    assert "after L3 = output" in pdf_text
    deck = Presentation(str(pptx))
    [slide] = deck.slides
    texts = [shape.text_frame.text for shape in slide.shapes if shape.has_text_frame]
    assert texts == ["Logit lens: what the model would predict if it stopped after each of its "
                     "3 layers"]
    assert [shape.shape_type for shape in slide.shapes
            if not shape.has_text_frame] == [MSO_SHAPE_TYPE.PICTURE]


def test_a_document_without_a_head_and_layers_are_refused_nothing_written(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "lens.png"
    status, printed, err = export(capsys, "f11", "--format", "png", "--out", str(out),
                                  "--lang", "zh")
    assert (status, printed) == (2, "")
    assert err == ("qkv-studio: head：逐层读出（logit lens）要用词表头（head.unembed 与 "
                   "head.vocab）读每一层：这个文档没有词表头\n")
    assert export(capsys, "three-layers", "--format", "png", "--out", str(out),
                  "--layers", "1-2") == (2, "", "qkv-studio: --layers needs --view model\n")
    assert export(capsys, "three-layers", "--format", "gif", "--out", str(out)) == (
        2, "", "qkv-studio: --view lens writes png, svg, pdf, pptx, not gif\n")
    assert not out.exists()
