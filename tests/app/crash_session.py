"""Test-only: the real app, offscreen, edited like a user would, then left to be killed.

Usage: ``python tests/app/crash_session.py DOCUMENT GRID ROW COL TEXT``

Starts the window through :func:`app.main.run_window` (the same path as ``qkv-studio
DOCUMENT``), clicks the cell, presses F2, types TEXT and Enter with ``QTest``, waits until the
recovery copy and its sidecar exist, prints ``RECOVERY <path>`` and keeps running until the test
kills it with SIGKILL. Set ``QKV_STUDIO_AUTOSAVE_MS`` small so the copy comes quickly.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit


def main() -> int:
    document, grid, row, col, text = sys.argv[1:6]
    app = QApplication(sys.argv[:1])

    def edit() -> None:
        from app.window.startup import WINDOWS

        window = WINDOWS[0]
        window.activateWindow()
        QTest.qWaitForWindowActive(window, 5000)
        table = window.editor.tables[grid]
        index = table.model().index(int(row), int(col))
        table.scrollTo(index)
        center: QPoint = table.visualRect(index).center()
        QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, center)
        QTest.keyClick(table, Qt.Key.Key_F2)
        editor = table.findChild(QLineEdit)
        if editor is None:
            print("NO-EDITOR", flush=True)
            return
        QTest.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClick(editor, Qt.Key.Key_Delete)
        QTest.keyClicks(editor, text)
        QTest.keyClick(editor, Qt.Key.Key_Return)

        def wait_for_copy() -> None:
            recovery = window.recovery
            if recovery.copy_path.exists() and recovery.sidecar_path.exists():
                print(f"EDITED {window.state.scenario.parameter(grid).tolist()}", flush=True)
                print(f"RECOVERY {recovery.copy_path}", flush=True)
            else:
                QTimer.singleShot(20, wait_for_copy)

        wait_for_copy()

    QTimer.singleShot(0, edit)
    from app.main import run_window

    result = run_window(document)
    app.quit()
    return result


if __name__ == "__main__":
    sys.exit(main())
