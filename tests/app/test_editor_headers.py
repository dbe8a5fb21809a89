"""The editor's grids measure their headers once (issue 37 item 4): Qt measures a header from
the labels of its first and last 100 sections and let that measure go each time a table was
laid out again, and placing a Llama-3.2-1B layer's grids asked the models about 100,000 times
for their headers (about 130 ms of the layer's first step). A grid's header is measured again
when its labels, font or style change, and is then as large as Qt's own measure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QHeaderView
from pytestqt.qtbot import QtBot

from app.editor.model import MatrixModel
from app.editor.table import MatrixTable, MeasuredHeader
from app.model.edits import SetLabel
from app.window.studio import StudioWindow
from tests.app.driving import close_window, cut_llama, open_window, show_window


def settled(window: StudioWindow) -> None:
    """Turn the event loop until the editor has built every grid it queued."""
    for _ in range(200):
        QApplication.processEvents()
        if not window.editor._queued:
            break
    QApplication.processEvents()


@pytest.fixture
def llama(qtbot: QtBot, tmp_path: Path) -> Iterator[StudioWindow]:
    window = show_window(qtbot, cut_llama(tmp_path / "small"))
    settled(window)
    yield window
    close_window(window)


def test_a_layers_grids_measure_each_header_once_as_the_editor_places_them(
        llama: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stepping into the layer builds its grids (Wq … W2, W2 of 3,000 rows) and places them
    one under the other: each header is measured once (Qt asks the size hint of its first
    section once a measure), where each table placed below had the ones above measured again."""
    measured: Counter[tuple[str, Qt.Orientation]] = Counter()
    real = MatrixModel.headerData

    def counted(self: MatrixModel, section: int, orientation: Qt.Orientation,
                role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if section == 0 and role == Qt.ItemDataRole.SizeHintRole:
            measured[(self.path, orientation)] += 1
        return real(self, section, orientation, role)

    monkeypatch.setattr(MatrixModel, "headerData", counted)
    llama.timeline.next()  # into layer 1, its norm
    settled(llama)
    layer = [path for path in llama.editor.tables if path.startswith("layers.0.")]
    assert "layers.0.block.ffn.W2" in layer and len(layer) == 11
    assert {path for path, _ in measured} == set(layer)
    assert set(measured.values()) == {1}, measured
    w2 = llama.editor.tables["layers.0.block.ffn.W2"]
    assert w2.model().rowCount() == 3000
    assert isinstance(w2.verticalHeader(), MeasuredHeader)


def plain_measure(table: MatrixTable, orientation: Qt.Orientation) -> tuple[int, int]:
    """Qt's own measure of a header of ``table``'s model in ``table``'s font."""
    plain = QHeaderView(orientation)
    plain.setModel(table.model())
    plain.setFont(table.font())
    return plain.sizeHint().toTuple()


def test_a_measured_header_is_measured_again_when_its_labels_or_font_change(
        qtbot: QtBot) -> None:
    """G01's X is labelled by its tokens: renamed, X's rows header is measured again (wider),
    and so is it in a larger font; each time as large as Qt measures it."""
    window = open_window(qtbot, "g01")
    try:
        table = window.editor.tables["X"]
        rows = table.verticalHeader()
        assert isinstance(rows, MeasuredHeader)
        before = rows.sizeHint().toTuple()
        assert before == plain_measure(table, Qt.Orientation.Vertical)
        window.state.apply(SetLabel("tokens", 0, "a much longer token"))
        renamed = rows.sizeHint().toTuple()
        assert renamed[0] > before[0]
        assert renamed == plain_measure(table, Qt.Orientation.Vertical)
        larger = QFont(table.font())
        larger.setPointSizeF(larger.pointSizeF() * 2)
        table.setFont(larger)
        assert rows.sizeHint().height() > renamed[1]
        assert rows.sizeHint().toTuple() == plain_measure(table, Qt.Orientation.Vertical)
        assert table.horizontalHeader().sizeHint().toTuple() == \
            plain_measure(table, Qt.Orientation.Horizontal)
    finally:
        close_window(window)
