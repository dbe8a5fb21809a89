"""What the window reads of a big trace's whole matrices, worked out with the trace by whoever
computed it (the runner, the worker of File → Open), off the interface thread."""

from __future__ import annotations

from app.state.big import is_big
from app.texts.facts import work_out_vocabulary_facts
from engine import Trace


def prepared(trace: Trace) -> Trace:
    """``trace``, its big document's whole-vocabulary facts worked out and its unembedding
    made ready to draw: a step text and a grid then read them instead of reading the 2.1 GB
    unembedding on the interface thread."""
    if is_big(trace.scenario):
        # The canvas brings Qt: imported only for a big document, so that reading a small one
        # (the command line, the check before the window starts) stays free of Qt.
        from app.canvas.prepared_drawing import prepare_drawing

        work_out_vocabulary_facts(trace)
        prepare_drawing(trace)
    return trace
