"""A comparison exported like any frame: PNG, SVG and PDF, each read by another program.

Golden numbers: LayerNorm([1, 3]) = [−1, 1] and RMSNorm([1, 3]) = [1/√5, 3/√5] ≈ [0.447214,
1.341641], from the chapter's glossary; B − A = 1 + 1/√5 ≈ 1.447214 at most.
"""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QApplication

from app.export.comparison import build_compare_frame, write_compare
from engine import Trace, compute
from engine.scenario.variants import variant
from tests.export.conftest import assert_not_blank, leftovers, load_trace, need_tool, pixels

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def norms_pair(qapp: QApplication) -> tuple[Trace, Trace, tuple[str, str]]:
    a = load_trace("norms")
    made = variant(a.scenario, "norm")
    return a, compute(made.scenario), (made.label_a, made.label_b)


@pytest.fixture(scope="module")
def written(norms_pair: tuple[Trace, Trace, tuple[str, str]],
            tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    a, b, labels = norms_pair
    folder = tmp_path_factory.mktemp("compare")
    return {fmt: write_compare(folder / f"norms.{fmt}", a, b, 0, labels=labels)
            for fmt in ("png", "svg", "pdf")}


def test_png_is_the_comparison_at_the_export_size(
        written: dict[str, Path], norms_pair: tuple[Trace, Trace, tuple[str, str]]) -> None:
    a, b, labels = norms_pair
    frame = build_compare_frame(a, b, 0, labels=labels)
    rgba = pixels(written["png"])
    assert rgba.shape[:2] == (1080, 1920), "the size of every export"
    assert frame.width > 2 * 500, "two frames side by side"
    assert_not_blank(rgba, colours=100, dark=1000)
    assert leftovers(written["png"].parent) == ["norms.pdf", "norms.png", "norms.svg"]


def test_svg_keeps_the_numbers_and_the_differences_as_text(written: dict[str, Path]) -> None:
    root = ET.parse(written["svg"]).getroot()
    words = ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]
    assert "Compare · A: LayerNorm  |  B: RMSNorm" in words
    for number in ("−1", "0.447214", "1.341641", "1.447214", "0.341641"):
        assert number in words, number
    assert "max |B − A| = 1.447214" in words
    assert not list(root.iter(f"{SVG}image"))
    converted = written["svg"].with_suffix(".rsvg.png")
    subprocess.run([need_tool("rsvg-convert"), "-o", str(converted), str(written["svg"])],
                   check=True, timeout=60)
    assert_not_blank(pixels(converted), colours=50, dark=500)


def test_pdf_is_one_vector_page_with_both_sides(written: dict[str, Path]) -> None:
    reader = PdfReader(written["pdf"])
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert "LayerNorm" in text and "RMSNorm" in text
    assert "0.447214" in text and "1.447214" in text
    assert reader.metadata is not None
    assert reader.metadata.title == "Compare · A: LayerNorm  |  B: RMSNorm"


def test_another_suffix_is_refused_before_anything_is_written(
        norms_pair: tuple[Trace, Trace, tuple[str, str]], tmp_path: Path) -> None:
    a, b, labels = norms_pair
    with pytest.raises(ValueError, match="png, svg, pdf"):
        write_compare(tmp_path / "norms.gif", a, b, 0, labels=labels)
    assert leftovers(tmp_path) == []
