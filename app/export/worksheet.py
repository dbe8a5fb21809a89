"""Worksheets on paper: A4 PDF pages of a :class:`~app.export.worksheet_plan.Sheet` — the
exercise's words, the canvas's own frames with the hidden cells drawn empty, room to write and
the "how to check" sentence — and its answer key; and the same sheet as an editable PowerPoint
deck whose blanks are empty table cells. A ``QApplication`` must exist.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypeVar, cast

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPageSize, QPainter, QPdfWriter, QPen
from PySide6.QtWidgets import QGraphicsItem

from app import APP_NAME
from app.canvas import Blanks, FrameItem, FrameOptions
from app.canvas.theme import SLIDE
from app.export.deck import SLIDE_HEIGHT_EMU, Box, Slide, Text, slide_width_emu, write_pptx
from app.export.pdf_text import searchable_pdf
from app.export.render import Frame, build_frame, picture_dpi
from app.export.safe import atomic_file, write_file
from app.export.slides import editable_slide, marks_typeface, typeface
from app.export.worksheet_plan import Sheet, Task
from app.model.sheet import sheet_size
from app.texts.words import say

A4_MM = (210.0, 297.0)
MARGIN = 48.0
"""Page margin in pixels at :func:`picture_dpi` (half an inch)."""
TITLE_SIZE, HEADING_SIZE, BODY_SIZE, SMALL_SIZE = 18, 15, 12, 10
WORKING_HEIGHT = 96.0
"""Room to write under a fill exercise's frames (pixels); a question gets half."""
FRAME_WIDTH = 0.8
"""A frame's width on the page, of the width between the margins (two framed exercises of F11
share a page); the frames of a document of more than :data:`FEW_POSITIONS` positions take the
whole width (pronoun's ten columns)."""
FEW_POSITIONS = 4
BAND_GAP = 24.0
"""Scene units kept above and below the step's picture when a frame is cut to its bands."""
RULE_GAP = 24.0
FRAME_SIZE = QSize(1920, 1080)
SHEET_FAMILIES = ["DejaVu Sans", "Noto Sans CJK SC", "Sans Serif"]
INK, MUTED, RULE = QColor(SLIDE.text), QColor(SLIDE.muted), QColor("#C8CCD2")
T = TypeVar("T")


def frame_options(task: Task) -> FrameOptions:
    """A worksheet's frames: the task's blanks, no arrows and no worked row (both would show
    the shares a blank hides)."""
    return FrameOptions(blanks=Blanks(task.blanks) if task.blanks else None, arrows=False,
                        worked_row=False)


def _frame_item(frame: Frame) -> FrameItem:
    return next(item for item in frame.scene.items() if isinstance(item, FrameItem))


def frame_bands(frame: Frame) -> list[QRectF]:
    """The parts of a frame a sheet prints (scene units): the heading with the map, then the
    step's picture with :data:`BAND_GAP` around it — not the empty room the screen's frame
    leaves around the picture, nor the footer naming the arrays read and written."""
    item = _frame_item(frame)
    picture = item.body.mapRectToScene(item.body.childrenBoundingRect())
    rect = frame.rect
    heading = QRectF(rect.left(), rect.top(), rect.width(), item.area.top() - rect.top())
    top = max(heading.bottom(), picture.top() - BAND_GAP)
    bottom = min(item.area.bottom(), picture.bottom() + BAND_GAP)
    return [heading, QRectF(rect.left(), top, rect.width(), bottom - top)]


def task_frames(task: Task, lang: str) -> Iterator[Frame]:
    """The task's frames, built with its blanks, words in ``lang``."""
    options = frame_options(task)
    for step in task.frames:
        yield build_frame(task.trace, step, options, lang=lang)


@cache
def _font(pixel_size: int, bold: bool) -> QFont:
    """The sheet's words: DejaVu Sans, the CJK face for Chinese. Chosen when Qt's PDF text
    lost the characters of the frame face's Latin digits; the frame's font keeps them now
    (its ``locl`` is off, see :func:`app.canvas.theme.font`), so it would serve as well."""
    result = QFont()
    result.setFamilies(SHEET_FAMILIES)
    result.setPixelSize(pixel_size)
    result.setBold(bold)
    return result


class _Pages:
    """A4 pages painted top to bottom; a block that does not fit starts a new page, whose top
    repeats the sheet's heading."""

    def __init__(self, writer: QPdfWriter, heading: str, variant: str, lang: str) -> None:
        dpi = picture_dpi()
        self.writer = writer
        self.width = A4_MM[0] / 25.4 * dpi
        self.height = A4_MM[1] / 25.4 * dpi
        self.heading, self.variant, self.lang = heading, variant, lang
        self.painter = QPainter(writer)
        self.painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        self.number = 0
        self.y = 0.0
        self._start()

    @property
    def inner(self) -> float:
        return self.width - 2 * MARGIN

    def _start(self) -> None:
        if self.number:
            self.writer.newPage()
        self.number += 1
        self.y = MARGIN
        self.text(self.heading, SMALL_SIZE, colour=MUTED, advance=False)
        right = self.variant or say("worksheet.page", self.lang, number=self.number)
        self.text(right, SMALL_SIZE, colour=MUTED, align=Qt.AlignmentFlag.AlignRight)
        self.y += 8

    def new_sheet(self, heading: str, variant: str) -> None:
        """Start the next sheet on a new page."""
        self.heading, self.variant = heading, variant
        self._start()

    def room(self, height: float) -> None:
        """Start a new page unless ``height`` fits under what is drawn."""
        if self.y + height > self.height - MARGIN and self.y > MARGIN + 40:
            self._start()

    def measure(self, text: str, size: int = BODY_SIZE, bold: bool = False) -> float:
        self.painter.setFont(_font(size, bold))
        flags = int(Qt.TextFlag.TextWordWrap)
        return self.painter.boundingRect(QRectF(0, 0, self.inner, 10_000), flags, text).height()

    def text(self, text: str, size: int = BODY_SIZE, *, bold: bool = False,
             colour: QColor = INK, align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft,
             advance: bool = True) -> None:
        """A paragraph, wrapped to the page's width."""
        height = self.measure(text, size, bold)
        self.room(height)
        self.painter.setFont(_font(size, bold))
        self.painter.setPen(colour)
        flags = int(align) | int(Qt.TextFlag.TextWordWrap)
        self.painter.drawText(QRectF(MARGIN, self.y, self.inner, height), flags, text)
        if advance:
            self.y += height + 4

    def frame_height(self, frame: Frame, share: float) -> float:
        """The height :meth:`frame` paints ``frame`` at."""
        scale = self.inner * share / frame.rect.width()
        return sum(band.height() for band in frame_bands(frame)) * scale

    def frame(self, frame: Frame, share: float) -> None:
        """The frame ``share`` of the page's width, centred, cut to its bands
        (:func:`frame_bands`)."""
        width = self.inner * share
        scale = width / frame.rect.width()
        bands = frame_bands(frame)
        height = self.frame_height(frame, share)
        self.room(height)
        left, top = MARGIN + (self.inner - width) / 2, self.y
        item = _frame_item(frame)
        parts = item.childItems()
        heading: list[QGraphicsItem] = [
            part for part in parts
            if part is not item.body and part.sceneBoundingRect().intersects(bands[0])]
        body: list[QGraphicsItem] = [item.body]
        # Each band paints only its own items: nothing clipped stays in the PDF as hidden text
        # (the footer, the picture's top under the heading).
        for band, shown in zip(bands, (heading, body), strict=True):
            for part in parts:
                part.setVisible(any(part is own for own in shown))
            target = QRectF(left, self.y, width, band.height() * scale)
            self.painter.fillRect(target, frame.background)
            frame.scene.render(self.painter, target, band, Qt.AspectRatioMode.IgnoreAspectRatio)
            self.y = target.bottom()
        self.painter.setPen(QPen(RULE, 1.0))
        self.painter.setBrush(Qt.BrushStyle.NoBrush)
        self.painter.drawRect(QRectF(left, top, width, height))
        self.y += 10

    def working(self, height: float) -> None:
        """A ruled box to write in, labelled."""
        self.room(height + 20)
        self.text(say("worksheet.working", self.lang), SMALL_SIZE, colour=MUTED)
        box = QRectF(MARGIN, self.y, self.inner, height)
        self.painter.setPen(QPen(RULE, 1.0))
        self.painter.setBrush(Qt.BrushStyle.NoBrush)
        self.painter.drawRect(box)
        line = box.top() + RULE_GAP
        while line < box.bottom() - 4:
            self.painter.drawLine(int(box.left() + 8), int(line), int(box.right() - 8), int(line))
            line += RULE_GAP
        self.y = box.bottom() + 12

    def finish(self) -> None:
        self.painter.end()


def _writer(buffer: QBuffer, title: str) -> QPdfWriter:
    writer = QPdfWriter(buffer)
    writer.setCreator(APP_NAME)
    writer.setTitle(title)
    writer.setResolution(picture_dpi())
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setPageMargins(QMarginsF(0, 0, 0, 0))
    return writer


def _variant(sheet: Sheet, lang: str) -> str:
    return "" if sheet.variant is None else say("worksheet.variant", lang, number=sheet.variant)


def _pdf_steps(sheets: Sequence[Sheet], lang: str, key: bool) -> Generator[None, None, bytes]:
    """Paint the sheets (or their keys) as one PDF, yielding after each task; the bytes."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    heading_word = "key" if key else "sheet"
    writer = _writer(buffer, say(f"worksheet.{heading_word}", lang, title=sheets[0].title))
    pages: _Pages | None = None
    try:
        for sheet in sheets:
            heading = say(f"worksheet.{heading_word}", lang, title=sheet.title)
            variant = _variant(sheet, lang)
            if pages is None:
                pages = _Pages(writer, heading, variant, lang)
            else:
                pages.new_sheet(heading, variant)
            if not key:
                pages.text(say("worksheet.name_line", lang), BODY_SIZE)
            for task in sheet.tasks:
                _task(pages, task, lang, key)
                yield
    finally:  # also when the painting is dropped half way (Cancel)
        if pages is not None:
            pages.finish()
        buffer.close()
    return searchable_pdf(bytes(data.data()))


def _pdf(sheets: Sequence[Sheet], lang: str, key: bool) -> bytes:
    return _finished(_pdf_steps(sheets, lang, key))


def _finished(steps: Generator[None, None, T]) -> T:
    """Run ``steps`` to its end; what it returns."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return cast(T, end.value)


def _task(pages: _Pages, task: Task, lang: str, key: bool) -> None:
    heading = say("worksheet.exercise", lang, number=task.number,
                  title=task.exercise.title.text(lang))
    if key:
        pages.room(140)  # the heading, the prompt and the first lines stay together
        pages.y += 6
        pages.text(heading, HEADING_SIZE, bold=True)
        pages.text(task.prompt)
        for line in task.key:
            pages.text(line, SMALL_SIZE)
        return
    frames = list(task_frames(task, lang)) if task.frames_of is None else []
    share = FRAME_WIDTH if task.trace.scenario.n <= FEW_POSITIONS else 1.0
    notes = [task.given] if task.given else []
    if not frames:
        notes.append(say("worksheet.frames_of", lang, number=task.frames_of))
    working = WORKING_HEIGHT if not task.question else WORKING_HEIGHT / 2
    check = say("worksheet.how_to_check", lang, sentence=task.check)
    # The exercise stays on one page when it fits on one.
    pages.room(6 + pages.measure(heading, HEADING_SIZE, bold=True) + pages.measure(task.prompt)
               + sum(pages.measure(note, SMALL_SIZE) for note in notes)
               + sum(pages.frame_height(frame, share) + 10 for frame in frames)
               + sum(pages.measure(line) for line in task.question)
               + pages.measure(say("worksheet.working", lang), SMALL_SIZE) + working + 12
               + pages.measure(check, SMALL_SIZE) + 4 * (4 + len(notes) + len(task.question)))
    pages.y += 6
    pages.text(heading, HEADING_SIZE, bold=True)
    pages.text(task.prompt)
    for note in notes:
        pages.text(note, SMALL_SIZE)
    for frame in frames:
        pages.frame(frame, share)
    for line in task.question:
        pages.text(line)
    pages.room(working + 40 + pages.measure(check, SMALL_SIZE))  # the box and its check together
    pages.working(working)
    pages.text(check, SMALL_SIZE, colour=MUTED)


def sheet_pdf(sheets: Sequence[Sheet], lang: str) -> bytes:
    """The worksheets, each variant from a new page, as A4 PDF bytes."""
    return _pdf(sheets, lang, key=False)


def key_pdf(sheets: Sequence[Sheet], lang: str) -> bytes:
    """Their answer keys: every hidden value with its arithmetic, every question's answer."""
    return _pdf(sheets, lang, key=True)


_HAN = "\u2e80-\u9fff\uff00-\uffef"
_PIECES = re.compile(rf"[{_HAN}][，。、；：！？）」』”]*|[^\s{_HAN}]+|\s+")
"""What a line may break between: words (with their trailing punctuation), each Chinese
character (with the punctuation that must not start a line) and runs of spaces."""


def _wrapped(text: str, width: int) -> list[str]:
    """Lines of about ``width`` Latin characters (a Chinese character counts as two), broken
    between words and between Chinese characters, never inside a word; a word longer than a
    line has a line of its own."""
    lines, line, used = [], "", 0
    for piece in _PIECES.findall(text):
        cost = sum(1 if character.isascii() else 2 for character in piece)
        if piece.isspace():
            if line:
                line, used = line + " ", used + 1
            continue
        if line and used + cost > width:
            lines.append(line.rstrip())
            line, used = "", 0
        line, used = line + piece, used + cost
    return [*lines, line.rstrip()]


def _intro_slide(sheet: Sheet, task: Task, lang: str) -> Slide:
    """A slide of words: the exercise, its prompt and question, how to check, the variant."""
    sheet_shape = sheet_size("16:9")
    width = slide_width_emu(sheet_shape)
    margin, line_height = width // 20, SLIDE_HEIGHT_EMU // 18
    title = Text(Box(margin, margin // 2, width - 2 * margin, line_height * 2),
                 say("worksheet.exercise", lang, number=task.number,
                     title=task.exercise.title.text(lang)), 28, SLIDE.text, bold=True)
    lines = [*_wrapped(task.prompt, 90), *(_wrapped(task.given, 90) if task.given else ()), "",
             *(wrapped for line in task.question for wrapped in _wrapped(line, 90)), "",
             *_wrapped(say("worksheet.how_to_check", lang, sentence=task.check), 100)]
    variant = _variant(sheet, lang)
    if variant:
        lines = [*lines, "", variant]
    top = margin // 2 + line_height * 3
    shapes = [Text(Box(margin, top + k * line_height, width - 2 * margin, line_height), line,
                   16, SLIDE.text) for k, line in enumerate(lines) if line]
    return Slide(title, shapes, task.prompt, SLIDE.background)


def task_slides(sheet: Sheet, task: Task, lang: str) -> Iterator[Slide]:
    """The task's words, then its frames as editable slides (blanks as empty table cells)."""
    sheet_shape = sheet_size("16:9")
    yield _intro_slide(sheet, task, lang)
    for frame in task_frames(task, lang):
        yield editable_slide(frame, task.prompt, sheet_shape, FRAME_SIZE)


@dataclass(frozen=True)
class PaintedWorksheets:
    """A worksheet painted and composed (on the interface thread), ready to be written on any:
    the sheet's PDF bytes, the key's (None unless asked) and the deck's slides (None unless
    asked), with what the deck is set in."""

    sheet: bytes
    key: bytes | None
    slides: tuple[Slide, ...] | None
    title: str
    typeface: str
    marks_typeface: str


def painting(sheets: Sequence[Sheet], lang: str, key: bool = False,
             deck: bool = False) -> Generator[None, None, PaintedWorksheets]:
    """Paint the sheet, and when asked its key and its deck's slides (Qt scenes and fonts: the
    interface thread only), yielding after each task of each (:func:`painting_steps` of them);
    what was painted."""
    sheet = yield from _pdf_steps(sheets, lang, False)
    key_bytes = (yield from _pdf_steps(sheets, lang, True)) if key else None
    slides: list[Slide] | None = None
    if deck:
        slides = []
        for sheet_of, task in ((s, task) for s in sheets for task in s.tasks):
            slides.extend(task_slides(sheet_of, task, lang))
            yield
    return PaintedWorksheets(sheet, key_bytes, None if slides is None else tuple(slides),
                             say("worksheet.sheet", lang, title=sheets[0].title),
                             typeface() if deck else "", marks_typeface() if deck else "")


def painting_steps(sheets: Sequence[Sheet], key: bool = False, deck: bool = False) -> int:
    """How many times :func:`painting` yields."""
    return sum(len(sheet.tasks) for sheet in sheets) * (1 + key + deck)


def paint_worksheets(sheets: Sequence[Sheet], lang: str, key: bool = False,
                     deck: bool = False) -> PaintedWorksheets:
    """:func:`painting` in one go."""
    return _finished(painting(sheets, lang, key, deck))


def write_painted(painted: PaintedWorksheets, out: Path, answers: Path | None = None,
                  pptx: Path | None = None) -> list[Path]:
    """Write what :func:`paint_worksheets` made (any thread): the sheet, then the key and the
    deck where both were painted and given a path; the files written, in that order.

    Raises
    ------
    ExportError
        A file could not be written (the message names it); the files before it stay, and the
        old file at its own path is left as it was.
    """
    write_file(out, painted.sheet)
    written = [out]
    if answers is not None and painted.key is not None:
        write_file(answers, painted.key)
        written.append(answers)
    if pptx is not None and painted.slides is not None:
        with atomic_file(pptx) as temp:
            write_pptx(temp, painted.slides, sheet=sheet_size("16:9"), font=painted.typeface,
                       marks_font=painted.marks_typeface, title=painted.title)
        written.append(pptx)
    return written


def write_worksheets(sheets: Sequence[Sheet], lang: str, out: Path, answers: Path | None = None,
                     pptx: Path | None = None) -> list[Path]:
    """Write the sheet (PDF), and when asked its key (PDF) and its deck; the files written, in
    that order. Everything is painted before anything is written (the window does the same in
    two halves: :func:`paint_worksheets` here, :func:`write_painted` on a worker).

    Raises
    ------
    ExportError
        A file could not be written (the message names it); the files before it stay.
    """
    painted = paint_worksheets(sheets, lang, answers is not None, pptx is not None)
    return write_painted(painted, out, answers, pptx)


__all__ = ["PaintedWorksheets", "frame_options", "key_pdf", "paint_worksheets", "painting",
           "painting_steps", "sheet_pdf", "task_frames", "task_slides", "write_painted",
           "write_worksheets"]
