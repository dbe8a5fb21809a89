"""Whether a document can be shown, found before a window switches to it (or opens with it).

A document the engine computes can still fail to be drawn or told (a construct a painter or a
text does not know). The window shows a document all at once or not at all: its step titles,
its first step's text and first frame are built here first, as the window builds them, and a
failure refuses the document like an unreadable file, with the step and the problem named. The
frame and description built for the check are handed on, so the window draws its first frame
once (:class:`Shown`).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from app.canvas import FrameOptions
from app.canvas.describe import describe_frame
from app.canvas.frame import FrameItem
from app.canvas.worked_row import WORKED_ROW_POSITIONS
from app.i18n.language import current_language
from app.texts import step_label, step_text, step_title
from app.texts.problems import problem_words
from engine import ScenarioError, Trace


class ShowingError(ValueError):
    """A document cannot be shown; the message names the step and the problem."""


@dataclass(frozen=True, eq=False)
class Shown:
    """A trace's first frame as the check built it: drawn with ``options`` under ``title``, and
    told by ``description``."""

    trace: Trace
    options: FrameOptions
    title: str
    frame: FrameItem
    description: str

    def fits(self, trace: Trace, step: int, options: FrameOptions, title: str) -> bool:
        """Whether this is the frame the window would build for ``trace``'s step ``step``."""
        return (trace is self.trace and step == self.frame.step_index == 0
                and options == self.options and title == self.title)


def problem_text(error: BaseException) -> str:
    """A failure in one line: a refusal as the interface language words it (a checkpoint gone
    since the document was opened), an unexpected failure by its kind and its message."""
    if isinstance(error, ScenarioError):
        return problem_words(error, current_language())
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def step_problem(trace: Trace, index: int, error: BaseException) -> str:
    """The sentence that says step ``index`` of ``trace`` cannot be shown, and why (in the
    interface language)."""
    return QCoreApplication.translate(
        "StudioWindow", "step {n} ({step}) cannot be shown: {problem}").format(
        n=index + 1, step=trace.steps[index].id, problem=problem_text(error))


def first_options(trace: Trace, lang: str) -> FrameOptions:
    """The options a new window draws ``trace``'s first frame with (worked row for at most
    :data:`~app.canvas.worked_row.WORKED_ROW_POSITIONS` positions)."""
    return FrameOptions(lang=lang, worked_row=trace.scenario.n <= WORKED_ROW_POSITIONS)


def check_showing(trace: Trace, options: FrameOptions) -> Shown:
    """``trace``'s first frame, once every step's title and button label, the first step's text,
    frame and description were built in ``options.lang``.

    Raises
    ------
    ShowingError
        One of them failed: :func:`step_problem` of the first that did.
    """
    lang = options.lang
    index = 0
    try:
        for index in range(len(trace.steps)):
            step_title(trace.steps[index], trace.scenario, lang)
            step_label(trace.steps[index], lang)
        index = 0
        step_text(trace, index, lang)
        title = step_title(trace.steps[index], trace.scenario, lang)
        frame = FrameItem(trace, index, options, title)
        description = describe_frame(trace, index, options, title)
    except Exception as error:  # whatever a painter or a text raised: said, never a crash
        raise ShowingError(step_problem(trace, index, error)) from error
    return Shown(trace, options, title, frame, description)

