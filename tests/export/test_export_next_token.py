"""The loss and the draw of the next token export like every step: a PNG of the frame and an
editable PowerPoint slide whose table prints the step's numbers (computed here with numpy)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest
from pptx import Presentation
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from engine import Trace, compute, format_number, parse_scenario
from tests.engine.generation_documents import cases
from tests.export.conftest import assert_not_blank, export, pixels


def _trace(**keys: object) -> Trace:
    return compute(parse_scenario({**cases()["three-layers"], **keys}))


def _softmax(row: np.ndarray) -> np.ndarray:
    e = np.exp(row - row.max())
    return e / e.sum()


def _cells(deck: Path) -> list[str]:
    [slide] = Presentation(str(deck)).slides
    return [cell.text for shape in slide.shapes if shape.has_table
            for row in shape.table.rows for cell in row.cells]


@pytest.mark.parametrize("keys", [{"targets": [1, 2, 0]},
                                  {"generation": {"temperature": 0.5, "top_k": 2}}],
                         ids=["loss", "sample"])
def test_the_last_step_exports_as_a_png_and_an_editable_slide(
        qapp: QApplication, tmp_path: Path, keys: dict[str, object]) -> None:
    trace = _trace(**keys)
    last = len(trace.steps) - 1
    [png] = export(trace, "png", tmp_path, steps=(last,), width=960)
    image = QImage(str(png))
    assert (image.width(), image.height()) == (960, 540)
    assert_not_blank(pixels(png))
    [deck] = export(trace, "pptx", tmp_path / "step.pptx", steps=(last,))
    with zipfile.ZipFile(deck) as pptx:
        assert "<a:tbl>" in pptx.read("ppt/slides/slide1.xml").decode(), "a native table"
    cells = _cells(deck)
    logits = trace.arrays["logits"]
    if "targets" in keys:
        picked = np.array([_softmax(row) for row in logits])[np.arange(3), [1, 2, 0]]
        expected = [format_number(float(v), 3) for v in -np.log(picked)]
    else:
        expected = [format_number(float(v), 3) for v in _softmax(logits[-1] / 0.5)]
    assert set(expected) <= set(cells)
