"""Reading a big document after the window is up: a busy sign with Cancel over the canvas.

At launch the window shows at once (on the F11 example) and a big document given on the command
line, or a big recovery copy being restored, is read and computed by a
:class:`~app.background.Job` (a file over :data:`~app.documents.opening.BACKGROUND_BYTES` is read
in another process). Its result replaces the example; if the window's document changed
meanwhile (another file opened, an edit, a restored copy), it opens in a window of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from app.background import Job
from app.documents.opening import load_computed
from app.examples import DEFAULT_EXAMPLE, example_path
from engine import Scenario, Trace, load_scenario

if TYPE_CHECKING:
    from app.window import StudioWindow

translate = QCoreApplication.translate

Opened = Callable[["StudioWindow", Scenario, Trace], None]
"""Called with the window to show the document in, the document and its trace."""


class LoadingSign(QFrame):
    """What is being read, a moving bar and Cancel, centred over ``host`` (the canvas)."""

    def __init__(self, host: QWidget, label: str, cancel: Callable[[], None]) -> None:
        super().__init__(host)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        row = QHBoxLayout(self)
        self.label = QLabel(label)
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # busy: reading has no steps to count
        self.bar.setMaximumWidth(120)
        self.bar.setAccessibleName(label)
        self.cancel_button = QPushButton(translate("Progress", "Cancel"))
        self.cancel_button.clicked.connect(cancel)
        row.addWidget(self.label)
        row.addWidget(self.bar)
        row.addWidget(self.cancel_button)
        host.installEventFilter(self)
        self._place()
        self.show()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.parent() and event.type() == QEvent.Type.Resize:
            self._place()
        return False

    def _place(self) -> None:
        host = self.parentWidget()
        self.adjustSize()
        self.move(max(0, (host.width() - self.width()) // 2),
                  max(0, (host.height() - self.height()) // 2))


def read_after_showing(window: StudioWindow, path: Path, label: str, opened: Opened,
                       refused: Callable[[BaseException], None],
                       cancelled: Callable[[], None]) -> Job:
    """Read and compute ``path`` in a worker while ``window`` shows a busy sign on its canvas.

    Exactly one of ``opened`` (with the window to show it in: ``window`` if it still shows
    what it showed when reading began, else a new one), ``refused`` (the error) or ``cancelled``
    follows, on this thread.
    """
    shown = window.state.scenario
    job = Job(lambda stop: load_computed(path, stop), window)
    sign = LoadingSign(window.canvas, label, job.cancel)
    window.statusBar().showMessage(label)  # not "Opened F11", which is only waiting

    def done(result: tuple[Scenario, Trace]) -> None:
        target = window
        if window.state.scenario is not shown or not window.state.undo_stack.isClean():
            from app.documents.startup import WINDOWS
            from app.window import StudioWindow

            target = StudioWindow(result[0])
            target.show()
            WINDOWS.append(target)
        opened(target, *result)

    def ended(_result: object, _error: object) -> None:
        sign.hide()
        sign.deleteLater()
        if job.cancelled.is_set():
            cancelled()

    job.done.connect(done)
    job.failed.connect(refused)
    job.ended.connect(ended)
    return job.start()


def placeholder() -> Scenario:
    """What a window shows while its document is being read: the F11 example."""
    return load_scenario(example_path(DEFAULT_EXAMPLE))
