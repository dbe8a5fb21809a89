"""PNG: the canvas's picture fitted to one 16:9 size, with dpi, transparency, stable bytes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from app.canvas import DARK, FrameOptions, build_frame_scene
from app.export.render import Frame, build_frame, svg_bytes
from app.texts.words import say
from engine import Trace
from tests.export.conftest import assert_not_blank, export, pixels

WIDTH = 1200
HEIGHT = 676
"""1200 × 9 / 16 = 675, made even (every export has even sizes, for video)."""


@pytest.fixture(scope="module")
def f11_pngs(qapp: QApplication, f11: Trace, tmp_path_factory: pytest.TempPathFactory,
             ) -> list[Path]:
    return export(f11, "png", tmp_path_factory.mktemp("png"), width=WIDTH)


def test_one_file_per_step_all_of_one_size(f11_pngs: list[Path]) -> None:
    assert [p.name for p in f11_pngs] == [f"f11-step{k:02d}.png" for k in range(1, 6)]
    for path in f11_pngs:
        with Image.open(path) as image:
            assert image.format == "PNG" and image.mode == "RGB"
            assert image.size == (WIDTH, HEIGHT)


def test_pictures_are_not_blank(f11_pngs: list[Path]) -> None:
    for path in f11_pngs:
        assert_not_blank(pixels(path), colours=200, dark=2000)


def test_dpi_follows_the_scale(f11_pngs: list[Path], f11: Trace, tmp_path: Path) -> None:
    """A 1920 × 1080 sheet is 20 × 11.25 in at 96 dpi, whatever the pixel size."""
    with Image.open(f11_pngs[3]) as image:
        expected = 96 * HEIGHT / 1080
        assert image.info["dpi"] == pytest.approx((expected, expected), abs=0.05)
    [path] = export(f11, "png", tmp_path, steps=(0,), scale=1.5)
    with Image.open(path) as image:
        assert image.info["dpi"] == pytest.approx((144.0, 144.0), abs=0.05)
        assert image.size == (2880, 1620)


def test_transparent_background_has_clear_corners(f11: Trace, tmp_path: Path) -> None:
    [path] = export(f11, "png", tmp_path, steps=(3,), transparent=True, scale=1.0)
    rgba = pixels(path)
    with Image.open(path) as image:
        assert image.mode == "RGBA"
    assert rgba[0, 0, 3] == 0 and rgba[-1, -1, 3] == 0 and rgba[0, -1, 3] == 0
    assert np.mean(rgba[..., 3] == 0) > 0.5, "most of a frame is background"
    assert_not_blank(rgba)


def test_opaque_background_is_the_slide_white_even_from_a_dark_view(f11: Trace,
                                                                     tmp_path: Path) -> None:
    [path] = export(f11, "png", tmp_path, steps=(3,), scale=1.0,
                    options=FrameOptions(theme=DARK))
    rgba = pixels(path)
    assert tuple(rgba[0, 0]) == (255, 255, 255, 255)
    assert np.mean(np.all(rgba[..., :3] == 255, axis=2)) > 0.5


def test_the_export_is_the_canvas_picture(qapp: QApplication, f11: Trace,
                                          tmp_path: Path) -> None:
    """Paint the canvas's scene independently, as large as fits in 1920 × 1080 and centred,
    and compare pixel by pixel."""
    [path] = export(f11, "png", tmp_path, steps=(3,))
    scene, _ = build_frame_scene(f11, 3, FrameOptions(), step_title=f11.steps[3].title)
    rect = scene.sceneRect()
    factor = min(1920 / rect.width(), 1080 / rect.height())
    width, height = rect.width() * factor, rect.height() * factor
    image = QImage(1920, 1080, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    scene.render(painter, QRectF((1920 - width) / 2, (1080 - height) / 2, width, height), rect)
    painter.end()
    expected = image.convertToFormat(QImage.Format.Format_RGBA8888)
    reference = np.frombuffer(expected.constBits(), np.uint8).reshape(
        expected.height(), expected.bytesPerLine())[:, : expected.width() * 4]
    reference = reference.reshape(expected.height(), expected.width(), 4)
    exported = pixels(path)
    assert exported.shape == reference.shape
    assert np.mean(np.abs(exported.astype(int) - reference.astype(int))) < 0.5


def test_view_options_reach_the_export(f11: Trace, tmp_path: Path) -> None:
    [last] = export(f11, "png", tmp_path / "a", steps=(3,), scale=1.0)
    [first] = export(f11, "png", tmp_path / "b", steps=(3,), scale=1.0,
                     options=FrameOptions(receiver=0))
    assert not np.array_equal(pixels(last), pixels(first))


def test_same_document_and_options_give_identical_bytes(f11: Trace, tmp_path: Path) -> None:
    one = export(f11, "png", tmp_path / "one", width=900, caption=True)
    two = export(f11, "png", tmp_path / "two", width=900, caption=True)
    assert [p.read_bytes() for p in one] == [p.read_bytes() for p in two]


def test_chinese_exports_translate_the_heading_and_the_frame_words(f11: Trace,
                                                                  tmp_path: Path) -> None:
    """The frame's own words follow the export's language too (the heading, the arrows' legend,
    the reads/writes line), so the pictures differ, and the words drawn are the Chinese ones."""
    [en] = export(f11, "png", tmp_path / "en", steps=(3,))
    [zh] = export(f11, "png", tmp_path / "zh", steps=(3,), lang="zh")
    assert pixels(en).shape == pixels(zh).shape == (1080, 1920, 4)
    assert not np.array_equal(pixels(en), pixels(zh))
    words = {lang: svg_words(build_frame(f11, 3, lang=lang)) for lang in ("en", "zh")}
    for key in ("reads", "writes"):
        assert any(say(f"frame.{key}", "zh") in word for word in words["zh"]), key
        assert not any(say(f"frame.{key}", "en") in word for word in words["zh"]), key
        assert any(say(f"frame.{key}", "en") in word for word in words["en"]), key


def svg_words(frame: Frame) -> list[str]:
    """Every text the frame draws, read back from its SVG."""
    root = ET.fromstring(svg_bytes(frame, QSize(1920, 1080)))
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
