"""Test-only: one real launch of the app, offscreen, reported on standard output, then closed.

Usage: ``python tests/app/launch_session.py [DOCUMENT]``

Starts the window through :func:`app.main.run_window` (the path of ``qkv-studio [DOCUMENT]``),
prints ``WINDOW <seconds>`` once the window shows, waits until nothing is being read any more
and the canvas has a frame, then prints ``TITLE <document title>``, ``PATH <path or ->``,
``STATUS <status line>`` and any dialog as ``DIALOG <title>: <text>`` (one line), closes the
window as a user would (the session is saved) and exits.

``QKV_TEST_CRASH=reading:PATH`` aborts the process, as a crash in a library would, when the
launch reads the document at ``PATH``; ``QKV_TEST_CRASH=drawing:TITLE`` when it draws the first
frame of the last session's document titled ``TITLE``.
"""

from __future__ import annotations

import os
import sys
import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

STARTED = time.monotonic()


def one_line(text: str) -> str:
    return text.replace("\n", " | ")


def crash_when_asked() -> None:
    """Make reading or drawing the document named by ``QKV_TEST_CRASH`` abort the process."""
    stage, _colon, which = os.environ.get("QKV_TEST_CRASH", "").partition(":")
    if stage == "reading":
        import app.files.loading as loading

        read = loading.load_computed

        def crashing_read(target: object, *args: object) -> object:
            if str(target) == which:
                time.sleep(1)  # a long read: the window is up meanwhile
                os.abort()
            return read(target, *args)  # type: ignore[arg-type]

        loading.load_computed = crashing_read  # type: ignore[assignment]
    elif stage == "drawing":
        import app.window.startup as startup

        check = startup._first_frame

        def crashing_check(trace: object) -> object:
            if trace.scenario.title == which:  # type: ignore[attr-defined]
                os.abort()
            return check(trace)  # type: ignore[arg-type]

        startup._first_frame = crashing_check  # type: ignore[assignment]


def main() -> int:
    document = sys.argv[1] if len(sys.argv) > 1 else None
    app = QApplication(sys.argv[:1])
    for kind in ("warning", "question", "information", "critical"):
        def said(_parent: object, title: str, text: str, *_rest: object,
                 kind: str = kind) -> QMessageBox.StandardButton:
            print(f"DIALOG {title}: {one_line(text)}", flush=True)
            return QMessageBox.StandardButton.No if kind == "question" else \
                QMessageBox.StandardButton.Ok
        setattr(QMessageBox, kind, staticmethod(said))
    crash_when_asked()

    def report() -> None:
        from app.files.loading import LoadingSign
        from app.window.startup import WINDOWS

        if not WINDOWS or not WINDOWS[0].isVisible():
            QTimer.singleShot(10, report)
            return
        window = WINDOWS[0]
        if not getattr(report, "shown", False):
            report.shown = True  # type: ignore[attr-defined]
            print(f"WINDOW {time.monotonic() - STARTED:.2f}", flush=True)
        if window.findChildren(LoadingSign) or window.canvas.frame is None:
            QTimer.singleShot(10, report)
            return
        state = window.state
        print(f"TITLE {state.scenario.title}", flush=True)
        print(f"PATH {state.path if state.path is not None else '-'}", flush=True)
        print(f"STATUS {one_line(window.statusBar().currentMessage())}", flush=True)
        window.close()
        app.quit()

    QTimer.singleShot(0, report)
    from app.main import run_window

    return run_window(document)


if __name__ == "__main__":
    sys.exit(main())
