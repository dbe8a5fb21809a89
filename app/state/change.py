"""What one move of the open document changed, as a frozen record its listeners read instead of
working it out again (no Qt): the document, which arrays, which steps' numbers, which trace,
which focus, and who moved it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from engine import Scenario, Trace

TraceChange = Literal["none", "preview", "whole"]
"""Which trace changed: none, the frame's while the whole one computes, or the whole one."""
Initiator = Literal["open", "edit", "undo", "redo", "worker", "cancel", "focus", "token"]
"""What moved the document: showing a document, an edit, undo, redo, a worker's trace arriving,
Cancel, a new step, receiver, head or arrow filter, a token of the run."""
Focus = Literal["step", "receiver", "head", "arrows", "token"]

TRACES: tuple[TraceChange, ...] = ("none", "preview", "whole")


@dataclass(frozen=True)
class Change:
    """One move of the open document.

    Attributes
    ----------
    initiator
        What moved it (:data:`Initiator`).
    document
        A new scenario is current.
    paths
        The document paths of the arrays that changed; None: anything may have (a document
        opened, an edit other than a cell's).
    steps
        The ids of the steps whose numbers may have changed (those that read a changed array,
        and those that read what they wrote); None: any step, or the steps themselves.
    trace
        Which trace is new (:data:`TraceChange`).
    frame
        The numbers the current step's frame shows may differ: its trace is another one.
    focus
        What the view focuses on that changed (:data:`Focus`).
    """

    initiator: Initiator
    document: bool = False
    paths: frozenset[str] | None = frozenset()
    steps: frozenset[str] | None = frozenset()
    trace: TraceChange = "none"
    frame: bool = False
    focus: frozenset[Focus] = frozenset()

    def touches(self, path: str) -> bool:
        """Whether the array at ``path`` may have changed (a new document: any array)."""
        return self.document and (self.paths is None or path in self.paths)

    @staticmethod
    def joined(initiator: Initiator, changes: Iterable[Change]) -> Change:
        """One record of several moves made in a row."""
        made = list(changes)
        documents = [change for change in made if change.document]
        return Change(
            initiator, document=bool(documents),
            paths=_union(change.paths for change in documents),
            steps=_union(change.steps for change in documents),
            trace=max((change.trace for change in made), key=TRACES.index, default="none"),
            frame=any(change.frame for change in made),
            focus=frozenset().union(*(change.focus for change in made)))


def _union(sets: Iterable[frozenset[str] | None]) -> frozenset[str] | None:
    """All of ``sets`` together; None if one of them is None (anything)."""
    together: frozenset[str] = frozenset()
    for each in sets:
        if each is None:
            return None
        together |= each
    return together


def changed_paths(before: Scenario, after: Scenario, paths: Iterable[str]) -> frozenset[str]:
    """Which of the arrays at ``paths`` ``after`` holds anew: a cell edit copies its array (and
    an embedding's the looked-up inputs) and shares every other with ``before``."""
    return frozenset(path for path in paths
                     if after.weight(path) is not before.weight(path))


def changed_steps(trace: Trace, paths: frozenset[str]) -> frozenset[str] | None:
    """The ids of ``trace``'s steps that read one of the arrays at ``paths``, or read what such
    a step wrote; None when no step reads them by name (the stack's input arrays are read
    under other names): then any step may have changed."""
    dirty, steps = set(paths), set()
    for step in trace.steps:
        if dirty.intersection(step.reads):
            steps.add(step.id)
            dirty.update(step.writes)
    return frozenset(steps) if steps or not paths else None
