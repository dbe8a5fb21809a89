"""File → Export worksheet… (issue 26, item 4) driven as a user would: the dialog opened from
the menu writes what ``qkv-studio worksheet`` writes for the same options; Cancel writes
nothing; a refusal or a failed write is one message and leaves the old files; the entry is
greyed out, with its reason, without exercises; every word in Chinese too."""

from __future__ import annotations

import errno
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pptx import Presentation
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog, QLabel, QProgressDialog, QPushButton
from pytestqt.qtbot import QtBot

import app.export.worksheet_dialog
import engine.files.safe_write as safe_write
from app.cli import main
from app.export.worksheet_dialog import WorksheetDialog
from app.i18n import set_language
from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import load_scenario, parse_scenario
from tests.app.driving import Dialogs, close_window, open_window
from tests.app.test_window_big_documents import slowly
from tests.examples import EXAMPLES


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


def deck_text(path: Path) -> list[list[str]]:
    """Every slide's texts, its tables' cells included, in order."""
    slides = []
    for slide in Presentation(str(path)).slides:
        texts = []
        for shape in slide.shapes:
            if shape.has_text_frame:
                texts.append(shape.text_frame.text)
            if shape.has_table:
                texts.extend(cell.text for row in shape.table.rows for cell in row.cells)
        slides.append(texts)
    return slides


def with_dialog(window: StudioWindow, drive: Callable[[WorksheetDialog], None]) -> None:
    """Trigger File → Export worksheet… and run ``drive`` on the dialog once it is open (the
    dialog is modal: ``drive`` runs inside its event loop, and must close it)."""
    def inside() -> None:
        dialog = window.worksheet.dialog
        assert dialog is not None and dialog.isVisible()
        try:
            drive(dialog)
        finally:
            if dialog.isVisible():
                dialog.reject()

    QTimer.singleShot(0, inside)
    window.worksheet.action.trigger()


def choose_sheet(monkeypatch: pytest.MonkeyPatch, path: Path) -> list[str]:
    """Answer the file dialog with ``path`` typed without its suffix; the folders it started in."""
    asked: list[str] = []

    def save_as(_parent: object, _title: str, start: str, _filter: str) -> tuple[str, str]:
        asked.append(start)
        return str(path.with_suffix("")), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_as))
    return asked


def options(dialog: WorksheetDialog, *, exercise: str = "all", lang: str = "en",
            variants: int = 0, seed: int = 0, key: bool = True, deck: bool = False) -> None:
    dialog.exercise_box.setCurrentIndex(dialog.exercise_box.findData(exercise))
    dialog.lang_box.setCurrentIndex(dialog.lang_box.findData(lang))
    dialog.variants_spin.setValue(variants)
    dialog.seed_spin.setValue(seed)
    dialog.key_box.setChecked(key)
    dialog.deck_box.setChecked(deck)


def cli(folder: Path, document: str, *arguments: str) -> tuple[Path, Path, Path]:
    folder.mkdir()
    sheet, key, deck = folder / "s.pdf", folder / "k.pdf", folder / "s.pptx"
    assert main(["worksheet", document, *arguments, "--out", str(sheet), "--answers", str(key),
                 "--pptx", str(deck)]) == 0
    return sheet, key, deck


@pytest.mark.parametrize(("lang", "exercise", "variants", "seed"),
                         [("en", "3", 2, 7), ("zh", "all", 0, 0)])
def test_the_dialog_writes_what_the_command_line_writes(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dialogs: Dialogs,
        capsys: pytest.CaptureFixture[str], lang: str, exercise: str, variants: int,
        seed: int) -> None:
    window = open_window(qtbot, "f11")
    asked = choose_sheet(monkeypatch, tmp_path / "out" / "shares.pdf")
    (tmp_path / "out").mkdir()

    def drive(dialog: WorksheetDialog) -> None:
        options(dialog, exercise=exercise, lang=lang, variants=variants, seed=seed, deck=True)
        dialog.browse_button.click()
        # The key and the slides are named beside the sheet.
        assert dialog.key_edit.text() == str(tmp_path / "out" / "shares-key.pdf")
        assert dialog.deck_edit.text() == str(tmp_path / "out" / "shares.pptx")
        dialog.export_button.click()

    try:
        with_dialog(window, drive)
        written = [tmp_path / "out" / name for name in ("shares.pdf", "shares-key.pdf",
                                                        "shares.pptx")]
        assert window.worksheet.action.isEnabled()
        assert dialogs.shown == []
        assert asked == [str(Path.home() / "F11-Q-K-V-on-two-positions-worksheet.pdf")]
        assert window.statusBar().currentMessage() == \
            f"Wrote the worksheet: {', '.join(str(p) for p in written)}"
    finally:
        close_window(window)
    extra = ["--variants", str(variants), "--seed", str(seed)] if variants else []
    sheet, key, deck = cli(tmp_path / "cli", "f11", "--exercise", exercise, "--lang", lang,
                           *extra)
    capsys.readouterr()
    assert pdf_text(written[0]) == pdf_text(sheet)
    assert pdf_text(written[1]) == pdf_text(key)
    assert deck_text(written[2]) == deck_text(deck)
    # What they are: the chosen exercise's sheet in the chosen language, each variant's number.
    text = pdf_text(written[0])
    if lang == "en":
        assert "Exercise 3 · " in text and "Exercise 1 · " not in text
        assert "Variant 1" in text and "Variant 2" in text and "Variant 3" not in text
    else:
        assert "练习单 · " in text and "如何判断是否做对" in text
        assert all(f"练习 {k} · " in text for k in range(1, 8))
        assert "第 1 份" not in text


@pytest.mark.parametrize(("example", "variants", "label"), [
    ("three-layers", 2, "Computing the worksheet…"),  # planning slowed below
    ("f11", 10, "Drawing the worksheet's pages…"),  # 140 slides and 140 pages take seconds
])
def test_cancel_writes_nothing(qtbot: QtBot, tmp_path: Path, dialogs: Dialogs, example: str,
                               variants: int, label: str,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    # Drawing the variants takes 0.1–3 s by what earlier tests left cached: slowed, Cancel
    # always comes while planning.
    monkeypatch.setattr(app.export.worksheet_dialog, "plan_sheets",
                        slowly(app.export.worksheet_dialog.plan_sheets, 1.5))
    window = open_window(qtbot, example)
    out = tmp_path / "out"
    out.mkdir()
    outcome: dict[str, Any] = {}

    def cancel_when_shown(dialog: WorksheetDialog) -> None:
        shown = [p for p in dialog.findChildren(QProgressDialog)
                 if p.isVisible() and p.labelText() == label]
        if not shown:
            QTimer.singleShot(20, lambda: cancel_when_shown(dialog))
            return
        progress, = shown
        outcome["label"] = progress.labelText()
        button, = progress.findChildren(QPushButton)
        button.click()

    def drive(dialog: WorksheetDialog) -> None:
        options(dialog, variants=variants, seed=1, deck=True)
        dialog.sheet_edit.setText(str(out / "sheet.pdf"))
        dialog.key_edit.setText(str(out / "key.pdf"))
        dialog.deck_edit.setText(str(out / "sheet.pptx"))
        QTimer.singleShot(0, lambda: cancel_when_shown(dialog))
        outcome["exported"] = dialog.export()
        outcome["open"] = dialog.isVisible()

    try:
        with_dialog(window, drive)
    finally:
        close_window(window)
    assert outcome == {"label": label, "exported": False, "open": True}
    assert list(out.iterdir()) == []
    assert dialogs.shown == []


def test_the_entry_is_greyed_out_without_exercises_and_says_why(qtbot: QtBot) -> None:
    without = open_window(qtbot, "rope")
    with_them = open_window(qtbot, "single-key")
    try:
        action = without.worksheet.action
        assert not without.state.scenario.exercises
        assert (action.isEnabled(), action.text(), action.toolTip()) == (
            False, "Export &worksheet…",
            "This document has no exercises: make one in View → Exercise first")
        assert action in without.menuBar().actions()[0].menu().actions()
        assert with_them.worksheet.action.isEnabled()
        assert with_them.worksheet.action.toolTip().startswith("Print the document's exercises")
        # The teacher makes an exercise (an edit): the entry opens up; undone, it greys again.
        without.state.set_step(without.state.trace.step_index("weights"))
        without.exercise.add_fill("outputs", 1)
        assert len(without.state.scenario.exercises) == 1 and action.isEnabled()
        without.state.undo_stack.undo()
        assert not without.state.scenario.exercises and not action.isEnabled()
        set_language("zh")
        qtbot.waitUntil(lambda: action.text() != "Export &worksheet…", timeout=2000)
        assert (action.isEnabled(), action.text(), action.toolTip()) == (
            False, "导出练习单(&W)…", "这个文档没有练习：请先在“视图 → 练习”中创建一个")
    finally:
        close_window(without)
        close_window(with_them)


def test_the_dialog_speaks_chinese(qtbot: QtBot) -> None:
    set_language("zh")
    window = open_window(qtbot, "f11")
    seen: dict[str, Any] = {}

    def drive(dialog: WorksheetDialog) -> None:
        seen["title"] = dialog.windowTitle()
        seen["labels"] = [label.text() for label in dialog.findChildren(QLabel)]
        seen["items"] = [dialog.exercise_box.itemText(k) for k in range(2)]
        seen["own"] = dialog.variants_spin.specialValueText()
        seen["buttons"] = [dialog.export_button.text(), dialog.key_box.text()]
        seen["lang"] = dialog.lang_box.currentData()

    try:
        with_dialog(window, drive)
    finally:
        close_window(window)
    assert seen["title"] == "导出练习单"
    assert seen["labels"] == ["练习(&X)：", "语言(&L)：", "变式(&V)：", "种子(&E)：",
                              "保存到(&T)：", "参考答案：", "幻灯片："]
    assert seen["items"] == ["全部 7 个练习", "1 · 六行投影"]
    assert seen["own"] == "文档自己的数"
    assert seen["buttons"] == ["导出", "同时写出参考答案（PDF）(&A)"]
    assert seen["lang"] == "zh"


def misfit() -> Any:
    """F11 with one exercise hiding a cell outside its array."""
    doc: dict[str, Any] = json.loads((EXAMPLES / "f11.qkv.json").read_text("utf-8"))
    doc["exercises"] = [{"title": {"en": "One cell", "zh": "一个格子"},
                         "prompt": {"en": "Predict it.", "zh": "预测它。"}, "kind": "fill",
                         "step": "mix", "hide": [{"array": "mixed", "cells": [[2, 0]]}]}]
    return parse_scenario(doc)


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "exercises[0].hide[0].cells[0]: [2,0] is outside the 2×2 array mixed"),
    ("zh", "exercises[0].hide[0].cells[0]：[2,0] 超出了 2×2 的数组 mixed"),
])
def test_an_exercise_that_does_not_fit_is_one_message(qtbot: QtBot, tmp_path: Path,
                                                      dialogs: Dialogs, lang: str,
                                                      message: str) -> None:
    set_language(lang)
    dialog = WorksheetDialog(misfit(), tmp_path, "misfit")
    qtbot.addWidget(dialog)
    assert dialog.sheet_edit.text() == str(tmp_path / "misfit-worksheet.pdf")
    assert dialog.export() is False
    title = {"en": "Worksheet not written", "zh": "练习单没有写出"}[lang]
    assert dialogs.shown == [("critical", title, message)]
    assert dialog.last_error == message
    assert list(tmp_path.glob("misfit*")) == []


def test_one_file_named_twice_is_refused(qtbot: QtBot, tmp_path: Path, dialogs: Dialogs) -> None:
    dialog = WorksheetDialog(load_scenario(example_path("single-key")), tmp_path, "one")
    qtbot.addWidget(dialog)
    sheet = tmp_path / "one-worksheet.pdf"
    dialog.key_edit.setText(str(sheet))
    assert dialog.export() is False
    assert dialogs.shown == [("critical", "Worksheet not written", "The worksheet, its key and "
                              f"its slides must be different files: {sheet} is named twice.")]
    assert not sheet.exists()


def test_a_full_disk_is_one_message_and_the_old_files_stay(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dialogs: Dialogs) -> None:
    sheet, key = tmp_path / "one-worksheet.pdf", tmp_path / "one-worksheet-key.pdf"
    sheet.write_bytes(b"old sheet")
    key.write_bytes(b"old key")

    def full(*_args: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    dialog = WorksheetDialog(load_scenario(example_path("single-key")), tmp_path, "one")
    qtbot.addWidget(dialog)
    monkeypatch.setattr(safe_write.os, "write", full)
    exported = dialog.export()
    monkeypatch.undo()
    assert exported is False
    assert dialogs.shown == [("critical", "Worksheet not written",
                              f"cannot write {sheet}: the disk is full")]
    assert (sheet.read_bytes(), key.read_bytes()) == (b"old sheet", b"old key")
    assert sorted(p.name for p in tmp_path.glob("one*")) == [key.name, sheet.name]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_field_has_an_accessible_name_and_a_label(qtbot: QtBot, tmp_path: Path,
                                                        lang: str) -> None:
    set_language(lang)
    dialog = WorksheetDialog(load_scenario(example_path("f11")), tmp_path, "f11")
    qtbot.addWidget(dialog)
    fields = [dialog.exercise_box, dialog.lang_box, dialog.variants_spin, dialog.seed_spin,
              dialog.sheet_edit, dialog.browse_button, dialog.key_box, dialog.key_edit,
              dialog.deck_box, dialog.deck_edit]
    names = [field.accessibleName() for field in fields]
    assert all(names) and len(set(names)) == len(names)
    buddies = {label.buddy() for label in dialog.findChildren(QLabel)}
    assert buddies == {dialog.exercise_box, dialog.lang_box, dialog.variants_spin,
                       dialog.seed_spin, dialog.sheet_edit, dialog.key_edit, dialog.deck_edit}
    latin = sum(name.isascii() for name in names)
    assert latin == (len(names) if lang == "en" else 0)
    # The seed only matters with variants; a path only when its file is asked for.
    assert not dialog.seed_spin.isEnabled() and not dialog.deck_edit.isEnabled()
    dialog.variants_spin.setValue(3)
    dialog.deck_box.setChecked(True)
    assert dialog.seed_spin.isEnabled() and dialog.deck_edit.isEnabled()
