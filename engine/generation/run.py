"""A generation run: draw a token from the last position's probabilities, append it, and
compute the new position with the KV cache (or, for a main stack that is not causal, the
whole longer document again), step after step."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.format.errors import ScenarioError
from engine.format.generation_keys import Generation, Settings
from engine.format.reader import FloatArray
from engine.forward.trace import Trace, compute
from engine.generation.append import check_room, extend
from engine.generation.kv_cache import Cache, cache_of, next_position
from engine.generation.sampling import Draw, sample
from engine.scenario.op_kinds import head_output
from engine.scenario.scenario import Scenario
from engine.words.refusals import Refusal


@dataclass(frozen=True, eq=False)
class Token:
    """One generated token: the position whose probabilities chose it, those probabilities
    (the model's, before temperature), the draw and the chosen entry's label.

    Under the causal mask the extended document, recomputed, gives the same probabilities at
    ``position``; without it later tokens change every earlier row.
    """

    position: int
    probs: FloatArray
    draw: Draw
    label: str

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, "probs": self.probs.tolist(),
                "kept": self.draw.kept.tolist(), "chosen": self.draw.chosen,
                "label": self.label}


@dataclass(frozen=True, eq=False)
class Run:
    """The extended document (with its ``generation`` record) and the tokens it appended."""

    scenario: Scenario
    tokens: tuple[Token, ...]

    def to_json(self) -> dict[str, Any]:
        """What ``qkv-studio generate`` prints."""
        return {"tokens": list(self.scenario.tokens),
                "steps": [token.to_json() for token in self.tokens]}


def _record(scenario: Scenario, settings: Settings) -> Generation:
    """The run a document continues: its own when the settings are the same, else a new one."""
    run = scenario.generation
    if run is not None and run.settings == settings:
        return run
    return Generation(settings=settings)


def _uses_cache(scenario: Scenario) -> bool:
    return all(layer.attention.causal for layer in scenario.layers)


def _appended(scenario: Scenario, token_id: int, made: int, steps: int) -> Scenario:
    """``scenario`` extended by ``token_id``, token ``made`` + 1 of ``steps``; a limit met after
    the first says how many of the tokens asked fit."""
    try:
        return extend(scenario, token_id)
    except ScenarioError as error:
        if made == 0:
            raise
        raise ScenarioError("steps", Refusal("steps_fit", steps=steps, fit=made,
                                             place=error.place,
                                             problem=error.refusal or error.problem)) from None


def _last_row(trace: Trace) -> tuple[FloatArray, FloatArray]:
    """The last position's row of the head's output and of the probabilities."""
    return trace.arrays[head_output(trace.steps)][-1], trace.arrays["probs"][-1]


def generate(scenario: Scenario, steps: int, settings: Settings) -> Run:
    """Append ``steps`` tokens drawn with ``settings``; a document whose run has the same
    settings continues it (its next draw is the run's next t).

    Raises
    ------
    ScenarioError
        If the document cannot generate (see :func:`engine.generation.append.check_room`) or a step
        would pass a limit; nothing is returned then.
    """
    if steps < 1:
        raise ScenarioError("steps", Refusal("whole_from_one", got=steps))
    check_room(scenario)
    record = _record(scenario, settings)
    current = replace(scenario, generation=record)
    trace = compute(current)
    cache: Cache | None = cache_of(trace) if _uses_cache(current) else None
    logits, probs = _last_row(trace)
    tokens: list[Token] = []
    assert current.head is not None
    for k in range(steps):
        draw = sample(logits, settings, len(record.chosen) + k + 1)
        tokens.append(Token(position=current.n - 1, probs=probs, draw=draw,
                            label=current.head.vocab[draw.chosen]))
        current = _appended(current, draw.chosen, k, steps)
        if k + 1 == steps:
            break
        if cache is not None:
            row = next_position(cache, draw.chosen)
            cache, logits, probs = row.cache, row.logits, row.probs
        else:
            trace = compute(current)
            logits, probs = _last_row(trace)
    return Run(scenario=current, tokens=tuple(tokens))


__all__ = ["Run", "Token", "generate"]
