"""File → Export… from the window: the dialog opens on the current step and writes the frame."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from app.export.dialog import ExportDialog
from app.window.studio import StudioWindow
from tests.app.driving import when_shown


@pytest.mark.slow
def test_file_export_writes_the_current_step_as_png(qtbot: QtBot, window: StudioWindow,
                                                    tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    window.state.set_step(window.state.trace.step_index("weights"))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda _parent, _caption, _start: str(tmp_path)))
    seen: list[ExportDialog] = []

    def drive(dialog: ExportDialog) -> None:
        seen.append(dialog)
        dialog.format_box.setCurrentIndex(dialog.format_box.findData("png"))
        dialog.current_radio.setChecked(True)
        qtbot.mouseClick(dialog.browse_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)

    when_shown(ExportDialog, drive)
    window.export_action.trigger()
    assert seen and seen[0].current_step == window.state.step == 3
    [target] = seen[0].written
    assert target.parent == tmp_path and target.name.endswith("-step04.png")
    with Image.open(target) as image:
        assert image.format == "PNG"
        rgb = np.asarray(image.convert("RGB")).reshape(-1, 3)
    assert image.width > 1000 and len(np.unique(rgb, axis=0)) > 50
    assert window.statusBar().currentMessage().startswith("Exported 1 file")
