"""PDF: one vector page per step, every page one 16:9 size, read by poppler and pypdf."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QApplication

from engine import Trace
from tests.export.conftest import assert_not_blank, export, need_tool, pixels


@pytest.fixture(scope="module")
def f11_pdf(qapp: QApplication, f11: Trace, tmp_path_factory: pytest.TempPathFactory) -> Path:
    [path] = export(f11, "pdf", tmp_path_factory.mktemp("pdf") / "f11.pdf")
    return path


def page_sizes(path: Path) -> list[tuple[float, float]]:
    """Every page's size in points, as poppler's pdfinfo reads it."""
    info = subprocess.run([need_tool("pdfinfo"), "-f", "1", "-l", "99", str(path)], check=True,
                          capture_output=True, text=True, timeout=60).stdout
    return [(float(w), float(h)) for w, h in
            re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", info)]


def test_every_page_is_one_16_9_size(f11_pdf: Path) -> None:
    """1920 × 1080 pixels at 96 to the inch: 20 × 11.25 in, 1440 × 810 pt."""
    sizes = page_sizes(f11_pdf)
    assert len(sizes) == 5
    for width, height in sizes:
        assert width == pytest.approx(1440, abs=0.6) and height == pytest.approx(810, abs=0.6)


def test_width_sets_the_page_size(f11: Trace, tmp_path: Path) -> None:
    [path] = export(f11, "pdf", tmp_path / "small.pdf", steps=(1, 3), width=960)
    assert page_sizes(path) == [pytest.approx((720, 405), abs=0.6)] * 2


def test_pypdf_reads_the_pages_and_their_text(f11_pdf: Path, f11: Trace) -> None:
    reader = PdfReader(f11_pdf)
    assert len(reader.pages) == 5
    assert reader.metadata is not None and reader.metadata.title == f11.scenario.title
    page = reader.pages[3]
    assert float(page.mediabox.width) / float(page.mediabox.height) == pytest.approx(16 / 9,
                                                                                     rel=0.001)
    text = page.extract_text()
    assert "softmax" in text and "0.804" in text and "爱" in text


def test_pages_are_vectors_with_embedded_fonts(f11_pdf: Path) -> None:
    images = subprocess.run([need_tool("pdfimages"), "-list", str(f11_pdf)], check=True,
                            capture_output=True, text=True, timeout=60).stdout
    assert len(images.strip().splitlines()) == 2, f"no raster image expected:\n{images}"
    fonts = subprocess.run([need_tool("pdffonts"), str(f11_pdf)], check=True,
                           capture_output=True, text=True, timeout=60).stdout
    rows = fonts.strip().splitlines()[2:]
    assert rows and all(" yes " in row for row in rows), fonts


def test_poppler_draws_the_chinese_page(f11: Trace, tmp_path: Path) -> None:
    [path] = export(f11, "pdf", tmp_path / "zh.pdf", steps=(3,), lang="zh", caption=True)
    text = subprocess.run([need_tool("pdftotext"), str(path), "-"], check=True,
                          capture_output=True, text=True, timeout=60).stdout
    assert "因果掩码" in text and "份额" in text
    subprocess.run([need_tool("pdftoppm"), "-r", "96", "-png", str(path), str(tmp_path / "p")],
                   check=True, timeout=60)
    [png] = sorted(tmp_path.glob("p*.png"))
    assert_not_blank(pixels(png), colours=100, dark=1000)
