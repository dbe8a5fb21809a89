"""PNG: the canvas's picture at the asked width, with dpi, transparency and stable bytes."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from app.canvas import DARK, FrameOptions, build_frame_scene
from app.export.render import build_frame
from engine import Trace
from tests.export.conftest import assert_not_blank, export, pixels

WIDTH = 1200


@pytest.fixture(scope="module")
def f11_pngs(qapp: QApplication, f11: Trace, tmp_path_factory: pytest.TempPathFactory,
             ) -> list[Path]:
    return export(f11, "png", tmp_path_factory.mktemp("png"), width=WIDTH)


def test_one_file_per_step_at_the_asked_width(f11_pngs: list[Path], f11: Trace) -> None:
    assert [p.name for p in f11_pngs] == [f"f11-step{k:02d}.png" for k in range(1, 6)]
    for k, path in enumerate(f11_pngs):
        with Image.open(path) as image:
            assert image.format == "PNG" and image.mode == "RGB"
            frame = build_frame(f11, k)
            assert image.width == WIDTH
            assert image.height == pytest.approx(frame.height * WIDTH / frame.width, abs=1.0)


def test_pictures_are_not_blank(f11_pngs: list[Path]) -> None:
    for path in f11_pngs:
        assert_not_blank(pixels(path), colours=200, dark=2000)


def test_dpi_follows_the_scale(f11_pngs: list[Path], f11: Trace, tmp_path: Path) -> None:
    with Image.open(f11_pngs[3]) as image:
        expected = 96 * WIDTH / build_frame(f11, 3).width
        assert image.info["dpi"] == pytest.approx((expected, expected), abs=0.05)
    [path] = export(f11, "png", tmp_path, steps=(0,), scale=1.5)
    with Image.open(path) as image:
        assert image.info["dpi"] == pytest.approx((144.0, 144.0), abs=0.05)
        assert image.width == round(build_frame(f11, 0).width * 1.5 + 0.5)


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
    """Paint the canvas's scene independently and compare pixel by pixel."""
    [path] = export(f11, "png", tmp_path, steps=(3,), scale=1.0)
    scene, _ = build_frame_scene(f11, 3, FrameOptions(), step_title=f11.steps[3].title)
    rect = scene.sceneRect()
    image = QImage(math.ceil(rect.width()), math.ceil(rect.height()), QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, rect.width(), rect.height()), rect)
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
    """The frame's own words follow the export's language too (grid titles, notes, the arrows'
    legend and the reads/writes line), so the whole picture changes, not only its heading."""
    [en] = export(f11, "png", tmp_path / "en", steps=(3,), scale=1.0)
    [zh] = export(f11, "png", tmp_path / "zh", steps=(3,), scale=1.0, lang="zh")
    english, chinese = pixels(en), pixels(zh)
    assert english.shape[0] == chinese.shape[0], "the same rows of grids, the same height"
    width = min(english.shape[1], chinese.shape[1])
    rows = np.nonzero(np.any(english[:, :width] != chinese[:, :width], axis=(1, 2)))[0]
    assert rows.min() >= 20, "the margin above the heading is the same"
    assert rows.max() > 70, "words below the heading differ too"
    assert np.any(english[20:70, :width] != chinese[20:70, :width]), "the heading differs"
    footer = slice(english.shape[0] - 60, english.shape[0] - 20)
    assert np.any(english[footer, :width] != chinese[footer, :width]), "reads/writes differ"
