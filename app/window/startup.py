"""The first window of a launch: the asked-for document or the last session's, then recovery."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QMessageBox

from app import APP_NAME
from app.canvas.view import CanvasView
from app.files.loading import Opened, placeholder, read_after_showing
from app.files.opening import has_sidecar, is_big_file, load_computed
from app.files.reading import kept_path
from app.files.recovery import offer_recovery
from app.files.relocating import is_away
from app.files.session import (
    DRAWING,
    forget_document,
    last_document,
    mark_drawing,
    mark_opened,
    mark_opening,
    restore_session,
    unfinished_opening,
)
from app.i18n import current_language
from app.model.examples import DEFAULT_EXAMPLE, example_path, resolve_document
from app.plain_text import as_written
from app.state.showing import ShowingError, Shown, check_showing, first_options
from app.state.window_lifetime import kept_while_open
from app.widgets.layouts import lay_out_now
from app.window.appearance import appearance
from engine import Scenario, ScenarioError, Trace, load_scenario

if TYPE_CHECKING:
    from app.state.shell import Shell
    from app.window.studio import StudioWindow

WINDOWS: list[Shell] = []
"""Windows opened at launch (kept referenced while they are open)."""


def configure_application(app: QCoreApplication) -> None:
    """Names that place settings and recovery copies under "QKV Studio"."""
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)


def _launch_check(path: Path) -> Shown:
    """The document at ``path`` read, computed and checked (:func:`_first_frame`).

    Raises
    ------
    ScenarioError, ShowingError
        As :func:`~app.files.reading.read_to_show`.
    """
    _scenario, trace = load_computed(path)
    return _first_frame(trace)


def _first_frame(trace: Trace) -> Shown:
    """``trace`` checked for showing, with its first frame as a launch window draws it (in the
    appearance's colours; the sheet is a guess until the window shows).

    Raises
    ------
    ShowingError
        As :func:`~app.state.showing.check_showing`.
    """
    options = replace(first_options(trace, current_language()),
                      theme=appearance().canvas_theme())
    return check_showing(trace, options)


def _unfinished_note(path: str, stage: str) -> str:
    """Says that the last launch ended while opening ``path`` (``""``: an example), and at
    which stage, in the interface language."""
    where = path or QCoreApplication.translate("Startup", "a built-in example")
    if stage == DRAWING:
        return QCoreApplication.translate(
            "Startup", "QKV Studio ended while drawing the first frame of {path} last time: it "
            "was not opened again; showing F11").format(path=where)
    return QCoreApplication.translate(
        "Startup", "QKV Studio ended while opening {path} last time: it was not opened again; "
        "showing F11").format(path=where)


def _remembered_document() -> tuple[Path | None, str]:
    """The last session's document if it is still there and the last launch finished opening
    whatever it opened, else None and (for a launch that did not finish) why not."""
    unfinished = unfinished_opening()
    if unfinished is not None:  # it crashed or hung opening it: never again by itself
        forget_document()
        return None, _unfinished_note(*unfinished)
    return last_document(), ""


def start_window(document: str | None) -> StudioWindow:
    """Open, show and return the launch window.

    With ``document`` (a path or an example name) that document opens; a refused one is said on
    standard error and in a message over the window, which shows F11 instead (a file manager
    starts the studio with no terminal to read). A big file, or one with a sidecar of weights,
    is read after the window shows, with a busy sign and Cancel above its canvas
    (:mod:`app.files.loading`). Without, the last session comes back: its layout at once, its
    document read in a worker while the window shows F11 (so a document that hangs can never
    keep the window away), then its step and view. A launch that did not finish opening its
    document (the process crashed or was stopped before the first frame was painted) is not
    repeated: the next one shows F11 and says which document and at which stage. Then any
    unsaved work left by a session that crashed is offered for restoring.
    """
    from app.window.studio import StudioWindow

    note = ""
    refusal: tuple[Path, BaseException] | None = None
    later: Path | None = None
    remembered = False
    checked: Shown | None = None  # computed and drawn once: checking the file does both
    kept: Path | None = None
    if document:
        path = resolve_document(document)
        mark_opening(kept_path(path))  # before a byte is read: a crash is not repeated
        if is_big_file(path) or has_sidecar(path):
            later, scenario = path, placeholder()
        else:
            try:
                checked = _launch_check(path)
                scenario, kept = checked.trace.scenario, kept_path(path)
            except (ScenarioError, ShowingError) as error:
                refusal = (path, error)
                scenario = load_scenario(example_path(DEFAULT_EXAMPLE))
        window = StudioWindow(scenario, kept, shown=checked)
        restore_session(window, same_document=False)
        if refusal is None and later is None:
            window.show_opening(path)  # an example opens as its exports show it
    else:
        later, note = _remembered_document()
        remembered = later is not None
        mark_opening(later)
        window = StudioWindow(placeholder(), None)
        restore_session(window, same_document=False)
    if later is None:
        window.firstFrameDrawn.connect(mark_opened)
    window.show()
    if note:
        window.statusBar().showMessage(f"⚠ {note}")
    if refusal:
        mark_opened()  # refused in words: the launch finished
        say_refusal(window, *refusal)
    if remembered and later is not None:
        _read_remembered(window, later)
    elif later is not None:
        _read_later(window, later)
    kept_while_open(WINDOWS, window)
    for restored in offer_recovery(window):
        if restored is not window:
            kept_while_open(WINDOWS, restored)
    return window


def say_refusal(window: StudioWindow, path: Path, error: BaseException | str) -> None:
    """A document given at launch was refused: on standard error, the status bar and a message;
    one whose checkpoint moved or changed is opened as File → Open opens it, which asks where
    the checkpoint is now (:func:`~app.files.relocating.ask_where`)."""
    print(f"qkv-studio: {error}", file=sys.stderr)
    if isinstance(error, BaseException) and is_away(error):
        QTimer.singleShot(0, window, lambda: window.open_path(path))  # once the window shows
        return
    refusal = QCoreApplication.translate("StudioWindow", "{path} was not opened:\n{error}").format(
        path=path, error=error)
    window.statusBar().showMessage(f"⚠ {refusal.splitlines()[-1]}")
    title = QCoreApplication.translate("StudioWindow", "Cannot open")
    QMessageBox.warning(window, title, as_written(refusal))


def _read_later(window: StudioWindow, path: Path) -> None:
    """Read the big document ``path`` given at launch now that ``window`` shows."""
    def opened(target: Shell, scenario: Scenario, trace: Trace) -> None:
        mark_drawing()
        target.show_document(scenario, kept_path(path), trace=trace, note=translate(
            "StudioWindow", "Opened {name}").format(name=path.name))
        _once_painted(target, mark_opened)

    _read_in_worker(window, path, opened, lambda error: say_refusal(window, path, error))


def _read_remembered(window: StudioWindow, path: Path) -> None:
    """Read the last session's document in a worker now that ``window`` shows F11; it replaces
    F11 with the last session's step and view once read and checked, or F11 stays and the
    status bar says why."""
    def opened(target: Shell, scenario: Scenario, trace: Trace) -> None:
        mark_drawing()
        try:
            shown = _first_frame(trace)
        except ShowingError as error:
            refused(error)
            return
        target.show_document(scenario, path, trace=trace, shown=shown)
        if target is window:
            restore_session(window, same_document=True)  # its view
        _once_painted(target, lambda: _laid_out_again(target, window))

    def refused(error: BaseException) -> None:
        mark_opened()  # said in words: the launch finished (also for a frame that fails)
        window.statusBar().showMessage("⚠ " + translate(
            "Startup", "The last document could not be opened again ({error}); showing F11"
        ).format(error=error))

    _read_in_worker(window, path, opened, refused)


def _read_in_worker(window: StudioWindow, path: Path, opened: Opened,
                    refused: Callable[[BaseException], None]) -> None:
    """Read ``path`` in a worker with a busy sign and Cancel over ``window``'s canvas; a refusal
    or Cancel ends the launch's opening (said in words, nothing more to paint)."""
    def said(error: BaseException) -> None:
        mark_opened()
        refused(error)

    def cancelled() -> None:
        mark_opened()
        window.statusBar().showMessage(translate("StudioWindow", "Not opened: cancelled"))

    label = translate("StudioWindow", "Opening {name}…").format(name=path.name)
    read_after_showing(window, path, label, opened, said, cancelled)


def _laid_out_again(target: Shell, window: StudioWindow) -> None:
    """The last session's document painted in ``target``: the launch finished, and the window's
    layout comes back once more, now that its editor is laid out (F11's editor and the busy
    sign may have widened a narrow window meanwhile)."""
    mark_opened()
    if target is window:
        lay_out_now()
        restore_session(window, same_document=False)


def _once_painted(shell: Shell, then: Callable[[], None]) -> None:
    """Call ``then`` once ``shell``'s canvas has painted its new frame."""
    canvas = shell.widget().findChild(CanvasView)
    if canvas is None:  # not a studio window: nothing more will be painted for it
        then()
        return

    def painted() -> None:
        canvas.repainted.disconnect(painted)
        then()

    canvas.repainted.connect(painted)


translate = QCoreApplication.translate
