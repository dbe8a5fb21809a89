"""What the window reads of a big trace's whole matrices, worked out with the trace by whoever
computed it (the runner, the worker of File → Open), off the interface thread (no Qt)."""

from __future__ import annotations

from app.state.big import is_big
from app.texts.facts import work_out_vocabulary_facts
from engine import Trace


def prepared(trace: Trace) -> Trace:
    """``trace``, its big document's whole-vocabulary facts worked out (a step text then
    reads them instead of multiplying by the unembedding on the interface thread)."""
    if is_big(trace.scenario):
        work_out_vocabulary_facts(trace)
    return trace
