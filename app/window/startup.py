"""The first window of a launch: the asked-for document or the last session's, then recovery."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox

from app import APP_NAME
from app.files.loading import placeholder, read_after_showing
from app.files.opening import is_big_file, load_computed
from app.files.reading import kept_path
from app.files.recovery import offer_recovery
from app.files.session import (
    last_document,
    mark_opened,
    mark_opening,
    opened_cleanly,
    restore_session,
    stored_document,
)
from app.files.showing import ShowingError, Shown, check_showing, first_options
from app.i18n import current_language
from app.model.examples import DEFAULT_EXAMPLE, example_path, resolve_document
from app.window.appearance import appearance
from engine import Scenario, ScenarioError, Trace, load_scenario

if TYPE_CHECKING:
    from app.window.shell import Shell
    from app.window.studio import StudioWindow

WINDOWS: list[Shell] = []
"""Windows opened at launch (kept referenced so they live as long as the application)."""


def configure_application(app: QCoreApplication) -> None:
    """Names that place settings and recovery copies under "QKV Studio"."""
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)


def _launch_check(path: Path) -> Shown:
    """The document at ``path`` read, computed and checked, with its first frame as a launch
    window draws it (in the appearance's colours; the sheet is a guess until the window shows).

    Raises
    ------
    ScenarioError, ShowingError
        As :func:`~app.files.reading.read_to_show`.
    """
    _scenario, trace = load_computed(path)
    options = replace(first_options(trace, current_language()),
                      theme=appearance().canvas_theme())
    return check_showing(trace, options)


def _startup_document() -> tuple[Scenario, Shown | None, Path | None, str]:
    """The last session's document (with the check's first frame) if it is still there and
    readable, else F11."""
    last = last_document()
    if last is None:
        return load_scenario(example_path(DEFAULT_EXAMPLE)), None, None, ""
    if not opened_cleanly(last):  # the last launch that opened it never drew it
        note = QCoreApplication.translate(
            "Startup", "The last document did not open cleanly last time ({path}); showing F11"
        ).format(path=last)
        return load_scenario(example_path(DEFAULT_EXAMPLE)), None, None, note
    try:
        shown = _launch_check(last)
    except (ScenarioError, ShowingError) as error:
        note = QCoreApplication.translate(
            "Startup", "The last document could not be opened again ({error}); showing F11"
        ).format(error=error)
        return load_scenario(example_path(DEFAULT_EXAMPLE)), None, None, note
    return shown.trace.scenario, shown, last, ""


def start_window(document: str | None) -> StudioWindow:
    """Open, show and return the launch window.

    With ``document`` (a path or an example name) that document opens; a refused one is said on
    standard error and in a message over the window, which shows F11 instead (a file manager
    starts the studio with no terminal to read). A big file is read after the window shows,
    with a busy sign and Cancel above its canvas (:mod:`app.files.loading`). Without, the last
    session comes back: its document (F11 if it is gone, cannot be shown, or did not draw its
    first frame the last time a launch opened it), layout, step and view. Then any unsaved
    work left by a session that crashed is offered for restoring.
    """
    from app.window.studio import StudioWindow

    note = ""
    refusal: tuple[Path, str] | None = None
    path: Path | None
    later: Path | None = None
    checked: Shown | None = None  # computed and drawn once: checking the file does both
    if document:
        path = resolve_document(document)
        if is_big_file(path):
            later, path = path, example_path(DEFAULT_EXAMPLE)
            scenario = placeholder()
        else:
            try:
                checked = _launch_check(path)
                scenario = checked.trace.scenario
            except (ScenarioError, ShowingError) as error:
                refusal = (path, str(error))
                path = example_path(DEFAULT_EXAMPLE)
                scenario = load_scenario(path)
        kept = kept_path(path)
        mark_opening(kept)
        window = StudioWindow(scenario, kept, shown=checked)
        restore_session(window, same_document=False)
    else:
        scenario, checked, kept, note = _startup_document()
        same = stored_document() == (str(kept) if kept is not None else "")
        mark_opening(kept)
        window = StudioWindow(scenario, kept, shown=checked)
        restore_session(window, same_document=same)
    window.firstFrameDrawn.connect(mark_opened)
    window.show()
    if note:
        window.statusBar().showMessage(f"⚠ {note}")
    if refusal:
        say_refusal(window, *refusal)
    if later is not None:
        _read_later(window, later)
    WINDOWS.append(window)
    WINDOWS.extend(w for w in offer_recovery(window) if w is not window)
    return window


def say_refusal(window: StudioWindow, path: Path, error: BaseException | str) -> None:
    """A document given at launch was refused: on standard error, the status bar and a message."""
    print(f"qkv-studio: {error}", file=sys.stderr)
    refusal = QCoreApplication.translate("StudioWindow", "{path} was not opened:\n{error}").format(
        path=path, error=error)
    window.statusBar().showMessage(f"⚠ {refusal.splitlines()[-1]}")
    title = QCoreApplication.translate("StudioWindow", "Cannot open")
    QMessageBox.warning(window, title, refusal)


def _read_later(window: StudioWindow, path: Path) -> None:
    """Read the big document ``path`` now that ``window`` shows."""
    def opened(target: Shell, scenario: Scenario, trace: Trace) -> None:
        target.show_document(scenario, path, trace=trace, note=QCoreApplication.translate(
            "StudioWindow", "Opened {name}").format(name=path.name))

    def cancelled() -> None:
        window.statusBar().showMessage(
            QCoreApplication.translate("StudioWindow", "Not opened: cancelled"))

    label = QCoreApplication.translate("StudioWindow", "Opening {name}…").format(name=path.name)
    read_after_showing(window, path, label, opened, lambda error: say_refusal(window, path, error),
                       cancelled)
