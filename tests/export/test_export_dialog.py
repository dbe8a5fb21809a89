"""The export dialog: patched file dialogs, remembered choices, progress, cancel and errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressDialog,
    QWidget,
)
from pytestqt.qtbot import QtBot

from app.canvas import FrameOptions
from app.export import job
from app.export.dialog import ExportDialog
from app.preferences import app_settings
from engine import Trace
from tests.export.conftest import leftovers


def open_dialog(qtbot: QtBot, trace: Trace, step: int = 3) -> ExportDialog:
    dialog = ExportDialog(trace, step, FrameOptions(), name="f11")
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def choose(dialog: ExportDialog, fmt: str) -> None:
    dialog.format_box.setCurrentIndex(dialog.format_box.findData(fmt))


def patch_save(monkeypatch: pytest.MonkeyPatch, path: Path) -> list[str]:
    asked: list[str] = []

    def get_save_file_name(parent: QWidget, caption: str, start: str,
                           filters: str) -> tuple[str, str]:
        asked.append(start)
        return str(path), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(get_save_file_name))
    return asked


def patch_folder(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda parent, caption, start: str(folder)))


def test_browse_then_export_writes_the_current_step(qtbot: QtBot, f11: Trace, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = open_dialog(qtbot, f11)
    choose(dialog, "pdf")
    dialog.current_radio.setChecked(True)
    asked = patch_save(monkeypatch, tmp_path / "lesson")
    qtbot.mouseClick(dialog.browse_button, qtbot_button())
    assert asked and asked[0].endswith("f11.pdf")
    assert dialog.destination_edit.text() == str(tmp_path / "lesson.pdf")
    with qtbot.waitSignal(dialog.accepted, timeout=10_000):
        qtbot.mouseClick(dialog.export_button, qtbot_button())
    assert dialog.written == [tmp_path / "lesson.pdf"]
    assert len(PdfReader(tmp_path / "lesson.pdf").pages) == 1
    assert dialog.result() == QDialog.DialogCode.Accepted and dialog.last_error is None


def qtbot_button():  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


def test_all_steps_show_progress_and_choices_are_remembered(
        qtbot: QtBot, f11: Trace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = open_dialog(qtbot, f11)
    choose(dialog, "png")
    out = tmp_path / "out"
    patch_folder(monkeypatch, out)
    dialog.browse()
    dialog.all_radio.setChecked(True)
    dialog.width_radio.setChecked(True)
    dialog.width_spin.setValue(640)
    dialog.caption_box.setChecked(True)
    dialog.lang_box.setCurrentIndex(dialog.lang_box.findData("zh"))
    values: list[int] = []
    real_set_value = QProgressDialog.setValue
    monkeypatch.setattr(QProgressDialog, "setValue",
                        lambda self, value: (values.append(value), real_set_value(self, value)))
    assert dialog.export()
    assert leftovers(out) == [f"f11-step{k:02d}.png" for k in range(1, 6)]
    with Image.open(out / "f11-step01.png") as image:
        assert image.width == 640
    assert values[-1] == 5 and 0 in values
    settings = app_settings()
    assert settings.value("export/format", "", type=str) == "png"
    again = open_dialog(qtbot, f11, step=0)
    assert again.format_key() == "png"
    assert again.all_radio.isChecked()
    assert again.width_radio.isChecked() and again.width_spin.value() == 640
    assert again.caption_box.isChecked()
    assert again.lang_box.currentData() == "zh"
    assert again.destination_edit.text() == str(out)
    choose(again, "pptx")
    assert again.destination_edit.text() == str(out / "f11.pptx")


def test_cancel_mid_export_leaves_nothing(qtbot: QtBot, f11: Trace, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = open_dialog(qtbot, f11)
    choose(dialog, "gif")
    dialog.all_radio.setChecked(True)
    dialog.destination_edit.setText(str(tmp_path / "f11.gif"))
    real_frame = job.ExportPlan.frame
    built: list[int] = []

    def frame_then_cancel(plan: job.ExportPlan, step: int, **kw: object) -> object:
        built.append(step)
        if len(built) == 2:
            assert dialog.progress_dialog is not None
            dialog.progress_dialog.cancel()
        return real_frame(plan, step, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(job.ExportPlan, "frame", frame_then_cancel)
    monkeypatch.setattr(QMessageBox, "critical", staticmethod(
        lambda *a: pytest.fail("cancel is not an error")))
    assert not dialog.export()
    assert leftovers(tmp_path) == []
    assert dialog.last_error is None and dialog.isVisible()
    assert dialog.progress_dialog is None


def test_an_error_is_shown_and_leaves_nothing(qtbot: QtBot, f11: Trace, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("")
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical",
                        staticmethod(lambda parent, title, text: shown.append(text)))
    dialog = open_dialog(qtbot, f11)
    choose(dialog, "pptx")
    dialog.all_radio.setChecked(True)
    dialog.destination_edit.setText(str(blocker / "deck.pptx"))
    assert not dialog.export()
    expected = f"cannot write {blocker / 'deck.pptx'}: {blocker} is not a folder"
    assert dialog.last_error == expected and shown == [expected]
    assert leftovers(tmp_path) == ["file.txt"]
    dialog.destination_edit.setText("")
    assert not dialog.export()
    assert dialog.last_error == "Choose where to save the export."


def test_every_control_has_an_accessible_name_and_a_label(qtbot: QtBot, f11: Trace) -> None:
    dialog = open_dialog(qtbot, f11)
    controls = [w for w in dialog.findChildren(QWidget)
                if isinstance(w, (QComboBox, QAbstractSpinBox, QLineEdit, QAbstractButton))
                and not isinstance(w.parent(), (QComboBox, QAbstractSpinBox))]
    assert len(controls) >= 15
    buddies = {label.buddy() for label in dialog.findChildren(QLabel)}
    for control in controls:
        assert control.accessibleName(), f"{control!r} has no accessible name"
        if isinstance(control, QAbstractButton):
            assert control.text(), f"{control!r} has no text"
        else:
            assert control in buddies, f"{control.accessibleName()} has no label"


def test_options_follow_the_format(qtbot: QtBot, f11: Trace) -> None:
    dialog = open_dialog(qtbot, f11)
    choose(dialog, "mp4")
    assert dialog.dwell_spin.isEnabled() and not dialog.transparent_box.isEnabled()
    assert not dialog.pictures_box.isEnabled()
    choose(dialog, "svg")
    assert not dialog.dwell_spin.isEnabled() and dialog.width_spin.isEnabled()
    assert dialog.transparent_box.isEnabled()
    choose(dialog, "pptx")
    assert dialog.pictures_box.isEnabled()
    dialog.range_radio.setChecked(True)
    dialog.first_spin.setValue(4)
    dialog.last_spin.setValue(2)
    assert dialog.steps() == (1,)
    dialog.last_spin.setValue(5)
    dialog.first_spin.setValue(2)
    assert dialog.steps() == (1, 2, 3, 4)


def test_the_theme_choice_reaches_the_request_and_is_remembered(
        qtbot: QtBot, f11: Trace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = open_dialog(qtbot, f11)
    choose(dialog, "svg")
    assert dialog.theme_box.currentData() == "slide"
    dialog.theme_box.setCurrentIndex(dialog.theme_box.findData("high-contrast"))
    patch_folder(monkeypatch, tmp_path)
    qtbot.mouseClick(dialog.browse_button, qtbot_button())
    assert dialog.request().theme == "high-contrast"
    with qtbot.waitSignal(dialog.accepted, timeout=10_000):
        qtbot.mouseClick(dialog.export_button, qtbot_button())
    [svg] = dialog.written
    assert "#000000" in svg.read_text(encoding="utf-8")
    again = open_dialog(qtbot, f11)
    assert again.theme_box.currentData() == "high-contrast"
