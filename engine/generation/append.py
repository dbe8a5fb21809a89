"""Appending a generated token to a document: its id, its embedding row, its position and a
``key_mask`` entry where there is one, as a new validated scenario."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.format.errors import ScenarioError
from engine.format.layers import check_scores
from engine.format.mapped_weight import looked_up
from engine.format.reader import MAX_POSITIONS
from engine.scenario.modules import Layer
from engine.scenario.scenario import Scenario, check_size
from engine.words.refusals import Refusal


def check_generates(scenario: Scenario) -> None:
    """Refuse a document that cannot generate at all, however short: no token ids or
    embedding, no vocabulary head (said as an encoder's where the stack is not causal, as
    BERT's), a masked-language-model head, an embedding without a row for every vocabulary entry (a
    draw could pick one it cannot append), or training targets."""
    if scenario.token_ids is None or scenario.embedding is None:
        raise ScenarioError("token_ids", Refusal("generate_needs_tokens"))
    head = scenario.head
    if head is None or head.unembed is None:
        encoder = not all(layer.attention.causal for layer in scenario.layers)
        raise ScenarioError("head.unembed", Refusal("generate_encoder" if encoder
                                                    else "generate_needs_head"))
    if head.transform is not None:
        raise ScenarioError("head.transform", Refusal("generate_masked_lm"))
    rows = int(scenario.embedding.shape[0])
    if rows < len(head.vocab):
        raise ScenarioError("embedding", Refusal("generate_embedding_short", rows=rows,
                                                 vocab=len(head.vocab)))
    if scenario.targets is not None:
        raise ScenarioError("targets", Refusal("generate_with_targets"))


def check_room(scenario: Scenario, n: int | None = None) -> None:
    """Refuse a document that cannot take one more generated token after its ``n`` positions
    (by default its own): no token ids, embedding or vocabulary head, training targets, the
    position limit, a learned table at its end, or RoPE's ``context`` (the positions the model
    was made for: an imported checkpoint's ``max_position_embeddings``)."""
    check_generates(scenario)
    n = scenario.n if n is None else n
    if n + 1 > MAX_POSITIONS:
        raise ScenarioError("token_ids", Refusal("generate_positions_limit", n=n,
                                                 limit=MAX_POSITIONS))
    positions = scenario.positions
    if positions is not None and positions.kind == "learned":
        assert positions.table is not None
        rows = int(positions.table.shape[0])
        if positions.offset + n + 1 > rows:
            raise ScenarioError("positions.table", Refusal("generate_past_table", rows=rows, n=n,
                                                           row=positions.offset + n))
    if positions is not None and positions.context is not None and n + 1 > positions.context:
        raise ScenarioError("positions.context", Refusal("generate_past_context", n=n,
                                                         context=positions.context))


def can_generate(scenario: Scenario) -> bool:
    """Whether :func:`check_room` lets the document take one more generated token (its trace
    then ends with the draw of that token)."""
    try:
        check_room(scenario)
    except ScenarioError:
        return False
    return True


def check_token(scenario: Scenario, token_id: int) -> None:
    """Refuse an id that is not an entry of the vocabulary with a row of the embedding."""
    head, embedding = scenario.head, scenario.embedding
    assert head is not None and embedding is not None
    entries = min(len(head.vocab), int(embedding.shape[0]))
    if not 0 <= token_id < entries:
        raise ScenarioError("token_ids", Refusal("token_not_in_vocabulary", token_id=token_id,
                                                 last=entries - 1))


def extend(scenario: Scenario, token_id: int) -> Scenario:
    """The document with one more token: ``token_id`` appended to the token ids (its label the
    vocabulary entry's), its row looked up, visible in every key mask of the main stack's
    self-attentions, and appended to the run's ``chosen`` ids when the document has a run.

    Raises
    ------
    ScenarioError
        If :func:`check_room` or :func:`check_token` refuses, or the longer document passes a
        size limit; ``scenario`` is unchanged.
    """
    check_room(scenario)
    check_token(scenario, token_id)
    assert scenario.token_ids is not None and scenario.head is not None
    assert scenario.embedding is not None
    ids = (*scenario.token_ids, token_id)
    run = scenario.generation
    longer = replace(
        scenario, token_ids=ids, tokens=(*scenario.tokens, scenario.head.vocab[token_id]),
        X=looked_up(scenario.embedding, ids), token_types=_continued(scenario.token_types),
        layers=tuple(_seeing_new_key(layer)
                                                      for layer in scenario.layers),
        generation=None if run is None else replace(run, chosen=(*run.chosen, token_id)))
    _check_scores(longer)
    check_size(longer)  # the rest of the document was checked, and is the same objects
    return longer


def _continued(types: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """The token types with the new token's: the last token's (its segment goes on)."""
    return None if types is None else (*types, types[-1])


def _check_scores(longer: Scenario) -> None:
    """Refuse a longer document whose self- or cross-attention scores (they grow with n) pass
    the limit, at the place a file's would be refused."""
    encoder = longer.encoder
    for k, layer in enumerate(longer.layers):
        place = "attention" if longer.shorthand else f"layers.{k}.attention"
        check_scores(layer.attention.heads, longer.n, longer.n, place)
        if layer.cross_attention is not None and encoder is not None:
            check_scores(layer.cross_attention.heads, longer.n, encoder.n,
                         f"layers.{k}.cross_attention")


def _seeing_new_key(layer: Layer) -> Layer:
    """A main-stack layer whose self-attention's key mask (if any) shows the new token."""
    mask = layer.attention.key_mask
    if mask is None:
        return layer
    return replace(layer, attention=replace(layer.attention, key_mask=(*mask, True)))


def self_attentions(doc: dict[str, Any], scenario: Scenario) -> list[dict[str, Any]]:
    """The self-attention objects of the document's main stack."""
    if scenario.shorthand:
        return [doc["attention"]]
    return [layer["attention"] for layer in doc["layers"]]


__all__ = ["can_generate", "check_generates", "check_room", "check_token", "extend",
           "self_attentions"]
