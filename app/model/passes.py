"""The forward passes training and generation need for the same positions, read from a trace
with ``targets``: training scores every position in the one pass the trace is; generation from
the document's first token appends one greedy choice per pass (:func:`engine.generation.run.
generate`, with the KV cache under the causal mask). Imports no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.model.run import first_positions
from app.model.while_alive import remembered_while_alive
from engine import Scenario, ScenarioError, Trace, parse_scenario
from engine.format.generation_keys import Settings
from engine.generation.append import check_generates
from engine.generation.run import generate

GREEDY = Settings(temperature=0.0)
"""Generation's choice in the pair: the most probable entry, the same every time."""


@dataclass(frozen=True)
class Pass:
    """Forward pass ``number`` (from 1) of a generation: the tokens it reads, the entry it
    chooses and the probability the model gives that entry."""

    number: int
    reads: tuple[str, ...]
    chosen: int
    label: str
    p: float


@dataclass(frozen=True)
class GenerationPasses:
    """Greedy generation of ``count`` tokens from the first token (the prompt): one pass per
    token, or ``refused`` saying why this document cannot generate."""

    prompt: str
    count: int
    passes: tuple[Pass, ...] = ()
    refused: ScenarioError | None = None


def prompt_document(scenario: Scenario) -> Scenario:
    """The document's first token alone, without its targets or a run: what generation starts
    from."""
    doc = first_positions(scenario, 1)
    doc.pop("targets", None)
    doc.pop("generation", None)
    return parse_scenario(doc)


@remembered_while_alive(kept=8)
def generation_passes(scenario: Scenario) -> GenerationPasses:
    """As many greedy passes from the first token as the document has positions (the
    document's own object is the key: a trace's scenario is never changed in place)."""
    n = scenario.n
    prompt = scenario.tokens[0]
    try:
        check_generates(replace(scenario, targets=None))
        run = generate(prompt_document(scenario), n, GREEDY)
    except ScenarioError as error:
        return GenerationPasses(prompt=prompt, count=n, refused=error)
    read = run.scenario.tokens
    passes = tuple(Pass(number=k + 1, reads=tuple(read[:token.position + 1]),
                        chosen=token.draw.chosen, label=token.label,
                        p=float(token.probs[token.draw.chosen]))
                   for k, token in enumerate(run.tokens))
    return GenerationPasses(prompt=prompt, count=n, passes=passes)


def passes_of(trace: Trace) -> GenerationPasses:
    """:func:`generation_passes` of the trace's document."""
    return generation_passes(trace.scenario)


__all__ = ["GREEDY", "GenerationPasses", "Pass", "generation_passes", "passes_of",
           "prompt_document"]
