"""PowerPoint: a 16:9 deck, one slide per step, the frame as a picture under the step's title."""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from app import APP_NAME

SLIDE_WIDTH_EMU = 12_192_000  # 13.333 in
SLIDE_HEIGHT_EMU = 6_858_000  # 7.5 in
EMU_PER_INCH = 914_400
TITLE_ONLY_LAYOUT = 5
MARGIN_EMU = int(0.4 * EMU_PER_INCH)
TITLE_TOP_EMU = int(0.25 * EMU_PER_INCH)
TITLE_HEIGHT_EMU = int(0.85 * EMU_PER_INCH)
PICTURE_TOP_EMU = TITLE_TOP_EMU + TITLE_HEIGHT_EMU + int(0.15 * EMU_PER_INCH)
TITLE_POINTS = 28


@dataclass(frozen=True)
class Slide:
    """What one slide shows.

    Attributes
    ----------
    title
        The slide title (the step title).
    png
        The frame as PNG bytes.
    pixel_width, pixel_height
        The picture's size in pixels (only its aspect ratio matters).
    notes
        The speaker notes (the step's explanation).
    """

    title: str
    png: bytes
    pixel_width: int
    pixel_height: int
    notes: str


def fit_picture(pixel_width: int, pixel_height: int) -> tuple[int, int, int, int]:
    """Left, top, width, height (EMU) of a picture fitted under the title, aspect kept, centred."""
    box_width = SLIDE_WIDTH_EMU - 2 * MARGIN_EMU
    box_height = SLIDE_HEIGHT_EMU - PICTURE_TOP_EMU - MARGIN_EMU
    factor = min(box_width / pixel_width, box_height / pixel_height)
    width, height = round(pixel_width * factor), round(pixel_height * factor)
    left = MARGIN_EMU + (box_width - width) // 2
    top = PICTURE_TOP_EMU + (box_height - height) // 2
    return left, top, width, height


def write_pptx(path: Path, slides: Iterable[Slide], *, title: str = "") -> int:
    """Write a 16:9 deck with one "Title Only" slide per :class:`Slide`; returns the slide count.

    The title is a real title placeholder (PowerPoint's outline, navigation and screen readers
    read it); the picture carries the title as its alternative text.
    """
    from pptx import Presentation
    from pptx.util import Emu, Pt

    deck = Presentation()
    deck.slide_width = Emu(SLIDE_WIDTH_EMU)
    deck.slide_height = Emu(SLIDE_HEIGHT_EMU)
    deck.core_properties.title = title
    deck.core_properties.author = APP_NAME
    layout = deck.slide_layouts[TITLE_ONLY_LAYOUT]
    count = 0
    for slide in slides:
        page = deck.slides.add_slide(layout)
        heading = page.shapes.title
        heading.left, heading.top = Emu(MARGIN_EMU), Emu(TITLE_TOP_EMU)
        heading.width = Emu(SLIDE_WIDTH_EMU - 2 * MARGIN_EMU)
        heading.height = Emu(TITLE_HEIGHT_EMU)
        heading.text = slide.title
        for paragraph in heading.text_frame.paragraphs:
            for run in paragraph.runs:
                run.font.size = Pt(TITLE_POINTS)
        left, top, width, height = fit_picture(slide.pixel_width, slide.pixel_height)
        picture = page.shapes.add_picture(io.BytesIO(slide.png), Emu(left), Emu(top),
                                          Emu(width), Emu(height))
        picture.name = f"Frame {count + 1}"
        picture._element.nvPicPr.cNvPr.set("descr", slide.title)
        page.notes_slide.notes_text_frame.text = slide.notes
        count += 1
    deck.save(str(path))
    return count
