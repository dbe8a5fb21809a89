"""Reading a whole scenario document: its top-level keys, inputs, positions, encoder, layers and
head, in the version-1 shorthand or with ``layers``. :func:`engine.scenario.scenario.parse_scenario`
builds the :class:`~engine.scenario.scenario.Scenario` from what this returns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.exercises.document import parse_exercises
from engine.format.embedding import parse_embedding_norm, parse_scale, parse_types
from engine.format.errors import ScenarioError
from engine.format.generation_keys import parse_generation, parse_targets
from engine.format.layers import (
    HEAD_KEYS,
    HEAD_OWN_KEYS,
    SHORTHAND_BLOCK_KEYS,
    block_norm,
    parse_attention,
    parse_block,
    parse_head,
    parse_layers,
    row_of,
)
from engine.format.mapped_weight import Weight, expect_weight, looked_up
from engine.format.numbers import DECIMALS_RANGE
from engine.format.reader import (
    MAX_LAYERS,
    MAX_POSITIONS,
    MAX_VOCAB,
    FloatArray,
    describe,
    expect_bool,
    expect_int,
    expect_labels,
    expect_matrix,
    expect_object,
    expect_text,
    refuse_unknown,
)
from engine.format.writer import FORMAT_NAME, FORMAT_VERSION
from engine.forward.positions import check_stack, parse_positions
from engine.scenario.modules import Attention, Encoder, Layer
from engine.scenario.positions import Positions
from engine.scenario.scenario import Scenario, check_size
from engine.words.refusals import Refusal

_TOP_KEYS = ("format", "version", "title", "note", "tokens", "X", "token_ids", "embedding",
             "embedding_scale", "token_types", "type_table", "positions", "embedding_norm",
             "encoder", "attention", "block", "layers", "head", "targets",
             "generation", "display", "exercises")
_DISPLAY_KEYS = ("decimals",)
_ENCODER_KEYS = ("tokens", "X", "token_ids", "embedding_scale", "positions", "embedding_norm",
                 "layers", "final_norm", "gamma_f", "beta_f")


def parse_document(document: object) -> dict[str, Any]:
    """The fields of a :class:`~engine.scenario.scenario.Scenario` read from ``document``.

    Raises
    ------
    ScenarioError
        The first problem found, naming its place.
    """
    doc = expect_object(document, "")
    refuse_unknown(doc, _TOP_KEYS, "")
    if "format" in doc and doc["format"] != FORMAT_NAME:
        raise ScenarioError("format", Refusal("wrong_format", format=FORMAT_NAME,
                                              got=describe(doc["format"])))
    version = expect_int(doc.get("version", FORMAT_VERSION), "version", 1, 1_000_000)
    if version > FORMAT_VERSION:
        raise ScenarioError("version", Refusal("newer_version", version=version,
                                               limit=FORMAT_VERSION))
    title = expect_text(doc.get("title", "Untitled"), "title")
    note = expect_text(doc.get("note", ""), "note", 2000)

    if ("token_ids" in doc or "embedding" in doc) and "X" in doc:
        raise ScenarioError("X", Refusal("x_and_token_ids"))
    embedding = (expect_weight(doc["embedding"], "embedding", max_rows=MAX_VOCAB)
                 if "embedding" in doc else None)
    token_ids, X = _inputs(doc, "", embedding)
    n, d = int(X.shape[0]), int(X.shape[1])
    tokens = (expect_labels(doc["tokens"], "tokens", n) if "tokens" in doc
              else tuple(f"t{k + 1}" for k in range(n)))
    embedding_scale = parse_scale(doc, "", token_ids is not None)
    token_types, type_table = parse_types(doc, n, d)

    encoder = _encoder(doc["encoder"], embedding) if "encoder" in doc else None
    memory = (encoder.n, int(encoder.X.shape[1])) if encoder is not None else None
    shorthand = "layers" not in doc
    head_in_block = False
    if shorthand:
        layer = _shorthand_layer(doc, n, d)
        layers: tuple[Layer, ...] = (layer,)
        block_doc = doc.get("block")
        head_in_block = isinstance(block_doc, Mapping) and "head" not in doc
        if head_in_block:
            assert isinstance(block_doc, Mapping)
            head = parse_head(block_doc, "block", n=n, d=d, last=layer, own_norm=False,
                              table=embedding)
        elif "head" in doc:
            head_doc = expect_object(doc["head"], "head")
            refuse_unknown(head_doc, HEAD_OWN_KEYS, "head")
            head = parse_head(head_doc, "head", n=n, d=layer.width, last=layer, own_norm=True,
                              table=embedding)
        else:
            head = None
    else:
        for key in ("attention", "block"):
            if key in doc:
                raise ScenarioError(key, Refusal("attention_and_layers"))
        if encoder is not None:
            _check_shared_budget(len(encoder.layers), doc["layers"])
        layers = parse_layers(doc["layers"], "layers", n=n, d=d, limit=MAX_LAYERS, memory=memory)
        head = None
        if "head" in doc:
            head_doc = expect_object(doc["head"], "head")
            refuse_unknown(head_doc, HEAD_OWN_KEYS, "head")
            head = parse_head(head_doc, "head", n=n, d=d, last=layers[-1], own_norm=True,
                              table=embedding)
    positions = _checked_positions(doc, "positions", n, d, layers,
                                   "" if shorthand else "layers.")
    embedding_norm = (parse_embedding_norm(doc["embedding_norm"], "embedding_norm", d)
                      if "embedding_norm" in doc else None)
    vocab = len(head.vocab) if head is not None and head.unembed is not None else 0
    targets = parse_targets(doc["targets"], n, vocab) if "targets" in doc else None
    if "generation" in doc:
        _check_run_can_draw(targets, embedding, vocab)
    generation = (parse_generation(doc["generation"], token_ids, vocab)
                  if "generation" in doc else None)
    return {"title": title, "note": note, "tokens": tokens, "token_ids": token_ids, "X": X,
            "embedding": embedding, "embedding_scale": embedding_scale,
            "token_types": token_types, "type_table": type_table, "positions": positions,
            "embedding_norm": embedding_norm, "encoder": encoder, "layers": layers,
            "head": head, "targets": targets, "generation": generation,
            "decimals": _display(doc["display"]) if "display" in doc else None,
            "exercises": parse_exercises(doc["exercises"]) if "exercises" in doc else (),
            "shorthand": shorthand, "head_in_block": head_in_block}


def _check_run_can_draw(targets: object, embedding: Weight | None, vocab: int) -> None:
    """Refuse a generation run beside what keeps its tokens' documents from drawing: training
    targets, or an embedding without a row for every vocabulary entry."""
    if targets is not None:
        raise ScenarioError("generation", Refusal("run_with_targets"))
    rows = int(embedding.shape[0]) if embedding is not None else vocab
    if rows < vocab:
        raise ScenarioError("embedding", Refusal("generate_embedding_short", rows=rows,
                                                 vocab=vocab))


def _inputs(doc: Mapping[str, Any], place: str, embedding: Weight | None
            ) -> tuple[tuple[int, ...] | None, FloatArray]:
    """Token ids (or None) and the input rows of the document or of its encoder."""
    at = f"{place}." if place else ""
    if "token_ids" in doc or (not place and "embedding" in doc):
        if "X" in doc:
            raise ScenarioError(f"{at}X", Refusal("x_and_token_ids"))
        if embedding is None:
            raise ScenarioError("embedding", Refusal("token_ids_need_embedding"))
        raw_ids = doc.get("token_ids")
        if not isinstance(raw_ids, list) or not raw_ids:
            raise ScenarioError(f"{at}token_ids", Refusal("token_ids_list"))
        if len(raw_ids) > MAX_POSITIONS:
            raise ScenarioError(f"{at}token_ids", Refusal("positions_limit", count=len(raw_ids),
                                                          limit=MAX_POSITIONS))
        vocab_rows = int(embedding.shape[0])
        token_ids = tuple(expect_int(t, f"{at}token_ids[{k}]", 0, vocab_rows - 1)
                          for k, t in enumerate(raw_ids))
        return token_ids, looked_up(embedding, token_ids)
    if "X" in doc:
        return None, expect_matrix(doc["X"], f"{at}X")
    raise ScenarioError(f"{at}X", Refusal("x_missing"))


def _checked_positions(doc: Mapping[str, Any], place: str, n: int, d: int,
                       layers: tuple[Layer, ...], prefix: str) -> Positions | None:
    """The stack's ``positions`` (None when absent), checked against its self-attentions
    (``prefix``: where its layers sit, ``""`` for the version-1 shorthand)."""
    positions = parse_positions(doc["positions"], place, n, d) if "positions" in doc else None
    attentions = [(f"{prefix}{k}.attention" if prefix else "attention", layer.attention.heads,
                   layer.attention.d_k) for k, layer in enumerate(layers)]
    for (path, _, _), layer in zip(attentions, layers, strict=True):
        _check_own_rope(layer.attention, positions, path)
    if positions is None:
        return None
    check_stack(positions, place, attentions)
    if positions.kind == "alibi":
        for (path, _, _), layer in zip(attentions, layers, strict=True):
            if layer.attention.softcap is not None:
                raise ScenarioError(f"{path}.softcap", Refusal("softcap_alibi"))
    return positions


def _check_own_rope(a: Attention, positions: Positions | None, path: str) -> None:
    """Refuse a self-attention's own RoPE (``rope_base``, ``rope_scaled``) the engine cannot
    compute: without RoPE positions, unscaled without a scaling to leave out, or its own base
    beside the scaling it takes."""
    scaling = None if positions is None else positions.scaling
    if not a.rope_scaled and scaling is None:
        raise ScenarioError(f"{path}.rope_scaled", Refusal("rope_unscaled_needs_scaling"))
    if a.rope_base is None:
        return
    if positions is None or positions.kind != "rope":
        raise ScenarioError(f"{path}.rope_base", Refusal("rope_base_needs_rope"))
    if a.rope_scaled and scaling is not None:
        raise ScenarioError(f"{path}.rope_base", Refusal("rope_base_scaled"))


def _shorthand_layer(doc: Mapping[str, Any], n: int, d: int) -> Layer:
    """The one layer of a version-1 shorthand document (top-level attention and block)."""
    if "attention" not in doc:
        raise ScenarioError("attention", Refusal("attention_missing"))
    block_doc = expect_object(doc["block"], "block") if "block" in doc else None
    eps = block_norm(block_doc, "block")[1] if block_doc is not None else 1e-5
    attention = parse_attention(doc["attention"], "attention", n=n, d=d, eps=eps)
    if block_doc is None:
        return Layer(attention=attention)
    allowed = SHORTHAND_BLOCK_KEYS if "head" not in doc else tuple(
        key for key in SHORTHAND_BLOCK_KEYS if key not in HEAD_KEYS)
    block = parse_block(block_doc, "block", n=n, d=d, attention=attention,
                        attention_place="attention", allowed=allowed)
    return Layer(attention=attention, block=block)


def _layers(count: int, stack: str) -> Refusal:
    if stack == "encoder":
        return Refusal("encoder_layers_one" if count == 1 else "encoder_layers_many", count=count)
    return Refusal("decoder_layers_one" if count == 1 else "decoder_layers_many", count=count)


def _check_shared_budget(encoder_layers: int, value: object) -> None:
    """Refuse a decoder stack that, with the encoder's layers, is more than the one limit of
    :data:`MAX_LAYERS` both stacks share."""
    if not isinstance(value, list | tuple) or encoder_layers + len(value) <= MAX_LAYERS:
        return
    raise ScenarioError("layers", Refusal("stacks_layers_limit",
                                          encoder=_layers(encoder_layers, "encoder"),
                                          decoder=_layers(len(value), "decoder"),
                                          count=encoder_layers + len(value), limit=MAX_LAYERS))


def _encoder(value: object, embedding: Weight | None) -> Encoder:
    enc = expect_object(value, "encoder")
    refuse_unknown(enc, _ENCODER_KEYS, "encoder")
    token_ids, X = _inputs(enc, "encoder", embedding)
    n, d = int(X.shape[0]), int(X.shape[1])
    tokens = (expect_labels(enc["tokens"], "encoder.tokens", n) if "tokens" in enc
              else tuple(f"s{k + 1}" for k in range(n)))
    if "layers" not in enc:
        raise ScenarioError("encoder.layers", Refusal("encoder_layers_missing"))
    embedding_scale = parse_scale(enc, "encoder", token_ids is not None)
    layers = parse_layers(enc["layers"], "encoder.layers", n=n, d=d, limit=MAX_LAYERS,
                          encoder=True)
    positions = _checked_positions(enc, "encoder.positions", n, d, layers, "encoder.layers.")
    embedding_norm = (parse_embedding_norm(enc["embedding_norm"], "encoder.embedding_norm", d)
                      if "embedding_norm" in enc else None)
    last = layers[-1].block
    norm = last.norm if last is not None else "layernorm"
    eps = last.eps if last is not None else 1e-5
    final_norm = expect_bool(enc.get("final_norm", last is not None and last.placement == "pre"),
                             "encoder.final_norm")
    return Encoder(tokens=tokens, token_ids=token_ids, X=X, embedding_scale=embedding_scale,
                   positions=positions, embedding_norm=embedding_norm, layers=layers,
                   final_norm=final_norm, gamma_f=row_of(enc, "encoder", "gamma_f", d, 1.0),
                   beta_f=row_of(enc, "encoder", "beta_f", d, 0.0), norm=norm, eps=eps)


def _display(value: object) -> int | None:
    """How the document asks to be shown: ``{"decimals": 3}`` (every key optional)."""
    display = expect_object(value, "display")
    refuse_unknown(display, _DISPLAY_KEYS, "display")
    if "decimals" not in display:
        return None
    return expect_int(display["decimals"], "display.decimals", *DECIMALS_RANGE)


def parse_scenario(document: object) -> Scenario:
    """Validate a scenario document and build the model.

    Raises
    ------
    ScenarioError
        The first problem found, naming its place.
    """
    scenario = Scenario(**parse_document(document))
    check_size(scenario)
    return scenario


__all__ = ["parse_document", "parse_scenario"]
