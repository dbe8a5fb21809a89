"""The version-2 document of a checkpoint and a text: the text's tokens and ids, the embedding,
the positions, every layer (or the chosen ones) and the head, checked by the engine's own
parser before anyone writes it."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable
from pathlib import Path

from engine.checkpoint import (
    bert,
    gemma,
    gpt2,
    llama,
    mixtral,
    neox,
    olmo2,
    opt,
    phi,
    phi3,
    qwen2_moe,
    qwen3,
    qwen3_moe,
    stablelm,
    starcoder2,
)
from engine.checkpoint.accounting import check_all_used
from engine.checkpoint.config import Config
from engine.checkpoint.fit import check_fit
from engine.checkpoint.folder import CONFIG, Checkpoint
from engine.checkpoint.installed import MINILM_NAME, minilm_folder
from engine.checkpoint.layout import Parts, Sizes
from engine.checkpoint.tokens import tokenize, vocabulary
from engine.format.document import parse_scenario
from engine.format.errors import ScenarioError
from engine.format.reader import UNPRINTABLE
from engine.format.whole_text import read_whole
from engine.format.writer import FORMAT_NAME, FORMAT_VERSION
from engine.scenario.scenario import Scenario
from engine.words.refusals import Refusal

Layout = Callable[[Checkpoint, Config, list[int]], Parts]
FAMILY_LAYOUTS: dict[str, Layout] = {
    "gpt2": gpt2.parts, "llama": llama.parts, "mistral": llama.parts, "qwen2": llama.parts,
    "qwen3": qwen3.parts, "gpt_neox": neox.parts, "gemma": gemma.parts, "gemma2": gemma.parts,
    "phi": phi.parts, "phi3": phi3.parts, "opt": opt.parts, "bert": bert.parts,
    "stablelm": stablelm.parts, "starcoder2": starcoder2.parts, "mixtral": mixtral.parts,
    "qwen3_moe": qwen3_moe.parts, "olmo2": olmo2.parts, "qwen2_moe": qwen2_moe.parts,
    "gemma3_text": gemma.parts}
"""Each family's layout: the chosen layers' parts read from the checkpoint."""
TYPED = ("bert",)
"""The families whose layouts add token types (a ``type_table``): they read a text pair."""
_RANGE = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", re.ASCII)
MOST_SHOWN = 40
"""Characters of a refused ``--layers`` choice quoted back (a choice may be thousands long)."""
NAME_LIMIT = 60
"""The most characters of the folder's name the title keeps."""
TITLE_LIMIT = 200
"""The most characters a document's title holds (its name, family and chosen layers)."""


def choose_layers(choice: str | None, count: int) -> list[int]:
    """The 0-based layers a choice such as ``1-2``, ``3`` or ``1,3-4`` (1-based, in the model's
    order) names; every layer when ``choice`` is None.

    Raises
    ------
    ScenarioError
        At ``--layers`` for anything else, or a layer the model does not have.
    """
    if choice is None:
        return list(range(count))
    chosen: set[int] = set()
    for part in choice.split(","):
        match = _RANGE.fullmatch(part)
        first = last = 0
        if match:
            with contextlib.suppress(ScenarioError):  # a layer the model does not have
                first, last = (read_whole(match[1], "--layers", 1, count),
                               read_whole(match[2] or match[1], "--layers", 1, count))
        if not 1 <= first <= last <= count:
            shown = choice if len(choice) <= MOST_SHOWN else f"{choice[:MOST_SHOWN - 3]}..."
            raise ScenarioError("--layers", Refusal("layers_choice", count=count, got=shown))
        chosen.update(range(first - 1, last))
    return sorted(chosen)


def import_checkpoint(folder: str | os.PathLike[str], text: str, layers: str | None = None,
                      pair: str | None = None, *, mapped: bool = True) -> Scenario:
    r"""The document of the checkpoint in ``folder`` computing ``text`` (and ``pair`` after it,
    as segment 1: BERT's sentence B, for a model with token types); its ``note`` says which of
    the tokenizer's settings (padding, truncation) were ignored. The text's refusals
    (not UTF-8, the tokenizer failing on it, past the positions) are
    :func:`~engine.checkpoint.tokens.tokenize`'s. ``mapped`` (the default): the weight matrices
    (the embedding, the projections, the feed-forwards' and the head's) stay in their files as
    :class:`~engine.format.mapped_weight.MappedWeight`\ s, widened when computed; false: every
    one widened into the document at once.

    Raises
    ------
    ScenarioError
        One line naming the place: a folder of another family, a missing file or tensor, a
        tokenizer that does not fit the vocabulary, a text past the model's context, a pair
        for a model without token types, a model the engine's limits refuse (decided from the
        config and the weights' headers, before any weight is read), or a tensor the family's
        layout does not use.
    """
    checkpoint = Checkpoint(folder, mapped=mapped)
    config = Config(checkpoint.config, str(checkpoint.folder / CONFIG))
    family = config.family()
    config.plain()
    if pair is not None and family not in TYPED:
        raise ScenarioError("text_pair", Refusal("pair_needs_types", family=family))
    sizes = Sizes.of(config)
    chosen = choose_layers(layers, sizes.layers)
    check_fit(checkpoint, config, family, chosen)
    tokenizer = checkpoint.tokenizer()
    tokens = tokenize(tokenizer, text, vocab=sizes.vocab, context=sizes.context, pair=pair,
                      declared=checkpoint.tokenizer_text)
    parts = FAMILY_LAYOUTS[family](checkpoint, config, chosen)
    check_all_used(checkpoint, family, chosen)
    title = f"{folder_title(folder)} · {family}"
    if len(chosen) < sizes.layers:
        title += f" · {', '.join(f'L{k + 1}' for k in chosen)} / {sizes.layers}"
    if len(title) > TITLE_LIMIT:  # many layers chosen one by one
        title = title[:TITLE_LIMIT - 1] + "…"
    document: dict[str, object] = {
        "format": FORMAT_NAME, "version": FORMAT_VERSION, "title": title,
        "tokens": tokens.labels, "token_ids": tokens.ids, "embedding": parts.embedding}
    if tokens.ignored:
        document["note"] = tokens.ignored
    if parts.embedding_scale is not None:
        document["embedding_scale"] = parts.embedding_scale
    if family in TYPED:
        document["token_types"] = tokens.types
    positions = parts.positions
    if positions.get("kind") == "rope":
        positions = {**positions, "context": sizes.context}  # generation stops at it
    document.update({"positions": positions, **parts.inputs, "layers": parts.layers})
    if parts.head:
        document["head"] = {**parts.head, "vocab": vocabulary(tokenizer, sizes.vocab)}
    try:
        return parse_scenario(document)
    except ScenarioError as error:
        key = config.source(error.place)
        if key is None or error.refusal is None:
            raise
        raise ScenarioError(config.at(key), Refusal("config_gives", key=error.place,
                                                    problem=error.refusal)) from None


def folder_title(folder: str | os.PathLike[str]) -> str:
    """The folder's name as a title may hold it: characters no export could hold (control
    characters, halves of surrogate pairs from a name that is not UTF-8) as "?", at most
    :data:`NAME_LIMIT` characters (the rest "…"). A name is never a reason to refuse."""
    where = Path(folder).resolve()
    if where == minilm_folder():
        return MINILM_NAME  # the package's folder is named "model"
    name = UNPRINTABLE.sub("?", where.name)
    name = name.encode("utf-8", "replace").decode("utf-8")
    return name if len(name) <= NAME_LIMIT else name[:NAME_LIMIT - 1] + "…"


__all__ = ["choose_layers", "folder_title", "import_checkpoint"]
