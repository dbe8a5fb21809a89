"""A multi-step export: build each step's frame, write the format, report progress, allow cancel.

Each format is a :class:`Pipeline`: a half that composes and paints the frames (Qt graphics
scenes: the interface thread only) and a half that encodes and writes them (any thread).
:func:`run_export` runs both in line (the command line, tests); the window runs the second half
on a worker (:mod:`app.export.stepwise`). Progress is reported once per step through a
callback that returns ``False`` to cancel; a cancelled or failed export leaves no file behind
(see :mod:`app.export.safe`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSize
from PySide6.QtGui import QImage

from app.canvas import THEMES, FrameOptions
from app.export.animation import (
    Mp4Writer,
    gif_duration_ms,
    rgb_array,
    write_gif,
)
from app.export.deck import Slide, write_pptx
from app.export.render import (
    Frame,
    PagePlace,
    PdfPages,
    build_frame,
    check_image_size,
    png_bytes,
    render_image,
    split_frames,
    svg_bytes,
)
from app.export.run_pages import Page
from app.export.safe import ExportCancelled, atomic_file, staged_folder, write_file
from app.export.settings import ExportRequest
from app.export.slides import editable_slide, marks_typeface, picture_slide, typeface
from app.export.words import caption_for, notes_for
from app.model.sheet import sheet_size
from engine import Trace
from engine.files.outputs import refuse_parts_over_files

Progress = Callable[[int, int], bool]
"""``progress(done, total)`` after each step; return ``False`` to cancel the export."""


class ExportPlan:
    """The frames of one export, built on demand, with progress and cancellation: the
    request's steps of ``trace``, or ``pages`` (a generation run's, from several traces)."""

    def __init__(self, trace: Trace, request: ExportRequest, options: FrameOptions | None = None,
                 progress: Progress | None = None, pages: Sequence[Page] | None = None) -> None:
        count = len(trace.steps)
        bad = [step for step in request.steps if not 0 <= step < count]
        if bad and pages is None:
            raise ValueError(f"step {bad[0] + 1} is out of range: this document has steps 1 to "
                             f"{count}")
        self.pages = tuple(pages) if pages is not None else \
            tuple(Page(trace, step) for step in request.steps)
        check_image_size(*request.pixel_size())  # every format, before anything is drawn
        self.trace = trace
        self.request = request
        base = options or FrameOptions()
        self.options = replace(base, theme=THEMES[request.theme],
                               decimals=request.decimals or base.decimals,
                               aspect=request.aspect)
        self.progress = progress
        self.total = len(self.pages)
        self.done = 0
        # Asked here, on the interface thread: the deck may be written on a worker.
        self.typeface = typeface() if request.format == "pptx" else ""
        self.marks_typeface = marks_typeface() if request.format == "pptx" else ""

    def check(self) -> None:
        """Report progress; raise :class:`ExportCancelled` if the callback asks to stop."""
        if self.progress is not None and not self.progress(self.done, self.total):
            raise ExportCancelled()

    def tick(self) -> None:
        """One more step is done."""
        self.done += 1
        self.check()

    def frame(self, page: Page, part: int | None = None, *,
              transparent: bool | None = None) -> Frame:
        """The frame of ``page`` (``part``: of a step split over several pages)."""
        request = self.request
        caption = caption_for(page.trace, page.step, request.lang) if request.caption else ""
        options = self.options if page.place is None else \
            replace(self.options, run_place=page.place)
        return build_frame(page.trace, page.step, options, lang=request.lang, caption=caption,
                           transparent=request.transparent if transparent is None
                           else transparent, part=part)

    @property
    def size(self) -> QSize:
        """The one pixel size of every picture, SVG and page of this export."""
        return QSize(*self.request.pixel_size())

    def frames(self, *, transparent: bool | None = None) -> Iterator[tuple[Page, Frame]]:
        """The frames in export order, built one at a time, each with its page: a step split
        over several pages as presentation splits it gives a frame per part
        (:func:`~app.export.render.split_frames`)."""
        for page in self.pages:
            def build(part: int | None, page: Page = page) -> Frame:
                return self.frame(page, part=part, transparent=transparent)

            for frame in split_frames(build):
                yield page, frame


Payloads = Generator[Any, None, None]
"""What an export's interface-thread half hands its writing half, one item per page (a step
split over several pages gives several; the writing half counts a step done at its last:
:attr:`~app.export.render.PagePlace.ends_step`)."""


@dataclass(frozen=True)
class Pipeline:
    """One format's export in two halves.

    ``compose`` runs on the interface thread (it builds each step's frame, a Qt scene, and paints
    it) and yields one payload per step; ``write`` may run on a worker thread (it encodes the
    payloads, calling :meth:`ExportPlan.tick` after each, and writes the files). Run in line
    (the command line) or apart (the window, :class:`BackgroundExport`), they give the same bytes.
    """

    compose: Callable[[ExportPlan], Payloads]
    write: Callable[[ExportPlan, Iterable[Any]], list[Path]]


def _pictures(plan: ExportPlan, *, transparent: bool | None = None) -> Payloads:
    """Each page's frame painted into an image of the export's size."""
    for _page, frame in plan.frames(transparent=transparent):
        yield frame.place, render_image(frame, plan.size)


def _opaque_pictures(plan: ExportPlan) -> Payloads:
    """The frames of an animation: never transparent."""
    return _pictures(plan, transparent=False)


def _write_png(plan: ExportPlan, pictures: Iterable[tuple[PagePlace, QImage]]) -> list[Path]:
    return _write_files(plan, ((place, png_bytes(image)) for place, image in pictures))


def _svgs(plan: ExportPlan) -> Payloads:
    for _page, frame in plan.frames():
        yield frame.place, svg_bytes(frame, plan.size)


def _write_files(plan: ExportPlan, files: Iterable[tuple[PagePlace, bytes]]) -> list[Path]:
    """A file per page (``<name>-step03.png``; a split step's ``<name>-step03-1.png`` …)."""
    request = plan.request
    count = len(plan.trace.steps)
    with staged_folder(request.destination) as staged:
        names = []
        for place, data in files:
            names.append(request.step_file(place.step, count, place.part))
            staged.write(names[-1], data)
            _ticked(plan, place)
        if request.single_file is not None:  # a split step's parts: names not asked for
            refuse_parts_over_files(request.destination, request.single_file, names)
        return staged.commit()


def _ticked(plan: ExportPlan, place: PagePlace) -> None:
    """A page is written: a step is done at its last page."""
    if place.ends_step:
        plan.tick()
    else:
        plan.check()


def _pdf_pages(plan: ExportPlan) -> Payloads:
    """One page painted per page of the export; the last one's payload carries the whole
    document's bytes, the others' None."""
    pages = PdfPages(plan.size, title=plan.trace.scenario.title)
    with pages:
        painted: PagePlace | None = None
        for _page, frame in plan.frames():
            if painted is not None:
                yield painted, None
            pages.add(frame)
            painted = frame.place
        yield painted, pages.finish()


def _write_pdf(plan: ExportPlan, pages: Iterable[tuple[PagePlace, bytes | None]]) -> list[Path]:
    document = b""
    for place, page in pages:
        document = page or document
        _ticked(plan, place)
    write_file(plan.request.destination, document)
    return [plan.request.destination]


def _write_gif(plan: ExportPlan, pictures: Iterable[tuple[PagePlace, QImage]]) -> list[Path]:
    request = plan.request
    frames = []
    for place, image in pictures:
        frames.append(rgb_array(image))
        _ticked(plan, place)
    with atomic_file(request.destination) as temp:
        write_gif(temp, frames, [gif_duration_ms(request.dwell)] * len(frames))
        plan.check()
    return [request.destination]


def _write_mp4(plan: ExportPlan, pictures: Iterable[tuple[PagePlace, QImage]]) -> list[Path]:
    request = plan.request
    size = plan.size
    with atomic_file(request.destination) as temp, \
            Mp4Writer(temp, size.width(), size.height(), request.dwell,
                      shown=request.destination) as video:
        for place, image in pictures:
            video.add(rgb_array(image))
            _ticked(plan, place)
    return [request.destination]


def _slides(plan: ExportPlan) -> Payloads:
    """One slide per page, the frame filling it: editable shapes, or one picture each (a
    step split over several pages has a slide per part, each with the step's notes)."""
    request = plan.request
    sheet = sheet_size(request.aspect)
    make = picture_slide if request.pptx_pictures else editable_slide
    for page, frame in plan.frames():
        yield frame.place, make(frame, notes_for(page.trace, page.step, request.lang), sheet,
                                plan.size)


def _write_pptx(plan: ExportPlan, slides: Iterable[tuple[PagePlace, Slide]]) -> list[Path]:
    request = plan.request

    composed = list(slides)  # first all of them: composing then never waits on the deck

    def counted() -> Iterator[Slide]:
        for place, slide in composed:
            yield slide
            _ticked(plan, place)  # once the deck holds it: a big slide takes seconds to add

    with atomic_file(request.destination) as temp:
        write_pptx(temp, counted(), sheet=sheet_size(request.aspect), font=plan.typeface,
                   marks_font=plan.marks_typeface, title=plan.trace.scenario.title)
        plan.check()
    return [request.destination]


PIPELINES: dict[str, Pipeline] = {
    "png": Pipeline(_pictures, _write_png), "svg": Pipeline(_svgs, _write_files),
    "pdf": Pipeline(_pdf_pages, _write_pdf), "gif": Pipeline(_opaque_pictures, _write_gif),
    "mp4": Pipeline(_opaque_pictures, _write_mp4), "pptx": Pipeline(_slides, _write_pptx),
}


def run_export(trace: Trace, request: ExportRequest, options: FrameOptions | None = None,
               progress: Progress | None = None,
               pages: Sequence[Page] | None = None) -> list[Path]:
    """Export ``request.steps`` of ``trace`` (or ``pages``: a generation run's frames, from
    several traces); return the files written, in order.

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
    plan = ExportPlan(trace, request, options, progress, pages)
    plan.check()
    pipeline = PIPELINES[request.format]
    return pipeline.write(plan, pipeline.compose(plan))
