"""The vocabulary's head of a big mapped document in the window (issue 37, item 4): what the
frames and the texts read of the whole unembedding is worked out by the worker that computes the
trace, never on the interface thread: the unembedding widened, its colour scale's spread, its
count of numbers that round to 0, its heat map's block means, and the logits without the final
norm the final norm's text quotes. Each equals an independent numpy computation here.

The checkpoint is Llama-3.2-1B's shape cut down (tied, bfloat16, 3,000 entries: a heat map of
blocks of three columns), every document counts as big and every unembedding is made ready."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

import app.canvas.prepared_drawing
import app.canvas.rare_cells
import app.canvas.remember
import app.state.big
import app.state.jobs
import app.texts.facts
from app.canvas.grid import MatrixGrid
from app.canvas.heat import block_shape
from app.canvas.rare_cells import remembered_rounding
from app.canvas.remember import means_of, spread
from app.help.html import step_plain
from app.texts import step_text
from app.texts.printed import printed_places
from app.window.studio import StudioWindow
from engine import Trace, format_number
from engine.format.mapped_weight import MappedWeight
from engine.format.numbers import Spread
from tests.app.driving import close_window, cut_llama, show_window
from tests.app.test_window_edit import go_to_step

WQ = "layers.0.attention.Wq"


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
           ) -> Iterator[StudioWindow]:
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    monkeypatch.setattr(app.state.jobs, "SHOW_PROGRESS_AFTER_MS", 60_000)
    monkeypatch.setattr(app.canvas.prepared_drawing, "PREPARED_FROM", 0)
    made = show_window(qtbot, cut_llama(tmp_path / "small", vocab_size=3000,
                                        intermediate_size=32))
    state = made.state
    assert state.edit_cell(WQ, 1, 2, 0.75)  # the trace computed by the runner
    qtbot.waitUntil(lambda: not state.busy and state.trace.scenario is state.scenario)
    yield made
    close_window(made)


def refuse_whole_reads(monkeypatch: pytest.MonkeyPatch, whole: np.ndarray,
                       unembed: MappedWeight) -> None:
    """From now on (the interface thread), widening the unembedding or reading all its numbers
    for a spread, a count or block means fails the test."""
    def refused(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the whole unembedding read on the interface thread")

    def guard(module: object, name: str) -> None:
        real = getattr(module, name)

        def checked(values: np.ndarray, *args: object) -> object:
            if np.shape(values) in (whole.shape, (whole.size,)):
                refused()
            return real(values, *args)

        monkeypatch.setattr(module, name, checked)

    real_widened = MappedWeight.widened
    monkeypatch.setattr(MappedWeight, "widened", lambda self, room=None: refused()
                        if self is unembed else real_widened(self, room))
    guard(app.canvas.remember, "block_means")
    guard(app.canvas.rare_cells, "rounding_to_zero")
    real_of = Spread.of
    monkeypatch.setattr(Spread, "of", classmethod(lambda _cls, values: refused()
                                                  if values.size == whole.size
                                                  else real_of(values)))
    monkeypatch.setattr(app.texts.facts, "vocabulary_scores", refused)


def test_the_logits_step_draws_the_unembedding_the_worker_made_ready(
        qtbot: QtBot, window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    trace = window.state.trace
    unembed = trace.scenario.weight("head.unembed")
    assert isinstance(unembed, MappedWeight) and unembed.view  # tied: the embedding's .T
    whole = np.asarray(unembed, dtype=np.float64)
    refuse_whole_reads(monkeypatch, whole, unembed)
    go_to_step(qtbot, window, "logits")

    def unembedding_grids() -> list[MatrixGrid]:
        frame = window.canvas.frame
        return [] if frame is None else [g for g in frame.items_of(MatrixGrid)
                                         if g.spec.values.shape == whole.shape]

    qtbot.waitUntil(lambda: len(unembedding_grids()) == 1)
    grid = unembedding_grids()[0]
    values = grid.spec.values
    np.testing.assert_array_equal(values, whole)
    assert grid.heat
    found = spread(values)
    assert (found.low, found.high) == (float(whole.min()), float(whole.max()))
    down, across = block_shape(*whole.shape)
    assert (down, across) == (1, math.ceil(3000 / 1024)) and whole.shape == (24, 3000)
    means = means_of(values, None, (down, across))
    want = np.array([[whole[r, c:c + across].mean() for c in range(0, 3000, across)]
                     for r in range(whole.shape[0])])
    np.testing.assert_allclose(means, want, rtol=1e-13, atol=0)
    places = printed_places(trace)
    near = (whole != 0) & (np.abs(whole) < 0.5 * 10.0 ** -places)
    assert remembered_rounding(values, places) == int(np.count_nonzero(near)) > 0


def test_the_final_norms_text_quotes_the_logits_the_worker_worked_out(
        window: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    trace: Trace = window.state.trace
    unembed = trace.scenario.weight("head.unembed")
    assert isinstance(unembed, MappedWeight)
    whole = np.asarray(unembed, dtype=np.float64)
    refuse_whole_reads(monkeypatch, whole, unembed)
    index = trace.step_index("final_norm")
    step = trace.steps[index]
    # Independently: the last row's logits with the norm's input in place of its output.
    receiver = trace.scenario.n - 1
    with_norm = trace.arrays["logits"][receiver]
    without = trace.arrays[step.reads[0]][receiver] @ whole
    np.testing.assert_allclose(with_norm, trace.arrays[step.writes[0]][receiver] @ whole,
                               rtol=0, atol=1e-12)
    top, top_off = int(np.argmax(with_norm)), int(np.argmax(without))
    assert not np.allclose(without, with_norm)  # the norm does change them
    places, vocab = printed_places(trace), trace.tokens_of("vocab")
    for lang, words in (("en", "changes from {0} ({1}) to about {2} ({3})"),
                        ("zh", "从 {0}（{1}）变为约 {2}（{3}）")):
        said = step_plain(step_text(trace, index, lang), lang)
        assert words.format(format_number(float(with_norm[top]), places), vocab[top],
                            format_number(float(without[top_off]), places),
                            vocab[top_off]) in said, said
