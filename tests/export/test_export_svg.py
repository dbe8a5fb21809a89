"""SVG: real vectors, text kept as text, one 16:9 size and viewBox, readable by librsvg."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from app.export.words import caption_for, title_for
from engine import Trace
from tests.export.conftest import assert_not_blank, export, need_tool, pixels

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def f11_svgs(qapp: QApplication, f11: Trace, tmp_path_factory: pytest.TempPathFactory,
             ) -> list[Path]:
    return export(f11, "svg", tmp_path_factory.mktemp("svg"), caption=True)


def texts(root: ET.Element) -> list[str]:
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]


def size_and_view_box(path: Path) -> tuple[float, float, list[float]]:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    box = [float(v) for v in root.attrib["viewBox"].split()]
    return float(root.attrib["width"]), float(root.attrib["height"]), box


def test_each_step_is_an_svg_document_with_one_16_9_size_and_view_box(
        f11_svgs: list[Path], f11: Trace) -> None:
    assert [p.name for p in f11_svgs] == [f"f11-step{k:02d}.svg" for k in range(1, 6)]
    for k, path in enumerate(f11_svgs):
        assert size_and_view_box(path) == (1920.0, 1080.0, [0.0, 0.0, 1920.0, 1080.0])
        assert ET.parse(path).getroot().findtext(f"{SVG}title") == title_for(f11, k, "en")


def test_width_and_aspect_set_the_size(f11: Trace, tmp_path: Path) -> None:
    [wide] = export(f11, "svg", tmp_path / "wide", steps=(3,), width=1280)
    assert size_and_view_box(wide) == (1280.0, 720.0, [0.0, 0.0, 1280.0, 720.0])
    [square] = export(f11, "svg", tmp_path / "square", steps=(3,), aspect="4:3", scale=0.5)
    assert size_and_view_box(square) == (720.0, 540.0, [0.0, 0.0, 720.0, 540.0])


def test_shapes_are_vectors_and_text_is_text(f11_svgs: list[Path], f11: Trace) -> None:
    root = ET.parse(f11_svgs[3]).getroot()  # the weights step: grids and arrows
    assert len(list(root.iter(f"{SVG}path"))) >= 8, "grid cells and boxes as paths"
    assert len(list(root.iter(f"{SVG}polygon"))) >= 2, "arrow heads as polygons"
    assert not list(root.iter(f"{SVG}image")), "no raster picture inside"
    words = texts(root)
    assert "爱" in words
    assert "0.804" in words and "0.196" in words
    heading = next(w for w in words if w.startswith("Step 4 of 5"))
    assert title_for(f11, 3, "en") in heading
    assert any(w.startswith("Keys the causal mask hides") for w in words), "the caption"


def test_chinese_titles_are_kept_as_text(f11: Trace, tmp_path: Path) -> None:
    [path] = export(f11, "svg", tmp_path, steps=(2,), lang="zh", caption=True)
    words = texts(ET.parse(path).getroot())
    # Qt writes one <text> per font run, so mixed Chinese and Latin lines come in pieces.
    joined = "".join(words)
    assert f"第 3 步（共 5 步）· {title_for(f11, 2, 'zh')}" in joined
    assert "Step 3 of 5" not in joined, "the frame's words follow the export's language"
    assert caption_for(f11, 2, "zh") in joined
    assert "爱" in words


def test_librsvg_draws_it(f11_svgs: list[Path], f11: Trace, tmp_path: Path) -> None:
    rsvg = need_tool("rsvg-convert")
    for k in (0, 3):
        out = tmp_path / f"step{k}.png"
        subprocess.run([rsvg, str(f11_svgs[k]), "-o", str(out)], check=True, timeout=60)
        rgba = pixels(out)
        assert rgba.shape[:2] == (1080, 1920)
        assert_not_blank(rgba, colours=100, dark=1000)


def test_same_document_and_options_give_identical_bytes(f11: Trace, tmp_path: Path) -> None:
    one = export(f11, "svg", tmp_path / "one", caption=True)
    two = export(f11, "svg", tmp_path / "two", caption=True)
    assert [p.read_bytes() for p in one] == [p.read_bytes() for p in two]
