"""Variants of a document with numbers a student can work by hand, for worksheets.

The rule: the input rows ``X`` (when typed, not looked up) take whole numbers from −2 to 2, every
attention's ``Wq`` and ``Wk`` halves from −1 to 1, its ``Wv`` whole numbers from −2 to 2; the
other parameters stay as they are. So every projection is a sum of halves and every score a
half-integer over √dₖ. A draw is kept only when the softmax still discriminates: in every row of
every attention with two or more visible keys, the visible scores spread by at least
:data:`LEAST_SPREAD` (no even split) and at most :data:`MOST_SPREAD` (no share within a few
percent of 1), and the variant differs from the document. A worksheet asks this of the
attentions its exercises show, and only of the query rows they ask about where they ask about
rows (:func:`asked_rows`): in pronoun's ten-token sentence no draw of 2,000 kept all nine
rows, while its row 7 alone is kept in about one draw in eight. A draw must also teach what the
sheet's questions teach on the document (:mod:`engine.exercises.lesson`): F11's variants where Wq
or Wk would leave the shares unchanged, or where "a key moves" would not move, are drawn again.
Variant k of seed s always draws the same numbers (``numpy.random.default_rng((s, k))``); every
answer is then computed on it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence

import numpy as np

from engine.exercises.document import Exercise
from engine.exercises.fit import hidden_masks, watched
from engine.exercises.lesson import Lesson, lesson_lost
from engine.format.errors import ScenarioError
from engine.forward.trace import Trace, compute
from engine.scenario.edit import with_parameter
from engine.scenario.op_kinds import steps_of
from engine.scenario.scenario import Scenario
from engine.words.refusals import Refusal

WHOLE = np.arange(-2.0, 3.0)
HALVES = np.arange(-2.0, 3.0) / 2
LEAST_SPREAD = 0.5
MOST_SPREAD = 3.0
"""Two keys 3 apart share e³ : 1, about 0.95 : 0.05."""
TRIES = 2000
"""Draws tried for one variant before it is refused."""
MAX_VARIANTS = 50
"""The most variants one worksheet asks for."""
QUERY_ROW_AXIS = {"Q": 0, "scores": 1, "weights": 1, "mixed": 0, "attn_out": 0}
"""The attention arrays whose every cell belongs to one query row, and the axis of that row."""

Rows = Mapping[str, Collection[int] | None]
"""Attention scope (``""``, ``"L2."`` …) → the query rows whose shares must discriminate
(None: every row)."""


def _choices(path: str) -> np.ndarray | None:
    """The numbers a document path draws from (None: it is kept)."""
    if path == "X":
        return WHOLE
    module, _, name = path.rpartition(".")
    if module.rpartition(".")[2] not in ("attention", "cross_attention"):
        return None
    return {"Wq": HALVES, "Wk": HALVES, "Wv": WHOLE}.get(name)


def discriminates(trace: Trace, rows: Rows | None = None) -> bool:
    """Whether every attention row with two or more visible keys spreads its scores within
    [:data:`LEAST_SPREAD`, :data:`MOST_SPREAD`] (of the attentions and rows ``rows`` names, or
    all)."""
    for step in steps_of(trace.steps, "weights"):
        if rows is not None and step.scope not in rows:
            continue
        asked = None if rows is None else rows[step.scope]
        scores = trace.arrays[f"{step.scope}scores"]
        seen = np.broadcast_to(trace.visible_for(step.scope), scores.shape)
        for head, row in zip(*np.nonzero(seen.sum(axis=2) >= 2), strict=True):
            if asked is not None and row not in asked:
                continue
            visible = scores[head, row][seen[head, row]]
            spread = float(visible.max() - visible.min())
            if not LEAST_SPREAD <= spread <= MOST_SPREAD:
                return False
    return True


def _scope_of(name: str) -> str:
    """``"L2."`` for ``"L2.weights"``, ``""`` for ``"weights"``."""
    scope, dot, _ = name.rpartition(".")
    return scope + dot


def _asked(trace: Trace, exercise: Exercise) -> Iterator[tuple[str, int | None]]:
    """The attention scopes an exercise asks about, each with the query row it asks about
    (None: the whole attention: a key's row, a weight, or a question about every share)."""
    if exercise.kind == "fill":
        cells = [(name, tuple(int(k) for k in index))
                 for name, mask in hidden_masks(trace, exercise).items()
                 for index in zip(*np.nonzero(mask), strict=True)]
    else:
        watch = watched(trace, exercise)
        if watch.cell is None:
            yield _scope_of(watch.array), None
            return
        cells = [(watch.array, watch.cell)]
    for name, index in cells:
        scope = _scope_of(name)
        axis = QUERY_ROW_AXIS.get(name.removeprefix(scope))
        yield scope, None if axis is None else index[axis]


def asked_rows(trace: Trace, exercises: Sequence[Exercise], scopes: Collection[str]) -> Rows:
    """For each attention scope a sheet shows (``scopes``), the query rows its exercises ask
    about, or None (every row) where they ask about none by row or about the whole attention."""
    asked: dict[str, set[int | None]] = {scope: set() for scope in scopes}
    for exercise in exercises:
        for scope, row in _asked(trace, exercise):
            if scope in asked:
                asked[scope].add(row)
    return {scope: None if not found or None in found else {r for r in found if r is not None}
            for scope, found in asked.items()}


def check_variant_count(count: int, place: str) -> None:
    """Refuse at ``place`` (``--variants``) a number of variants outside 1 … :data:`MAX_VARIANTS`.
    """
    if not 1 <= count <= MAX_VARIANTS:
        raise ScenarioError(place, Refusal("variants_count", most=MAX_VARIANTS, got=count))


def hand_variant(scenario: Scenario, seed: int, number: int, rows: Rows | None = None,
                 taught: Sequence[Lesson] = ()) -> Scenario:
    """Variant ``number`` (from 1) of ``scenario`` with hand-friendly numbers (the module's
    rule), its exercises kept; ``rows`` limits the rule on the shares to the attentions a
    sheet shows and the rows it asks about (:func:`asked_rows`; every row of every attention by
    default): each more row that must discriminate takes many more draws. A draw that does not
    teach every lesson of ``taught`` (:func:`engine.exercises.lesson.lessons` of the document)
    is drawn again.

    Raises
    ------
    ScenarioError
        At ``variants`` when no draw of :data:`TRIES` keeps the softmax discriminating, or none
        of those that do keeps a lesson (naming the question whose lesson was lost last).
    """
    drawn = [(path, choices) for path in scenario.parameter_paths()
             if (choices := _choices(path)) is not None]  # every document has an attention
    rng = np.random.default_rng((seed, number))
    lost: Lesson | None = None
    for _ in range(TRIES):
        variant = scenario
        for path, choices in drawn:
            shape = scenario.parameter(path).shape
            variant = with_parameter(variant, path, rng.choice(choices, size=shape))
        if all(np.array_equal(variant.parameter(path), scenario.parameter(path))
               for path, _ in drawn):
            continue
        try:
            trace = compute(variant)
        except ScenarioError:
            continue
        if not discriminates(trace, rows):
            continue
        missed = lesson_lost(trace, taught)
        if missed is None:
            return variant
        lost = missed
    if lost is not None:
        raise ScenarioError("variants", Refusal("variants_lesson_lost", number=number,
                                                tries=TRIES, exercise=lost.place))
    raise ScenarioError("variants", Refusal("variants_not_found", number=number, tries=TRIES,
                                            low=LEAST_SPREAD, high=MOST_SPREAD))


__all__ = ["HALVES", "LEAST_SPREAD", "MAX_VARIANTS", "MOST_SPREAD", "WHOLE", "Rows", "asked_rows",
           "check_variant_count", "discriminates", "hand_variant"]
