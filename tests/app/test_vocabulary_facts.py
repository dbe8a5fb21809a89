"""What the step texts quote of the whole vocabulary (issue 37, item 4): a big document's logits
without the final norm are worked out by the runner with its trace, never on the interface
thread, and the final norm's text quotes them as an independent numpy computation gives them,
in English and Chinese."""

from __future__ import annotations

import numpy as np
import pytest

import app.state.big
import app.texts.facts
from app.help.html import step_plain
from app.model.edits import SetCell
from app.texts import step_text
from app.texts.printed import printed_places
from engine import format_number
from engine.checkpoint import import_checkpoint
from engine.format.mapped_weight import MappedWeight
from tests.app.session_support import session_of
from tests.engine.hf_reference import FIXTURES

WQ = "layers.0.attention.Wq"


def test_the_runner_works_out_the_final_norms_logits_and_its_text_quotes_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.state.big, "BIG_CELLS", 0)
    scenario = import_checkpoint(FIXTURES / "llama", "the cat sat on the mat")
    unembed = scenario.weight("head.unembed")
    assert isinstance(unembed, MappedWeight)
    session, runner, _heard = session_of(scenario)
    session.apply(SetCell(WQ, 1, 2, 0.75))
    runner.finish()
    trace = session.trace
    assert trace.scenario is session.scenario
    index = trace.step_index("final_norm")
    step = trace.steps[index]

    def refused(*_args: object) -> None:
        raise AssertionError("the unembedding multiplied on the interface thread")

    monkeypatch.setattr(app.texts.facts, "vocabulary_scores", refused)
    # Independently: the last row's logits with the norm's input in place of its output.
    whole = np.asarray(unembed, dtype=np.float64)
    receiver = trace.scenario.n - 1
    before = trace.arrays[step.reads[0]][receiver]
    with_norm = trace.arrays["logits"][receiver]
    without = before @ whole
    assert not np.allclose(without, with_norm)  # the norm does change them
    np.testing.assert_allclose(with_norm, trace.arrays[step.writes[0]][receiver] @ whole,
                               rtol=0, atol=1e-12)
    places = printed_places(trace)
    vocab = trace.tokens_of("vocab")
    for lang, words in (("en", "changes from {0} ({1}) to about {2} ({3})"),
                        ("zh", "从 {0}（{1}）变为约 {2}（{3}）")):
        said = step_plain(step_text(trace, index, lang), lang)
        top, top_off = int(np.argmax(with_norm)), int(np.argmax(without))
        assert words.format(format_number(float(with_norm[top]), places), vocab[top],
                            format_number(float(without[top_off]), places),
                            vocab[top_off]) in said, said
