"""Whether a document can be shown, found before a window switches to it (or opens with it).

A document the engine computes can still fail to be drawn or told (a construct a painter or a
text does not know). The window shows a document all at once or not at all: its step titles,
its first step's text and first frame are built here first, as the window builds them, and a
failure refuses the document like an unreadable file, with the step and the problem named.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.canvas import FrameOptions
from app.canvas.describe import describe_frame
from app.canvas.frame import FrameItem
from app.canvas.worked_row import MAX_POSITIONS
from app.texts import step_label, step_text, step_title
from engine import Trace


def problem_text(error: BaseException) -> str:
    """An unexpected failure in one line: its kind and its message."""
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def step_problem(trace: Trace, index: int, error: BaseException) -> str:
    """The sentence that says step ``index`` of ``trace`` cannot be shown, and why (in the
    interface language)."""
    return QCoreApplication.translate(
        "StudioWindow", "step {n} ({step}) cannot be shown: {problem}").format(
        n=index + 1, step=trace.steps[index].id, problem=problem_text(error))


def showing_problem(trace: Trace, lang: str) -> str | None:
    """Why ``trace`` cannot be shown in a window in ``lang`` (every step's title and button
    label, the first step's text, frame and description), or None when it can."""
    index = 0
    try:
        for index in range(len(trace.steps)):
            step_title(trace.steps[index], trace.scenario, lang)
            step_label(trace.steps[index], lang)
        index = 0
        step_text(trace, index, lang)
        options = FrameOptions(lang=lang, worked_row=trace.scenario.n <= MAX_POSITIONS)
        title = step_title(trace.steps[index], trace.scenario, lang)
        FrameItem(trace, index, options, title)
        describe_frame(trace, index, options, title)
    except Exception as error:  # whatever a painter or a text raised: said, never a crash
        return step_problem(trace, index, error)
    return None
