"""One printed form per value (issue 23): a number a step text quotes from an array of its frame
reads as the frame's grid prints that array (the timeline said 4.738×10⁻⁴ + 0.999 + 2.427×10⁻⁴
beside a frame printing 0.000474, 0.999283, 0.000243)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from app.canvas.context import LayoutContext
from app.texts import LANGUAGES, step_text
from engine import Trace
from engine.format.numbers import NumberFormat, format_number
from tests.examples import EXAMPLES, trace_of

EXAMPLE_NAMES = sorted(path.name.removesuffix(".qkv.json") for path in EXAMPLES.glob("*.qkv.json"))
DECIMAL = re.compile(r"(?<![\w.])≈?[−-]?\d+\.\d+(?:×10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?(?![\w])"
                     r"|(?<![\w.])[−-]?\d+(?:\.\d+)?×10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+")
"""A number with decimals or a power of ten (whole numbers are sizes and indices too)."""


def frame_cells(trace: Trace, index: int) -> list[tuple[float, str]]:
    """Every cell of the arrays step ``index``'s frame shows, with the text its grid prints."""
    places = LayoutContext.places_for(trace)
    step = trace.steps[index]
    cells = []
    for name in (*step.reads, *step.writes):
        if name in trace.arrays:
            values = trace.arrays[name]
        elif name in trace.scenario.parameter_paths():
            values = np.asarray(trace.scenario.parameter(name), dtype=float)
        else:
            continue  # token ids: whole numbers
        grid = NumberFormat.for_values(values, places)
        cells += [(float(v), grid.text(float(v))) for v in values.ravel()]
    return cells


def misprinted(trace: Trace, index: int) -> list[tuple[str, str]]:
    """``(number, frame's text)`` for each number a text of the step quotes from its frame's
    arrays in another form than the frame's: a number that is a cell rounded to 3 or more
    decimals."""
    cells = frame_cells(trace, index)
    printed = {text for _, text in cells}
    wrong = []
    for lang in LANGUAGES:
        for part in vars(step_text(trace, index, lang)).values():
            for match in DECIMAL.finditer(part):
                number = match.group()
                near = [text for value, text in cells
                        if any(number == format_number(value, p) for p in range(3, 11))]
                if near and number not in printed:
                    wrong.append((number, near[0]))
    return wrong


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_every_number_a_text_quotes_from_its_frame_is_printed_as_the_frame_prints_it(
        name: str) -> None:
    trace = trace_of(name)
    wrong = {trace.steps[k].id: misprinted(trace, k) for k in range(len(trace.steps))}
    assert {step: numbers for step, numbers in wrong.items() if numbers} == {}


def test_the_cross_attention_shares_of_encoder_decoder_read_as_in_the_frame() -> None:
    trace = trace_of("encoder-decoder")
    index = trace.step_index("L1.cross.weights")
    shares = trace.arrays["L1.cross.weights"][0, 1]
    printed = [f"{v:.6f}" for v in shares]  # the frame's six decimals, computed here
    assert printed == ["0.000474", "0.999283", "0.000243"]
    assert f"{' + '.join(printed)} = 1" in step_text(trace, index, "en").check
    assert f"{' + '.join(printed)} = 1" in step_text(trace, index, "zh").check
    logits = trace.arrays["logits"][1]
    probs = step_text(trace, trace.step_index("probs"), "en").check
    assert f"({logits.max():.4f}, 爱)" in probs and f"({logits.max():.6f}" not in probs
    assert f"{np.exp(logits).max() / np.exp(logits).sum():.6f}" in probs
