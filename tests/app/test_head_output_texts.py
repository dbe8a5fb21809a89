"""The probabilities' sentences quote the row the vocabulary head ends with: a head capped by
``head.softcap`` has its probabilities explained from the capped row, not the uncapped one."""

from __future__ import annotations

import numpy as np

from app.texts.lookup import step_text
from engine import compute
from tests.engine.capped_head import CAP, capped_scenario


def _three(value: float) -> str:
    return f"{value:.3f}".replace("-", "−")


def test_the_probabilities_sentences_quote_the_capped_row() -> None:
    trace = compute(capped_scenario())
    uncapped = trace.arrays["logits_uncapped"][-1]  # the receiver: the last position
    row = CAP * np.tanh(uncapped / CAP)
    assert np.abs(row - uncapped).max() > 0.5
    told = step_text(trace, trace.step_index("probs"), "en")
    assert f"logits [{', '.join(_three(v) for v in row)}] give" in told.how
    top = int(np.argmax(row))
    vocab = trace.scenario.head.vocab if trace.scenario.head is not None else ()
    assert f"The largest logit ({_three(row[top])}, {vocab[top]})" in told.check
