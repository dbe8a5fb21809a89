"""PowerPoint: one slide per step, written with python-pptx from shapes already placed (no Qt).

A slide is its title (a real title placeholder: PowerPoint's outline, navigation and screen readers
read it) and shapes in drawing order: pictures, native tables, connectors with arrowheads, text
boxes, rectangles and triangles. :mod:`app.export.slides` makes them from a frame; positions and
sizes are EMU.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app import APP_NAME

EMU_PER_POINT = 12_700
SLIDE_HEIGHT_EMU = 6_858_000  # 7.5 in
TITLE_ONLY_LAYOUT = 5
TABLE_GRID_STYLE = "{5940675A-B579-460E-94D1-54222C63F5DA}"
"""PowerPoint's built-in "No Style, Table Grid": no fills of its own (each cell states its lines,
which are the frame's grey, not the style's black)."""
CELL_MARGIN_EMU = 9_144  # 0.01 in


def slide_width_emu(sheet: tuple[float, float]) -> int:
    """The width of a slide 7.5 in tall shaped like ``sheet`` (13.333 in for 16:9)."""
    return round(SLIDE_HEIGHT_EMU * sheet[0] / sheet[1])


@dataclass(frozen=True)
class Box:
    """A rectangle on the slide, EMU."""

    left: int
    top: int
    width: int
    height: int


@dataclass(frozen=True)
class Text:
    """A line of text in a box: its size in points, colour ``#rrggbb``, left or centred.

    ``fill`` and ``outline`` (``#rrggbb`` or ``""``) give the box a background and a border.
    """

    box: Box
    text: str
    points: float
    color: str
    bold: bool = False
    centred: bool = False
    right: bool = False
    fill: str = ""
    outline: str = ""
    narrow: str = ""
    """Characters set in the deck's marks face (:class:`Faces`): a Latin text's curly quotes
    and middle dots, which the CJK face draws full-width."""


@dataclass(frozen=True)
class Cell:
    """One table cell: its text, centred, and colours (``fill`` ``""`` leaves it unfilled).
    A cell without ``lines`` has no border (the labels over a matrix); ``points`` other than 0
    sizes its text instead of the table's; ``narrow`` as :attr:`Text.narrow`. A ``hatch``
    colour draws upward diagonals (////) in it over ``fill``: a cell the mask hides."""

    text: str
    color: str
    fill: str = ""
    hatch: str = ""
    bold: bool = False
    lines: bool = True
    points: float = 0.0
    narrow: str = ""


@dataclass(frozen=True)
class Table:
    """A native table: ``rows`` of cells, column widths and row heights in EMU; the cells'
    lines ``line_width`` EMU wide in ``line_color``."""

    box: Box
    rows: Sequence[Sequence[Cell]]
    column_widths: Sequence[int]
    row_heights: Sequence[int]
    points: float
    line_color: str
    line_width: int
    name: str = ""


@dataclass(frozen=True)
class Connector:
    """A straight line from ``start`` to ``end`` (EMU), an arrowhead at the end when ``arrow``."""

    start: tuple[int, int]
    end: tuple[int, int]
    width: int
    color: str
    opacity: float = 1.0
    arrow: bool = True


@dataclass(frozen=True)
class Rectangle:
    """A rectangle: its border ``width`` EMU in ``color``, filled with ``fill`` or unfilled
    (``""``): a highlighted row's outline, a head's colour square."""

    box: Box
    color: str
    width: int
    fill: str = ""


@dataclass(frozen=True)
class Triangle:
    """A filled triangle with corners ``points`` (EMU), no border: a cell's corner mark."""

    points: tuple[tuple[int, int], tuple[int, int], tuple[int, int]]
    fill: str


@dataclass(frozen=True)
class Picture:
    """A PNG placed in a box; ``description`` is its alternative text."""

    box: Box
    png: bytes
    description: str = ""


Shape = Text | Table | Connector | Rectangle | Triangle | Picture


@dataclass(frozen=True)
class Slide:
    """What one slide shows: its title (text and place), shapes in drawing order, notes.

    ``background`` (``#rrggbb``, or ``""`` for none) fills the whole slide.
    """

    title: Text
    shapes: Sequence[Shape]
    notes: str
    background: str = ""


@dataclass(frozen=True)
class Faces:
    """The deck's typefaces: ``text`` for every word, ``marks`` for a text's ``narrow``
    characters (``""``: ``text`` for them too)."""

    text: str
    marks: str = ""


def _rgb(color: str) -> Any:
    from pptx.dml.color import RGBColor

    red, green, blue = bytes.fromhex(color.lstrip("#")[:6])
    return RGBColor(red, green, blue)


SMALLEST_POINTS = 1.0
"""PowerPoint's smallest font size: the tiny labels of a 64-position frame are set at this."""


def _style_run(run: Any, text: Text | Cell, points: float, font: str) -> None:
    from pptx.oxml.ns import qn
    from pptx.util import Pt

    run.font.size = Pt(max(points, SMALLEST_POINTS))
    run.font.bold = text.bold
    run.font.color.rgb = _rgb(text.color)
    run.font.name = font
    properties = run._r.get_or_add_rPr()
    properties.append(properties.makeelement(qn("a:ea"), {"typeface": font}))


def _size_paragraph(paragraph: Any, points: float) -> None:
    """The paragraph's own size too: else its end mark keeps the 18 pt default and a table row
    grows taller than the canvas draws it."""
    from pptx.util import Pt

    points = max(points, SMALLEST_POINTS)
    paragraph.font.size = Pt(points)
    paragraph._p.get_or_add_endParaRPr().set("sz", str(round(points * 100)))


def _align(paragraph: Any, *, right: bool = False, centred: bool = True) -> None:
    from pptx.enum.text import PP_ALIGN

    paragraph.alignment = (PP_ALIGN.RIGHT if right else
                           PP_ALIGN.CENTER if centred else PP_ALIGN.LEFT)


def _split_narrow(paragraph: Any, narrow: str) -> None:
    """Make each stretch of ``narrow`` characters a run of its own (they get another face)."""
    line = "".join(run.text for run in paragraph.runs)
    marks = re.escape(narrow)
    pieces = re.findall(f"[{marks}]+|[^{marks}]+", line)
    if len(pieces) < 2:
        return
    for run in paragraph.runs:
        paragraph._p.remove(run._r)
    for piece in pieces:
        paragraph.add_run().text = piece


def _style_paragraphs(frame: Any, text: Text | Cell, points: float, faces: Faces, *,
                      right: bool = False, centred: bool = True) -> None:
    """Align, size and style every paragraph of ``frame``: a text with a line break (a token
    label may have one) is one paragraph per line, and each keeps the frame's size. The text's
    ``narrow`` characters are runs in the marks face."""
    narrow = text.narrow if faces.marks else ""
    for paragraph in frame.paragraphs:
        _align(paragraph, right=right, centred=centred)
        _size_paragraph(paragraph, points)
        if narrow:
            _split_narrow(paragraph, narrow)
        for run in paragraph.runs:
            marks = bool(narrow) and bool(run.text) and all(ch in narrow for ch in run.text)
            _style_run(run, text, points, faces.marks if marks else faces.text)


def _fill_text_frame(frame: Any, text: Text, faces: Faces) -> None:
    from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE

    frame.word_wrap = False
    frame.auto_size = MSO_AUTO_SIZE.NONE
    frame.margin_left = frame.margin_right = frame.margin_top = frame.margin_bottom = 0
    frame.vertical_anchor = MSO_ANCHOR.MIDDLE
    frame.text = text.text
    _style_paragraphs(frame, text, text.points, faces, right=text.right, centred=text.centred)


def _place(shape: Any, box: Box) -> None:
    from pptx.util import Emu

    shape.left, shape.top = Emu(box.left), Emu(box.top)
    shape.width, shape.height = Emu(box.width), Emu(box.height)


def _add_text(shapes: Any, text: Text, faces: Faces) -> None:
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.util import Emu, Pt

    box = text.box
    if text.fill or text.outline:
        shape = shapes.add_shape(MSO_SHAPE.ROUNDED_RECTANGLE, Emu(box.left), Emu(box.top),
                                 Emu(box.width), Emu(box.height))
        shape.shadow.inherit = False
        if text.fill:
            shape.fill.solid()
            shape.fill.fore_color.rgb = _rgb(text.fill)
        else:
            shape.fill.background()
        if text.outline:
            shape.line.color.rgb = _rgb(text.outline)
            shape.line.width = Pt(0.75)
        else:
            shape.line.fill.background()
    else:
        shape = shapes.add_textbox(Emu(box.left), Emu(box.top), Emu(box.width), Emu(box.height))
    _fill_text_frame(shape.text_frame, text, faces)


def _cell_lines(cell: Any, color: str, width: int) -> None:
    """Give a table cell's four borders ``width`` EMU in ``color``, or none (``""``); call it
    before the cell gets its fill (the schema puts borders first)."""
    from pptx.oxml.ns import qn

    properties = cell._tc.get_or_add_tcPr()
    for side in ("a:lnL", "a:lnR", "a:lnT", "a:lnB"):
        line = properties.makeelement(qn(side), {"w": str(width if color else 0)})
        if color:
            fill = line.makeelement(qn("a:solidFill"), {})
            fill.append(fill.makeelement(qn("a:srgbClr"), {"val": color.lstrip("#")[:6]}))
            line.append(fill)
        else:
            line.append(line.makeelement(qn("a:noFill"), {}))
        properties.append(line)


def _add_table(shapes: Any, table: Table, faces: Faces) -> None:
    from pptx.enum.dml import MSO_PATTERN
    from pptx.enum.text import MSO_ANCHOR
    from pptx.util import Emu

    box = table.box
    rows, cols = len(table.rows), len(table.column_widths)
    frame = shapes.add_table(rows, cols, Emu(box.left), Emu(box.top), Emu(box.width),
                             Emu(box.height))
    if table.name:
        frame.name = table.name
    grid = frame.table
    grid.first_row = grid.horz_banding = False
    frame._element.graphic.graphicData.tbl.tblPr.find(
        "{http://schemas.openxmlformats.org/drawingml/2006/main}tableStyleId").text = \
        TABLE_GRID_STYLE
    for c, width in enumerate(table.column_widths):
        grid.columns[c].width = Emu(width)
    for r, height in enumerate(table.row_heights):
        grid.rows[r].height = Emu(height)
    for r, cells in enumerate(table.rows):
        for c, cell in enumerate(cells):
            target = grid.cell(r, c)
            target.margin_left = target.margin_right = Emu(CELL_MARGIN_EMU)
            target.margin_top = target.margin_bottom = Emu(0)
            target.vertical_anchor = MSO_ANCHOR.MIDDLE
            if cell.lines:
                _cell_lines(target, table.line_color, table.line_width)
            else:
                _cell_lines(target, "", 0)
            if cell.hatch:
                target.fill.patterned()
                target.fill.pattern = MSO_PATTERN.LIGHT_UPWARD_DIAGONAL
                target.fill.fore_color.rgb = _rgb(cell.hatch)
                target.fill.back_color.rgb = _rgb(cell.fill)
            elif cell.fill:
                target.fill.solid()
                target.fill.fore_color.rgb = _rgb(cell.fill)
            else:
                target.fill.background()
            target.text = cell.text
            target.text_frame.word_wrap = False
            _style_paragraphs(target.text_frame, cell, cell.points or table.points, faces)


def _add_connector(shapes: Any, line: Connector, faces: Faces) -> None:
    from pptx.enum.shapes import MSO_CONNECTOR
    from pptx.oxml.ns import qn
    from pptx.util import Emu

    shape = shapes.add_connector(MSO_CONNECTOR.STRAIGHT, Emu(line.start[0]), Emu(line.start[1]),
                                 Emu(line.end[0]), Emu(line.end[1]))
    shape.shadow.inherit = False  # a connector's style takes the theme's drop shadow
    shape.line.width = Emu(line.width)
    shape.line.color.rgb = _rgb(line.color)
    outline = shape.line._get_or_add_ln()
    if line.opacity < 1.0:
        colour = outline.find(qn("a:solidFill")).find(qn("a:srgbClr"))
        alpha = colour.makeelement(qn("a:alpha"), {"val": str(round(line.opacity * 100_000))})
        colour.append(alpha)
    if line.arrow:
        outline.append(outline.makeelement(qn("a:tailEnd"),
                                           {"type": "triangle", "w": "med", "len": "med"}))


def _add_rectangle(shapes: Any, rectangle: Rectangle, faces: Faces) -> None:
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.util import Emu

    box = rectangle.box
    shape = shapes.add_shape(MSO_SHAPE.RECTANGLE, Emu(box.left), Emu(box.top), Emu(box.width),
                             Emu(box.height))
    shape.shadow.inherit = False
    if rectangle.fill:
        shape.fill.solid()
        shape.fill.fore_color.rgb = _rgb(rectangle.fill)
    else:
        shape.fill.background()
    shape.line.color.rgb = _rgb(rectangle.color)
    shape.line.width = Emu(rectangle.width)


def _add_triangle(shapes: Any, triangle: Triangle, faces: Faces) -> None:
    (x0, y0), *rest = triangle.points
    builder = shapes.build_freeform(x0, y0)
    builder.add_line_segments(rest, close=True)
    shape = builder.convert_to_shape()
    shape.shadow.inherit = False
    shape.fill.solid()
    shape.fill.fore_color.rgb = _rgb(triangle.fill)
    shape.line.fill.background()


def _add_picture(shapes: Any, picture: Picture, faces: Faces) -> None:
    from pptx.util import Emu

    box = picture.box
    shape = shapes.add_picture(io.BytesIO(picture.png), Emu(box.left), Emu(box.top),
                               Emu(box.width), Emu(box.height))
    shape._element.nvPicPr.cNvPr.set("descr", picture.description)


ADDERS: dict[type, Callable[[Any, Any, Faces], None]] = {
    Text: _add_text, Table: _add_table, Connector: _add_connector, Rectangle: _add_rectangle,
    Triangle: _add_triangle, Picture: _add_picture}


def write_pptx(path: Path, slides: Iterable[Slide], *, sheet: tuple[float, float], font: str,
               marks_font: str = "", title: str = "") -> int:
    """Write a deck shaped like ``sheet`` (7.5 in tall), one "Title Only" slide per
    :class:`Slide`, every text in the typeface ``font`` but its ``narrow`` characters, which
    are in ``marks_font``; returns the slide count."""
    from pptx import Presentation
    from pptx.util import Emu

    deck = Presentation()
    deck.slide_width = Emu(slide_width_emu(sheet))
    deck.slide_height = Emu(SLIDE_HEIGHT_EMU)
    deck.core_properties.title = title
    deck.core_properties.author = APP_NAME
    layout = deck.slide_layouts[TITLE_ONLY_LAYOUT]
    faces = Faces(font, marks_font)
    count = 0
    for slide in slides:
        page = deck.slides.add_slide(layout)
        if slide.background:
            page.background.fill.solid()
            page.background.fill.fore_color.rgb = _rgb(slide.background)
        page.shapes.turbo_add_enabled = True  # ids counted, not searched: O(n), not O(n²)
        heading = page.shapes.title
        _place(heading, slide.title.box)
        _fill_text_frame(heading.text_frame, slide.title, faces)
        for shape in slide.shapes:
            ADDERS[type(shape)](page.shapes, shape, faces)
        page.notes_slide.notes_text_frame.text = slide.notes
        count += 1
    deck.save(str(path))
    return count
