"""A window lives while it is open, and what it showed goes when it closes.

A window made from Python with no parent is kept alive by the slots its actions and widgets
are connected to (lambdas holding the window), which Python's collector cannot see: a closed
window, its document and every weight it held stayed until the program ended. The studio
window therefore deletes itself when it closes (``WA_DeleteOnClose``); the lists that keep
windows referenced let it go then (:func:`kept_while_open`), and one collection follows
(:func:`collect_after_close`): the window's Python side is a web of cycles (its plug-ins hold
it as their shell), which the collector would otherwise reach only when it next happened to
run (about 40-50 ms with a Llama-3.2-1B document open in another window). Work put off to the
event loop's next turn goes through :func:`on_next_turn`: ``QTimer.singleShot`` with a context
object kept its slot (and the window that slot held) for good when the context was deleted
before the timer fired (PySide 6.11).
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

if TYPE_CHECKING:
    from app.state.shell import Shell


def kept_while_open(kept: list[Shell], window: Shell) -> None:
    """Keep ``window`` referenced from ``kept`` until it is destroyed."""
    kept.append(window)
    key = id(window)
    window.widget().destroyed.connect(
        lambda: kept.__setitem__(slice(None), [w for w in kept if id(w) != key]))


def collect_after_close() -> None:
    """Once the event loop comes round, collect what the window just destroyed held."""
    QTimer.singleShot(0, gc.collect)


def on_next_turn(owner: QObject, slot: Callable[[], object]) -> None:
    """Call ``slot`` when the event loop next comes round, unless ``owner`` is deleted first
    (a timer of its own, which goes with it, and with it the slot)."""
    timer = QTimer(owner)
    timer.setSingleShot(True)
    timer.timeout.connect(slot)
    timer.timeout.connect(timer.deleteLater)
    timer.start(0)
