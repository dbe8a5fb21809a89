"""View → Logit lens: each layer's prediction at each position, in a window of its own.

The picture is :class:`~app.canvas.lens_view.LensItem`, the item every export paints, worked out
when the window is asked for (never with each computation): the readings in a worker, with a
progress dialog and Cancel once they take longer than a moment; hovering a cell names its most
probable tokens with their logits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from app.canvas.lens_view import LensItem, LensOptions
from app.i18n import current_language
from app.state.jobs import run_with_progress
from app.texts.words import say
from app.window.appearance import appearance
from app.window.picture_window import PictureWindow
from engine.analysis.lens import read_layers

if TYPE_CHECKING:
    from app.state.shell import Shell


class LensWindow(PictureWindow):
    """The logit lens of ``shell``'s document as it is now, its receiver's column marked.

    Raises
    ------
    ScenarioError
        When the document has no vocabulary head.
    CancelledError
        The user cancelled the reading.
    """

    def __init__(self, shell: Shell, parent: QWidget | None = None) -> None:
        state = shell.state
        trace = state.trace
        options = LensOptions(receiver=state.receiver, lang=current_language(),
                              theme=appearance().canvas_theme())
        readings = run_with_progress(shell.widget(), say("lens.reading", options.lang),
                                     lambda _stop: read_layers(trace))
        item = LensItem(trace, options, readings)
        super().__init__(shell, item, item.title(), options.theme.color("background"), parent)
