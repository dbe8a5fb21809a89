"""Reading a big document after the window is up: a busy sign with Cancel above the canvas.

At launch the window shows at once (on the F11 example) and a big document given on the command
line, or a big recovery copy being restored, is read and computed by a
:class:`~app.state.jobs.Job` (a file over :data:`~app.files.opening.BACKGROUND_BYTES` is read
in another process). Its result replaces the example; if the window's document changed
meanwhile (another file opened, an edit, a restored copy), it opens in a window of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QWidget

from app.files.opening import load_computed
from app.model.examples import DEFAULT_EXAMPLE, example_path
from app.plain_text import as_written
from app.state.jobs import Job
from app.state.window_lifetime import kept_while_open
from engine import Scenario, Trace, load_scenario

if TYPE_CHECKING:
    from app.state.shell import Shell

Opened = Callable[["Shell", Scenario, Trace], None]
"""Called with the window to show the document in, the document and its trace."""

LATE_WINDOWS: list[Shell] = []
"""Windows opened for documents that arrived after their window had moved on (kept referenced
while they are open)."""


class LoadingSign(QWidget):
    """A moving bar and Cancel in the row above the canvas, small enough not to push the
    editor aside at 1024 px; what is being read is its tooltip, its name and the status line."""

    def __init__(self, label: str, cancel: Callable[[], None]) -> None:
        super().__init__()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.setToolTip(as_written(label))
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # busy: reading has no steps to count
        self.bar.setMaximumWidth(90)
        self.bar.setAccessibleName(label)
        self.cancel_button = QPushButton(QCoreApplication.translate("Progress", "Cancel"))
        self.cancel_button.clicked.connect(cancel)
        row.addWidget(self.bar)
        row.addWidget(self.cancel_button)


def read_after_showing(shell: Shell, path: Path, label: str, opened: Opened,
                       refused: Callable[[BaseException], None],
                       cancelled: Callable[[], None]) -> Job:
    """Read and compute ``path`` in a worker while ``shell`` shows a busy sign with Cancel.

    Exactly one of ``opened`` (with the window to show it in: ``shell`` if it still shows what
    it showed when reading began, unchanged, else a new one), ``refused`` (the error) or
    ``cancelled`` follows, on this thread.
    """
    state = shell.state
    shown = state.scenario
    job = Job(lambda stop: load_computed(path, stop), shell.widget())
    sign = LoadingSign(label, job.cancel)
    shell.add_canvas_control(sign)
    sign.show()  # at once, not when the event loop next comes round
    shell.show_message(label)  # not "Opened F11", which is only waiting

    def done(result: tuple[Scenario, Trace]) -> None:
        target = shell
        if state.scenario is not shown or not state.undo_stack.isClean():
            target = shell.open_window(*result)
            kept_while_open(LATE_WINDOWS, target)
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
