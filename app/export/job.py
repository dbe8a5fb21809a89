"""A multi-step export: build each step's frame, write the format, report progress, allow cancel.

:func:`run_export` is what the command line and the export dialog call. Progress is reported once
per step through a callback that returns ``False`` to cancel; a cancelled or failed export leaves
no file behind (see :mod:`app.export.safe`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSize

from app.canvas import THEMES, FrameOptions
from app.export.animation import (
    Mp4Writer,
    frames_for,
    gif_duration_ms,
    rgb_array,
    write_gif,
)
from app.export.deck import write_pptx
from app.export.render import (
    Frame,
    build_frame,
    pdf_bytes,
    png_bytes,
    render_image,
    svg_bytes,
)
from app.export.safe import ExportCancelled, atomic_file, staged_folder, write_file
from app.export.settings import ExportRequest, step_file_name
from app.export.slides import editable_slide, picture_slide, typeface
from app.export.words import caption_for, notes_for
from app.sheet import sheet_size
from engine import Trace

Progress = Callable[[int, int], bool]
"""``progress(done, total)`` after each step; return ``False`` to cancel the export."""


class ExportPlan:
    """The frames of one export, built on demand, with progress and cancellation."""

    def __init__(self, trace: Trace, request: ExportRequest, options: FrameOptions | None = None,
                 progress: Progress | None = None) -> None:
        count = len(trace.steps)
        bad = [step for step in request.steps if not 0 <= step < count]
        if bad:
            raise ValueError(f"step {bad[0] + 1} is out of range: this document has steps 1 to "
                             f"{count}")
        self.trace = trace
        self.request = request
        base = options or FrameOptions()
        self.options = replace(base, theme=THEMES[request.theme],
                               decimals=request.decimals or base.decimals,
                               aspect=request.aspect)
        self.progress = progress
        self.total = len(request.steps)
        self.done = 0

    def check(self) -> None:
        """Report progress; raise :class:`ExportCancelled` if the callback asks to stop."""
        if self.progress is not None and not self.progress(self.done, self.total):
            raise ExportCancelled()

    def tick(self) -> None:
        """One more step is done."""
        self.done += 1
        self.check()

    def frame(self, step: int, *, transparent: bool | None = None) -> Frame:
        request = self.request
        caption = caption_for(self.trace, step, request.lang) if request.caption else ""
        return build_frame(self.trace, step, self.options, lang=request.lang, caption=caption,
                           transparent=request.transparent if transparent is None
                           else transparent)

    @property
    def size(self) -> QSize:
        """The one pixel size of every picture, SVG and page of this export."""
        return QSize(*self.request.pixel_size())

    def frames(self, *, transparent: bool | None = None) -> Iterator[Frame]:
        """The frames in export order, built one at a time."""
        for step in self.request.steps:
            yield self.frame(step, transparent=transparent)


def _write_png(plan: ExportPlan) -> list[Path]:
    request = plan.request
    count = len(plan.trace.steps)
    with staged_folder(request.destination) as staged:
        for frame in plan.frames():
            image = render_image(frame, plan.size)
            name = step_file_name(request.name, frame.step, count, request.format)
            staged.write(name, png_bytes(image))
            plan.tick()
        return staged.commit()


def _write_svg(plan: ExportPlan) -> list[Path]:
    request = plan.request
    count = len(plan.trace.steps)
    with staged_folder(request.destination) as staged:
        for frame in plan.frames():
            name = step_file_name(request.name, frame.step, count, request.format)
            staged.write(name, svg_bytes(frame, plan.size))
            plan.tick()
        return staged.commit()


def _write_pdf(plan: ExportPlan) -> list[Path]:
    destination = plan.request.destination
    write_file(destination, pdf_bytes(plan.frames(), plan.size,
                                      title=plan.trace.scenario.title, on_page=plan.tick))
    return [destination]


def _write_gif(plan: ExportPlan) -> list[Path]:
    request = plan.request
    pictures = []
    for frame in plan.frames(transparent=False):
        pictures.append(rgb_array(render_image(frame, plan.size)))
        plan.tick()
    with atomic_file(request.destination) as temp:
        write_gif(temp, pictures, [gif_duration_ms(request.dwell)] * len(pictures))
    return [request.destination]


def _write_mp4(plan: ExportPlan) -> list[Path]:
    request = plan.request
    size = plan.size
    with atomic_file(request.destination) as temp, \
            Mp4Writer(temp, size.width(), size.height(), shown=request.destination) as video:
        for frame in plan.frames(transparent=False):
            video.add(rgb_array(render_image(frame, size)), frames_for(request.dwell))
            plan.tick()
    return [request.destination]


def _write_pptx(plan: ExportPlan) -> list[Path]:
    """One slide per step, the frame filling it: editable shapes, or one picture each."""
    request = plan.request
    sheet = sheet_size(request.aspect)
    make = picture_slide if request.pptx_pictures else editable_slide
    slides = []
    for frame in plan.frames():
        slides.append(make(frame, notes_for(plan.trace, frame.step, request.lang), sheet,
                           plan.size))
        plan.tick()
    with atomic_file(request.destination) as temp:
        write_pptx(temp, slides, sheet=sheet, font=typeface(), title=plan.trace.scenario.title)
    return [request.destination]


WRITERS: dict[str, Callable[[ExportPlan], list[Path]]] = {
    "png": _write_png, "svg": _write_svg, "pdf": _write_pdf, "gif": _write_gif,
    "mp4": _write_mp4, "pptx": _write_pptx,
}


def run_export(trace: Trace, request: ExportRequest, options: FrameOptions | None = None,
               progress: Progress | None = None) -> list[Path]:
    """Export ``request.steps`` of ``trace``; return the files written, in order.

    Parameters
    ----------
    options
        The view's frame options (receiver, head, arrows); the theme is always the slide theme,
        and caption and transparency come from ``request``.
    progress
        Called as ``progress(done, total)`` before the first step and after each one; returning
        ``False`` cancels.

    Raises
    ------
    ExportCancelled
        The progress callback cancelled; no file was written.
    ExportError
        A file could not be written (the message names it); no file was left behind.
    ValueError
        A step is out of range.
    """
    plan = ExportPlan(trace, request, options, progress)
    plan.check()
    return WRITERS[request.format](plan)
