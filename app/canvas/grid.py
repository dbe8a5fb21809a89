"""A labelled matrix drawn as a grid of coloured cells with every number printed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import numpy.typing as npt
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QImage, QPainter, QPen, QPicture
from PySide6.QtWidgets import (
    QGraphicsObject,
    QGraphicsSceneHoverEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.canvas.picture import legible, play
from app.canvas.theme import Theme, cell_color, cividis_rgb, font, ink_for
from app.texts.frame_words import frame_word, join_notes
from engine.numbers import NumberFormat

NUMBER_SIZE = 17
"""Pixel size of the printed numbers (before the frame's scale)."""
CELL_HEIGHT = 26.0
LARGE_GRID_CELLS = 1024
"""Above this many cells a grid draws its colours as one image and prints only the numbers of
its highlighted rows (the receiver); hovering still explains every cell."""
LABEL_GAP = 6.0
TITLE_HEIGHT = 24.0
HEADER_HEIGHT = 20.0
DECIMALS = 3

Explainer = Callable[[int, int], str]


@dataclass
class GridSpec:
    """What one grid shows.

    Attributes
    ----------
    title
        Shown above the grid, e.g. ``"Q = X·Wq"``; the shape is appended.
    values
        The 2-D array.
    row_labels, col_labels
        One label per row / column (token labels, vocabulary entries or indices).
    value_range
        The range the colours span; by default the array's own minimum and maximum.
    masked
        Cells hidden by the causal mask: drawn hatched and grey, number kept.
    highlight_rows
        Rows drawn with an accent outline (the receiver in focus).
    marked
        Cells marked with a small corner triangle (ReLU-zeroed units, picked rows …).
    note
        A line under the grid (``"÷ √2 = 1.414"``).
    lang
        Language of the grid's own words (the note of a large grid).
    """

    title: str
    values: npt.NDArray[np.float64]
    row_labels: Sequence[str]
    col_labels: Sequence[str]
    value_range: tuple[float, float] | None = None
    masked: npt.NDArray[np.bool_] | None = None
    highlight_rows: frozenset[int] = frozenset()
    marked: npt.NDArray[np.bool_] | None = None
    note: str = ""
    swatch: str = ""
    explain: Explainer | None = field(default=None, compare=False)
    lang: str = "en"
    decimals: int = DECIMALS


def _heat_image(values: npt.NDArray[np.float64], lo: float, hi: float,
                masked: npt.NDArray[np.bool_] | None, masked_rgb: tuple[int, int, int]) -> QImage:
    """One pixel per cell, coloured like the cells of a small grid."""
    span = hi - lo
    fraction = (values - lo) / span if span > 0 else np.full(values.shape, 0.5)
    rgb = cividis_rgb(fraction)
    if masked is not None:
        rgb[masked] = masked_rgb
    rows, cols = values.shape
    argb = np.empty((rows, cols), dtype=np.uint32)
    argb[...] = (0xFF << 24) | (rgb[..., 0].astype(np.uint32) << 16) | \
        (rgb[..., 1].astype(np.uint32) << 8) | rgb[..., 2].astype(np.uint32)
    image = QImage(argb.tobytes(), cols, rows, cols * 4, QImage.Format.Format_ARGB32)
    return image.copy()


@cache
def _dark_ink_levels() -> tuple[bool, ...]:
    """For each of the 256 cividis levels: is black ink the readable one?"""
    return tuple(ink_for(cell_color(level / 255)).name() == "#000000" for level in range(256))


@cache
def label_advance(text: str) -> float:
    """Width of a row or column label (labels repeat across grids and edits: measured once)."""
    return QFontMetricsF(font(12)).horizontalAdvance(text)


class MatrixGrid(QGraphicsObject):
    """One matrix as a grid item; its drawing is recorded once into a picture and replayed."""

    def __init__(self, spec: GridSpec, theme: Theme) -> None:
        super().__init__()
        self.spec = spec
        self.theme = theme
        self._hovered: tuple[int, int] | None = None
        values = spec.values
        number_font, label_font = font(NUMBER_SIZE), font(12)
        numbers = QFontMetricsF(number_font)
        labels = QFontMetricsF(label_font)
        self.format = NumberFormat.for_values(values, spec.decimals)
        """One format for every cell (scientific for all when one value is huge)."""
        widest = numbers.horizontalAdvance(self.format.widest(values))
        widest_col = max((label_advance(str(c)) for c in spec.col_labels), default=0.0)
        # 4 units each side of the widest number: enough to keep neighbours apart, and 3-decimal
        # grids of 8 tokens then print their numbers 20 px tall on a 1920×1080 sheet.
        self.cell_width = max(46.0, widest + 8.0, widest_col + 8.0)
        self.label_width = max((label_advance(str(r)) for r in spec.row_labels),
                               default=0.0) + LABEL_GAP
        self.grid_origin = QPointF(self.label_width, TITLE_HEIGHT + HEADER_HEIGHT)
        rows, cols = values.shape
        title_width = QFontMetricsF(font(14, bold=True)).horizontalAdvance(self._title()) + 22
        self.large = rows * cols > LARGE_GRID_CELLS
        self.note = spec.note
        if self.large:
            shown = frame_word(spec.lang, "large_highlighted" if spec.highlight_rows
                               else "large_colours")
            self.note = join_notes(spec.lang, self.note, frame_word(
                spec.lang, "large_note", cells=rows * cols, shown=shown))
        note_width = labels.horizontalAdvance(self.note) + 4 if self.note else 0.0
        self._width = max(self.label_width + cols * self.cell_width, title_width, note_width)
        self._height = self.grid_origin.y() + rows * CELL_HEIGHT + (20.0 if self.note else 0.0)
        self._heat: tuple[QRectF, QImage] | None = None
        self._pictures: tuple[QPicture, QPicture] | None = None
        """Shapes and texts, recorded at the first paint: laying out (and measuring a whole
        document's steps for its type scale) needs only the sizes."""
        self.setAcceptHoverEvents(spec.explain is not None)

    def _title(self) -> str:
        rows, cols = self.spec.values.shape
        return f"{self.spec.title}   {rows}×{cols}"

    def boundingRect(self) -> QRectF:
        return QRectF(0.0, 0.0, self._width, self._height)

    def cell_rect(self, row: int, col: int) -> QRectF:
        """Where cell (row, col) is, in item coordinates."""
        return QRectF(self.grid_origin.x() + col * self.cell_width,
                      self.grid_origin.y() + row * CELL_HEIGHT, self.cell_width, CELL_HEIGHT)

    def cell_at(self, point: QPointF) -> tuple[int, int] | None:
        """The cell under ``point`` (item coordinates), or None."""
        col = int((point.x() - self.grid_origin.x()) // self.cell_width)
        row = int((point.y() - self.grid_origin.y()) // CELL_HEIGHT)
        rows, cols = self.spec.values.shape
        if point.x() < self.grid_origin.x() or point.y() < self.grid_origin.y():
            return None
        return (row, col) if 0 <= row < rows and 0 <= col < cols else None

    def _recorded(self) -> tuple[QPicture, QPicture]:
        if self._pictures is None:
            self._pictures = self._record(font(NUMBER_SIZE), font(12))
        return self._pictures

    def _record(self, number_font: QFont, label_font: QFont) -> tuple[QPicture, QPicture]:
        """Two pictures: shapes (fills, lines, marks) and text (titles, labels, numbers).

        Cells of one colour are filled by one ``drawRects`` call and numbers of one ink drawn in
        one run, so a grid of a thousand cells records in a few milliseconds.
        """
        spec, theme = self.spec, self.theme
        values = spec.values
        lo, hi = spec.value_range or (float(values.min()), float(values.max()))
        span = hi - lo
        rows, cols = values.shape
        ox, oy = self.grid_origin.x(), self.grid_origin.y()
        shapes, texts = QPicture(), QPicture()
        sp, tp = QPainter(shapes), QPainter(texts)
        sp.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        tp.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        title_x = 0.0
        if spec.swatch:
            sp.setPen(QPen(theme.color("text"), 1.0))
            sp.setBrush(QBrush(QColor(spec.swatch)))
            sp.drawRect(QRectF(0, TITLE_HEIGHT / 2 - 6, 12, 12))
            title_x = 18.0
        tp.setFont(font(14, bold=True))
        tp.setPen(theme.color("text"))
        tp.drawText(QRectF(title_x, 0, self._width, TITLE_HEIGHT),
                    Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self._title())
        tp.setFont(label_font)
        tp.setPen(theme.color("muted"))
        for c, label in enumerate(spec.col_labels):
            tp.drawText(QRectF(ox + c * self.cell_width, TITLE_HEIGHT, self.cell_width,
                               HEADER_HEIGHT), Qt.AlignmentFlag.AlignCenter, str(label))
        for r, label in enumerate(spec.row_labels):
            tp.drawText(QRectF(0, oy + r * CELL_HEIGHT, self.label_width - LABEL_GAP, CELL_HEIGHT),
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, str(label))
        masked = spec.masked if spec.masked is not None else np.zeros(values.shape, dtype=bool)
        cell_rows = list(range(rows))
        if self.large:
            masked_rgb = theme.color("masked")
            image = _heat_image(values, lo, hi, spec.masked,
                                (masked_rgb.red(), masked_rgb.green(), masked_rgb.blue()))
            self._heat = (QRectF(ox, oy, cols * self.cell_width, rows * CELL_HEIGHT), image)
            cell_rows = sorted(r for r in spec.highlight_rows if 0 <= r < rows)
        fraction = (values - lo) / span if span > 0 else np.full(values.shape, 0.5)
        shade = np.rint(np.clip(fraction, 0.0, 1.0) * 255).astype(int)
        groups: dict[int, list[QRectF]] = {}
        hidden: list[QRectF] = []
        inks: dict[str, list[tuple[QRectF, str]]] = {}
        muted = theme.color("muted")
        dark_ink = _dark_ink_levels()
        for r in cell_rows:
            top = oy + r * CELL_HEIGHT
            for c in range(cols):
                rect = QRectF(ox + c * self.cell_width, top, self.cell_width, CELL_HEIGHT)
                text = self.format.text(float(values[r, c]))
                if masked[r, c]:
                    hidden.append(rect)
                    inks.setdefault(muted.name(), []).append((rect, text))
                else:
                    level = int(shade[r, c])
                    groups.setdefault(level, []).append(rect)
                    inks.setdefault("#000000" if dark_ink[level] else "#ffffff", []).append(
                        (rect, text))
        sp.setPen(Qt.PenStyle.NoPen)
        for level, rects in groups.items():
            sp.setBrush(QBrush(cell_color(level / 255)))
            sp.drawRects(rects)
        if hidden:
            sp.setBrush(QBrush(theme.color("masked", 0.35)))
            sp.drawRects(hidden)
            sp.setBrush(QBrush(theme.color("masked"), Qt.BrushStyle.BDiagPattern))
            sp.drawRects(hidden)
        sp.setBrush(Qt.BrushStyle.NoBrush)
        sp.setPen(QPen(theme.color("grid_line"), 1.0))
        right, bottom = ox + cols * self.cell_width, oy + rows * CELL_HEIGHT
        if self.large:
            sp.drawRect(QRectF(ox, oy, right - ox, bottom - oy))
            lines = [QLineF(ox, oy + r * CELL_HEIGHT + dy, right, oy + r * CELL_HEIGHT + dy)
                     for r in cell_rows for dy in (0, CELL_HEIGHT)]
            lines += [QLineF(ox + c * self.cell_width, oy + r * CELL_HEIGHT,
                             ox + c * self.cell_width, oy + (r + 1) * CELL_HEIGHT)
                      for r in cell_rows for c in range(cols + 1)]
        else:
            lines = [QLineF(ox, oy + r * CELL_HEIGHT, right, oy + r * CELL_HEIGHT)
                     for r in range(rows + 1)]
            lines += [QLineF(ox + c * self.cell_width, oy, ox + c * self.cell_width, bottom)
                      for c in range(cols + 1)]
        sp.drawLines(lines)
        if spec.marked is not None:
            for r, c in np.argwhere(spec.marked).tolist():
                if r in cell_rows:
                    corner = self.cell_rect(r, c).topLeft()
                    sp.setPen(Qt.PenStyle.NoPen)
                    sp.setBrush(QBrush(theme.color("accent") if masked[r, c] else
                                       QColor("#000000" if dark_ink[int(shade[r, c])]
                                              else "#ffffff")))
                    sp.drawPolygon([corner, corner + QPointF(9, 0), corner + QPointF(0, 9)])
        sp.setBrush(Qt.BrushStyle.NoBrush)
        sp.setPen(QPen(theme.color("accent"), 3.0))
        for r in sorted(spec.highlight_rows):
            if 0 <= r < rows:
                sp.drawRect(QRectF(ox, oy + r * CELL_HEIGHT, cols * self.cell_width, CELL_HEIGHT))
        tp.setFont(number_font)
        for ink, cells in inks.items():
            tp.setPen(QColor(ink))
            for rect, text in cells:
                tp.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        if self.note:
            tp.setFont(label_font)
            tp.setPen(muted)
            tp.drawText(QRectF(0, oy + rows * CELL_HEIGHT + 2, self._width, 18),
                        Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.note)
        sp.end()
        tp.end()
        return shapes, texts

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        shapes, texts = self._recorded()
        if self._heat is not None:
            # One pixel per cell, scaled up: nearest neighbour keeps every cell a flat square.
            smooth = painter.testRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
            painter.drawImage(*self._heat)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, smooth)
        play(shapes, painter)
        if legible(painter, option):
            play(texts, painter)
        if self._hovered is not None:
            painter.setPen(QPen(self.theme.color("text"), 2.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(self.cell_rect(*self._hovered))

    def hoverMoveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        cell = self.cell_at(event.pos())
        if cell != self._hovered:
            self._hovered = cell
            explain = self.spec.explain
            self.setToolTip(explain(*cell) if cell is not None and explain is not None else "")
            self.update()

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self._hovered = None
        self.setToolTip("")
        self.update()

    def cell_text(self, row: int, col: int) -> str:
        """The number shown in a cell, exactly as drawn."""
        return self.format.text(float(self.spec.values[row, col]))

    # What exporters that rebuild a grid natively (PowerPoint tables) read; item coordinates.

    @property
    def title_text(self) -> str:
        """The title line as drawn: the title, then the shape."""
        return self._title()

    def title_rect(self) -> QRectF:
        """Where the title line is drawn (right of the head swatch when there is one)."""
        left = 18.0 if self.spec.swatch else 0.0
        return QRectF(left, 0.0, self._width - left, TITLE_HEIGHT)

    def col_label_rect(self, col: int) -> QRectF:
        """Where column ``col``'s label (``spec.col_labels[col]``) is drawn, centred."""
        return QRectF(self.grid_origin.x() + col * self.cell_width, TITLE_HEIGHT,
                      self.cell_width, HEADER_HEIGHT)

    def row_label_rect(self, row: int) -> QRectF:
        """Where row ``row``'s label (``spec.row_labels[row]``) is drawn, right-aligned."""
        return QRectF(0.0, self.grid_origin.y() + row * CELL_HEIGHT,
                      self.label_width - LABEL_GAP, CELL_HEIGHT)

    @property
    def note_text(self) -> str:
        """The line under the grid (``""`` when there is none)."""
        return self.note

    def note_rect(self) -> QRectF:
        """Where the note is drawn (empty when there is no note)."""
        if not self.note:
            return QRectF()
        rows = self.spec.values.shape[0]
        return QRectF(0.0, self.grid_origin.y() + rows * CELL_HEIGHT + 2, self._width, 18.0)

    def cell_fill(self, row: int, col: int) -> str:
        """A cell's fill colour, ``#rrggbb`` (the masked grey for a masked cell)."""
        spec = self.spec
        if spec.masked is not None and spec.masked[row, col]:
            return self.theme.color("masked").name()
        values = spec.values
        lo, hi = spec.value_range or (float(values.min()), float(values.max()))
        span = hi - lo
        fraction = (float(values[row, col]) - lo) / span if span > 0 else 0.5
        return cell_color(fraction).name()

    def cell_ink(self, row: int, col: int) -> str:
        """The colour a cell's number is printed in, ``#rrggbb``."""
        if self.spec.masked is not None and self.spec.masked[row, col]:
            return self.theme.color("muted").name()
        return ink_for(QColor(self.cell_fill(row, col))).name()

    def prints_numbers(self, row: int) -> bool:
        """Whether the numbers of ``row`` are printed (a large grid prints only its
        highlighted rows)."""
        return not self.large or row in self.spec.highlight_rows
