"""A document's generation run, token by token: which ids the run appended and, for token t,
the document that chose it (the prefix before t was appended, whose last step draws it).

Token t of a run (counted from 1) was drawn by the ``sample`` step of the document with the
prompt and the first t − 1 chosen tokens; its own trace is that token's inner steps. Imports
no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Scenario, parse_scenario
from engine.format.writer import as_held, to_document
from engine.generation.append import self_attentions


@dataclass(frozen=True)
class RunToken:
    """Token ``t`` of a run (from 1): its vocabulary id and label."""

    t: int
    id: int
    label: str


@dataclass(frozen=True)
class RunPlace:
    """Where token ``t`` (from 1) of a run of ``count`` stands, with its ``label``: what a
    frame showing its steps says in its heading and map. ``id`` is the entry the run appended,
    which its draw need not give (a bar picked by hand, or a model edited since)."""

    t: int
    count: int
    label: str
    id: int


def run_place(scenario: Scenario, t: int) -> RunPlace:
    """Where token ``t`` of the document's run stands (``ValueError`` for a ``t`` outside it)."""
    tokens = run_tokens(scenario)
    if not 1 <= t <= len(tokens):
        raise ValueError(f"the run has tokens 1 to {len(tokens)}, not {t}")
    return RunPlace(t, len(tokens), tokens[t - 1].label, tokens[t - 1].id)


def run_tokens(scenario: Scenario) -> tuple[RunToken, ...]:
    """The tokens the document's run appended, in order (none without a run)."""
    run, head = scenario.generation, scenario.head
    if run is None or head is None:
        return ()
    return tuple(RunToken(t=k + 1, id=token, label=head.vocab[token])
                 for k, token in enumerate(run.chosen))


def prompt_length(scenario: Scenario) -> int:
    """Positions before the run: the prompt (every position without a run)."""
    run = scenario.generation
    return scenario.n - (len(run.chosen) if run is not None else 0)


def prefix(scenario: Scenario, t: int) -> Scenario:
    """The document before token ``t`` of its run was appended: the prompt and the first
    t − 1 chosen tokens (their ids, labels and key-mask entries), its run's record cut so;
    its ``sample`` step draws token t with the run's settings.

    Raises
    ------
    ValueError
        If the document has no run or ``t`` is not one of its tokens (1 … T).
    """
    tokens = run_tokens(scenario)
    if not tokens:
        raise ValueError("this document has no generation run")
    if not 1 <= t <= len(tokens):
        raise ValueError(f"the run has tokens 1 to {len(tokens)}, not {t}")
    run = scenario.generation
    assert run is not None
    doc = first_positions(scenario, prompt_length(scenario) + t - 1)
    doc["generation"] = run.to_document() | {"chosen": list(run.chosen[:t - 1])}
    return parse_scenario(doc)


def first_positions(scenario: Scenario, n: int) -> dict[str, Any]:
    """The document of the first ``n`` positions of ``scenario`` (their ids, labels, token
    types and key-mask entries; everything else as it is), to change further before parsing."""
    assert scenario.token_ids is not None
    doc = to_document(scenario, as_held)
    doc["token_ids"] = list(scenario.token_ids[:n])
    doc["tokens"] = list(scenario.tokens[:n])
    if "token_types" in doc:
        doc["token_types"] = list(doc["token_types"][:n])
    for attention in self_attentions(doc, scenario):
        if "key_mask" in attention:
            attention["key_mask"] = list(attention["key_mask"][:n])
    return doc


__all__ = ["RunPlace", "RunToken", "first_positions", "prefix", "prompt_length", "run_place",
           "run_tokens"]
