"""Look-ups into the step texts and the glossary, by language."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from app.texts.cache_plans import with_cache
from app.texts.facts import Facts, facts_for
from app.texts.model import TERM_IDS, GlossaryEntry, StepText, check_language
from app.texts.position_plans import added, qk_norm, rope, typed
from app.texts.router_plans import experts, router
from app.texts.scope import EMBEDDING_NORM, QK_NORM, TYPES
from app.texts.sentences import Telling
from app.texts.step_plans import (
    CROSS_PLANS,
    PARALLEL_PLANS,
    PLANS,
    embedding_norm,
    softcap,
    transform,
)
from app.texts.words import GLOSSARIES, HEADINGS
from engine.scenario.op_table import op_table

if TYPE_CHECKING:
    from engine import Trace
    from engine.forward.step import Op


EXPLAIN_KEYS: tuple[str, ...] = tuple(PLANS)
"""Every ``explain_key`` of a version-1 document, in the order the steps first appear."""
_KEYED = {**PLANS, **CROSS_PLANS, **PARALLEL_PLANS}
"""Every ``explain_key`` with a plan of its own (the version-1 keys, the cross steps' and a
parallel block's)."""


def _by_key(default: str | None = None) -> Callable[[Facts], Telling]:
    """The plan of the step's own ``explain_key``, else of ``default`` (a cross-attention's
    scores are told as scores, a cross residual as a residual); a KeyError without one."""
    def plan(f: Facts) -> Telling:
        key = f.step.explain_key
        return _KEYED[key if key in _KEYED or default is None else default](f)
    return plan


def _norm(f: Facts) -> Telling:
    """The QK-norm's and the embedding norm's own plans; the encoder's final norm told as the
    final norm; any other norm by its key (a cross-attention's norm as the first norm)."""
    key = f.step.explain_key
    if key == QK_NORM:
        return qk_norm(f)
    if key == EMBEDDING_NORM:
        return embedding_norm(f)
    return _by_key("block.final_norm" if key == "encoder.final_norm" else "block.norm1")(f)


OP_PLANS: Mapping[Op, Callable[[Facts], Telling]] = op_table("texts.plans", {
    "embed": _by_key(),
    "positions": lambda f: typed(f) if f.step.explain_key == TYPES else added(f),
    "inputs": _by_key(),
    "norm": _norm,
    "projection": with_cache(_by_key("attention.projections")),
    "rope": rope,
    "scores": with_cache(_by_key("attention.scores")),
    "weights": with_cache(_by_key("attention.weights")),
    "mix": with_cache(_by_key("attention.mix")),
    "residual": _by_key("block.resid1"),
    "ffn": _by_key("block.ffn"),
    "router": router,
    "experts": experts,
    "transform": transform,
    "logits": _by_key(),
    "softcap": softcap,
    "probs": _by_key(),
    "loss": _by_key(),
    "sample": _by_key(),
})
"""Op → what a step of that op says (the one dispatch of the step texts)."""


def step_text(trace: Trace, index: int, lang: str, receiver: int | None = None,
              head: int = 0) -> StepText:
    """The teaching text of step ``index`` of ``trace``, about that document's own numbers.

    Parameters
    ----------
    trace
        The open document's computation.
    index
        The step's position in ``trace.steps``.
    lang
        ``"en"`` or ``"zh"``.
    receiver, head
        The position and head the text follows (the last position and the first head if not
        given).

    Raises
    ------
    ValueError
        If ``lang`` is not supported (checked first).
    KeyError
        If there is no text for the step's ``explain_key`` and its op has none for every key
        (positions, RoPE, norms, attention, residual and feed-forward steps have one).
    """
    language = check_language(lang)
    plan = OP_PLANS[trace.steps[index].op]
    return plan(facts_for(trace, index, receiver, head)).words(language)


def step_sections(trace: Trace, index: int, lang: str,
                  receiver: int | None = None) -> list[tuple[str, str]]:
    """The four ``(heading, text)`` pairs of a step, in the order of :data:`HEADINGS`."""
    text = step_text(trace, index, lang, receiver)
    return list(zip(HEADINGS[lang], text.sections(), strict=True))


def glossary(lang: str) -> list[GlossaryEntry]:
    """Every glossary entry in ``lang``, in the order of :data:`TERM_IDS`.

    Raises
    ------
    ValueError
        If ``lang`` is not supported.
    """
    entries = GLOSSARIES[check_language(lang)].entries()
    return [entries[term_id] for term_id in TERM_IDS]


def glossary_entry(term_id: str, lang: str) -> GlossaryEntry:
    """One glossary entry.

    Raises
    ------
    ValueError
        If ``lang`` is not supported (checked first).
    KeyError
        If ``term_id`` is not one of :data:`TERM_IDS`.
    """
    return GLOSSARIES[check_language(lang)].entries()[term_id]
