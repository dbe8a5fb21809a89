"""The probabilities' sentences quote the row the vocabulary head ends with: a head that ends
with a step after the logits (a soft cap, recorded by the engine's tape API after the logits
step) has its probabilities explained from the capped row, not from the logits."""

from __future__ import annotations

import numpy as np
import pytest

from app.texts.lookup import step_text
from engine import compute, parse_scenario
from engine.forward import tape as ops
from tests.engine.capped_head import CAP, capped_logits
from tests.engine.generation_documents import cases


def _three(value: float) -> str:
    return f"{value:.3f}".replace("-", "−")


def test_the_probabilities_sentences_quote_the_capped_row(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(ops, "logits", capped_logits)
    trace = compute(parse_scenario(cases()["three-layers"]))
    row = CAP * np.tanh(trace.arrays["logits"][-1] / CAP)  # the receiver: the last position
    assert np.abs(row - trace.arrays["logits"][-1]).max() > 0.5
    told = step_text(trace, trace.step_index("probs"), "en")
    assert f"logits [{', '.join(_three(v) for v in row)}] give" in told.how
    top = int(np.argmax(row))
    vocab = trace.scenario.head.vocab if trace.scenario.head is not None else ()
    assert f"The largest logit ({_three(row[top])}, {vocab[top]})" in told.check
