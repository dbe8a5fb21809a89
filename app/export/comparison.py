"""A comparison (A | B and their differences) exported as PNG, SVG or PDF.

The comparison is built with :func:`app.canvas.side_by_side.build_compare_scene` in the slide
theme and painted by the same functions as any frame (:mod:`app.export.render`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QSize

from app.canvas import FrameOptions
from app.canvas.side_by_side import build_compare_scene
from app.export.render import (
    Frame,
    export_options,
    pdf_bytes,
    png_bytes,
    render_image,
    svg_bytes,
)
from app.export.safe import write_file
from app.export.settings import export_size
from app.export.words import title_for
from app.texts.words import say
from engine import Trace
from engine.differences import compare, matching_step

COMPARE_FORMATS = ("png", "svg", "pdf")


def build_compare_frame(trace_a: Trace, trace_b: Trace, step: int,
                        options: FrameOptions | None = None, *,
                        labels: tuple[str, str] = ("A", "B"), lang: str = "en",
                        caption: str = "", transparent: bool = False,
                        order: Sequence[int] | None = None, tolerance: float = 0.0) -> Frame:
    """The comparison at step ``step`` (0-based, of ``trace_a``) as an exportable frame;
    ``order`` pairs rows by token (:func:`engine.differences.compare`), arrays within
    ``tolerance`` count as equal."""
    step = max(0, min(len(trace_a.steps) - 1, step))
    titles = (title_for(trace_a, step, lang),
              title_for(trace_b, matching_step(trace_a, trace_b, step), lang))
    frame_options = export_options(options, caption=caption, transparent=transparent, lang=lang)
    comparison = compare(trace_a, trace_b, order=order)
    scene, _item = build_compare_scene(trace_a, trace_b, comparison, step, frame_options, labels,
                                       titles, tolerance, order)
    title = say("block.compare_header", lang, a=labels[0], b=labels[1])
    return Frame(step=step, title=title, scene=scene, rect=scene.sceneRect(),
                 background=frame_options.theme.color("background"), transparent=transparent)


def write_compare(path: Path, trace_a: Trace, trace_b: Trace, step: int,
                  options: FrameOptions | None = None, *, labels: tuple[str, str] = ("A", "B"),
                  lang: str = "en", size: QSize | None = None, transparent: bool = False,
                  order: Sequence[int] | None = None, tolerance: float = 0.0) -> Path:
    """Write the comparison to ``path``; its suffix (.png, .svg or .pdf) chooses the format;
    ``order`` pairs rows by token (:func:`engine.differences.compare`), arrays within
    ``tolerance`` count as equal.

    ``size`` is the picture's size in pixels (the PDF page's at 96 dpi), by default the size of
    every export, 1920 × 1080; the comparison is fitted inside it.

    Raises
    ------
    ValueError
        If the suffix names another format.
    app.export.safe.ExportError
        If the file cannot be written (nothing partial is left behind).
    """
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in COMPARE_FORMATS:
        raise ValueError(f"{path}: a comparison exports as {', '.join(COMPARE_FORMATS)}, "
                         f"not “{fmt or 'no suffix'}”")
    frame = build_compare_frame(trace_a, trace_b, step, options, labels=labels, lang=lang,
                                transparent=transparent and fmt == "png", order=order,
                                tolerance=tolerance)
    size = size or QSize(*export_size())
    if fmt == "png":
        data = png_bytes(render_image(frame, size))
    elif fmt == "svg":
        data = svg_bytes(frame, size)
    else:
        data = pdf_bytes([frame], size, title=frame.title)
    write_file(Path(path), data)
    return Path(path)
