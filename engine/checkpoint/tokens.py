"""The text as tokens: ids from the checkpoint's tokenizer, as transformers' ``tokenizer(text)``
gives them (its special tokens, never padding or truncation), labels from the text's own
characters (the offsets give back what was typed) or, for a byte-level BPE (its entries spell
bytes, ``Ġ`` a space) and the unknown token (``[UNK]``), from each token's vocabulary entry,
and one label per vocabulary entry for the head."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from tokenizers import Encoding, Tokenizer

from engine.checkpoint.folder import TOKENIZER
from engine.format.errors import ScenarioError, one_line
from engine.format.reader import MAX_POSITIONS, UNPRINTABLE, describe
from engine.words.refusals import Refusal

LABEL_LIMIT = 40
"""The longest token or vocabulary label a document holds."""
REPLACEMENT = "\ufffd"
WORD_START = "\u2581"
"""Sentencepiece's mark of a space before a word (▁)."""
_PRINTED_BYTES = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
BYTE_OF = {chr(byte): byte for byte in _PRINTED_BYTES} | {
    chr(0x100 + k): byte for k, byte in enumerate(sorted(set(range(0x100)) - set(_PRINTED_BYTES)))}
"""The byte each character of a byte-level BPE vocabulary spells (GPT-2's table, which Llama 3
and Qwen keep): a printable Latin-1 character its own byte, the other bytes U+0100 on (``Ġ``
0x20, ``Ċ`` 0x0A)."""
_NOT_WHOLE = re.compile(f"[\udc80-\udcff]+|{UNPRINTABLE.pattern}")
"""What a byte-level entry's bytes decoded with surrogate escapes hold that no label shows as
text: bytes that are no whole character (as surrogates), characters no document can hold."""


@dataclass(frozen=True)
class Tokens:
    """The ids of the text, a label for each, each one's segment (0: the text, 1: the pair's,
    as the tokenizer's template gives them; BERT's ``token_type_ids``), and what was left out
    of the tokenizer's settings, in words ("" when nothing was)."""

    ids: list[int]
    labels: list[str]
    types: list[int]
    ignored: str = ""


def tokenize(tokenizer: Tokenizer, text: str, *, vocab: int, context: int,
             pair: str | None = None, declared: bytes | None = None) -> Tokens:
    """The text's own tokens (and the pair's after them), as the model's own tokenizer splits
    them, with its special tokens (Llama's ``<s>``, BERT's ``[CLS] … [SEP] … [SEP]``) and
    nothing else: the tokenizer's padding and truncation are switched off, as transformers'
    ``tokenizer(text)`` does.

    Raises
    ------
    ScenarioError
        When the tokenizer knows more entries than the embedding has rows (it is another
        model's, or an added token of tokenizer.json, ``declared``, takes an id the vocabulary
        gives another entry and is moved past the rows), a text is not UTF-8 (a command line's
        undecodable bytes), the tokenizer fails on it (a Rust panic too), or the text gives no
        token, or more tokens than the model's context or the positions the engine computes.
    """
    entries = tokenizer.get_vocab_size(with_added_tokens=True)
    if entries > vocab:
        _refuse_moved(tokenizer, declared, vocab)
        raise ScenarioError(TOKENIZER, Refusal("tokenizer_vocabulary", count=entries,
                                               last=entries - 1, rows=vocab))
    _check_utf8("text", text)
    if pair is not None:
        _check_utf8("text_pair", pair)
    settings = _ignored(tokenizer)
    tokenizer.no_padding()
    tokenizer.no_truncation()
    encoding = _encode(tokenizer, text, pair)
    ids = list(encoding.ids)
    if not ids:
        raise ScenarioError("text", Refusal("text_no_tokens"))
    if len(ids) > context:
        raise ScenarioError("text", Refusal("text_past_context", count=len(ids), limit=context))
    if len(ids) > MAX_POSITIONS:
        raise ScenarioError("text", Refusal("text_past_positions", count=len(ids),
                                            limit=MAX_POSITIONS))
    texts = (text, pair or "")
    shared = _shared_spans(encoding)
    byte_level = _byte_level(tokenizer)
    # A byte-level token is its entry's bytes, whatever its offsets say: they can leave out
    # the space the token holds (a ByteLevel processor's trim_offsets, on by default: ' cat'
    # covering 'cat', the entry cat's label) or that the pre-tokenizer put before the text
    # (add_prefix_space), and a lone space's trimmed span is empty.
    # The unknown token ([UNK], <unk>) is what the model reads for any text its vocabulary
    # lacks: labelled by the text (猫, 👍🏽), one id would read as words the model never saw.
    unknown = _unknown_id(tokenizer)
    labels = [_entry_label(tokenizer, token_id, byte_level)
              if alike or byte_level or token_id == unknown else
              _label(_word_start(token, texts[sequence or 0][start:end]) or token)
              for (start, end), token, sequence, token_id, alike in zip(
                  encoding.offsets, encoding.tokens, encoding.sequence_ids, ids, shared,
                  strict=True)]
    ignored = f"{settings}; the text is its own {len(ids)} tokens" if settings else ""
    return Tokens(ids=ids, labels=labels, types=list(encoding.type_ids), ignored=ignored)


def _unknown_id(tokenizer: Tokenizer) -> int | None:
    """The id of the tokenizer model's unknown token (BERT's ``[UNK]``, sentencepiece's
    ``<unk>``), None when it has none (a byte-level BPE spells every text)."""
    model = tokenizer.model
    unknown = getattr(model, "unk_token", None)
    if isinstance(unknown, str):
        return tokenizer.token_to_id(unknown)
    if type(model).__name__ == "Unigram":
        found = json.loads(model.__getstate__()).get("unk_id")
        return found if isinstance(found, int) else None
    return None


def _shared_spans(encoding: Encoding) -> list[bool]:
    """Whether each token covers characters of the text that a neighbour covers too: the
    bytes of one character split by a byte fallback (``<0xE7>`` ``<0x8C>`` ``<0xAB>`` for
    猫), or the word start a sentencepiece tokenizer puts before an unknown character. The
    text cannot name such a token apart from its neighbours; its vocabulary entry can."""
    spans = list(zip(encoding.sequence_ids, encoding.offsets, strict=True))
    shared = [False] * len(spans)
    for k in range(1, len(spans)):
        (before, (start, end)), (now, (first, last)) = spans[k - 1], spans[k]
        if before == now and start < last and first < end:
            shared[k - 1] = True
            # A word start put before a character (its span) leaves that character its own.
            shared[k] = shared[k] or encoding.tokens[k - 1] != WORD_START
    return shared


def _word_start(token: str, covered: str) -> str:
    """The text a token covers, with the space a sentencepiece tokenizer put before the text's
    first word (``▁the`` covering ``the``: `` the``, as its vocabulary entry reads)."""
    if token.startswith(WORD_START) and covered and not covered[0].isspace():
        return " " + covered
    return covered


def _ignored(tokenizer: Tokenizer) -> str:
    """The tokenizer's padding and truncation in words, said to be ignored ("" when it has
    neither): ``tokenizer.json pads to 128 and truncates at 128: both ignored``."""
    said = []
    padding, truncation = tokenizer.padding, tokenizer.truncation
    if padding is not None:
        length, multiple = padding.get("length"), padding.get("pad_to_multiple_of")
        said.append(f"pads to {length}" if length is not None
                    else "pads to the longest text of a batch")
        if multiple:
            said[-1] += f" (a multiple of {multiple})"
    if truncation is not None:
        said.append(f"truncates at {truncation['max_length']}")
    if not said:
        return ""
    return f"tokenizer.json {' and '.join(said)}: {'both' if len(said) == 2 else 'it is'} ignored"


def _refuse_moved(tokenizer: Tokenizer, declared: bytes | None, rows: int) -> None:
    """Refuse the first added token of tokenizer.json (``declared``, its bytes) that declares an
    id the vocabulary already gives another entry: the tokenizers library (and transformers
    with it) gives it the next free id instead, here past the embedding's ``rows``."""
    try:
        added = json.loads(declared or b"{}").get("added_tokens") or []
    except (ValueError, AttributeError):
        return
    for index, entry in enumerate(added if isinstance(added, list) else []):
        if not isinstance(entry, dict):
            continue
        wanted, content = entry.get("id"), entry.get("content")
        got = tokenizer.token_to_id(content) if isinstance(content, str) else None
        if isinstance(wanted, int) and got is not None and got != wanted and got >= rows:
            taken = tokenizer.id_to_token(wanted)
            raise ScenarioError(f"{TOKENIZER}.added_tokens[{index}]", Refusal(
                "added_token_moved", token=describe(content), wanted=wanted,
                taken=describe(taken), got=got, rows=rows))


def _check_utf8(place: str, text: str) -> None:
    """Refuse a text holding lone surrogates: bytes a command line could not decode as UTF-8
    (Python's surrogate escapes), which no tokenizer reads."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        code = ord(text[error.start])
        shown = f"0x{code - 0xDC00:02X}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"
        raise ScenarioError(place, Refusal("text_not_utf8", at=error.start + 1,
                                           code=shown)) from None


def _encode(tokenizer: Tokenizer, text: str, pair: str | None) -> Encoding:
    """``tokenizer.encode``, its failures refused at tokenizer.json: its own errors, and a Rust
    panic inside it (a pre-tokenizer's regex past onig's retry limit), which pyo3 raises as a
    ``PanicException`` deriving from BaseException, not Exception."""
    try:
        return tokenizer.encode(text, pair)
    except BaseException as error:
        if not isinstance(error, Exception) and type(error).__name__ != "PanicException":
            raise  # KeyboardInterrupt, SystemExit: not the tokenizer's
        raise ScenarioError(TOKENIZER, Refusal("tokenizer_failed",
                                               reason=one_line(str(error)))) from None


def vocabulary(tokenizer: Tokenizer, size: int) -> list[str]:
    """A label for each of the ``size`` vocabulary entries: the entry decoded alone where that
    gives whole printable characters, else the tokenizer's own spelling (``<0x0A>``, ``Ġ``…);
    ids past the tokenizer's (rows the checkpoint pads its embedding with) as ``#id``.

    A sentencepiece entry that starts a word (``▁sat``) keeps its space: decoded alone, the
    tokenizer drops the first space of a text, and ``▁sat`` would read ``sat``, as the entry
    ``sat`` does (and not as the text's token it is, `` sat``)."""
    byte_level = _byte_level(tokenizer)
    return [_entry_label(tokenizer, token_id, byte_level) for token_id in range(size)]


def entry_label(tokenizer: Tokenizer, token_id: int) -> str:
    """The label of one vocabulary entry, as :func:`vocabulary` gives it."""
    return _entry_label(tokenizer, token_id, _byte_level(tokenizer))


def _entry_label(tokenizer: Tokenizer, token_id: int, byte_level: bool) -> str:
    """:func:`entry_label`, told whether the tokenizer is :func:`_byte_level`: an entry of
    bytes that are no whole printable characters is labelled by :func:`_named_bytes` (its
    spelling, ``ç`` for 0xE7, would read as the letter ç)."""
    token = tokenizer.id_to_token(token_id)
    if token is None:
        return f"#{token_id}"
    decoded = tokenizer.decode([token_id], skip_special_tokens=False)
    if token.startswith(WORD_START) and not decoded.startswith(" "):
        decoded = " " + decoded
    readable = decoded and REPLACEMENT not in decoded and not UNPRINTABLE.search(decoded)
    named = None if readable or not byte_level else _named_bytes(token)
    return _label(decoded if readable else named or token)


def _byte_level(tokenizer: Tokenizer) -> bool:
    """Whether the tokenizer decodes its entries as the bytes :data:`BYTE_OF` spells (its
    decoder, or one of a sequence's, is ByteLevel: GPT-2, Llama 3, Qwen)."""
    if tokenizer.decoder is None:
        return False
    state = json.loads(tokenizer.decoder.__getstate__())
    return any(part.get("type") == "ByteLevel" for part in [state, *state.get("decoders", [])])


def _named_bytes(token: str) -> str | None:
    """A byte-level entry's bytes as text, each byte that is no part of a whole printable
    character by its code as a byte fallback names it (0xE7, the first of 猫's three:
    ``<0xE7>``; ``a`` then 0xE7: ``a<0xE7>``); None when its bytes are whole printable
    characters, or it is not spelled in bytes (an added token)."""
    try:
        spelled = bytes(BYTE_OF[ch] for ch in token)
    except KeyError:
        return None
    text = spelled.decode("utf-8", "surrogateescape")
    if not _NOT_WHOLE.search(text):
        return None
    return _NOT_WHOLE.sub(lambda match: "".join(
        f"<0x{byte:02X}>" for byte in match.group().encode("utf-8", "surrogateescape")), text)


def _label(text: str) -> str:
    """``text`` as a document label: control characters escaped, at most
    :data:`LABEL_LIMIT` characters."""
    shown = UNPRINTABLE.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"),
                            text)
    return shown if len(shown) <= LABEL_LIMIT else shown[:LABEL_LIMIT - 1] + "…"


__all__ = ["Tokens", "entry_label", "tokenize", "vocabulary"]
