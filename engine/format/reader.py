"""Checked reading of the JSON values of a scenario document.

Every function takes the value and its place in the document and either returns a clean Python or
numpy value or raises :class:`~engine.format.errors.ScenarioError` naming that place.
"""

from __future__ import annotations

import math
import re
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.format.errors import ScenarioError
from engine.words.refusals import NO_REASON, Refusal, Value

FloatArray = npt.NDArray[np.float64]

# What the engine computes (docs/limits.md): the shapes of 2026's checkpoints, Llama 3.1 8B's
# included; whether a document's numbers and its trace fit is decided by this computer's memory
# (engine.files.memory), not by a constant. What the canvas draws at once is the canvas's own
# business: it shows a large array as a downsampled heat map, never refuses it.
MAX_POSITIONS = 512
MAX_WIDTH = 8192
"""d and every width of a head's columns (Llama 3.1 8B's 4,096; Llama 3.1 70B's 8,192)."""
MAX_VOCAB = 1 << 18
"""Vocabulary entries (262,144): GPT-2's 50,257, Llama 3's 128,256, Qwen 2.5's 151,936 and
Gemma 3's 262,144."""
MAX_CELLS = 1 << 24
"""Numbers in any one array of the trace (X, the positions table, Q, K, V, the scores
heads × n², the hidden layer, the logits n × V): GPT-2's logits at 64 positions are 3.2
million, the largest accepted n × V about 16.8 million (134 MB of float64)."""
MAX_WEIGHT_CELLS = MAX_VOCAB * MAX_WIDTH
"""Numbers in any one weight matrix of the document (Wq, Wk, Wv, Wo, W1, Wg, W2, unembed, the
embedding table): every shape the widths and the vocabulary allow, up to 262,144 × 8,192 (2³¹).
Llama 3.2 1B's embedding is 128,256 × 2,048 = 263 million."""
MAX_HEADS = 64
MAX_LAYERS = 100
"""Layers in one document, the encoder's and the main stack's together."""


def describe(value: object) -> Value:
    """A short description of a JSON value for an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:17] + "..."
        return f'"{shown}"'
    if isinstance(value, Mapping):
        return Refusal("an_object")
    if isinstance(value, list | tuple):
        return Refusal("a_list_of", count=len(value))
    if isinstance(value, int) and abs(value) >= 10**18:
        # str() of a huge int is slow, and refused outright past 4300 digits.
        digits = int(value.bit_length() * math.log10(2)) + 1
        return Refusal("huge_whole", digits=digits)
    return repr(value) if isinstance(value, int | float) else type(value).__name__


def expect_object(value: object, place: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScenarioError(place or "document", Refusal("not_object", got=describe(value)))
    return value


def refuse_unknown(obj: Mapping[str, Any], allowed: Sequence[str], place: str) -> None:
    for key in obj:
        if key not in allowed:
            name = str(key)
            if not name or name != name.strip():
                name = f'"{name}"'
            where = f"{place}.{name}" if place else name
            raise ScenarioError(where, Refusal("unknown_key", allowed=", ".join(allowed)))


def refuse_large_result(place: str, what: Refusal, rows: int, cols: int) -> None:
    """Refuse a document whose trace would hold a ``rows × cols`` array over :data:`MAX_CELLS`
    (checked from the shapes, before anything is computed)."""
    if rows * cols > MAX_CELLS:
        raise ScenarioError(place, Refusal("large_result", what=what, rows=rows, cols=cols,
                                           cells=rows * cols, limit=MAX_CELLS))


def expect_bool(value: object, place: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(place, Refusal("not_bool", got=describe(value)))
    return value


UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Characters no XML can hold (control characters but tab and line breaks, and U+FFFE/U+FFFF):
a text holding one could not go into an SVG or a PowerPoint export."""


def expect_text(value: object, place: str, limit: int = 200) -> str:
    if not isinstance(value, str):
        raise ScenarioError(place, Refusal("not_text", got=describe(value)))
    if len(value) > limit:
        raise ScenarioError(place, Refusal("text_too_long", length=len(value), limit=limit))
    bad = UNPRINTABLE.search(value)
    if bad is not None:
        raise ScenarioError(place, Refusal("unprintable", index=bad.start() + 1,
                                           code=ord(bad.group())))
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            code = f"\\u{ord(value[error.start]):04x}"
            raise ScenarioError(place, Refusal("lone_surrogate", index=error.start + 1,
                                               code=code)) from None
    return value


def expect_choice(value: object, place: str, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        options = " | ".join(f'"{c}"' for c in choices)
        raise ScenarioError(place, Refusal("not_choice", options=options, got=describe(value)))
    return value


def expect_int(value: object, place: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise ScenarioError(place, Refusal("not_whole", got=describe(value)))
    number = int(value)
    if not low <= number <= high:
        raise ScenarioError(place, Refusal("whole_out_of_range", low=low, high=high,
                                           got=describe(number)))
    return number


def expect_number(value: object, place: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ScenarioError(place, Refusal("not_number", got=describe(value)))
    try:
        number = float(value)
    except OverflowError:
        raise ScenarioError(place, Refusal("number_too_large", got=describe(value))) from None
    if not math.isfinite(number):
        raise ScenarioError(place, Refusal("not_finite", got=number))
    return number


def expect_labels(value: object, place: str, count: int) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise ScenarioError(place, Refusal("labels_list", count=count, got=describe(value)))
    if len(value) != count:
        raise ScenarioError(place, Refusal("labels_count", count=count, got=len(value)))
    if _plain_labels(value):  # a vocabulary of 262,144 at once: each checked only if one fails
        return tuple(value)
    return tuple(expect_text(item, f"{place}[{k}]", 40) for k, item in enumerate(value))


def _plain_labels(labels: Sequence[object]) -> bool:
    """Whether every label is a text :func:`expect_text` takes at 40 characters, found for all
    of them at once (joined by line breaks, which a text may hold)."""
    texts = [label for label in labels if type(label) is str]
    if len(texts) != len(labels) or max(map(len, texts), default=0) > 40:
        return False
    joined = "\n".join(texts)
    if UNPRINTABLE.search(joined) is not None:
        return False
    try:
        joined.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_FINITE: dict[int, weakref.ref[FloatArray]] = {}
"""By id: read-only float64 arrays whose every number was checked finite as they were made."""


def known_finite(array: FloatArray) -> None:
    """Note that the read-only float64 ``array`` (owning its numbers) was checked finite as it
    was made (a sidecar's tensor, checked while widened): reading it, or a view of it such as a
    tied head's transpose, checks it no more. The note lasts while the array lives."""
    key = id(array)
    _FINITE[key] = weakref.ref(array, lambda _gone: _FINITE.pop(key, None))


def is_known_finite(array: FloatArray) -> bool:
    """Whether ``array`` was noted finite as it was made (:func:`known_finite`)."""
    return _known_finite(array)


def _known_finite(owner: npt.NDArray[Any] | None) -> bool:
    noted = _FINITE.get(id(owner))
    return noted is not None and noted() is owner


def _checked_array(value: npt.NDArray[Any], place: str) -> FloatArray:
    """The array as float64, checked finite. An array of a scenario (float64, read-only, owning
    its numbers or a view of such an array: a tied head's transpose of the embedding) is kept as
    it is, not copied: re-validating a document after an option edit keeps every array, and
    whatever was worked out from it (the canvas's colours) stays valid.
    """
    if value.dtype.kind not in "iuf":
        raise ScenarioError(place, Refusal("array_dtype", dtype=str(value.dtype)))
    owner = value if value.flags.owndata else value.base
    frozen = (value.dtype == np.float64 and not value.flags.writeable
              and isinstance(owner, np.ndarray) and owner.flags.owndata
              and not owner.flags.writeable)
    if frozen and _known_finite(owner):
        return value
    array = value if frozen else np.array(value, dtype=np.float64)
    if not bool(np.isfinite(array).all()):
        bad = np.argwhere(~np.isfinite(array))
        cell = "".join(f"[{int(k)}]" for k in bad[0])
        raise ScenarioError(f"{place}{cell}", Refusal("not_finite", got=array[tuple(bad[0])]))
    return array


_NUMBER_TYPES = frozenset({int, float})


def _plain_numbers(value: Sequence[Any], rows: Sequence[Sequence[Any]]) -> FloatArray | None:
    """A list (of lists) holding only finite ints and floats as an array, at numpy's speed.

    ``None`` when anything else is there (a bool, a string, a huge or non-finite number): the
    caller then reads number by number to name the first bad one. ``rows`` are the lists to
    check: ``value`` itself for a matrix (rows of equal length), ``(value,)`` for a vector.
    """
    if not all(_NUMBER_TYPES.issuperset(map(type, row)) for row in rows):
        return None
    try:
        array = np.array(value, dtype=np.float64)
    except (OverflowError, ValueError):
        return None
    return array if bool(np.isfinite(array).all()) else None


def expect_vector(value: object, place: str, length: int | None = None,
                  length_reason: Refusal = NO_REASON) -> FloatArray:
    """A flat list of finite numbers, optionally of a given length."""
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise ScenarioError(place, Refusal("row_dimensions", ndim=value.ndim))
        count = int(value.shape[0])
    elif isinstance(value, list | tuple):
        count = len(value)
    else:
        raise ScenarioError(place, Refusal("not_row", got=describe(value)))
    if count > MAX_VOCAB:
        raise ScenarioError(place, Refusal("numbers_limit", count=count, limit=MAX_VOCAB))
    if length is not None and count != length:
        raise ScenarioError(place, Refusal("numbers_count", count=length, reason=length_reason,
                                           got=count))
    if isinstance(value, np.ndarray):
        return _checked_array(value, place)
    array = _plain_numbers(value, (value,))
    if array is None:  # something is wrong: find the first bad number and name it
        array = np.array([expect_number(x, f"{place}[{k}]") for k, x in enumerate(value)],
                         dtype=np.float64)
    return array


def check_matrix_shape(shape: tuple[int, int], place: str, *, rows: int | None = None,
                       rows_reason: Refusal = NO_REASON, max_rows: int = MAX_POSITIONS,
                       max_cols: int = MAX_WIDTH, weights: bool = False) -> None:
    """Refuse a matrix of ``shape`` past ``max_rows``, ``max_cols`` or the cells an array (a
    weight, ``weights``) may hold, of other than ``rows`` rows, or without columns (the
    columns' count is checked after the numbers, as :func:`expect_matrix` does)."""
    if shape[0] > max_rows:
        raise ScenarioError(place, Refusal("rows_limit", count=shape[0], limit=max_rows))
    if shape[1] > max_cols:
        raise ScenarioError(place, Refusal("columns_limit", count=shape[1], limit=max_cols))
    cells = MAX_WEIGHT_CELLS if weights else MAX_CELLS
    if shape[0] * shape[1] > cells:
        raise ScenarioError(place, Refusal("cells_limit", rows=shape[0], cols=shape[1],
                                           limit=cells))
    if rows is not None and shape[0] != rows:
        raise ScenarioError(place, Refusal("rows_count", count=rows, reason=rows_reason,
                                           got=shape[0]))
    if shape[1] == 0:
        raise ScenarioError(place, Refusal("no_columns"))


def expect_matrix(value: object, place: str, *, rows: int | None = None, cols: int | None = None,
                  rows_reason: Refusal = NO_REASON, cols_reason: Refusal = NO_REASON,
                  max_rows: int = MAX_POSITIONS, max_cols: int = MAX_WIDTH,
                  weights: bool = False) -> FloatArray:
    """A rectangular list of lists of finite numbers (or a 2-D numeric array).

    The shape is checked before any large allocation: a matrix longer than ``max_rows`` rows,
    wider than ``max_cols`` columns or with more cells than :data:`MAX_CELLS` (a weight matrix,
    ``weights``: :data:`MAX_WEIGHT_CELLS`) is refused.
    """
    if isinstance(value, np.ndarray):
        if value.ndim != 2:
            raise ScenarioError(place, Refusal("matrix_dimensions", ndim=value.ndim))
        shape: tuple[int, int] = (int(value.shape[0]), int(value.shape[1]))
    else:
        if not isinstance(value, list | tuple):
            raise ScenarioError(place, Refusal("not_matrix", got=describe(value)))
        if not value:
            raise ScenarioError(place, Refusal("no_rows"))
        for r, row in enumerate(value):
            if not isinstance(row, list | tuple):
                raise ScenarioError(f"{place}[{r}]", Refusal("not_matrix_row", got=describe(row)))
        shape = (len(value), len(value[0]))
    check_matrix_shape(shape, place, rows=rows, rows_reason=rows_reason, max_rows=max_rows,
                       max_cols=max_cols, weights=weights)
    if isinstance(value, np.ndarray):
        array = _checked_array(value, place)
    else:
        for r, row in enumerate(value):
            if len(row) != shape[1]:
                raise ScenarioError(f"{place}[{r}]", Refusal("ragged_row", count=shape[1],
                                                             got=len(row)))
        plain = _plain_numbers(value, value)
        # Otherwise something is wrong: read number by number to name the first bad cell.
        array = plain if plain is not None else np.array(
            [[expect_number(x, f"{place}[{r}][{c}]") for c, x in enumerate(row)]
             for r, row in enumerate(value)], dtype=np.float64)
    if cols is not None and shape[1] != cols:
        raise ScenarioError(place, Refusal("columns_count", count=cols, reason=cols_reason,
                                           got=shape[1]))
    return array
