"""One size for every export of a document: 1920 × 1080 by default, from the CLI and the window.

Each file is measured by a reader other than ours: Pillow (PNG, GIF, the clipboard's PNG),
ffmpeg (MP4), the SVG's own attributes, pypdf (PDF pages) and python-pptx (slides).
"""

from __future__ import annotations

import io
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import imageio_ffmpeg
import pytest
from PIL import Image, ImageSequence
from pptx import Presentation
from pypdf import PdfReader
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.cli import main
from app.export.clipboard import PNG_MIME, copy_frame
from app.export.dialog import ExportDialog
from engine import Trace, compute, parse_scenario
from tests.export.conftest import export

SIZE = (1920, 1080)


def eight_tokens() -> Trace:
    """An 8-position causal document (d = 2, one head), values written here."""
    tokens = ["The", "cat", "sat", "on", "the", "warm", "mat", "today"]
    rows = [[round(0.3 * i - 1, 2), round(1 - 0.2 * i, 2)] for i in range(8)]
    identity = [[1.0, 0.0], [0.0, 1.0]]
    return compute(parse_scenario({
        "format": "qkv-studio", "version": 1, "title": "eight tokens", "tokens": tokens,
        "X": rows, "attention": {"heads": 1, "causal": True, "scale": True, "Wq": identity,
                                 "Wk": identity, "Wv": identity}}))


@pytest.fixture(scope="module")
def documents(qapp: QApplication, f11: Trace, g01: Trace) -> dict[str, Trace]:
    return {"f11": f11, "g01": g01, "eight": eight_tokens()}


def png_sizes(paths: list[Path]) -> set[tuple[int, int]]:
    sizes = set()
    for path in paths:
        with Image.open(path) as image:
            sizes.add(image.size)
    return sizes


@pytest.mark.parametrize("name", ["f11", "g01", "eight"])
def test_every_raster_export_has_one_size(documents: dict[str, Trace], name: str,
                                          tmp_path: Path) -> None:
    trace = documents[name]
    assert png_sizes(export(trace, "png", tmp_path / "png")) == {SIZE}
    [gif] = export(trace, "gif", tmp_path / "all.gif", dwell=0.1)
    with Image.open(gif) as animation:
        assert {frame.size for frame in ImageSequence.Iterator(animation)} == {SIZE}
    [svg] = export(trace, "svg", tmp_path / "svg", steps=(0,))
    root = ET.parse(svg).getroot()
    assert (root.attrib["width"], root.attrib["height"]) == ("1920", "1080")
    assert root.attrib["viewBox"] == "0 0 1920 1080"
    [pdf] = export(trace, "pdf", tmp_path / "all.pdf")
    pages = {(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
             for p in PdfReader(pdf).pages}
    assert pages == {(1440, 810)}, "1920 × 1080 px at 96 to the inch"
    copy_frame(trace, len(trace.steps) - 1)
    data = QGuiApplication.clipboard().mimeData()
    assert data is not None
    with Image.open(io.BytesIO(bytes(data.data(PNG_MIME).data()))) as copied:
        assert copied.size == SIZE


@pytest.mark.slow
def test_mp4_has_the_size_of_the_pictures(documents: dict[str, Trace], tmp_path: Path) -> None:
    [path] = export(documents["eight"], "mp4", tmp_path / "eight.mp4", dwell=0.08)
    reader = imageio_ffmpeg.read_frames(str(path))
    assert tuple(next(reader)["size"]) == SIZE
    reader.close()


def test_width_keeps_the_aspect_and_4_3_is_an_option(documents: dict[str, Trace],
                                                     tmp_path: Path) -> None:
    g01 = documents["g01"]
    assert png_sizes(export(g01, "png", tmp_path / "a", steps=(0, 5), width=1280)) == \
        {(1280, 720)}
    assert png_sizes(export(g01, "png", tmp_path / "b", steps=(0, 5), aspect="4:3")) == \
        {(1440, 1080)}
    [deck] = export(g01, "pptx", tmp_path / "g01.pptx", steps=(0,), aspect="4:3")
    slides = Presentation(str(deck))
    assert slides.slide_width * 3 == slides.slide_height * 4


def test_the_window_and_the_command_line_export_the_same_size(
        qtbot: QtBot, documents: dict[str, Trace], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    dialog = ExportDialog(documents["f11"], 3, name="f11")
    qtbot.addWidget(dialog)
    dialog.format_box.setCurrentIndex(dialog.format_box.findData("png"))
    dialog.all_radio.setChecked(True)
    dialog.destination_edit.setText(str(tmp_path / "window"))
    assert dialog.size_label.text() == "1920 × 1080"
    assert dialog.export()
    monkeypatch.setattr(sys, "argv", ["qkv-studio"])
    status = main(["export", "f11", "--format", "png", "--out", str(tmp_path / "cli")])
    assert status == 0, capsys.readouterr().err
    assert png_sizes(dialog.written) == png_sizes(sorted((tmp_path / "cli").glob("*.png"))) \
        == {SIZE}


def test_the_dialogs_default_width_follows_the_aspect(qtbot: QtBot,
                                                      documents: dict[str, Trace]) -> None:
    """4:3 gives 1440 × 1080 as ``--aspect 4:3`` does; a width the user typed stays."""
    dialog = ExportDialog(documents["f11"], 0, name="f11")
    qtbot.addWidget(dialog)
    dialog.aspect_box.setCurrentIndex(dialog.aspect_box.findData("4:3"))
    assert dialog.size_label.text() == "1440 × 1080"
    assert dialog.request().pixel_size() == (1440, 1080)
    dialog.aspect_box.setCurrentIndex(dialog.aspect_box.findData("16:9"))
    assert dialog.size_label.text() == "1920 × 1080"
    dialog.width_spin.setValue(1280)
    dialog.aspect_box.setCurrentIndex(dialog.aspect_box.findData("4:3"))
    assert dialog.size_label.text() == "1280 × 960"
