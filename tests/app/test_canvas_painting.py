"""The canvas paints the same picture for less (issue 15): arrows chosen in linear time with the
same ties as a stable sort, faint lines that would change no pixel skipped on screen only,
geometry handed to Qt straight from numpy, cell colours by one table lookup."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen
from PySide6.QtWidgets import QStyleOptionGraphicsItem
from pytestqt.qtbot import QtBot

from app.canvas import arrows as arrows_module
from app.canvas.arrows import COLUMN_GAP, ROW_PITCH, TOP, ArrowSpec, AttentionArrows, strong_arrows
from app.canvas.cividis import CIVIDIS, CIVIDIS_ARGB
from app.canvas.grid import CELL_HEIGHT, GridSpec, MatrixGrid, _levels
from app.canvas.picture import painting_on_screen
from app.canvas.points import Lines
from app.canvas.theme import SLIDE
from app.window.studio import StudioWindow
from tests.app.driving import canvas_arrows
from tests.bench.timing import attention_scenario


def sorted_choice(shares: np.ndarray, top_k: int = 8, min_share: float = 0.02) -> np.ndarray:
    """The arrows by the rule's words, one row at a time: the ``top_k`` largest shares (of
    equal ones the first keys, as a stable sort orders them) and any at least ``min_share``."""
    keep = np.zeros(shares.shape, dtype=bool)
    for row, values in enumerate(shares):
        order = sorted(range(len(values)), key=lambda j: -values[j])[:top_k]
        keep[row, order] = True
        keep[row] |= values >= min_share
    return keep & (shares > 0)


@pytest.mark.parametrize("seed", range(6))
def test_strong_arrows_are_the_largest_shares_with_ties_to_the_first_keys(seed: int) -> None:
    rng = np.random.default_rng(seed)
    shares = rng.random((12, 30)) / 30
    shares[0] = 0.01  # one row all equal (under min_share): the first eight keys
    shares[1, :20] = 0.0  # zeros never get an arrow
    shares[2] = np.round(shares[2] * 60) / 60 / 30  # many ties at the boundary
    shares[4] = 0.0005
    shares[4, :7] = np.linspace(0.019, 0.013, 7)
    shares[4, [20, 21]] = 0.01  # two ties for the last place: the first key gets it
    chosen = strong_arrows(shares)
    np.testing.assert_array_equal(chosen, sorted_choice(shares))
    assert chosen[0].tolist() == [True] * 8 + [False] * 22
    assert np.flatnonzero(chosen[4]).tolist() == [0, 1, 2, 3, 4, 5, 6, 20]
    np.testing.assert_array_equal(strong_arrows(shares[3]), sorted_choice(shares[3:4])[0])


def test_a_causal_matrix_s_rows_keep_their_strongest_among_the_masked_zeros() -> None:
    rng = np.random.default_rng(3)
    scores = np.where(np.tril(np.ones((40, 40), dtype=bool)), rng.normal(size=(40, 40)), -np.inf)
    shares = np.exp(scores - scores.max(axis=1, keepdims=True))
    shares /= shares.sum(axis=1, keepdims=True)
    shares[30, :12] = 0.015  # ties at the last place kept (first keys), under min_share
    shares[30, 12:31] = 0.001
    chosen = strong_arrows(shares)
    np.testing.assert_array_equal(chosen, sorted_choice(shares))
    assert chosen[2].tolist() == [True] * 3 + [False] * 37  # fewer shares than the top: all
    assert np.flatnonzero(chosen[30]).tolist() == list(range(8))
    assert (chosen.sum(axis=1) >= np.minimum(np.arange(1, 41), 8)).all()


def test_the_other_rows_faint_arrows_are_batched_by_level_each_line_at_its_rows(
        qtbot: QtBot) -> None:
    """Two heads of a causal 4-token document, the last row the receiver's: every other row's
    positive share is one faint line from its query's row to its key's, the heads 5 units
    apart, in batches of one level of share (eighths), row-major within each."""
    weights = np.array([[[1.0, 0, 0, 0], [0.3, 0.7, 0, 0], [0.05, 0.5, 0.45, 0],
                         [0.25] * 4],
                        [[1.0, 0, 0, 0], [0.9, 0.1, 0, 0], [0.2, 0.2, 0.6, 0],
                         [0.25] * 4]])
    visible = np.tril(np.ones((4, 4), dtype=bool))
    arrows = AttentionArrows(ArrowSpec(list("abcd"), weights, visible, 3, [0, 1]), SLIDE, "t")
    found = [(batch.head, round(batch.width * 8 / 2.5 - 0.8 * 8 / 2.5 - 0.5), pair,
              line.tolist())
             for batch in arrows._faint_arrows()
             for pair, line in zip(batch.pairs.tolist(), batch.lines.ends, strict=True)]
    x0, x1 = arrows.node_width, arrows.node_width + COLUMN_GAP - 4

    def line(i: int, j: int, offset: float) -> list[list[float]]:
        return [[x0, TOP + (i + 0.5) * ROW_PITCH + offset],
                [x1, TOP + (j + 0.5) * ROW_PITCH + offset]]

    assert found == [
        (0, 0, [2, 0], line(2, 0, -2.5)), (0, 2, [1, 0], line(1, 0, -2.5)),
        (0, 3, [2, 2], line(2, 2, -2.5)), (0, 4, [2, 1], line(2, 1, -2.5)),
        (0, 5, [1, 1], line(1, 1, -2.5)), (0, 7, [0, 0], line(0, 0, -2.5)),
        (1, 0, [1, 1], line(1, 1, 2.5)), (1, 1, [2, 0], line(2, 0, 2.5)),
        (1, 1, [2, 1], line(2, 1, 2.5)), (1, 4, [2, 2], line(2, 2, 2.5)),
        (1, 7, [0, 0], line(0, 0, 2.5)), (1, 7, [1, 0], line(1, 0, 2.5))]


def test_a_row_shorter_than_the_top_keeps_every_positive_share() -> None:
    assert strong_arrows(np.array([0.5, 0.0, 0.25])).tolist() == [True, False, True]


def test_lines_from_numpy_draw_as_qt_draws_them_one_by_one(qtbot: QtBot) -> None:
    ends = np.array([[[1.0, 2.0], [30.0, 40.0]], [[-5.5, 6.25], [70.0, 8.0]],
                     [[12.0, 60.0], [12.0, 3.0]]])

    def drawn(draw: Callable[[QPainter], None]) -> bytes:
        image = QImage(80, 64, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(0)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(QColor("#0072B2"), 1.5))
        draw(painter)
        painter.end()
        return bytes(image.constBits())

    one_by_one = drawn(lambda painter: [painter.drawLine(QLineF(*start, *end))
                                         for start, end in ends.tolist()])
    assert drawn(Lines(ends).draw) == one_by_one
    assert one_by_one != drawn(lambda painter: None)
    assert len(Lines(np.empty((0, 2, 2)))) == 0
    drawn(Lines(np.empty((0, 2, 2))).draw)  # nothing to draw: no call with a null pointer


def test_cell_levels_and_their_pixels_follow_the_cividis_table() -> None:
    values = np.array([[-1.0, 0.0, 0.5], [1.0, 3.0, -7.0]])
    levels = _levels(values, -1.0, 1.0)
    expected = np.rint(np.clip((values + 1.0) / 2.0, 0, 1) * 255).astype(np.uint8)
    np.testing.assert_array_equal(levels, expected)
    assert levels.tolist() == [[0, 128, 191], [255, 255, 0]]
    assert (_levels(values, 2.0, 2.0) == 128).all()  # no spread: the middle colour
    for level in (0, 77, 255):
        red, green, blue = (int(v) for v in CIVIDIS[level])
        assert int(CIVIDIS_ARGB[level]) == 0xFF000000 | red << 16 | green << 8 | blue


def test_faint_lines_that_change_no_pixel_are_skipped_on_screen_only(qtbot: QtBot) -> None:
    window = StudioWindow(attention_scenario(512, heads=1))
    qtbot.addWidget(window)
    window.resize(1024, 600)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.canvas.repainted):
        window.state.set_step(window.state.trace.step_index("weights"))
    arrows = canvas_arrows(window)
    scale = arrows.deviceTransform(window.canvas.viewportTransform()).m11()
    option = QStyleOptionGraphicsItem()
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        assert arrows_module._faintest_visible(painter, option) == 0.0, "files get every line"
    finally:
        painter.end()
    faintest = arrows_module.UNSEEN_INK / scale
    batches = arrows._plan().faint
    skipped = sum(len(b.pairs) for b in batches if b.width * b.opacity < faintest)
    assert scale < 0.02 and skipped > 1000, "fitted, most other rows' lines are too faint"

    def grab() -> np.ndarray:
        window.refresh_canvas(fit=False)
        shot = window.canvas.viewport().grab().toImage().convertToFormat(
            QImage.Format.Format_RGB32)
        return np.frombuffer(shot.constBits(), np.uint8).reshape(
            shot.height(), shot.width(), 4).copy()

    skipping = grab()
    original = arrows_module._faintest_visible
    arrows_module._faintest_visible = lambda *_: 0.0  # type: ignore[assignment]
    try:
        drawing_all = grab()
    finally:
        arrows_module._faintest_visible = original
    np.testing.assert_array_equal(skipping, drawing_all)


def test_on_screen_the_arrows_write_only_the_words_in_the_part_painted(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    window = StudioWindow(attention_scenario(64, heads=1))
    qtbot.addWidget(window)
    window.state.set_step(window.state.trace.step_index("weights"))
    arrows = canvas_arrows(window)
    written: list[str] = []
    real = arrows_module.draw_text

    def counted(painter: QPainter, rect: QRectF, align: Qt.AlignmentFlag, text: str,
                text_font: QFont) -> None:
        written.append(text)
        real(painter, rect, align, text, text_font)

    monkeypatch.setattr(arrows_module, "draw_text", counted)
    image = QImage(800, 600, QImage.Format.Format_ARGB32_Premultiplied)
    option = QStyleOptionGraphicsItem()
    first = arrows.node_rect(arrows.query_anchor(0), left=True)
    option.exposedRect = first.adjusted(0, 0, 300, 40)  # the top: boxes 0 and 1 of each side
    painter = QPainter(image)
    painter.scale(4, 4)  # zoomed in past a kept layer's size, where a pan paints a strip
    try:
        with painting_on_screen():
            arrows.paint(painter, option)
    finally:
        painter.end()
    assert {"q t0", "q t1", "k t0", "k t1"} <= set(written)
    assert not {"q t40", "k t63"} & set(written), "boxes far below are not written"
    assert len(written) < 12, written


def masked_runs_by_hand(grid: MatrixGrid, masked: np.ndarray) -> list[tuple[float, ...]]:
    """Each run of masked cells in a row as (left, top, width, height), walked cell by cell."""
    runs = []
    ox, oy = grid.grid_origin.x(), grid.grid_origin.y()
    for r, row in enumerate(masked.tolist()):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                runs.append((ox + start * grid.cell_width, oy + r * CELL_HEIGHT,
                             (c - start) * grid.cell_width, CELL_HEIGHT))
            else:
                c += 1
    return runs


def test_grids_of_one_shape_and_different_masks_hatch_their_own_cells(qtbot: QtBot) -> None:
    """Outlines and masked runs are kept by layout and mask: a grid never gets another's."""
    values = np.arange(20.0).reshape(4, 5)
    causal = ~np.tril(np.ones((4, 5), dtype=bool))
    patchy = np.zeros((4, 5), dtype=bool)
    patchy[[0, 0, 2, 3], [1, 2, 4, 0]] = True
    for masked in (causal, patchy, causal):
        spec = GridSpec("scores", values, list("abcd"), list("vwxyz"), masked=masked)
        grid = MatrixGrid(spec, SLIDE)
        hatched = [r.getRect() for r in grid._screen_geometry().hatched]
        assert hatched == masked_runs_by_hand(grid, masked)
