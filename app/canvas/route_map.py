"""A map of where you are: the document's steps as a chain of small boxes, the current one lit.

The chain follows the document's real structure, because it is read from its trace: embed (with
token ids), Q/K/V (×heads), scores, mask + softmax, mix (· Wo), and for a decoder block its
norms and residuals in pre- or post-norm order, the feed-forward, the final norm and the
vocabulary head. In the window a click on a box jumps to that step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsObject,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from app.canvas.context import LayoutContext
from app.canvas.layout import TextItem
from app.canvas.theme import Theme
from app.model.operands import attention_of, module_of, qk_norm_of, same_step_in_layer
from app.plain_text import as_written
from app.texts.run_words import in_run
from app.texts.scope import EMBEDDING_NORM, TYPES
from app.texts.step_labels import layers_group, step_groups
from app.texts.words import say
from engine import Step, Trace
from engine.scenario.names import NORM_NAMES
from engine.scenario.op_table import op_table

SIZE = 13
BOX_PAD = 7.0
ARROW = 16.0


def step_label(trace: Trace, step: Step, lang: str) -> str:
    """The short name of a step on the map (``mask + softmax``, ``Q/K/V ×2``, ``+ residual``)."""
    return MAP_LABELS[step.op](trace, step, lang)


Label = Callable[[Trace, Step, str], str]


def _word(key: str) -> Label:
    """A label that is one map word."""
    return lambda trace, step, lang: say(f"canvas.{key}", lang)


def _projections(trace: Trace, step: Step, lang: str) -> str:
    heads = attention_of(trace, step).heads
    return say("canvas.projections_heads", lang, heads=heads) if heads > 1 \
        else say("canvas.projections", lang)


def _weights(trace: Trace, step: Step, lang: str) -> str:
    return say("canvas.weights_masked" if attention_of(trace, step).causal
               else "canvas.weights", lang)


def _mix(trace: Trace, step: Step, lang: str) -> str:
    return say("canvas.mix_wo" if attention_of(trace, step).Wo is not None else "canvas.mix", lang)


def _sum(trace: Trace, step: Step, lang: str) -> str:
    """``+ positions``, ``+ types`` or both: the rows the step adds."""
    typed = step.explain_key == TYPES
    if not typed:
        return say("canvas.positions", lang)
    both = any(name.endswith("positions") for name in step.reads)
    return say("canvas.positions_types" if both else "canvas.types", lang)


def _norm(trace: Trace, step: Step, lang: str) -> str:
    """A block's norm (``Norm``, ``final Norm``, ``no norm``), an attention's QK-norm, or the
    norm of the embeddings."""
    qk_norm = qk_norm_of(trace, step)
    if qk_norm is not None:
        return say("canvas.qk_norm", lang, norm=NORM_NAMES[qk_norm])
    if step.explain_key == EMBEDDING_NORM:
        return say("canvas.embedding_norm", lang, norm=NORM_NAMES[module_of(trace, step).norm])
    norm = say("canvas.no_norm", lang) if module_of(trace, step).norm == "none" \
        else say("canvas.norm_word", lang)
    key = step.explain_key
    kind = ("final_norm" if key.endswith("final_norm") else
            "norm_parallel" if key == "block.norm2_parallel" else "norm")
    return say(f"canvas.{kind}", lang, norm=norm)


def _residual(trace: Trace, step: Step, lang: str) -> str:
    """``+ residual``, or a parallel block's ``+ attn + FFN`` (both outputs added at once)."""
    return say("canvas.resid_parallel" if len(step.reads) > 2 else "canvas.resid", lang)


MAP_LABELS = op_table("canvas.map_label", {
    "embed": _word("embed"),
    "positions": _sum,
    "inputs": _word("inputs"),
    "norm": _norm,
    "projection": _projections,
    "rope": _word("rope"),
    "scores": _word("scores"),
    "weights": _weights,
    "mix": _mix,
    "residual": _residual,
    "ffn": _word("ffn"),
    "router": _word("router"),
    "experts": _word("experts"),
    "transform": _word("transform"),
    "logits": _word("logits"),
    "softcap": _word("softcap"),
    "probs": _word("probs"),
    "loss": _word("loss"),
    "sample": _word("sample"),
})
"""Each op kind's box label on the map."""


class MapBox(QGraphicsObject):
    """One step on the map, with the arrow from the box before (unless it is the ``first``);
    ``clicked(step_index)`` when pressed in the window."""

    clicked = Signal(int)

    def __init__(self, label: str, step_index: int, current: bool, theme: Theme,
                 description: str, first: bool = False) -> None:
        super().__init__()
        self.step_index = step_index
        self.current = current
        self.description = description
        self._theme = theme
        self._arrow = 0.0 if first else ARROW
        self.label = TextItem(label, theme, size=SIZE, bold=current)
        self.label.setParentItem(self)
        self.label.setPos(self._arrow + BOX_PAD, BOX_PAD / 2)
        text = self.label.boundingRect()
        self._box = QRectF(self._arrow, 0, text.width() + 2 * BOX_PAD, text.height() + BOX_PAD)
        self._rect = self._box.adjusted(-self._arrow, 0, 0, 0)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(as_written(description))
        self.setAcceptedMouseButtons(Qt.MouseButton.LeftButton)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self._arrow:
            middle = self._box.center().y()
            start, end = QPointF(3, middle), QPointF(self._arrow - 3, middle)
            painter.setPen(QPen(self._theme.color("muted"), 1.5))
            painter.drawLine(start, end)
            painter.drawLine(end, end + QPointF(-5, -4))
            painter.drawLine(end, end + QPointF(-5, 4))
        accent = self._theme.color("accent")
        painter.setPen(QPen(accent if self.current else self._theme.color("grid_line"),
                            3 if self.current else 1))
        painter.setBrush(QBrush(self._theme.color("accent", 0.18) if self.current
                                else self._theme.color("panel")))
        painter.drawRoundedRect(self._box.adjusted(1, 1, -1, -1), 5, 5)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self.clicked.emit(self.step_index)
        event.accept()


class RouteMap(QGraphicsObject):
    """The chain of :class:`MapBox` items, one row; it paints nothing itself."""

    def __init__(self, boxes: list[MapBox], title: str, theme: Theme) -> None:
        super().__init__()
        self.boxes = boxes
        self._theme = theme
        heading = TextItem(title, theme, size=SIZE, role="muted")
        heading.setParentItem(self)
        x = heading.boundingRect().width() + 8
        height = max([b.boundingRect().height() for b in boxes] + [0.0])
        heading.setPos(0, (height - heading.boundingRect().height()) / 2)
        for box in boxes:
            box.setParentItem(self)
            box.setPos(x, (height - box.boundingRect().height()) / 2)
            x += box.boundingRect().width()
        self._rect = QRectF(0, 0, x, height)

    @property
    def current(self) -> MapBox | None:
        return next((b for b in self.boxes if b.current), None)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        return


FOLDED_FROM = 3
"""Runs of at least this many layers away from the current one share one box on the map
(``Layers 3–12 ▸``): a 12-layer model's map is 14 to 16 boxes, not 23, however deep it is; a
three-layer model's keeps a box per layer."""


@dataclass(frozen=True)
class _OtherLayer:
    """A layer of the map other than the current step's: one box that jumps to ``target``."""

    group: str
    stack: str
    layer: int
    target: int


def route_map(ctx: LayoutContext, step: Step) -> RouteMap:
    """The map of ``ctx``'s document with ``step`` highlighted, its title naming the token of
    the run whose steps these are (:attr:`FrameOptions.run_place`). In a stack only the current
    step's layer shows its steps; every other layer is one box (``Layer 2 ▸``) that jumps to
    the same step in that layer: the canvas's layer selector. The layers next to where you are
    keep a box each; a run of :data:`FOLDED_FROM` or more layers further away is one box
    (``Layers 3–12 ▸``) that jumps to the same step in the run's layer nearest to you."""
    trace, lang = ctx.trace, ctx.options.lang
    index = trace.step_index(step.id)
    groups = step_groups(trace.steps, lang)
    chain: list[int | _OtherLayer] = []
    for k, each in enumerate(trace.steps):
        if each.layer and groups[k] != groups[index]:
            if k and groups[k - 1] == groups[k]:
                continue  # one box per other layer
            target = same_step_in_layer(trace, index, each.layer, each.stack)
            assert target is not None  # the layer of ``each`` has ``each`` at least
            chain.append(_OtherLayer(groups[k], each.stack, each.layer, target))
        else:
            chain.append(k)
    boxes: list[MapBox] = []
    for run in _folded(chain, groups[index], groups):
        if isinstance(run, int):
            label = step_label(trace, trace.steps[run], lang)
            boxes.append(MapBox(label, run, run == index, ctx.theme,
                                say("canvas.map_step", lang, n=run + 1, label=label),
                                not boxes))
        elif len(run) == 1:
            boxes.append(MapBox(f"{run[0].group} ▸", run[0].target, False, ctx.theme,
                                say("canvas.map_layer", lang, layer=run[0].group), not boxes))
        else:
            nearest = run[-1] if run[-1].target < index else run[0]
            layers = layers_group(trace.steps, nearest.stack, run[0].layer, run[-1].layer, lang)
            boxes.append(MapBox(f"{layers} ▸", nearest.target, False, ctx.theme,
                                say("canvas.map_layers", lang, layers=layers,
                                    layer=nearest.group), not boxes))
    return RouteMap(boxes, in_run(ctx.options.run_place, say("canvas.map_title", lang), lang),
                    ctx.theme)


def _folded(chain: list[int | _OtherLayer], here: str, groups: list[str]
            ) -> list[int | list[_OtherLayer]]:
    """``chain`` with each other layer a run of its own, but for the runs of
    :data:`FOLDED_FROM` or more layers of one stack that are not next to a step of the group
    ``here``: those are one run each."""
    def kind(at: int) -> tuple[str, bool] | None:
        entry = chain[at]
        if isinstance(entry, int):
            return None
        near = [chain[k] for k in (at - 1, at + 1) if 0 <= k < len(chain)]
        beside = any(isinstance(step, int) and groups[step] == here for step in near)
        return entry.stack, not beside

    runs: list[int | list[_OtherLayer]] = []
    for key, places in groupby(range(len(chain)), kind):
        entries = [chain[at] for at in places]
        layers = [entry for entry in entries if isinstance(entry, _OtherLayer)]
        if key is None:
            runs.extend(entry for entry in entries if isinstance(entry, int))
        elif key[1] and len(layers) >= FOLDED_FROM:
            runs.append(layers)
        else:
            runs.extend([layer] for layer in layers)
    return runs

