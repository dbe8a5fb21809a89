"""What a step layout needs: the trace, the view options, and grids built from named arrays."""

from __future__ import annotations

import copy
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from app.canvas.grid import LARGE_GRID_CELLS, Explainer, GridCells, GridSpec, MatrixGrid
from app.canvas.hidden_terms import guarded
from app.canvas.prepared_drawing import prepared_values
from app.canvas.theme import SLIDE, Theme
from app.canvas.verdict_marks import mark_verdicts
from app.model.operands import (
    ROLES,
    attention_of,
    axes_of,
    display_name,
    tokens_of,
    visible_of,
)
from app.model.run import RunPlace
from app.model.sheet import ASPECTS as ASPECTS
from app.model.sheet import SHEET_HEIGHT as SHEET_HEIGHT
from app.model.sheet import sheet_size as sheet_size
from app.texts.printed import printed_places
from app.texts.words import say
from engine import Step, Trace, explain, format_number
from engine.format.mapped_weight import MappedWeight, Weight, cell, widened
from engine.scenario.names import short_name
from engine.scenario.positions import Positions

HEADS_AT_ONCE = 8
"""The most heads drawn side by side; an attention with more (GPT-2's 12, Llama's 32) is drawn
one head at a time, head 1 unless one is chosen (the window's Head list, ``--head N``)."""


@lru_cache(maxsize=32)
def numbered(count: int) -> tuple[str, ...]:
    """The labels ``0`` … ``count − 1`` of an axis without tokens (a GPT-2 FFN has 3072)."""
    return tuple(map(str, range(count)))


def positioned_labels(trace: Trace, list_name: str, lang: str) -> list[str]:
    """The labels of a token list; where the stack adds positions (RoPE, ALiBi, position rows)
    each token carries its position (``好 · p2``), so three rows of one word are told apart."""
    tokens = tokens_of(trace, list_name)
    if positions_of(trace, list_name) is None:
        return tokens
    return [say("position.positioned", lang, token=t, p=p)
            for p, t in zip(row_positions(trace, list_name), tokens, strict=True)]


def row_positions(trace: Trace, list_name: str) -> Sequence[int]:
    """The position each row of a token list holds: row k is position k, unless the trace is
    drawn by token (:func:`engine.arithmetic.differences.in_token_order`)."""
    shown = trace.row_order
    if shown is not None and list_name == "tokens":
        return shown.positions
    return range(len(tokens_of(trace, list_name)))


def positions_of(trace: Trace, list_name: str) -> Positions | None:
    """The positions the stack of a token list adds (``tokens``: the decoder's,
    ``enc.tokens``: the encoder's); None for the vocabulary or a stack without."""
    scenario = trace.scenario
    if list_name == "tokens":
        return scenario.positions
    if list_name == "enc.tokens" and scenario.encoder is not None:
        return scenario.encoder.positions
    return None


_DRAWN: list[tuple[weakref.ref[MappedWeight], npt.NDArray[np.float64]]] = []
"""The mapped weights drawn last, widened, the latest last: a frame's layout measures its
grids several times (Wq, Wk and Wv in turn), and the grids' remembered shades and block means
are known by the array, so a repaint finds them without widening again. Each weight is held
weakly: its numbers go once no document holds it (:func:`_forget_gone`)."""
DRAWN_BYTES = 1 << 30
"""The most the widened weights kept for drawing hold besides the latest (the unembedding of
a 128,256-word vocabulary alone is 2.1 GB: it is kept on its own)."""


def _forget_gone(_gone: object = None) -> None:
    """Drop the numbers of weights no document holds any more (a weight's death calls it)."""
    _DRAWN[:] = [(held, values) for held, values in list(_DRAWN) if held() is not None]


def drawn(weight: Weight) -> npt.NDArray[np.float64]:
    """A parameter's numbers for a grid that draws them all: a mapped weight the worker made
    ready (:mod:`app.canvas.prepared_drawing`), or widened once while it is among those drawn
    last, a float64 array as it is."""
    if not isinstance(weight, MappedWeight):
        return weight
    ready = prepared_values(weight)
    if ready is not None:
        return ready
    found = next((k for k, (held, _) in enumerate(_DRAWN) if held() is weight), None)
    if found is not None:
        _DRAWN.append(_DRAWN.pop(found))
        return _DRAWN[-1][1]
    while _DRAWN and sum(values.size for _, values in _DRAWN) * 8 + weight.size * 8 \
            > DRAWN_BYTES:
        _DRAWN.pop(0)  # let the oldest go before widening the next
    values = widened(weight)
    _DRAWN.append((weakref.ref(weight, _forget_gone), values))
    return values


@dataclass(frozen=True, eq=False)
class Blanks:
    """The cells an exercise hides, one boolean mask per trace array name
    (:func:`engine.exercises.fit.hidden_masks`): every grid of such an array, on any step,
    draws them empty (:attr:`GridSpec.asked`). Equal only to itself, so frame options holding
    it compare cheaply."""

    masks: Mapping[str, npt.NDArray[np.bool_]]
    marks: Mapping[tuple[str, tuple[int, ...]], bool] = field(default_factory=dict)
    """After Check, each checked blank's verdict (right or not) by array and full index: its
    box is marked ✓ or ✗ (:mod:`app.canvas.verdict_marks`)."""


@dataclass(frozen=True)
class FrameOptions:
    """How a frame is drawn; the same options drive the window and every exporter.

    Attributes
    ----------
    receiver
        The query row in focus; ``None`` means the last position.
    head
        One head (0-based) or ``None`` for all heads.
    show_all_arrows
        With many positions, draw every arrow instead of each row's strongest.
    theme
        Colours; exports never take the dark one (see :func:`app.export.render.export_options`).
    caption
        An optional line under the frame.
    transparent
        Leave the background unpainted (PNG exports).
    lang
        Language of the frame's words (``"en"`` or ``"zh"``; see :mod:`app.texts.frame_words`).
    decimals
        Decimals the grids print, overriding the document's ``display.decimals`` (an export's
        ``--decimals``); ``None`` follows the document.
    aspect
        The sheet a frame is composed for: ``"16:9"`` (1920×1080 scene units) or ``"4:3"``
        (1440×1080); see :func:`sheet_size`.
    worked_row
        Draw the receiver's worked arithmetic at the scores, shares and mix steps (the window
        turns it on for documents of at most four positions; View → Worked row).
    route_map
        Draw the map of the computation with the current step lit.
    arrows
        Draw the arrows beside the shares and the mix (a comparison leaves them out: its two
        halves are read grid by grid, row by row, at a size the numbers need).
    run_place
        The token of a generation run whose steps the trace is (the document that drew it):
        the heading and the map say where in the run (``Token 2 of 3 “爱”``); ``None``: a
        document's own steps.
    blanks
        Cells an exercise hides (the window's exercise mode, a worksheet): drawn empty;
        ``None`` hides nothing.
    """

    receiver: int | None = None
    head: int | None = None
    show_all_arrows: bool = False
    theme: Theme = SLIDE
    caption: str = ""
    transparent: bool = False
    lang: str = "en"
    decimals: int | None = None
    aspect: str = "16:9"
    worked_row: bool = False
    route_map: bool = True
    arrows: bool = True
    run_place: RunPlace | None = None
    blanks: Blanks | None = None


class LayoutContext:
    """Builds grids for one trace with consistent labels, colours and hover explanations."""

    def __init__(self, trace: Trace, options: FrameOptions) -> None:
        self.trace = trace
        self.options = options
        self.theme = options.theme
        scenario = trace.scenario
        self.tokens = list(scenario.tokens)
        self.labels = positioned_labels(trace, "tokens", options.lang)
        """The row labels of the tokens: ``好 · p2`` when the rows carry positions."""
        self.positions = row_positions(trace, "tokens")
        """The position each row holds (:func:`row_positions`)."""
        self.n = scenario.n
        last = self.n - 1
        self.receiver = last if options.receiver is None else max(0, min(last, options.receiver))
        self.head_count = attention_of(trace).heads
        self.heads = self._heads_shown(self.head_count)
        self.vocab = tokens_of(trace, "vocab")
        self.places = self.places_for(trace, options)
        """Decimals a grid prints: the export's, else the document's, else the default."""
        self.made: list[tuple[str, MatrixGrid]] = []
        """Every grid built by :meth:`grid`, with the array it shows (comparisons mark them)."""
        self.worded: dict[tuple[object, ...], Any] = {}
        """Words a picture prints, worked out once per context (of this trace, options and
        language; shared with :meth:`for_step`'s contexts, so a key holds whatever else they
        depend on): the type scale's search lays a frame out hundreds of times (RoPE's
        dials: 300 layouts of 32 dials each at Llama's width)."""
        self._labels: dict[tuple[str, int, int], Sequence[str]] = {}
        """:meth:`labels_for`'s answers (of this trace and language, shared with
        :meth:`for_step`'s contexts): the type scale's search makes thousands of grids of a
        frame's few arrays."""
        self.widest: dict[tuple[str, bool], tuple[str, tuple[tuple[int, str], ...]]] = {}
        """The text each array's cells are as wide as and its wider columns on a back row, by
        name and whether every cell is printed at full size
        (:func:`app.canvas.compose._widest`'s, of this trace: a composition looks its steps'
        fits up by the arrays each shows, and a step with a worked row shows every one)."""

    def for_step(self, step: Step) -> LayoutContext:
        """This context for one step: a step whose rows are another token list (the
        encoder's) gets its tokens, count and receiver (the same position, or its last row);
        an attention step gets its own heads (layers of a stack may have different counts).
        The grids made are the same list."""
        tokens = tokens_of(self.trace, step.rows)
        heads = attention_of(self.trace, step).heads if ROLES[step.op].attention \
            else self.head_count
        if tokens == self.tokens and heads == self.head_count:
            return self
        other = copy.copy(self)
        other.tokens = tokens
        other.labels = positioned_labels(self.trace, step.rows, self.options.lang)
        other.positions = row_positions(self.trace, step.rows)
        other.n = len(tokens)
        other.receiver = min(self.receiver, other.n - 1)
        other.head_count = heads
        other.heads = self._heads_shown(heads)
        return other

    def _heads_shown(self, heads: int) -> list[int]:
        """Every head (head 1 alone past :data:`HEADS_AT_ONCE`), or the one chosen (the last
        there is, if this attention has fewer)."""
        chosen = self.options.head
        if chosen is None:
            return list(range(heads)) if heads <= HEADS_AT_ONCE else [0]
        return [max(0, min(heads - 1, chosen))]

    @staticmethod
    def places_for(trace: Trace, options: FrameOptions | None = None) -> int:
        """Decimals the grids of ``trace`` print (:func:`~app.texts.printed.printed_places`,
        with the export's ``options.decimals``); the step texts print the same."""
        return printed_places(trace, options.decimals if options is not None else None)

    def array(self, name: str) -> npt.NDArray[np.float64]:
        """A trace array, or a parameter by its document path (vectors as one row)."""
        if name in self.trace.arrays:
            return self.trace.arrays[name]
        values = drawn(self.trace.scenario.weight(name))
        return values.reshape(1, -1) if values.ndim == 1 else values

    def labels_for(self, name: str, axis: int, count: int) -> Sequence[str]:
        """Row (``axis`` 0) or column labels of the array ``name``: the token list the tape
        gives that axis when it has ``count`` entries, else numbers."""
        known = self._labels.get((name, axis, count))
        if known is None:
            known = self._labels[(name, axis, count)] = self._labels_of(name, axis, count)
        return known

    def _labels_of(self, name: str, axis: int, count: int) -> Sequence[str]:
        """:meth:`labels_for`, worked out."""
        if name in self.trace.arrays:
            lists = axes_of(self.trace, name)
        else:
            lists = ("", "vocab" if name.endswith(".unembed") else "")
        labels = positioned_labels(self.trace, lists[axis], self.options.lang) \
            if lists[axis] else []
        return labels if len(labels) == count else numbered(count)

    def hidden(self, step: Step) -> npt.NDArray[np.bool_] | None:
        """The cells of ``step``'s scores and shares the mask hides, or None when it hides none
        (nothing is marked)."""
        hidden = ~visible_of(self.trace, step)
        return hidden if hidden.any() else None

    def grid(self, name: str, *, title: str | None = None, head: int | None = None,
             columns: slice | None = None, transpose: bool = False, note: str = "",
             value_range: tuple[float, float] | None = None,
             masked: npt.NDArray[np.bool_] | None = None,
             highlight_receiver: bool = False,
             marked: npt.NDArray[np.bool_] | None = None,
             decimals: int | None = None) -> MatrixGrid:
        """A grid of the array ``name`` (a 2-D slice ``[head]`` of a 3-D one, some ``columns``);
        ``masked`` marks the cells the mask hides."""
        full = self.array(name)
        values = full[head] if head is not None else full
        col_offset = 0
        if columns is not None:
            col_offset = columns.start or 0
            values = values[:, columns]
        rows = self.labels_for(name, 0, values.shape[0])
        cols = self.labels_for(name, 1, full.shape[-1])[columns or slice(None)]
        if transpose:
            values, rows, cols = values.T, cols, rows
        short = short_name(name) if name in self.trace.arrays else display_name(name)
        if values.size > LARGE_GRID_CELLS and len(rows) == self.n and not transpose:
            highlight_receiver = True  # a large grid prints the numbers of its receiver row
        spec = GridSpec(
            title=title or short, values=values, row_labels=rows, col_labels=cols,
            value_range=value_range, note=note,
            masked=masked,
            asked=self.asked(name, head, columns, transpose),
            highlight_rows=frozenset({self.receiver}) if highlight_receiver else frozenset(),
            marked=marked,
            swatch=self._swatch(name, head, columns),
            explain=self._explainer(name, head, col_offset, transpose), lang=self.options.lang,
            decimals=self.places if decimals is None else decimals)
        made = MatrixGrid(spec, self.theme)
        if name in self.trace.arrays:
            made.source = (name, GridCells(head, col_offset, transpose))
        if spec.asked is not None:
            self.mark_verdicts(made, name, head, columns, transpose)
        self.made.append((name, made))
        return made

    @staticmethod
    def _sliced(values: npt.NDArray[Any], head: int | None, columns: slice | None,
                transpose: bool) -> npt.NDArray[Any]:
        """A whole array's cells as a grid of it shows them."""
        part = values[head] if head is not None else values
        if columns is not None:
            part = part[:, columns]
        return part.T if transpose else part

    def asked(self, name: str, head: int | None = None, columns: slice | None = None,
              transpose: bool = False) -> npt.NDArray[np.bool_] | None:
        """The cells of a grid of ``name`` an exercise hides, sliced as the grid's values (a
        grid drawn its own way, as the joined heads, asks for them too)."""
        blanks = self.options.blanks
        mask = blanks.masks.get(name) if blanks is not None else None
        if mask is None:
            return None
        part = self._sliced(mask, head, columns, transpose)
        return part if part.any() else None

    def mark_verdicts(self, grid: MatrixGrid, name: str, head: int | None = None,
                      columns: slice | None = None, transpose: bool = False) -> None:
        """✓ or ✗ on the blanks of ``grid`` the last Check judged."""
        blanks = self.options.blanks
        if blanks is None or not blanks.marks:
            return
        judged = np.zeros(blanks.masks[name].shape, dtype=np.int8)  # 1 right, 2 wrong
        for (array, index), right in blanks.marks.items():
            if array == name:
                judged[index] = 1 if right else 2
        part = self._sliced(judged, head, columns, transpose)
        mark_verdicts(grid, ((r, c, bool(part[r, c] == 1)) for r, c in np.argwhere(part).tolist()),
                      self.options.lang)

    def _swatch(self, name: str, head: int | None, columns: slice | None) -> str:
        """The colour of the head a grid belongs to (a head's slice of Q, K, V or mixed too)."""
        if self.head_count < 2:
            return ""
        if head is None and columns is not None:
            start = columns.start or 0
            width = (columns.stop or 0) - start
            if width > 0 and start % width == 0:
                head = start // width
        return self.theme.heads[head % len(self.theme.heads)] if head is not None else ""

    def _explainer(self, name: str, head: int | None, col_offset: int,
                   transpose: bool) -> Explainer:
        """A grid's cell tip; it holds the trace, never this context: the context keeps the
        grids it made (:attr:`made`), and a grid holding the context back made a cycle that
        kept a replaced document's weights (Llama-3.2-1B's, gigabytes) until Python's cycle
        collector happened to run."""
        trace, lang, places = self.trace, self.options.lang, self.places
        if name not in trace.arrays:
            parameter = trace.scenario.weight(name)
            short = display_name(name)

            def parameter_text(row: int, col: int) -> str:
                r, c = (col, row) if transpose else (row, col)
                if parameter.ndim == 1:
                    value, index = cell(parameter, (c,)), f"{c}"
                else:
                    value, index = cell(parameter, (r, c)), f"{r},{c}"
                return say("frame.parameter_tip", lang, name=short, index=index,
                           value=format_number(value, places))

            return parameter_text

        blanks = self.options.blanks

        def array_text(row: int, col: int) -> str:
            r, c = (col, row) if transpose else (row, col)
            c += col_offset
            index = (head, r, c) if head is not None else (r, c)
            why = explain(trace, name, index, lang, places)
            return why.text() if blanks is None else guarded(why, blanks.masks)

        return array_text
