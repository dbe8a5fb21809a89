"""``qkv-studio --selftest``: prove that this installation can compute and paint, with no display.

Used by the packaging test on the frozen build and by anyone checking an install. It computes the
built-in F11 example, paints every step offscreen through the same frame painter as the window
and the exporters, and checks that the pictures are real (expected size, many colours, some dark
ink). It also encodes the weights frame as PNG, JPEG and SVG, so a bundle that lost the image
format plugins or QtSvg fails here rather than in front of a class.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QGraphicsScene

    from engine import Trace

EXAMPLE = "f11"
FOCUS_STEP = "weights"
MIN_COLOURS = 64
MIN_DARK_FRACTION = 0.002
DARK_LEVEL = 96
MIN_SIZE = (320, 160)
MAX_SIZE = (8000, 8000)


_KEEP_ALIVE: list[object] = []


class SelftestError(RuntimeError):
    """One check failed; the message says which."""


@dataclass(frozen=True)
class FrameCheck:
    """What the checks measured on one painted frame."""

    step_id: str
    width: int
    height: int
    colours: int
    dark_fraction: float


def ensure_application() -> QCoreApplication:
    """The running QApplication, or a new one (offscreen unless QT_QPA_PLATFORM says otherwise)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        app = QApplication(["qkv-studio", "--selftest"])
        _KEEP_ALIVE.append(app)  # a QApplication must outlive every scene painted here
    return app


def paint_frame(trace: Trace, index: int, scale: float = 1.0) -> tuple[QImage, QGraphicsScene]:
    """Paint step ``index`` of ``trace`` on white, ``scale`` pixels per canvas unit.

    A QApplication must exist. Also used by ``packaging/render_screenshots.py``.
    """
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QColor, QImage, QPainter

    from app.canvas import FrameOptions, build_frame_scene

    scene, _frame = build_frame_scene(trace, index, FrameOptions())
    rect = scene.sceneRect()
    image = QImage(round(rect.width() * scale), round(rect.height() * scale),
                   QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(image.rect()), rect)
    painter.end()
    return image, scene


def _measure(step_id: str, image: QImage) -> FrameCheck:
    import numpy as np
    from PySide6.QtGui import QImage

    width, height = image.width(), image.height()
    if not (MIN_SIZE[0] <= width <= MAX_SIZE[0] and MIN_SIZE[1] <= height <= MAX_SIZE[1]):
        raise SelftestError(f"step {step_id!r}: frame is {width}×{height}, "
                            f"expected between {MIN_SIZE} and {MAX_SIZE}")
    converted = image.convertToFormat(QImage.Format.Format_RGB32)
    raw = np.frombuffer(converted.constBits(), dtype=np.uint32,
                        count=converted.bytesPerLine() // 4 * height)
    pixels = raw.reshape(height, converted.bytesPerLine() // 4)[:, :width] & 0xFFFFFF
    colours = int(np.unique(pixels).size)
    red = (pixels >> 16) & 0xFF
    green = (pixels >> 8) & 0xFF
    blue = pixels & 0xFF
    luminance = 0.299 * red + 0.587 * green + 0.114 * blue
    dark_fraction = float(np.mean(luminance < DARK_LEVEL))
    if colours < MIN_COLOURS:
        raise SelftestError(f"step {step_id!r}: only {colours} distinct colours "
                            f"(expected at least {MIN_COLOURS}); the frame looks blank")
    if dark_fraction < MIN_DARK_FRACTION:
        raise SelftestError(f"step {step_id!r}: only {dark_fraction:.2%} dark pixels; "
                            "text or grid lines are missing")
    return FrameCheck(step_id, width, height, colours, dark_fraction)


def _check_encoders(image: QImage, scene: QGraphicsScene) -> list[str]:
    """Encode one frame as PNG, JPEG and SVG in memory; return the formats that worked."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, QSize
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgGenerator

    done = []
    for fmt, magic in (("PNG", b"\x89PNG\r\n\x1a\n"), ("JPEG", b"\xff\xd8\xff")):
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        # PySide6's stubs ask for bytes as the format; at run time only a str is accepted.
        saved = image.save(buffer, fmt)  # type: ignore[call-overload]
        if not saved or not bytes(data.data()).startswith(magic):
            raise SelftestError(f"could not encode a frame as {fmt} "
                                "(image format plugin missing?)")
        buffer.close()
        decoded = QImage.fromData(data, fmt)  # type: ignore[arg-type]  # as save: a str
        if decoded.size() != image.size():
            raise SelftestError(f"a {fmt} frame did not decode to the same size")
        done.append(fmt.lower())
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    rect = scene.sceneRect()
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(QSize(round(rect.width()), round(rect.height())))
    generator.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
    generator.setTitle("QKV Studio selftest")
    painter = QPainter(generator)
    scene.render(painter, QRectF(0, 0, rect.width(), rect.height()), rect)
    painter.end()
    buffer.close()
    svg = bytes(data.data())
    if b"<svg" not in svg or len(svg) < 1000:
        raise SelftestError(f"the SVG generator wrote {len(svg)} bytes and no picture")
    done.append("svg")
    return done


def run_checks() -> tuple[list[FrameCheck], list[str], str]:
    """Compute F11, paint and check every step; return the checks, encoders and platform."""
    app = ensure_application()
    from PySide6.QtGui import QGuiApplication

    import engine
    from app.model.examples import example_path

    try:
        path = example_path(EXAMPLE)
    except KeyError:
        from app.model.examples import EXAMPLES_DIR

        raise SelftestError(f"built-in example {EXAMPLE!r} not found in {EXAMPLES_DIR}") from None
    trace = engine.compute(engine.load_scenario(path))
    if not trace.steps:
        raise SelftestError(f"example {EXAMPLE!r} computed no steps")
    step_ids = [step.id for step in trace.steps]
    if FOCUS_STEP not in step_ids:
        raise SelftestError(f"example {EXAMPLE!r} has no {FOCUS_STEP!r} step: {step_ids}")
    checks = []
    encoders: list[str] = []
    for index, step_id in enumerate(step_ids):
        image, scene = paint_frame(trace, index)
        checks.append(_measure(step_id, image))
        if step_id == FOCUS_STEP:
            encoders = _check_encoders(image, scene)
    platform = QGuiApplication.platformName() if app is not None else "?"
    return checks, encoders, platform


def run_selftest(out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run every check; print one line; return 0 when all passed, 1 otherwise."""
    out = out or sys.stdout
    err = err or sys.stderr
    began = time.perf_counter()
    try:
        checks, encoders, platform = run_checks()
    except SelftestError as error:
        print(f"selftest FAILED: {error}", file=err)
        return 1
    except Exception as error:  # an import or Qt failure in a broken bundle
        print(f"selftest FAILED: {type(error).__name__}: {error}", file=err)
        return 1
    from PySide6 import __version__ as pyside_version

    focus = next(check for check in checks if check.step_id == FOCUS_STEP)
    elapsed = time.perf_counter() - began
    print(f"selftest ok: {len(checks)} frames, {FOCUS_STEP} frame {focus.width}×{focus.height} "
          f"with {focus.colours} colours and {focus.dark_fraction:.1%} dark pixels; "
          f"encoded {'/'.join(encoders)}; platform {platform}, PySide6 {pyside_version}; "
          f"{elapsed:.2f} s", file=out)
    return 0
