"""File → Open recent: newest first, at most eight, missing files removed with a message."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction

from app.files.recent import KEY, MAX_RECENT, add_recent, clear_recent, recent_files
from app.preferences import app_settings
from app.window.studio import StudioWindow
from tests.app.documents_support import example_document, make_modified, write_document
from tests.app.driving import Dialogs


def menu_paths(window: StudioWindow) -> list[str]:
    window.recent_menu.rebuild()
    return [a.data() for a in window.recent_menu.actions() if isinstance(a.data(), str)]


def entries(window: StudioWindow) -> list[QAction]:
    window.recent_menu.rebuild()
    return [a for a in window.recent_menu.actions() if isinstance(a.data(), str)]


def test_opened_and_saved_documents_come_first_and_only_eight_are_kept(
        window: StudioWindow, tmp_path: Path) -> None:
    paths = [write_document(tmp_path / f"doc{k}.qkv.json", example_document())
             for k in range(10)]
    for path in paths:
        assert window.open_path(path)
    assert recent_files() == [p.resolve() for p in reversed(paths)][:MAX_RECENT]
    assert window.open_path(paths[5])  # opened again: moves to the top, once
    assert recent_files()[:2] == [paths[5].resolve(), paths[9].resolve()]
    assert len(recent_files()) == MAX_RECENT
    assert menu_paths(window) == [str(p) for p in recent_files()]
    first = entries(window)[0]
    assert first.text().startswith("&1 doc5.qkv.json")
    make_modified(window)
    saved = tmp_path / "saved.qkv.json"
    assert window._write(saved)
    assert recent_files()[0] == saved.resolve()


def test_examples_are_not_recent_documents(window: StudioWindow) -> None:
    from app.model.examples import example_path

    assert window.open_path(example_path("g01"))
    assert recent_files() == []
    assert not window.recent_menu.clear_action.isEnabled()


def test_a_missing_recent_file_is_removed_with_a_message(window: StudioWindow, tmp_path: Path,
                                                         dialogs: Dialogs) -> None:
    kept = write_document(tmp_path / "kept.qkv.json", example_document())
    gone = write_document(tmp_path / "gone.qkv.json", example_document("g01"))
    add_recent(kept)
    add_recent(gone)
    gone.unlink()
    scenario = window.state.scenario
    entries(window)[0].trigger()
    assert [(k, t) for k, t, _x in dialogs.shown] == [("warning", "Document not found")]
    assert str(gone.resolve()) in dialogs.shown[0][2]
    assert recent_files() == [kept.resolve()]
    assert window.state.scenario is scenario
    assert menu_paths(window) == [str(kept.resolve())]
    entries(window)[0].trigger()
    assert window.state.path == kept.resolve()


def test_clear_list_empties_the_menu(window: StudioWindow, tmp_path: Path) -> None:
    add_recent(write_document(tmp_path / "a.qkv.json", example_document()))
    window.recent_menu.rebuild()
    assert window.recent_menu.clear_action.isEnabled()
    window.recent_menu.clear_action.trigger()
    assert recent_files() == [] and menu_paths(window) == []
    placeholder = [a for a in window.recent_menu.actions() if a.text() == "No recent documents"]
    assert placeholder and not placeholder[0].isEnabled()


def test_the_list_survives_a_restart_and_odd_stored_values(tmp_path: Path) -> None:
    one = tmp_path / "one.qkv.json"
    add_recent(one)
    settings = app_settings()
    settings.sync()
    again = QSettings(settings.fileName(), QSettings.Format.IniFormat)
    assert again.value(KEY, [], type=list) == [str(one.resolve())]
    settings.setValue(KEY, "just/one/path.qkv.json")  # a single string, as an old file may hold
    assert recent_files() == [Path("just/one/path.qkv.json")]
    settings.setValue(KEY, 42)
    assert recent_files() == []
    clear_recent()
    assert recent_files() == []
