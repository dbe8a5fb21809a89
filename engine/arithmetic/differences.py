"""Two traces of one lesson side by side: which arrays differ, by how much, and which are missing.

A comparison pairs every array the two traces have under the same name, trace arrays first
(``X``, ``norm1`` … ``probs``) and then the scenario's parameters by document path
(``attention.Wq``, ``block.unembed`` …). Pairs of the same shape get their difference ``B − A`` and
its largest absolute value; pairs whose shapes disagree and names found on one side only are
listed apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from engine.format.mapped_weight import Weight, same_numbers, widened
from engine.format.reader import FloatArray
from engine.forward.trace import RowOrder, Step, Trace
from engine.scenario.swap import reordered


@dataclass(frozen=True, eq=False)
class ArrayDifference:
    """One array present in both traces with the same shape.

    Attributes
    ----------
    name
        The array's name (``"norm1"``) or parameter path (``"block.unembed"``).
    a, b
        The array in trace A and in trace B (a parameter as the document holds it: a weight
        left in its checkpoint stays there).
    difference
        ``b − a``, elementwise (a read-only 0 of no memory where A and B hold the same
        weight left in its checkpoint: nothing is widened to find it).
    max_abs
        ``max |b − a|`` (0 for an empty array).
    """

    name: str
    a: Weight
    b: Weight
    difference: FloatArray
    max_abs: float

    def differs(self, tolerance: float = 0.0) -> bool:
        """True when some element moved by more than ``tolerance``."""
        return self.max_abs > tolerance


@dataclass(frozen=True, eq=False)
class Comparison:
    """Everything two traces have in common, and what they do not.

    Attributes
    ----------
    common
        Arrays in both with the same shape, by name, in A's order.
    reshaped
        Arrays in both whose shapes disagree: name → (shape in A, shape in B).
    only_a, only_b
        Names present in one trace only.
    """

    common: dict[str, ArrayDifference]
    reshaped: dict[str, tuple[tuple[int, ...], tuple[int, ...]]]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]

    def changed(self, tolerance: float = 0.0) -> list[str]:
        """Names of the common arrays that differ, in order."""
        return [name for name, d in self.common.items() if d.differs(tolerance)]

    def unchanged(self, tolerance: float = 0.0) -> list[str]:
        """Names of the common arrays that are equal (within ``tolerance``), in order."""
        return [name for name, d in self.common.items() if not d.differs(tolerance)]

    def of_step(self, steps: Iterable[Step], tolerance: float = 0.0) -> StepComparison:
        """What a step (or the same step on both sides) reads and writes, sorted by outcome."""
        names: list[str] = []
        for step in steps:
            names += [n for n in (*step.reads, *step.writes) if n not in names]
        return StepComparison(
            changed=tuple(n for n in names if n in self.common and
                          self.common[n].differs(tolerance)),
            unchanged=tuple(n for n in names if n in self.common and
                            not self.common[n].differs(tolerance)),
            reshaped=tuple(n for n in names if n in self.reshaped),
            only_a=tuple(n for n in names if n in self.only_a),
            only_b=tuple(n for n in names if n in self.only_b))


@dataclass(frozen=True)
class StepComparison:
    """The arrays one step shows, sorted into changed, unchanged, reshaped and one-sided."""

    changed: tuple[str, ...]
    unchanged: tuple[str, ...]
    reshaped: tuple[str, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]


def named_arrays(trace: Trace, parameters: bool = True) -> dict[str, Weight]:
    """The trace's arrays and, with ``parameters``, the scenario's editable arrays by path (a
    weight left in its checkpoint as such, unwidened)."""
    arrays: dict[str, Weight] = dict(trace.arrays)
    if parameters:
        scenario = trace.scenario
        for path in scenario.parameter_paths():
            arrays.setdefault(path, scenario.weight(path))
    return arrays


def token_axes(trace: Trace) -> dict[str, tuple[int, ...]]:
    """The axes of each array that the trace's tokens label: the rows of what a step writes
    for the tokens, and the key columns of attention over them (``scores``: axes 1 and 2).

    An array no step lists as written (the input ``X``, the added ``positions``, RoPE's
    angles, a norm's statistics, the FFN's pre-activation) has one row per position of its
    stack: the tokens' unless it is the encoder's (``enc.``). The input rows ``X`` of the
    document (a parameter) are labelled by the tokens too.
    """
    axes: dict[str, tuple[int, ...]] = {"X": (0,)}
    for step in trace.steps:
        for name in step.writes:
            array = trace.arrays.get(name)
            if array is None:
                continue
            rows = [array.ndim - 2] if step.rows == "tokens" and array.ndim >= 2 else []
            keys = [2] if step.keys == "tokens" and array.ndim == 3 else []
            axes[name] = (*rows, *keys)
    for name, array in trace.arrays.items():
        if name not in axes:
            axes[name] = (0,) if array.ndim == 2 and not name.startswith("enc.") else ()
    return axes


def by_token(trace: Trace, arrays: dict[str, FloatArray],
             order: Sequence[int]) -> dict[str, FloatArray]:
    """``arrays`` of ``trace`` with every token axis reordered: index k takes index
    ``order[k]``, so that a token sits where it sat in the trace it is compared with."""
    axes = token_axes(trace)
    out = dict(arrays)
    for name, axis_list in axes.items():
        if name in out:
            for axis in axis_list:
                out[name] = np.take(out[name], list(order), axis=axis)
    return out


def in_token_order(trace: Trace, order: Sequence[int]) -> Trace:
    """``trace`` drawn by token: every token axis reordered as :func:`by_token` does (its
    scenario's tokens and input rows too, and the attentions' visibility), so that row k shows
    the token at ``order[k]``; its :class:`~engine.forward.trace.RowOrder` keeps where each row sits
    and the computed trace (:func:`source_cell`)."""
    rows = list(order)
    visibility = {scope: _visible_by_token(scope, visible, rows)
                  for scope, visible in trace.visibility.items()}
    return replace(trace, scenario=reordered(trace.scenario, rows),
                   arrays=by_token(trace, trace.arrays, rows),
                   visible=_visible_by_token("", trace.visible, rows), visibility=visibility,
                   row_order=RowOrder(trace, tuple(rows)))


def _visible_by_token(scope: str, visible: np.ndarray, rows: list[int]) -> np.ndarray:
    """Which keys each query sees, by token: the encoder's attention does not move, the
    cross-attention's queries do (its keys are the encoder's), self-attention's both."""
    if scope.startswith("enc."):
        return visible
    moved = visible[rows]
    return moved if "cross." in scope else moved[:, rows]


def source_cell(trace: Trace, name: str, index: tuple[int, ...]) -> tuple[Trace, tuple[int, ...]]:
    """The computed trace and the index there of cell ``index`` of array ``name`` of a trace
    drawn by token (:func:`in_token_order`); ``trace`` and ``index`` themselves otherwise."""
    shown = trace.row_order
    if shown is None:
        return trace, index
    source = shown.source
    moved = list(index)
    for axis in token_axes(source).get(name, ()):
        if axis < len(moved):
            moved[axis] = shown.positions[moved[axis]]
    return source, tuple(moved)


def compare(a: Trace, b: Trace, parameters: bool = True,
            order: Sequence[int] | None = None) -> Comparison:
    """Pair the arrays of ``a`` and ``b`` by name and measure ``B − A``.

    Parameters
    ----------
    a, b
        Two traces, usually of one scenario under two settings.
    parameters
        Also compare the scenarios' parameters (``attention.Wq`` …), not only trace arrays.
    order
        Pair rows by token rather than by position: row k of A with row ``order[k]`` of B (and
        likewise the key columns of the shares). For two tokens swapped, the swap's
        :func:`engine.scenario.swap.swap_order`.
    """
    arrays_a, arrays_b = named_arrays(a, parameters), named_arrays(b, parameters)
    if order is not None:  # a weight left in its checkpoint has no token axis
        arrays_b = {**arrays_b, **by_token(b, {name: values for name, values in arrays_b.items()
                                               if isinstance(values, np.ndarray)}, order)}
    common: dict[str, ArrayDifference] = {}
    reshaped: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    for name, left in arrays_a.items():
        right = arrays_b.get(name)
        if right is None:
            continue
        if left.shape != right.shape:
            reshaped[name] = (tuple(left.shape), tuple(right.shape))
            continue
        if same_numbers(left, right):
            common[name] = ArrayDifference(name, left, right,
                                           np.broadcast_to(0.0, left.shape), 0.0)
            continue
        difference = widened(right) - widened(left)
        max_abs = float(np.abs(difference).max()) if difference.size else 0.0
        common[name] = ArrayDifference(name, left, right, difference, max_abs)
    return Comparison(common=common, reshaped=reshaped,
                      only_a=tuple(n for n in arrays_a if n not in arrays_b),
                      only_b=tuple(n for n in arrays_b if n not in arrays_a))


def matching_step(a: Trace, b: Trace, index: int) -> int:
    """The step of ``b`` that shows what step ``index`` of ``a`` shows.

    Steps are matched by id (pre-norm and post-norm blocks have the same ids in another order);
    a step ``b`` lacks maps to the nearest position.
    """
    index = max(0, min(len(a.steps) - 1, index))
    try:
        return b.step_index(a.steps[index].id)
    except ValueError:
        return min(index, len(b.steps) - 1)


__all__ = ["ArrayDifference", "Comparison", "StepComparison", "by_token", "compare",
           "in_token_order", "matching_step", "named_arrays", "source_cell", "token_axes"]
