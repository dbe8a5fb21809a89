"""A library's failure that is not an Exception — pyo3's ``PanicException`` (safetensors,
tokenizers) derives from ``BaseException`` — is said like any error wherever a worker runs it,
never let past the window's ``except Exception`` (issue 34)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

import app.window.studio
from app.state.jobs import Job, LibraryPanicError
from app.window.studio import StudioWindow
from tests.app.documents_support import example_document, write_document
from tests.app.driving import Dialogs, close_window, open_window


class PanicException(BaseException):
    """As pyo3's: raised where Rust code panicked, a BaseException."""


def panicking(_cancelled: threading.Event) -> None:
    raise PanicException("called `Option::unwrap()` on a `None` value")


def test_a_worker_delivers_a_panic_as_an_error(qtbot: QtBot) -> None:
    job = Job(panicking)
    with qtbot.waitSignal(job.failed, timeout=5000) as failed:
        job.start()
    [error] = failed.args
    assert isinstance(error, LibraryPanicError)
    assert str(error) == "PanicException: called `Option::unwrap()` on a `None` value"


def test_opening_a_file_whose_reading_panics_is_refused_in_words(
        qtbot: QtBot, tmp_path: Path, dialogs: Dialogs, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_document(tmp_path / "lesson.qkv.json", example_document("multihead"))
    monkeypatch.setattr(app.window.studio, "read_to_show",
                        lambda _path, run, _options, _relocation: run(panicking, True))
    window = open_window(qtbot)
    try:
        before = window.state.scenario
        assert not window.open_path(path)
        problem = "PanicException: called `Option::unwrap()` on a `None` value"
        assert dialogs.shown == [("warning", "Cannot open", f"{path} was not opened:\n{problem}")]
        assert window.state.scenario is before
        assert isinstance(window, StudioWindow)
    finally:
        close_window(window)
