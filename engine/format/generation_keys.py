"""Reading and writing the training and generation keys of a document: ``targets`` (the id each
position should predict) and ``generation`` (a run's settings and the ids it chose)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.format.errors import ScenarioError
from engine.format.reader import (
    MAX_VOCAB,
    describe,
    expect_int,
    expect_number,
    expect_object,
    refuse_unknown,
)
from engine.words.refusals import Refusal

GENERATION_KEYS = ("temperature", "top_k", "top_p", "seed", "chosen")
MAX_TEMPERATURE = 100.0
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Settings:
    """How a run chooses: temperature (0: greedy), top-k (None: every entry), top-p (1: every
    entry top-k left) and the seed of its draws (:mod:`engine.generation.sampling`)."""

    temperature: float = 1.0
    top_k: int | None = None
    top_p: float = 1.0
    seed: int = 0

    def __post_init__(self) -> None:
        check_settings(self.temperature, self.top_k, self.top_p, self.seed, "")


@dataclass(frozen=True)
class Generation:
    """A generation run: its settings and the ids it chose, so a saved run replays exactly.

    ``chosen`` are the last ids of the document's ``token_ids``, in the order they were appended;
    draw t of the run is :func:`engine.generation.sampling.draw_generator` of the seed and t.
    """

    settings: Settings = field(default_factory=Settings)
    chosen: tuple[int, ...] = ()

    def to_document(self) -> dict[str, Any]:
        """The JSON object of the document (``top_k`` only when set)."""
        run = self.settings
        doc: dict[str, Any] = {"temperature": _plain(run.temperature)}
        if run.top_k is not None:
            doc["top_k"] = run.top_k
        doc.update(top_p=_plain(run.top_p), seed=run.seed, chosen=list(self.chosen))
        return doc


def _plain(number: float) -> float | int:
    return int(number) if number.is_integer() else number


def check_settings(temperature: float, top_k: int | None, top_p: float, seed: int,
                   place: str) -> None:
    """Refuse settings no run can use: a negative temperature, top-k below 1 or past the
    vocabulary limit, top-p outside (0, 1], a seed outside 0 … 2⁶³ − 1 (a negative one has no
    generator); ``place`` prefixes each key's place (``"generation."``; the command line turns
    ``top_k`` into ``--top-k``)."""
    if not 0.0 <= temperature <= MAX_TEMPERATURE:
        raise ScenarioError(f"{place}temperature", Refusal("temperature_range",
                                                           limit=MAX_TEMPERATURE,
                                                           got=describe(temperature)))
    if top_k is not None:
        if top_k < 1:
            raise ScenarioError(f"{place}top_k", Refusal("whole_from_one", got=top_k))
        expect_int(top_k, f"{place}top_k", 1, MAX_VOCAB)
    if not 0.0 < top_p <= 1.0:
        raise ScenarioError(f"{place}top_p", Refusal("top_p_range", got=describe(top_p)))
    expect_int(seed, f"{place}seed", 0, MAX_SEED)


def parse_targets(value: object, n: int, vocab: int) -> tuple[int, ...]:
    """``targets``: one vocabulary id per position (``vocab`` entries; 0 when the document has
    no vocabulary head)."""
    if vocab == 0:
        raise ScenarioError("targets", Refusal("loss_needs_head"))
    if not isinstance(value, list | tuple):
        raise ScenarioError("targets", Refusal("targets_list", count=n, got=describe(value)))
    if len(value) != n:
        raise ScenarioError("targets", Refusal("targets_count", count=n, got=len(value)))
    return tuple(expect_int(t, f"targets[{k}]", 0, vocab - 1) for k, t in enumerate(value))


def parse_generation(value: object, token_ids: Sequence[int] | None,
                     vocab: int) -> Generation:
    """``generation``: a run's settings and chosen ids, checked against the document's token ids
    and vocabulary (``vocab`` entries)."""
    obj = expect_object(value, "generation")
    refuse_unknown(obj, GENERATION_KEYS, "generation")
    if token_ids is None or vocab == 0:
        raise ScenarioError("generation", Refusal("run_needs_vocabulary"))
    temperature = expect_number(obj.get("temperature", 1.0), "generation.temperature")
    top_k = (expect_int(obj["top_k"], "generation.top_k", 1, MAX_VOCAB)
             if "top_k" in obj else None)
    top_p = expect_number(obj.get("top_p", 1.0), "generation.top_p")
    seed = expect_int(obj.get("seed", 0), "generation.seed", 0, MAX_SEED)
    check_settings(temperature, top_k, top_p, seed, "generation.")
    raw = obj.get("chosen", [])
    if not isinstance(raw, list | tuple):
        raise ScenarioError("generation.chosen", Refusal("chosen_list", got=describe(raw)))
    if len(raw) >= len(token_ids):
        raise ScenarioError("generation.chosen", Refusal("chosen_no_prompt", count=len(raw),
                                                         total=len(token_ids)))
    chosen = tuple(expect_int(t, f"generation.chosen[{k}]", 0, vocab - 1)
                   for k, t in enumerate(raw))
    if chosen and tuple(token_ids[-len(chosen):]) != chosen:
        raise ScenarioError("generation.chosen", Refusal(
            "chosen_not_last", count=len(chosen), expected=str(list(token_ids[-len(chosen):])),
            got=str(list(chosen))))
    return Generation(settings=Settings(temperature=temperature, top_k=top_k, top_p=top_p,
                                        seed=seed), chosen=chosen)


__all__ = ["GENERATION_KEYS", "Generation", "Settings", "check_settings", "parse_generation",
           "parse_targets"]
