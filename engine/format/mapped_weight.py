"""A weight that stays in its checkpoint: a reference to one tensor of a ``.safetensors`` file
(the file, the tensor's name, its header entry with offsets from the file's start, and whether
the document reads it transposed), widened to float64 only when asked, whole or a block at a
time, bit for bit what :func:`engine.format.safetensors_file.map_widened` gives (docs/format-v2.md,
"Weights that stay in their checkpoint").

A document holds a :data:`Weight`: a float64 array or a :class:`MappedWeight`. Whoever reads its
numbers asks :func:`widened` (the whole matrix, made when asked and let go after) or
:func:`column_block` (a block of columns, for the vocabulary's d × V unembedding).
"""

from __future__ import annotations

import hashlib
import mmap
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from engine.files.regular_file import open_regular
from engine.format.errors import ScenarioError
from engine.format.reader import (
    MAX_POSITIONS,
    MAX_WIDTH,
    FloatArray,
    check_matrix_shape,
    expect_matrix,
)
from engine.format.safetensors_file import (
    DTYPES,
    FP8,
    Entry,
    Header,
    HeaderError,
    read_header,
    widen_into,
)
from engine.words.refusals import NO_REASON, Refusal

NOT_FINITE_BITS: dict[str, tuple[np.dtype[Any], int]] = {
    "BF16": (np.dtype("<u2"), 0x7F80), "F16": (np.dtype("<u2"), 0x7C00),
    "F32": (np.dtype("<u4"), 0x7F800000), "F64": (np.dtype("<u8"), 0x7FF0000000000000)}
"""Each IEEE dtype's exponent bits: a number whose exponent bits are all set is NaN or ∞."""
SCAN = 1 << 22
"""Numbers a finiteness scan reads at a time."""


@dataclass(frozen=True, eq=False)
class Overlay:
    """Edited cells of a mapped weight: their flat indices in the document's matrix (row by
    row, increasing) and their float64 values."""

    cells: npt.NDArray[np.int64]
    values: FloatArray

    def __post_init__(self) -> None:
        self.cells.flags.writeable = False  # shared by every later document's overlay
        self.values.flags.writeable = False

    def set(self, cell: int, value: float) -> Overlay:
        """This overlay with the number at the flat index ``cell`` set to ``value``."""
        at = int(np.searchsorted(self.cells, cell))
        if at < len(self.cells) and self.cells[at] == cell:
            values = self.values.copy()
            values[at] = value
            return Overlay(self.cells, values)
        return Overlay(np.insert(self.cells, at, cell), np.insert(self.values, at, value))

    def onto(self, block: FloatArray, shape: tuple[int, ...], rows: slice = slice(None),
             columns: slice = slice(None)) -> None:
        """Set the edited cells that fall in ``block``: rows ``rows`` and columns ``columns``
        of the matrix of ``shape`` (steps of 1)."""
        row, column = np.divmod(self.cells, shape[1])
        first_row, last_row, _ = rows.indices(shape[0])
        first_column, last_column, _ = columns.indices(shape[1])
        inside = ((row >= first_row) & (row < last_row) & (column >= first_column)
                  & (column < last_column))
        block[row[inside] - first_row, column[inside] - first_column] = self.values[inside]

    def transposed(self, shape: tuple[int, ...]) -> Overlay:
        """The same edits in the transpose of the matrix of ``shape``: cell (i, j) at (j, i)."""
        row, column = np.divmod(self.cells, shape[1])
        cells = column * shape[0] + row
        order = np.argsort(cells, kind="stable")
        return Overlay(cells[order], self.values[order])


_SCANNED: dict[tuple[Path, str, Stamp, bool], tuple[int, int] | None] = {}
""":attr:`MappedWeight.first_not_finite` by stored tensor (its file as stamped, its name) and
whether it is read transposed: a document made again from the same checkpoint (a layer added,
a tied head made the embedding's transpose) reads no tensor's bits twice."""
NO_OVERLAY = Overlay(np.zeros(0, np.int64), np.zeros(0))
"""A mapped weight's overlay before any edit."""
DENSE = 0.25
"""An edited mapped weight whose overlay would hold more than this share of its numbers becomes
a float64 array of its own."""


@dataclass(frozen=True)
class Stamp:
    """A checkpoint file as the document read it: its size, its modification time (ns) and the
    sha256 of its header (the length and the JSON before the data). A file of another size or
    time changed (or was replaced) since."""

    size: int
    modified: int
    header: str

    def matches(self, status: os.stat_result) -> bool:
        """Whether the file's status still has this size and modification time."""
        return (status.st_size, status.st_mtime_ns) == (self.size, self.modified)


def stamped_header(path: Path) -> tuple[Header, Stamp]:
    """The checked header of the safetensors file at ``path``, and its stamp.

    Raises
    ------
    ScenarioError
        At the file: not regular, unreadable, or not a safetensors header whose tensors fit
        it (:func:`~engine.format.safetensors_file.read_header`, naming the tensor).
    """
    place = str(path)
    with open_regular(path, place, "weights") as stream:
        try:
            header = read_header(stream)
            status = os.fstat(stream.fileno())
            stream.seek(0)
            digest = hashlib.sha256(stream.read(header.data)).hexdigest()
        except HeaderError as error:
            raise ScenarioError(place, Refusal("weights_header", problem=error.refusal)) from None
        except OSError as error:
            raise ScenarioError(place, Refusal("unreadable",
                                               reason=str(error.strerror or error))) from None
    return header, Stamp(status.st_size, status.st_mtime_ns, digest)


@dataclass(frozen=True, eq=False)
class MappedWeight:
    """One tensor of ``file`` (``entry``: its dtype, stored shape and byte offsets from the
    file's start) as a document's matrix: the stored tensor, or (``transposed``) its transpose,
    laid out as :func:`~engine.format.safetensors_file.map_widened` makes it, or (``view`` too)
    as the transposed view of the stored layout (a tied head: the embedding's ``.T``); with the
    cells of an ``overlay`` set over it."""

    file: Path
    name: str
    entry: Entry
    stamp: Stamp
    """The file as the document read it: every read checks it first."""
    transposed: bool = False
    view: bool = False
    overlay: Overlay | None = None
    """Edited cells read over the stored numbers (None: none)."""

    @property
    def shape(self) -> tuple[int, ...]:
        """The document's shape."""
        return self.entry.shape[::-1] if self.transposed else self.entry.shape

    @property
    def ndim(self) -> int:
        return len(self.entry.shape)

    @property
    def size(self) -> int:
        """The numbers it holds."""
        return self.entry.count

    @property
    def T(self) -> MappedWeight:
        """The transpose, as numpy's ``.T`` of the widened matrix is laid out, its edited
        cells with it."""
        if self.transposed:
            raise ValueError("only a weight read as stored has a mapped transpose")
        overlay = None if self.overlay is None else self.overlay.transposed(self.shape)
        return replace(self, transposed=True, view=True, overlay=overlay)

    def _stored(self) -> npt.NDArray[Any]:
        """The stored numbers, flat, through a read-only memory map of the file (unmapped when
        the last view of them is let go).

        Raises
        ------
        ScenarioError
            At the file: gone, or changed (another size or modification time) since the
            document read it.
        """
        with self._opened() as stream:
            mapped = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
        kind = DTYPES.get(self.entry.dtype, np.dtype(np.uint8))
        return np.frombuffer(mapped, dtype=kind, count=self.entry.count, offset=self.entry.start)

    def _opened(self) -> BinaryIO:
        """The file opened for reading, checked first to be as the document read it.

        Raises
        ------
        ScenarioError
            At the file: gone, or changed (another size or modification time) since.
        """
        place = str(self.file)
        if not self.file.exists():
            raise ScenarioError(place, Refusal("checkpoint_gone"))
        stream = open_regular(self.file, place, "weights")
        if not self.stamp.matches(os.fstat(stream.fileno())):
            stream.close()
            raise ScenarioError(place, Refusal("checkpoint_changed"))
        return stream

    def check(self) -> None:
        """Refuse, naming the file, a checkpoint gone or changed since the document read it
        (its size and modification time: nothing is read)."""
        self._opened().close()

    def widened(self, room: FloatArray | None = None) -> FloatArray:
        """The whole matrix as float64: a new read-only array, or (``room``: a flat buffer of at
        least :attr:`size` numbers) written into the room's first numbers."""
        made = self.transposed and not self.view  # an nn.Linear, made as its transpose
        shape = self.entry.shape[::-1] if made else self.entry.shape
        whole = np.empty(shape) if room is None else room[:self.size].reshape(shape)
        widen_into(whole.T if made else whole, self._stored(), self.entry)
        matrix = whole.T if self.view else whole
        if self.overlay is not None:
            self.overlay.onto(matrix, self.shape)
        if room is None:
            whole.flags.writeable = False
        return matrix

    def columns(self, start: int, stop: int, room: FloatArray | None = None) -> FloatArray:
        """Columns ``start:stop`` of a transposed weight (rows of the stored tensor), laid out
        as that slice of :meth:`widened` is (``room``: written into a buffer, as there)."""
        if not self.transposed:
            raise ValueError("a block of columns is a transposed weight's")
        width, stop = self.entry.shape[1], min(stop, self.entry.shape[0])
        part = Entry(self.entry.dtype, (stop - start, width), 0, 0)
        shape = (stop - start, width) if self.view else (width, stop - start)
        block = np.empty(shape) if room is None else room[:part.count].reshape(shape)
        widen_into(block if self.view else block.T,
                   self._stored()[start * width:stop * width], part)
        columns = block.T if self.view else block
        if self.overlay is not None:
            self.overlay.onto(columns, self.shape, columns=slice(start, stop))
        return columns

    def rows(self, ids: Sequence[int]) -> FloatArray:
        """The rows ``ids`` of a weight read as stored (an embedding's looked-up rows)."""
        if self.transposed:
            raise ValueError("rows are looked up in a weight read as stored")
        width = self.entry.shape[1]
        found = np.empty((len(ids), width))
        part = Entry(self.entry.dtype, (1, width), 0, 0)
        stored = self._stored()
        for k, row in enumerate(ids):
            widen_into(found[k:k + 1], stored[row * width:(row + 1) * width], part)
            if self.overlay is not None:
                self.overlay.onto(found[k:k + 1], self.shape, rows=slice(row, row + 1))
        return found

    def with_cell(self, index: tuple[int, ...], value: float) -> Weight:
        """This weight with the number at ``index`` set: a new overlay (the stored bytes are
        never written), or, past :data:`DENSE` of its numbers edited, a float64 array."""
        if len(index) != 2 or not all(0 <= k < n for k, n in zip(index, self.shape,
                                                                  strict=True)):
            raise IndexError(f"index {index} is outside the {self.shape} matrix")
        overlay = (self.overlay or NO_OVERLAY).set(index[0] * self.shape[1] + index[1], value)
        if len(overlay.cells) <= DENSE * self.size:
            return replace(self, overlay=overlay)
        whole = self.widened().copy(order="K")  # laid out as the eager import's
        whole[index] = value
        whole.flags.writeable = False
        return whole

    @property
    def first_not_finite(self) -> tuple[int, int] | None:
        """The first cell of the document's matrix (row by row) that is NaN or ∞; None: every
        one is finite. Read once for the stored tensor read this way (:data:`_SCANNED`), from
        its stored bits, a block at a time, nothing widened but FP8."""
        key = (self.file, self.name, self.stamp, self.transposed)
        if key not in _SCANNED:
            _SCANNED[key] = self._scanned()
        return _SCANNED[key]

    def _scanned(self) -> tuple[int, int] | None:
        first: tuple[int, int] | None = None
        stored = self._stored()
        for start in range(0, self.entry.count, SCAN):
            part = stored[start:start + SCAN]
            if self.entry.dtype in FP8:
                bad = ~np.isfinite(FP8[self.entry.dtype][part])
            else:
                kind, bits = NOT_FINITE_BITS[self.entry.dtype]
                bad = np.bitwise_and(part.view(kind), bits) == bits
            if not bool(bad.any()):
                continue
            rows, columns = np.divmod(start + np.flatnonzero(bad), self.entry.shape[1])
            if not self.transposed:  # row by row: the first one found
                return int(rows[0]), int(columns[0])
            found = min(zip(columns.tolist(), rows.tolist(), strict=True))
            first = found if first is None else min(first, found)
        return first

    def __array__(self, dtype: Any = None, copy: Any = None) -> FloatArray:
        """numpy's view of it: the whole matrix widened (what a reader that does not ask for
        a block gets)."""
        whole = self.widened()
        return whole if dtype is None else whole.astype(dtype)


Weight = FloatArray | MappedWeight
"""A document's weight matrix: float64 numbers, or a tensor left in its checkpoint."""


def expect_weight(value: object, place: str, *, rows: int | None = None,
                  cols: int | None = None, rows_reason: Refusal = NO_REASON,
                  cols_reason: Refusal = NO_REASON, max_rows: int = MAX_POSITIONS,
                  max_cols: int = MAX_WIDTH) -> Weight:
    """A weight matrix (:func:`~engine.format.reader.expect_matrix` with ``weights``), or a
    mapped one checked the same way from its shape and its stored bits: its first number that
    is not finite is refused at its weights file, naming the tensor and the stored cell
    (``model.safetensors: the tensor lm_head.weight[0, 0] is nan``)."""
    if not isinstance(value, MappedWeight):
        return expect_matrix(value, place, rows=rows, cols=cols, rows_reason=rows_reason,
                             cols_reason=cols_reason, max_rows=max_rows, max_cols=max_cols,
                             weights=True)
    if value.ndim != 2:
        raise ScenarioError(place, Refusal("matrix_dimensions", ndim=value.ndim))
    shape = (int(value.shape[0]), int(value.shape[1]))
    check_matrix_shape(shape, place, rows=rows, rows_reason=rows_reason, max_rows=max_rows,
                       max_cols=max_cols, weights=True)
    bad = value.first_not_finite
    if bad is not None:  # a stored number: refused at its file and tensor, in its own indices
        number = value.widened()[bad]
        cell = bad[::-1] if value.transposed else bad
        raise ScenarioError(str(value.file), Refusal("tensor_not_finite", name=value.name,
                                                     cell=", ".join(map(str, cell)),
                                                     got=float(number)))
    if cols is not None and shape[1] != cols:
        raise ScenarioError(place, Refusal("columns_count", count=cols, reason=cols_reason,
                                           got=shape[1]))
    return value


def is_transposed_view(item: Weight | None, original: Weight | None) -> bool:
    """Whether ``item`` is ``original``'s ``.T``, one tensor with it (a tied head): arrays, its
    numbers laid out transposed; weights left in a checkpoint, the same stored tensor read
    transposed, with the same edited cells."""
    if isinstance(item, MappedWeight) and isinstance(original, MappedWeight):
        return ((item.file, item.name, item.transposed) == (original.file, original.name, True)
                and not original.transposed
                and _same_edits(original.overlay or NO_OVERLAY, item.overlay or NO_OVERLAY,
                                original.shape))
    if not isinstance(item, np.ndarray) or not isinstance(original, np.ndarray):
        return False
    return (item.ndim == 2 and item.shape == original.shape[::-1]
            and item.strides == original.strides[::-1]
            and item.ctypes.data == original.ctypes.data)


def _same_edits(table: Overlay, head: Overlay, shape: tuple[int, ...]) -> bool:
    """Whether ``head``'s edited cells are ``table``'s (of a matrix of ``shape``),
    transposed: a document saved before edits kept the two one tensor may hold an edit in one
    of them only, and then holds two tensors."""
    across = table.transposed(shape)
    return bool(np.array_equal(across.cells, head.cells)
                and np.array_equal(across.values, head.values))


def widened(weight: Weight) -> FloatArray:
    """The weight's float64 numbers (a mapped one widened whole, for as long as it is held)."""
    return weight.widened() if isinstance(weight, MappedWeight) else weight


def looked_up(weight: Weight, ids: Sequence[int]) -> FloatArray:
    """The weight's rows ``ids`` (an embedding's rows of the tokens), a new float64 array."""
    if isinstance(weight, MappedWeight):
        return weight.rows(ids)
    rows: FloatArray = weight[list(ids)]
    return rows


def cell(weight: Weight, index: tuple[int, ...]) -> float:
    """The number at ``index`` (a row and column, or a vector's entry): of a mapped weight,
    that one number widened."""
    if not isinstance(weight, MappedWeight):
        return float(weight[index])
    row, column = index
    if weight.transposed:
        return float(weight.columns(column, column + 1)[row, 0])
    return float(weight.rows([row])[0, column])


def same_numbers(a: Weight, b: Weight) -> bool:
    """Whether two weights left in their checkpoint are one tensor read the same way with the
    same edits (known without reading a number; False for float64 arrays)."""
    if not (isinstance(a, MappedWeight) and isinstance(b, MappedWeight)):
        return False
    if a is b:
        return True
    if (a.file, a.name, a.entry, a.stamp, a.transposed, a.view) != (
            b.file, b.name, b.entry, b.stamp, b.transposed, b.view):
        return False
    edits = [weight.overlay or NO_OVERLAY for weight in (a, b)]
    return all(np.array_equal(x, y) for x, y in ((edits[0].cells, edits[1].cells),
                                                   (edits[0].values, edits[1].values)))


def edited_between(a: Weight, b: Weight) -> npt.NDArray[np.int64] | None:
    """The flat indices (in the matrix's shape, increasing) of the numbers that differ between
    two weights left in their checkpoint as one tensor read the same way, known from their
    edits alone (nothing read); None when they are not such a pair."""
    if not (isinstance(a, MappedWeight) and isinstance(b, MappedWeight)):
        return None
    if (a.file, a.name, a.entry, a.stamp, a.transposed, a.view) != (
            b.file, b.name, b.entry, b.stamp, b.transposed, b.view):
        return None
    first, second = a.overlay or NO_OVERLAY, b.overlay or NO_OVERLAY
    cells = np.union1d(first.cells, second.cells)
    if not cells.size:
        return cells.astype(np.int64)
    differ = ~np.isin(cells, first.cells) | ~np.isin(cells, second.cells)
    both = ~differ
    if both.any():
        at = cells[both]
        before = first.values[np.searchsorted(first.cells, at)]
        after = second.values[np.searchsorted(second.cells, at)]
        differ[both] = ~((before == after) & (np.signbit(before) == np.signbit(after)))
    found: npt.NDArray[np.int64] = cells[differ].astype(np.int64)
    return found


def held_bytes(weight: Weight) -> int:
    """The bytes of its own a weight holds in memory: a float64 array's, or a mapped weight's
    overlay (its stored numbers stay in their file)."""
    if not isinstance(weight, MappedWeight):
        return int(weight.nbytes)
    overlay = weight.overlay or NO_OVERLAY
    return int(overlay.cells.nbytes + overlay.values.nbytes)


def column_block(weight: Weight, start: int, stop: int) -> FloatArray:
    """Columns ``start:stop`` of the weight, laid out as the slice of the widened matrix (in
    this thread's :func:`widening_room` when one is open: valid until the next widening)."""
    if isinstance(weight, MappedWeight) and weight.transposed:
        rows = min(stop, weight.entry.shape[0]) - start
        return weight.columns(start, stop, _room(rows * weight.entry.shape[1]))
    return widened(weight)[:, start:stop]


def times(rows: FloatArray, weight: Weight) -> FloatArray:
    """rows · weight, a mapped weight widened for the product and let go after it (into this
    thread's :func:`widening_room` when one is open)."""
    if not isinstance(weight, MappedWeight):
        product: FloatArray = rows @ weight
        return product
    whole: FloatArray = rows @ weight.widened(_room(weight.size))
    return whole


_ROOMS = threading.local()


@contextmanager
def widening_room() -> Iterator[None]:
    """Within it, this thread's products by mapped weights widen each into one buffer, grown to
    the largest and reused (its pages touched once: on this machine a fresh float64 page costs
    ten times the widening), and freed at the end."""
    held = getattr(_ROOMS, "buffer", None)
    _ROOMS.buffer = np.empty(0) if held is None else held
    try:
        yield
    finally:
        _ROOMS.buffer = held


def _room(count: int) -> FloatArray | None:
    """This thread's room, holding at least ``count`` numbers (None: no room is open)."""
    buffer: FloatArray | None = getattr(_ROOMS, "buffer", None)
    if buffer is None or buffer.size >= count:
        return buffer
    _ROOMS.buffer = np.empty(count)
    room: FloatArray = _ROOMS.buffer
    return room


__all__ = ["DENSE", "NO_OVERLAY", "MappedWeight", "Overlay", "Stamp", "Weight", "cell",
           "column_block", "edited_between", "expect_weight", "held_bytes", "looked_up",
           "same_numbers", "stamped_header", "times", "widened", "widening_room"]
