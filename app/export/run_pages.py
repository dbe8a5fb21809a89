"""The pages of a generation run's export: the draw of every token in order (one page each), or
one token's inner steps, each headed by the token's place in the run. Imports no Qt."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.export.words import title_for
from app.model.run import prefix, run_tokens
from app.texts.run_words import token_of
from engine import Scenario, Trace, compute


@dataclass(frozen=True, eq=False)
class Page:
    """One exported frame: step ``step`` of ``trace``, headed ``title`` (``None``: the step's
    own title)."""

    trace: Trace
    step: int
    title: str | None = None


def _headed(trace: Trace, step: int, t: int, scenario: Scenario, lang: str) -> Page:
    tokens = run_tokens(scenario)
    place = token_of(t, len(tokens), tokens[t - 1].label, lang)
    return Page(trace, step, f"{place} · {title_for(trace, step, lang)}")


def token_trace(scenario: Scenario, t: int) -> Trace:
    """Token ``t``'s inner steps: the trace of the document that drew it (``ValueError`` for a
    document without a run or a ``t`` outside it)."""
    return compute(prefix(scenario, t))


def run_pages(scenario: Scenario, lang: str) -> tuple[Page, ...]:
    """The draw step of every token of the document's run, in order (``ValueError`` without a
    run)."""
    tokens = run_tokens(scenario)
    if not tokens:
        raise ValueError("this document has no generation run")
    traces = [token_trace(scenario, token.t) for token in tokens]
    return tuple(_headed(trace, len(trace.steps) - 1, t, scenario, lang)
                 for t, trace in enumerate(traces, start=1))


def token_pages(scenario: Scenario, t: int, trace: Trace, steps: Sequence[int],
                lang: str) -> tuple[Page, ...]:
    """``steps`` of token ``t``'s ``trace`` (:func:`token_trace`), each headed by the token."""
    return tuple(_headed(trace, step, t, scenario, lang) for step in steps)


__all__ = ["Page", "run_pages", "token_pages", "token_trace"]
