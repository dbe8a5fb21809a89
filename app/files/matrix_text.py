"""Reading a matrix that a person pastes or imports: no Qt, never ``eval``.

Accepted shapes of text (:func:`parse_matrix_text`):

- spreadsheet cells: one row per line, cells separated by tabs, semicolons, commas or spaces
  (looked for in that order on each line; a decimal comma works with tabs or semicolons;
  quoted cells are unquoted; a header line of words is skipped);
- JSON-like nested lists: ``[[1, 2], [3, 4]]`` or one row ``[1, 2]``;
- NumPy's printed form: ``[[1. 2.]\\n [3. 4.]]``, also wrapped as ``array([[1., 2.]])``.

Files (:func:`load_matrix_file`): ``.npy`` (read with ``allow_pickle=False``; numeric, 1-D or
2-D), and ``.csv``, ``.tsv``, ``.txt`` or anything else as text.

Every refusal is a :class:`MatrixTextError` with a one-line message that says what is wrong and
where. A 1-D input is read as one row, so results are always 2-D.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from app.texts.words import say
from engine.io import wide_encoding
from engine.numbers import NumberTextError, parse_number

FloatArray = npt.NDArray[np.float64]

NUMBER_REASONS = {"empty": "number_empty", "not a number": "number_not",
                  "not finite": "number_not_finite"}
"""A :class:`~engine.numbers.NumberTextError` reason → its key among the ``matrix.*`` words
(:mod:`app.texts.words`)."""

MAX_TEXT_CHARS = 4_000_000
"""Longest text accepted (pasted or read from a file)."""
MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest ``.npy`` file accepted; text files are limited by :data:`MAX_TEXT_CHARS`."""
MAX_SIDE = 4096
"""Most rows or columns of an imported matrix (the editor's grids are much smaller)."""

_ARRAY_WRAPPER = re.compile(r"^(?:np\.|numpy\.)?array\((?P<body>.*)\)$", re.DOTALL)
_DTYPE_TAIL = re.compile(r",\s*dtype\s*=\s*[\w.'\"]+\s*$")
_TOKEN = re.compile(r"\[|\]|,|[^\s\[\],]+")
_SEPARATORS = ("\t", ";", ",")


class MatrixTextError(ValueError):
    """A matrix was refused: a reason key with its fields, worded in any language.

    ``str(error)`` is the English one-line message; :meth:`words` gives it in another language.

    Attributes
    ----------
    key
        The reason (an id of :mod:`app.texts.words` after ``matrix.``).
    fields
        The values the reason names (row, column, file name …).
    number
        The refusal of one cell's text, when that is the reason.
    file
        The file's name, when the matrix came from a file.
    """

    def __init__(self, key: str, number: NumberTextError | None = None,
                 file: str | None = None, **fields: object) -> None:
        self.key, self.number, self.file, self.fields = key, number, file, fields
        super().__init__(self.words("en"))

    def words(self, lang: str) -> str:
        """The one-line reason in ``lang``."""
        fields = dict(self.fields)
        if self.number is not None:
            fields["number"] = say(f"matrix.{NUMBER_REASONS[self.number.reason]}", lang,
                                   text=self.number.text)
        problem = say(f"matrix.{self.key}", lang, **fields)
        return problem if self.file is None else say("matrix.in_file", lang, name=self.file,
                                                     problem=problem)

    def in_file(self, name: str) -> MatrixTextError:
        """The same refusal, naming the file it came from."""
        return MatrixTextError(self.key, self.number, name, **self.fields)


def shape_text(rows: int, cols: int) -> str:
    """``3×2``: a shape as a person writes it."""
    return f"{rows}×{cols}"


# -- text ----------------------------------------------------------------------------------
def parse_matrix_text(text: str) -> FloatArray:
    """Read a matrix from pasted text; a single row for 1-D input.

    Raises
    ------
    MatrixTextError
        Empty text, something that is not a finite number (named with its line and column),
        rows of different lengths, unmatched brackets, or more than :data:`MAX_SIDE` rows or
        columns.
    """
    if len(text) > MAX_TEXT_CHARS:
        raise MatrixTextError("too_long", chars=f"{len(text):,}", limit=f"{MAX_TEXT_CHARS:,}")
    body = text.strip().lstrip("\ufeff")
    if not body:
        raise MatrixTextError("no_numbers")
    wrapped = _ARRAY_WRAPPER.match(body)
    if wrapped:
        body = _DTYPE_TAIL.sub("", wrapped.group("body").strip()).strip()
    if body.startswith("["):
        return _checked(_bracketed(body))
    return _checked(_cells(body))


def _bracketed(text: str) -> list[list[float]]:
    """Nested lists with or without commas: normalised to JSON, then read with ``json``."""
    parts: list[str] = []
    previous = ""
    depth = row = col = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token == "[":
            depth += 1
            row, col = (row + 1, 0) if depth == 2 else (row, col)
        elif token == "]":
            depth -= 1
        elif token != ",":
            col += 1
            try:
                number = parse_number(token)
            except NumberTextError as error:
                raise (MatrixTextError("at_cell", error, row=row, col=col) if row else
                       MatrixTextError("at_item", error, col=col)) from None
            token = repr(number)
        if previous not in ("", "[", ",") and token not in ("]", ","):
            parts.append(",")  # NumPy prints no commas: "1. 2." and "] ["
        parts.append(token)
        previous = token
    try:
        value = json.loads("".join(parts))
    except (json.JSONDecodeError, RecursionError):
        raise MatrixTextError("brackets") from None
    if not isinstance(value, list) or not value:
        raise MatrixTextError("empty_brackets")
    if all(isinstance(x, float) for x in value):
        return [value]
    rows: list[list[float]] = []
    for r, item in enumerate(value, start=1):
        if not isinstance(item, list):
            raise MatrixTextError("single_among_rows", row=r)
        if not all(isinstance(x, float) for x in item):
            raise MatrixTextError("nested", row=r)
        rows.append(item)
    return rows


def _cells(text: str) -> list[list[float]]:
    """Spreadsheet-like lines of cells; each line's separator is found on its own."""
    split: list[tuple[int, list[str]]] = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        separator = next((s for s in _SEPARATORS if s in line), None)
        if separator is None:
            split.append((line_no, line.split()))
            continue
        if line.count('"') % 2:
            raise MatrixTextError("open_quote", line=line_no)
        try:
            split.append((line_no, next(csv.reader([line], delimiter=separator, strict=True))))
        except (csv.Error, StopIteration) as error:
            raise MatrixTextError("split", line=line_no, detail=error) from None
    if len(split) > 1 and not any(_is_number(c) for c in split[0][1]):
        split = split[1:]  # a header line of column names
    rows: list[list[float]] = []
    for line_no, raw in split:
        cells = [c.strip() for c in raw]
        while cells and not cells[-1]:
            cells.pop()  # spreadsheets add empty trailing cells
        row: list[float] = []
        for col, cell in enumerate(cells, start=1):
            if not cell:
                raise MatrixTextError("cell_empty", line=line_no, col=col)
            try:
                row.append(parse_number(cell))
            except NumberTextError as error:
                raise MatrixTextError("cell_number", error, line=line_no, col=col) from None
        if row:
            rows.append(row)
    if not rows:
        raise MatrixTextError("no_numbers")
    return rows


def _is_number(cell: str) -> bool:
    try:
        parse_number(cell)
    except ValueError:
        return False
    return True


def _checked(rows: list[list[float]]) -> FloatArray:
    width = len(rows[0])
    for r, row in enumerate(rows[1:], start=2):
        if len(row) != width:
            raise MatrixTextError("ragged_one" if len(row) == 1 else "ragged", row=r,
                                  count=len(row), width=width)
    if len(rows) > MAX_SIDE or width > MAX_SIDE:
        raise MatrixTextError("too_large", shape=shape_text(len(rows), width), limit=MAX_SIDE)
    if width == 0:
        raise MatrixTextError("no_numbers")
    return np.array(rows, dtype=np.float64)


# -- files ---------------------------------------------------------------------------------
def load_matrix_file(path: str | os.PathLike[str]) -> FloatArray:
    """Read a matrix from a ``.npy`` file or a text file (CSV, TSV, pasted text).

    Raises
    ------
    MatrixTextError
        Naming the file and the problem: a folder, a device, too large, binary, not UTF-8,
        a pickled or non-numeric ``.npy``, 3-D or more, NaN or infinity, or any text problem.
    """
    file = Path(path)
    name = file.name or str(file)
    try:
        status = file.stat()
    except OSError as error:
        raise MatrixTextError("unreadable", detail=error.strerror or error).in_file(name) \
            from None
    try:
        if stat.S_ISDIR(status.st_mode):
            raise MatrixTextError("folder")
        if not stat.S_ISREG(status.st_mode):
            raise MatrixTextError("not_regular")
        if status.st_size > MAX_FILE_BYTES:
            raise MatrixTextError("file_too_big", size=f"{status.st_size:,}",
                                  limit=f"{MAX_FILE_BYTES:,}")
        if file.suffix.lower() in (".npy", ".npz"):
            return _npy(file)
        return _text_file(file)
    except MatrixTextError as error:
        raise error.in_file(name) from None


def _npy(file: Path) -> FloatArray:
    with file.open("rb") as stream:
        magic = stream.read(6)
    if magic.startswith(b"PK\x03\x04"):
        return _npz(file)
    if magic != b"\x93NUMPY":
        raise MatrixTextError("not_npy")
    shape, dtype, data_start = _npy_header(file)
    if dtype.kind not in "iuf":
        raise MatrixTextError("dtype", dtype=dtype)
    if len(shape) not in (1, 2):
        raise MatrixTextError("ndim", ndim=len(shape))
    rows, cols = (1, shape[0]) if len(shape) == 1 else shape
    if rows * cols == 0:
        raise MatrixTextError("empty_array")
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise MatrixTextError("too_large", shape=shape_text(rows, cols), limit=MAX_SIDE)
    if file.stat().st_size < data_start + rows * cols * dtype.itemsize:
        raise MatrixTextError("cut_short")
    try:
        loaded = np.load(file, allow_pickle=False)
    except Exception:  # NumPy raises many kinds for a damaged file
        raise MatrixTextError("not_npy") from None
    values = np.atleast_2d(loaded.astype(np.float64))
    bad = np.argwhere(~np.isfinite(values))
    if bad.size:
        r, c = (int(k) for k in bad[0])
        raise MatrixTextError("nan" if math.isnan(float(values[r, c])) else "infinity", row=r,
                              col=c)
    return values


def _npy_header(file: Path) -> tuple[tuple[int, ...], np.dtype[Any], int]:
    """The shape, dtype and data offset a ``.npy`` header declares, read without the data.

    Refuses what :func:`np.load` would only refuse after reading everything: Python objects.
    """
    fmt = np.lib.format
    try:
        with file.open("rb") as stream:
            version = fmt.read_magic(stream)
            read = {(1, 0): fmt.read_array_header_1_0,
                    (2, 0): fmt.read_array_header_2_0}.get(version)
            if read is None:
                raise ValueError(f"version {version}")
            shape, _fortran, dtype = read(stream)
            data_start = stream.tell()
    except Exception:  # NumPy raises many kinds for a damaged or foreign header
        raise MatrixTextError("not_npy") from None
    if dtype.hasobject:
        raise MatrixTextError("pickle")
    return tuple(int(side) for side in shape), dtype, data_start


def _npz(file: Path) -> FloatArray:
    """An ``.npz`` archive is refused: it may hold several arrays (none is read)."""
    try:
        archive = np.load(file, allow_pickle=False)
    except Exception:
        raise MatrixTextError("not_npy") from None
    archive.close()
    raise MatrixTextError("npz")


def _text_file(file: Path) -> FloatArray:
    limit = MAX_TEXT_CHARS * 4  # bytes: the most that many characters take in UTF-8
    size = file.stat().st_size
    if size > limit:
        raise MatrixTextError("text_too_big", size=f"{size:,}", limit=f"{limit:,}")
    with file.open("rb") as stream:
        raw = stream.read(limit + 1)
    encoding = wide_encoding(raw)
    if encoding is not None:
        raise MatrixTextError("wide_encoding", encoding=encoding)
    if b"\x00" in raw[:8192]:
        raise MatrixTextError("binary")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise MatrixTextError("not_utf8", byte=error.start) from None
    return parse_matrix_text(text)


# -- fitting into a grid -------------------------------------------------------------------
def fit_problem(block: tuple[int, int], grid_name: str, grid: tuple[int, int],
                at: tuple[int, int] = (0, 0), place: str | None = None,
                lang: str = "en") -> str | None:
    """Why a block cannot go into a grid from cell ``at``, or ``None`` if it fits.

    Parameters
    ----------
    block, grid
        (rows, columns) of the numbers and of the grid.
    grid_name
        The grid's name as the user sees it (``Wq``).
    at
        The top-left cell the block would start from.
    place
        How to name ``at`` (``Wq[1,0]``); given only for a paste at a cell other than the first.
    lang
        The language of the reason.
    """
    height, width = block
    rows, cols = grid
    row, col = at
    if row + height <= rows and col + width <= cols:
        return None
    shapes = {"block": shape_text(height, width), "grid": grid_name,
              "shape": shape_text(rows, cols)}
    if place and (row, col) != (0, 0):
        return say("matrix.fit_at", lang, place=place, **shapes)
    return say("matrix.fit", lang, **shapes)


def match_problem(block: tuple[int, int], grid_name: str, grid: tuple[int, int],
                  lang: str = "en") -> str | None:
    """Why a block cannot replace a whole grid (it must have the grid's shape), or ``None``."""
    if block == grid:
        return None
    key = "fill" if fit_problem(block, grid_name, grid) is None else "too_big_for_grid"
    return say(f"matrix.{key}", lang, block=shape_text(*block), grid=grid_name,
               shape=shape_text(*grid))


__all__ = ["MatrixTextError", "fit_problem", "load_matrix_file", "match_problem",
           "parse_matrix_text", "shape_text"]
