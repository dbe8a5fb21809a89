"""Step titles in every language, decided once from the step and its own modules.

A title is the catalogue's sentence ``title.<explain_key>`` (:mod:`engine.words`, whose English
the engine records as the step's own title) with the options it names: norm kind, √d_k scaling,
a soft cap, the position bias, the causal mask, Wo, ablated heads, the activation, the experts.
Every language's title carries the same information.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.texts.mask_plans import beyond_causal, shares_title
from app.texts.model import check_language
from app.texts.scope import StepModules, modules_of, words_key
from app.texts.sentences import NOTHING, Joined, Say, say
from app.texts.step_labels import layer_name
from app.texts.words import CATALOGUES
from app.texts.words import say as word
from engine.format.numbers import format_exact
from engine.scenario.modules import Mixture

if TYPE_CHECKING:
    from engine import Scenario, Step


def norm_name(norm: str, lang: str) -> str:
    """The display name of a ``block.norm`` option in ``lang`` (``"none"`` → ``"no norm"``)."""
    return word(f"name.norm.{norm}", lang)


def _embed(scenario: Scenario, step: Step, m: StepModules) -> Say:
    owner = scenario.encoder if step.stack == "encoder" else scenario
    scale = owner.embedding_scale if owner is not None else None
    return say("title.input.embed", scaled=NOTHING if scale is None else
               say("title.embed_scaled", scale=format_exact(scale)))


def _rope(scenario: Scenario, step: Step, m: StepModules) -> Say:
    base = m.attention.rope_base
    return say("title.positions.rope", own=NOTHING if base is None else
               say("title.rope_own_base", base=format_exact(base)),
               unscaled=NOTHING if m.attention.rope_scaled else say("title.rope_unscaled"))


def _scores(scenario: Scenario, step: Step, m: StepModules) -> Say:
    a = m.attention
    then = NOTHING
    if a.softcap is not None:
        then = say("title.scores_capped", cap=format_exact(a.softcap))
    elif any(name.endswith("alibi") for name in step.writes):
        then = say("title.scores_biased")
    scaled = NOTHING if not a.scale else say("title.scores_scaled") if a.scale_dk is None \
        else say("title.scores_scaled_by", dk=format_exact(a.scale_dk))
    return say("title.attention.scores", scaled=scaled, then=then)


def _qk_norm(scenario: Scenario, step: Step, m: StepModules) -> Say:
    over_all = m.attention.qk_norm_over == "all_heads"
    return say("title.attention.qk_norm_all" if over_all else "title.attention.qk_norm",
               norm=say(f"name.norm.{m.norm}"))


def _weights(scenario: Scenario, step: Step, m: StepModules) -> Say:
    causal = m.attention.causal
    return say("title.attention.weights_causal" if causal else "title.attention.weights")


def _mix(scenario: Scenario, step: Step, m: StepModules) -> Say:
    a = m.attention
    heads = sorted(head + 1 for head in a.ablate_heads)
    ablated = NOTHING if not heads else say(
        "title.mix_ablated_many" if len(heads) > 1 else "title.mix_ablated_one",
        heads=Joined(heads))
    return say("title.attention.mix", wo=say("title.mix_wo") if a.Wo is not None else NOTHING,
               ablated=ablated)


def _ffn(scenario: Scenario, step: Step, m: StepModules) -> Say:
    assert m.block is not None
    ffn = m.block.feed_forwards[0]
    kind = "gated" if ffn.Wg is not None else "activation"
    return say("title.block.ffn", activation=say(f"name.{kind}.{ffn.activation}"))


def _router(scenario: Scenario, step: Step, m: StepModules) -> Say:
    assert m.block is not None and isinstance(m.block.ffn, Mixture)
    return say("title.block.router", top_k=m.block.ffn.top_k, experts=len(m.block.ffn.experts))


def _experts(scenario: Scenario, step: Step, m: StepModules) -> Say:
    assert m.block is not None and isinstance(m.block.ffn, Mixture)
    shared = m.block.ffn.shared is not None
    return say("title.block.experts_shared" if shared else "title.block.experts")


def _softcap(scenario: Scenario, step: Step, m: StepModules) -> Say:
    cap = scenario.head.softcap if scenario.head is not None else None
    assert cap is not None
    return say("title.block.softcap", cap=format_exact(cap))


_OWN: dict[str, Callable[[Scenario, Step, StepModules], Say]] = {
    "input.embed": _embed, "positions.rope": _rope, "attention.qk_norm": _qk_norm,
    "attention.scores": _scores, "attention.weights": _weights, "attention.mix": _mix,
    "block.ffn": _ffn, "block.router": _router, "block.experts": _experts,
    "block.softcap": _softcap}
"""The titles that name more than the step's norm, by explain_key (a cross-attention's as a
self-attention's)."""


def _key(step: Step) -> str:
    """The step's :func:`~app.texts.scope.words_key`, a cross-attention's read as a
    self-attention's where the catalogue has no title of its own for it."""
    key = words_key(step)
    return key if f"title.{key}" in CATALOGUES["en"] else \
        key.replace("cross_attention.", "attention.", 1)


def _title(scenario: Scenario, step: Step) -> Say:
    """The step's title, decided without a language."""
    m = modules_of(scenario, step)
    key = _key(step)
    own = _OWN.get(key)
    return own(scenario, step, m) if own else say(f"title.{key}",
                                                  norm=say(f"name.norm.{m.norm}"))


def step_title(step: Step, scenario: Scenario, lang: str) -> str:
    """The title of ``step`` in ``lang``, reflecting the options of the step's own modules.

    A step inside a layer starts with the layer (``Layer 2 · Scores q·k …``, ``第 2 层 · …``),
    the encoder's other steps with ``Encoder · ``, in place of the engine's ``Layer 2: `` and
    ``Encoder: `` labels. The shares step names a window and a key mask
    besides the causal mask.

    Raises
    ------
    ValueError
        If ``lang`` is not supported.
    """
    check_language(lang)
    layer = layer_name(step, lang) or (word("group.encoder", lang) if step.stack == "encoder"
                                       else "")
    prefix = f"{layer} · " if layer else ""
    if step.explain_key.endswith("attention.weights"):
        attention = modules_of(scenario, step).attention
        if beyond_causal(attention):
            named = shares_title(attention).words(lang)
            return prefix + named[:1].upper() + named[1:]
    return prefix + _title(scenario, step).words(lang)
