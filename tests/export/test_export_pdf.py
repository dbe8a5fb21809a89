"""PDF: one vector page per step, each page the size of its frame, read by poppler and pypdf."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QApplication

from app.export.render import build_frame
from engine import Trace
from tests.export.conftest import assert_not_blank, export, need_tool, pixels


@pytest.fixture(scope="module")
def f11_pdf(qapp: QApplication, f11: Trace, tmp_path_factory: pytest.TempPathFactory) -> Path:
    [path] = export(f11, "pdf", tmp_path_factory.mktemp("pdf") / "f11.pdf")
    return path


def test_one_page_per_step_sized_like_its_frame(f11_pdf: Path, f11: Trace) -> None:
    pdfinfo = need_tool("pdfinfo")
    info = subprocess.run([pdfinfo, "-f", "1", "-l", "99", str(f11_pdf)], check=True,
                          capture_output=True, text=True, timeout=60).stdout
    assert re.search(r"^Pages:\s+5$", info, re.MULTILINE)
    sizes = [(float(w), float(h)) for w, h in
             re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", info)]
    assert len(sizes) == 5
    for k, (width, height) in enumerate(sizes):
        frame = build_frame(f11, k)
        assert width == pytest.approx(frame.width * 0.75, abs=0.6)
        assert height == pytest.approx(frame.height * 0.75, abs=0.6)
        assert width / height == pytest.approx(frame.width / frame.height, rel=0.01)


def test_pypdf_reads_the_pages_and_their_text(f11_pdf: Path, f11: Trace) -> None:
    reader = PdfReader(f11_pdf)
    assert len(reader.pages) == 5
    assert reader.metadata is not None and reader.metadata.title == f11.scenario.title
    page = reader.pages[3]
    assert float(page.mediabox.width) / float(page.mediabox.height) == pytest.approx(
        build_frame(f11, 3).width / build_frame(f11, 3).height, rel=0.01)
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
