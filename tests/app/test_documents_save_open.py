"""Open, Save and Save As in the real window: round trips, failed saves, refused files, and the
unsaved-changes question on every way of leaving a document."""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

import engine.format.io
from app.files.recent import add_recent, recent_files
from app.model.examples import example_names, example_path
from app.window.studio import StudioWindow
from engine.format.writer import to_document
from tests.app.documents_support import (
    example_document,
    make_modified,
    patch_open_dialog,
    patch_save_dialog,
    write_document,
)
from tests.app.driving import Dialogs

Button = QMessageBox.StandardButton


# -- round trips -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", example_names())
def test_save_then_open_gives_an_identical_trace(name: str, window: StudioWindow,
                                                 tmp_path: Path, dialogs: Dialogs,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    assert window.open_path(example_path(name))
    original = window.state.trace
    target = tmp_path / f"{name}.qkv.json"
    patch_save_dialog(monkeypatch, target)
    assert window.save_as()
    assert window.state.path == target and not window.isWindowModified()
    assert window.open_path(example_path("f11" if name != "f11" else "single-key"))  # another
    assert window.open_path(target)
    again = window.state.trace
    assert list(again.arrays) == list(original.arrays)
    for key, array in original.arrays.items():
        np.testing.assert_array_equal(again.arrays[key], array, err_msg=key)
    assert again.steps == original.steps
    assert to_document(window.state.scenario) == to_document(original.scenario)
    assert not window.isWindowModified()
    assert dialogs.shown == []


def test_save_as_adds_the_suffix_and_save_writes_back_to_the_same_file(
        qtbot: QtBot, window: StudioWindow, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    patch_save_dialog(monkeypatch, folder / "lesson")
    make_modified(window, 4.0)
    assert window.save_as()
    target = folder / "lesson.qkv.json"
    assert window.state.path == target and target.is_file()
    assert "Saved" in window.statusBar().currentMessage()
    make_modified(window, 5.0)
    window.save_action.trigger()
    assert json.loads(target.read_text(encoding="utf-8"))["attention"]["Wq"][0][0] == 5
    assert not window.isWindowModified()
    assert sorted(p.name for p in folder.iterdir()) == ["lesson.qkv.json"], "no temp files"


def test_a_save_keeps_the_file_permissions_and_follows_a_symlink(window: StudioWindow,
                                                                 tmp_path: Path) -> None:
    real = write_document(tmp_path / "real.qkv.json", example_document())
    real.chmod(0o640)
    link = tmp_path / "link.qkv.json"
    link.symlink_to(real)
    assert window.open_path(link)
    make_modified(window)
    assert window.save()
    assert link.is_symlink(), "the link stays a link"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert json.loads(real.read_text(encoding="utf-8"))["attention"]["Wq"][0][0] == 9
    fresh = tmp_path / "fresh.qkv.json"
    assert window._write(fresh)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask


# -- failed saves ----------------------------------------------------------------------------
def fail_with(code: int) -> Callable[..., None]:
    def fail(*_args: object, **_kwargs: object) -> None:
        raise OSError(code, os.strerror(code))
    return fail


@pytest.mark.parametrize(("step", "code", "words"), [
    ("fsync", errno.ENOSPC, "the disk is full"),          # disk full while writing
    ("replace", errno.EACCES, "permission denied"),       # cannot put the new file in place
    ("replace", errno.EIO, "input/output error"),
])
def test_a_failed_save_leaves_the_old_file_byte_identical_and_says_so(
        window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch, step: str, code: int, words: str) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    path = write_document(folder / "lesson.qkv.json", example_document())
    assert window.open_path(path)
    before = path.read_bytes()
    make_modified(window)
    monkeypatch.setattr(engine.format.io.os, step, fail_with(code))
    assert not window.save()
    monkeypatch.undo()
    assert path.read_bytes() == before
    kind, title, text = dialogs.shown[-1]
    assert (kind, title) == ("critical", "Not saved")
    assert str(path) in text and words in text and "left as it was" in text
    assert window.isWindowModified(), "the document stays modified"
    assert window.state.path == path
    assert sorted(p.name for p in folder.iterdir()) == ["lesson.qkv.json"], "no temp files"
    assert words in window.statusBar().currentMessage()


def test_save_as_into_a_folder_that_is_really_a_file_is_refused_in_plain_words(
        window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file, not a folder", encoding="utf-8")
    target = blocker / "lesson.qkv.json"
    make_modified(window)
    patch_save_dialog(monkeypatch, target)
    assert not window.save_as()
    kind, _title, text = dialogs.shown[-1]
    assert kind == "critical" and str(target) in text
    assert "part of the folder path is a file, not a folder" in text
    assert window.state.path is None and window.isWindowModified()
    assert blocker.read_text(encoding="utf-8") == "a file, not a folder"


def test_an_interrupted_save_leaves_the_old_file_whole(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash between writing and renaming (here: an interrupt) never half-writes the file."""
    from engine import load_scenario, save_scenario

    folder = tmp_path / "docs"
    folder.mkdir()
    path = write_document(folder / "lesson.qkv.json", example_document())
    before = path.read_bytes()

    def interrupted(_fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(engine.format.io.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_scenario(load_scenario(example_path("g01")), path)
    assert path.read_bytes() == before
    assert [p.name for p in folder.iterdir()] == ["lesson.qkv.json"]


# -- refused files ---------------------------------------------------------------------------
def _json_text(text: str) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        path = folder / "doc.qkv.json"
        path.write_text(text, encoding="utf-8")
        return path
    return make


def _document(**changes: object) -> Callable[[Path], Path]:
    doc = {**example_document(), **changes}
    return _json_text(json.dumps(doc, ensure_ascii=False))


def _sparse_gigabyte(folder: Path) -> Path:
    path = folder / "huge.qkv.json"
    with path.open("wb") as stream:
        stream.truncate(2**30)
    return path


def _binary(folder: Path) -> Path:
    path = folder / "image.qkv.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    return path


def _folder(folder: Path) -> Path:
    path = folder / "folder.qkv.json"
    path.mkdir()
    return path


def _latin1(folder: Path) -> Path:
    path = folder / "latin1.qkv.json"
    path.write_bytes('{"title": "caf\xe9"}'.encode("latin-1"))
    return path


BAD_FILES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "invalid JSON": (_json_text('{"X": [[1, 2]'), "invalid JSON at line 1"),
    "empty file": (_json_text(""), "invalid JSON at line 1, column 1"),
    "wrong type": (_document(X="abc"), 'X: expected a matrix (a list of rows), got "abc"'),
    "bool for a number": (_document(X=[[True, 1], [1, 1]]), "X[0][0]"),
    "NaN": (_json_text(json.dumps({**example_document(), "X": [[float("nan"), 1], [1, 1]]})),
            "X[0][0]: nan is not allowed: every number must be finite"),
    "infinity": (_json_text(json.dumps({**example_document(), "X": [[1e400, 1], [1, 1]]})),
                 "every number must be finite"),
    "huge size": (_document(X=[[1, 1]] * 5000, tokens=["t"] * 5000),
                  "X: 5000 rows is more than the limit of 512"),
    "1 GB file": (_sparse_gigabyte, "the file is 1 GiB; scenario documents are limited to"),
    "binary": (_binary, "is a binary file"),
    "folder": (_folder, "is a folder, not a scenario document"),
    "not UTF-8": (_latin1, "is not UTF-8 text"),
    "top-level list": (_json_text("[1, 2]"), "document: expected an object, got a list of 2"),
    "nested too deeply": (_json_text("[" * 100_000 + "]" * 100_000), "nested too deeply"),
    "too many digits": (_json_text('{"X": [[1' + "0" * 5000 + "]]}"), "too many digits"),
    "unknown key": (_document(script="import os"), "script: unknown key"),
    "overflow": (_document(X=[[-1e308, 1], [1, -1]]), "projections (V[0,0]): a value overflowed"),
    "newer version": (_document(version=3),
                      "version: this document is version 3, made by a newer QKV Studio; "
                      "this one reads up to version 2"),
    "missing": (lambda folder: folder / "gone.qkv.json", "cannot be read"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_file_is_refused_by_name_and_the_open_document_stays_untouched(
        case: str, window: StudioWindow, tmp_path: Path, dialogs: Dialogs) -> None:
    make, words = BAD_FILES[case]
    path = make(tmp_path)
    make_modified(window)
    state = window.state
    scenario, stack = state.scenario, state.undo_stack
    count, index, title = stack.count(), stack.index(), window.windowTitle()
    assert not window.open_path(path)
    assert [(kind, title_) for kind, title_, _text in dialogs.shown] == [("warning",
                                                                          "Cannot open")]
    text = dialogs.shown[0][2]
    assert str(path) in text and words in text, text
    assert len(text.splitlines()) == 2, "the path, then the one-line refusal"
    assert state.scenario is scenario and state.undo_stack is stack
    assert (stack.count(), stack.index()) == (count, index)
    assert window.isWindowModified() and window.windowTitle() == title
    assert "not opened" in window.statusBar().currentMessage()


def test_nothing_in_a_document_is_ever_run(window: StudioWindow, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    code = f"__import__('pathlib').Path({str(marker)!r}).touch()"
    doc = example_document()
    doc["title"] = code
    doc["tokens"] = [code[:40], "{{7*7}}"]
    doc["note"] = "${jndi:ldap://x} " + code
    path = write_document(tmp_path / "code.qkv.json", doc)
    assert window.open_path(path)
    assert window.state.scenario.title == code
    assert not marker.exists()


def test_a_hand_written_document_without_a_version_opens_and_saves_as_the_current_version(
        window: StudioWindow, tmp_path: Path) -> None:
    doc = example_document()
    del doc["version"], doc["format"]
    path = write_document(tmp_path / "typed.json", doc)
    assert window.open_path(path)
    make_modified(window)
    assert window.save()
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["version"] == 2 and saved["format"] == "qkv-studio"


def test_open_through_the_file_dialog(window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_document(tmp_path / "g.qkv.json", example_document("g01"))
    patch_open_dialog(monkeypatch, path)
    window.open_dialog()
    assert window.state.path == path
    assert window.state.scenario.title == example_document("g01")["title"]
    assert recent_files()[0] == path.resolve()
    assert dialogs.shown == []


# -- unsaved changes, on every way out -------------------------------------------------------
def _drop(qtbot: QtBot, window: StudioWindow, path: Path) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    point = QPointF(window.width() / 2, window.height() / 2)
    enter = QDragEnterEvent(point.toPoint(), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(point, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)
    assert drop.isAccepted()
    qtbot.wait(20)  # the document opens once the drop has returned


def _action(window: StudioWindow, match: Callable[[QAction], bool]) -> QAction:
    found = [a for a in window.findChildren(QAction) if match(a)]
    assert found
    return found[0]


ROUTES = ("open", "example", "recent", "drop", "close", "quit")


def leave(route: str, qtbot: QtBot, window: StudioWindow, target: Path,
          monkeypatch: pytest.MonkeyPatch) -> None:
    if route == "open":
        patch_open_dialog(monkeypatch, target)
        window.open_dialog()
    elif route == "example":
        _action(window, lambda a: a.text().startswith("G01 · ")).trigger()
    elif route == "recent":
        add_recent(target)
        window.recent_menu.rebuild()
        _action(window, lambda a: a.data() == str(target.resolve())).trigger()
    elif route == "drop":
        _drop(qtbot, window, target)
    elif route == "close":
        window.close()
    else:
        _action(window, lambda a: a.text() == "&Quit").trigger()


@pytest.mark.parametrize("route", ROUTES)
def test_every_way_out_of_a_modified_document_asks_first(
        route: str, qtbot: QtBot, window: StudioWindow, tmp_path: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    target = write_document(tmp_path / "g01.qkv.json", example_document("g01"))
    make_modified(window)
    scenario = window.state.scenario
    dialogs.answer = Button.Cancel
    leave(route, qtbot, window, target, monkeypatch)
    assert [(k, t) for k, t, _ in dialogs.shown] == [("question", "Unsaved changes")]
    assert window.state.scenario is scenario and window.isWindowModified()
    assert window.isVisible()
    dialogs.answer = Button.Discard
    leave(route, qtbot, window, target, monkeypatch)
    assert len(dialogs.shown) == 2
    if route in ("close", "quit"):
        assert not window.isVisible()
    else:
        assert window.state.scenario.title == example_document("g01")["title"]
        assert not window.isWindowModified()


def test_answering_save_saves_then_opens(window: StudioWindow, tmp_path: Path,
                                         dialogs: Dialogs) -> None:
    mine = write_document(tmp_path / "mine.qkv.json", example_document())
    other = write_document(tmp_path / "other.qkv.json", example_document("g01"))
    assert window.open_path(mine)
    make_modified(window, 6.0)
    dialogs.answer = Button.Save
    assert window.open_path(other)
    assert json.loads(mine.read_text(encoding="utf-8"))["attention"]["Wq"][0][0] == 6
    assert window.state.path == other


def test_a_failed_save_in_the_question_keeps_the_document(window: StudioWindow,
                                                         tmp_path: Path, dialogs: Dialogs,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         ) -> None:
    other = write_document(tmp_path / "other.qkv.json", example_document("g01"))
    make_modified(window)
    dialogs.answer = Button.Save
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    patch_save_dialog(monkeypatch, blocker / "doc.qkv.json")
    assert not window.open_path(other)
    assert [k for k, _t, _x in dialogs.shown] == ["question", "critical"]
    assert window.isWindowModified() and window.state.path is None


def test_only_documents_can_be_dropped(window: StudioWindow, tmp_path: Path) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(tmp_path / "picture.png"))])
    enter = QDragEnterEvent(window.rect().center(), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert not enter.isAccepted()
    text = QMimeData()
    text.setText("just text")
    enter = QDragEnterEvent(window.rect().center(), Qt.DropAction.CopyAction, text,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert not enter.isAccepted()


def test_a_dropped_broken_file_is_refused_and_nothing_changes(qtbot: QtBot,
                                                              window: StudioWindow,
                                                              tmp_path: Path,
                                                              dialogs: Dialogs) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{ not json", encoding="utf-8")
    scenario = window.state.scenario
    _drop(qtbot, window, path)
    assert [(k, t) for k, t, _ in dialogs.shown] == [("warning", "Cannot open")]
    assert window.state.scenario is scenario


def test_save_as_suggests_a_name_made_from_the_title(window: StudioWindow,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.chdir(tmp_path)
    suggested: list[str] = []

    def ask(_parent: object, _caption: str, start: str, _filters: str) -> tuple[str, str]:
        suggested.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(ask))
    assert window.save_as() is False
    assert suggested == [str(tmp_path / "F11-Q-K-V-on-two-positions.qkv.json")]


def test_opening_a_document_clears_the_last_refusal(window: StudioWindow) -> None:
    # 1e300 is a number, but q·k overflows: the edit is refused and said beside the grids.
    assert not window.state.edit_cell("X", 0, 0, 1e300)
    assert window.editor.error_label.isVisibleTo(window)
    assert window.open_path(example_path("g01"))
    assert not window.editor.error_label.isVisibleTo(window)
    assert window.statusBar().currentMessage().startswith("Opened g01.qkv.json → shares for ")
