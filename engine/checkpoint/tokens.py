"""The text as tokens: ids from the checkpoint's tokenizer, labels from the text's own
characters (a byte-level BPE marks spaces with ``Ġ``; the offsets give back what was typed),
and one label per vocabulary entry for the head."""

from __future__ import annotations

from dataclasses import dataclass

from tokenizers import Tokenizer

from engine.errors import ScenarioError
from engine.reader import UNPRINTABLE
from engine.refusals import Refusal

LABEL_LIMIT = 40
"""The longest token or vocabulary label a document holds."""
REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class Tokens:
    """The ids of the text, a label for each, and each one's segment (0: the text, 1: the
    pair's, as the tokenizer's template gives them; BERT's ``token_type_ids``)."""

    ids: list[int]
    labels: list[str]
    types: list[int]


def tokenize(tokenizer: Tokenizer, text: str, *, vocab: int, context: int,
             pair: str | None = None) -> Tokens:
    """The text's tokens (and the pair's after them), as the model's own tokenizer splits them,
    with its special tokens (Llama's ``<s>``, BERT's ``[CLS] … [SEP] … [SEP]``).

    Raises
    ------
    ScenarioError
        When the tokenizer knows more entries than the embedding has rows (it is another
        model's), the text gives no token, or more tokens than the model's context.
    """
    entries = tokenizer.get_vocab_size(with_added_tokens=True)
    if entries > vocab:
        raise ScenarioError("tokenizer.json", Refusal("tokenizer_vocabulary", count=entries,
                                                      last=entries - 1, rows=vocab))
    encoding = tokenizer.encode(text, pair)
    ids = list(encoding.ids)
    if not ids:
        raise ScenarioError("text", Refusal("text_no_tokens"))
    if len(ids) > context:
        raise ScenarioError("text", Refusal("text_past_context", count=len(ids), limit=context))
    texts = (text, pair or "")
    labels = [_label(texts[sequence or 0][start:end] or token)
              for (start, end), token, sequence in zip(encoding.offsets, encoding.tokens,
                                                       encoding.sequence_ids, strict=True)]
    return Tokens(ids=ids, labels=labels, types=list(encoding.type_ids))


def vocabulary(tokenizer: Tokenizer, size: int) -> list[str]:
    """A label for each of the ``size`` vocabulary entries: the entry decoded alone where that
    gives whole printable characters, else the tokenizer's own spelling (``<0x0A>``, ``Ġ``…);
    ids past the tokenizer's (rows the checkpoint pads its embedding with) as ``#id``."""
    labels = []
    for token_id in range(size):
        token = tokenizer.id_to_token(token_id)
        if token is None:
            labels.append(f"#{token_id}")
            continue
        decoded = tokenizer.decode([token_id], skip_special_tokens=False)
        readable = decoded and REPLACEMENT not in decoded and not UNPRINTABLE.search(decoded)
        labels.append(_label(decoded if readable else token))
    return labels


def _label(text: str) -> str:
    """``text`` as a document label: control characters escaped, at most
    :data:`LABEL_LIMIT` characters."""
    shown = UNPRINTABLE.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"),
                            text)
    return shown if len(shown) <= LABEL_LIMIT else shown[:LABEL_LIMIT - 1] + "…"


__all__ = ["Tokens", "tokenize", "vocabulary"]
