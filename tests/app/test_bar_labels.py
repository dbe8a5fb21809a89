"""A probability bar prints its value as the grids and the step texts print that value: the
frame's decimals with the trailing zeros trimmed (``0.99478``, not ``0.994780`` beside a logit
``3.8173``). The encoder–decoder example prints six decimals."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.bars import ProbabilityBars
from app.canvas.layout import TextItem
from app.model.examples import example_path
from app.texts import step_text
from engine import compute, load_scenario
from engine.format.numbers import NumberFormat


def by_hand(value: float) -> str:
    """Six decimals, the trailing zeros trimmed."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


def test_a_bar_label_prints_its_probability_as_the_grids_and_texts_do(qtbot: QtBot) -> None:
    trace = compute(load_scenario(example_path("encoder-decoder")))
    step = trace.step_index("probs")
    frame = FrameItem(trace, step, FrameOptions(lang="en"))
    (bars,) = frame.items_of(ProbabilityBars)
    probs = trace.arrays["probs"]
    assert bars.values[(0, 0)] == "0.99478"
    grid_form = NumberFormat.for_values(probs, 6)
    drawn = {item.text for item in frame.items_of(TextItem)}
    for (position, entry), text in bars.values.items():
        value = float(probs[position, entry])
        assert text == by_hand(value) == grid_form.text(value), (position, entry)
        assert text in drawn
    how = step_text(trace, step, "en").how  # the receiver 我's probabilities, as the text says
    assert all(bars.values[(1, entry)] in how for entry in range(3)), how
