"""The pages of a generation run's export: the draw of every token in order (one page each), or
one token's inner steps, each headed (and its map titled) with the token's place in the run.
The command line (``export --run [--token T]``) and the export dialog both choose them here.
Imports no Qt."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.model.run import RunPlace, prefix, run_place, run_tokens
from engine import Scenario, Trace, compute


@dataclass(frozen=True, eq=False)
class Page:
    """One exported frame: step ``step`` of ``trace``, the steps of token ``place`` of a run
    (``None``: as the export's frame options say)."""

    trace: Trace
    step: int
    place: RunPlace | None = None


@dataclass(frozen=True, eq=False)
class RunSelection:
    """What a run's export writes: its ``pages``, with the ``trace`` and ``steps`` its request
    names (the last page's trace, each page's step)."""

    trace: Trace
    steps: tuple[int, ...]
    pages: tuple[Page, ...]


def token_trace(scenario: Scenario, t: int) -> Trace:
    """Token ``t``'s inner steps: the trace of the document that drew it (``ValueError`` for a
    document without a run or a ``t`` outside it)."""
    return compute(prefix(scenario, t))


def run_pages(scenario: Scenario) -> tuple[Page, ...]:
    """The draw step of every token of the document's run, in order (``ValueError`` without a
    run)."""
    tokens = run_tokens(scenario)
    if not tokens:
        raise ValueError("this document has no generation run")
    traces = [token_trace(scenario, token.t) for token in tokens]
    return tuple(Page(trace, len(trace.steps) - 1, run_place(scenario, t))
                 for t, trace in enumerate(traces, start=1))


def token_pages(scenario: Scenario, t: int, trace: Trace, steps: Sequence[int]) -> tuple[Page, ...]:
    """``steps`` of token ``t``'s ``trace`` (:func:`token_trace`), each headed by the token."""
    place = run_place(scenario, t)
    return tuple(Page(trace, step, place) for step in steps)


def run_selection(scenario: Scenario, token: int | None,
                  steps: Callable[[Trace], tuple[int, ...]],
                  trace: Trace | None = None) -> RunSelection:
    """Every token's draw (``token`` None), or token ``token``'s ``steps(its trace)``;
    ``trace``: that token's trace if already computed. ``ValueError`` without a run or for a
    token outside it."""
    if token is None:
        pages = run_pages(scenario)
        return RunSelection(pages[-1].trace, tuple(page.step for page in pages), pages)
    run_place(scenario, token)  # refuses a token outside the run before computing anything
    shown = trace if trace is not None else token_trace(scenario, token)
    chosen = steps(shown)
    return RunSelection(shown, chosen, token_pages(scenario, token, shown, chosen))


__all__ = ["Page", "RunSelection", "run_pages", "run_selection", "token_pages", "token_trace"]
