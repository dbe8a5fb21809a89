"""Every frame of every built-in example and preset read from a back row: each step's numbers
at least :data:`~tests.app.legibility.BACK_ROW` px of ink in F5 at 1024 × 768 and in a 4:3
export 1024 wide, a scientific cell's exponent included; an example's in F5 also at the
projector's presentation target, the sheet's words no larger (``test_legibility`` holds the
examples to 1920 × 1080's). The steps are parametrized one test
module per group of documents (``test_back_row_*``), so pytest-xdist's ``--dist loadfile``
balances them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache

import pytest
from PySide6.QtWidgets import QApplication

from app.canvas.context import FrameOptions
from app.canvas.theme import SLIDE
from app.canvas.view import CanvasView
from app.canvas.worked_row import WORKED_ROW_POSITIONS
from app.model.examples import example_path
from app.model.presets import preset
from app.window.presentation import PresentationView
from engine import Trace, compute, load_scenario
from tests.app.legibility import (
    BACK_ROW,
    PROJECTOR,
    TARGETS,
    exported_numbers,
    numbers,
    presented_frames,
    sheet_words_height,
    smallest_number,
)

PRESET = "preset:"
"""A preset's name among the examples' (``preset:gpt2``)."""
GROUPS = {
    "examples": ("f11", "g01", "multihead", "norms", "order", "pronoun", "rope", "single-key",
                 "tokenizer", "training", "continue"),
    "big_examples": ("bert", "encoder-decoder", "three-layers"),
    "gated_presets": ("preset:llama", "preset:mistral", "preset:qwen2"),
    "gelu_presets": ("preset:gpt2", "preset:gpt_neox", "preset:bert"),
    "moe_presets": ("preset:mixtral", "preset:qwen2_moe"),
}
"""The documents of each ``test_back_row_<group>`` module: every example and preset once."""
@cache
def trace_of(name: str) -> Trace:
    """The built-in example ``name``, or the preset ``preset:family``, computed."""
    if name.startswith(PRESET):
        return compute(preset(name.removeprefix(PRESET)))
    return compute(load_scenario(example_path(name)))


def steps_of(names: tuple[str, ...]) -> list[object]:
    """One parameter per step of each document: (name, step index), its id the step's."""
    return [pytest.param(name, k, id=f"{name}-{k + 1}-{step.id}")
            for name in names for k, step in enumerate(trace_of(name).steps)]


def options_for(trace: Trace, aspect: str) -> FrameOptions:
    """What F5 and an export draw by default: the slide look, the worked row for small n."""
    return FrameOptions(aspect=aspect, theme=SLIDE,
                        worked_row=trace.scenario.n <= WORKED_ROW_POSITIONS)


@pytest.fixture(scope="module")
def projector(qapp: QApplication) -> Iterator[PresentationView]:
    """A presentation canvas the size of a 1024 × 768 projector."""
    view = PresentationView.__new__(PresentationView)
    CanvasView.__init__(view, SLIDE)
    view.resize(*PROJECTOR)
    view.show()
    QApplication.processEvents()
    yield view
    view.hide()
    view.deleteLater()


def check_presented(view: PresentationView, name: str, k: int) -> None:
    """Every slide of step ``k`` in F5 on ``view`` prints every digit at least
    :data:`BACK_ROW` tall (its outline ink); an example's (not a preset's: the BERT preset's
    shares are 13.1 px) its numbers' font at least the projector's presentation target
    (:data:`~tests.app.legibility.TARGETS`), and its footer and map no larger than its data."""
    trace = trace_of(name)
    for frame in presented_frames(view, trace, k, options_for(trace, view.aspect())):
        half = frame.composition.part
        for number in numbers(frame, view, exact=True):
            assert number.pixels >= BACK_ROW, (name, k + 1, half, number)
        if name.startswith(PRESET):
            continue
        smallest = smallest_number(frame, view)
        assert smallest.pixels >= TARGETS[PROJECTOR], (name, k + 1, half, smallest)
        assert sheet_words_height(frame, view) <= smallest.pixels, \
            "the footer and map are never larger than the data"


def check_exported(name: str, k: int) -> None:
    """Step ``k`` in a 4:3 export 1024 wide prints every digit at least :data:`BACK_ROW`
    tall."""
    trace = trace_of(name)
    for part, number in exported_numbers(trace, k, options_for(trace, "4:3")):
        assert number.pixels >= BACK_ROW, (name, k + 1, part, number)


Check = Callable[..., None]


def group_tests(group: str) -> tuple[Check, Check]:
    """The two tests of a ``test_back_row_<group>`` module, parametrized by its documents'
    steps: F5 at 1024 × 768 (:func:`check_presented`) and the 4:3 export 1024 wide
    (:func:`check_exported`)."""
    names = GROUPS[group]

    @pytest.mark.parametrize(("name", "k"), steps_of(names))
    def test_presented_at_1024_by_768(projector: PresentationView, name: str, k: int) -> None:
        check_presented(projector, name, k)

    @pytest.mark.parametrize(("name", "k"), steps_of(names))
    @pytest.mark.usefixtures("qapp")
    def test_exported_4_by_3_1024_wide(name: str, k: int) -> None:
        check_exported(name, k)

    return test_presented_at_1024_by_768, test_exported_4_by_3_1024_wide
