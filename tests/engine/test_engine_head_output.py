"""The probabilities, the loss and every draw read the step the vocabulary head ends with: a
head capped by ``head.softcap`` (Gemma 2's c·tanh(logits / c), its ``softcap`` step after the
logits step) is sampled and scored from the capped logits, on the tape, in the KV cache, in a
redraw, a grown trace and the explanations; each checked against softmax(c·tanh(x / c))
computed here from the uncapped logits.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import Trace, compute, explain
from engine.format.generation_keys import Settings
from engine.format.numbers import format_number
from engine.format.reader import FloatArray
from engine.generation.append import extend
from engine.generation.grow import grown
from engine.generation.redraw import redrawn, with_settings
from engine.generation.run import generate
from engine.generation.sampling import sample
from engine.scenario.op_kinds import head_output
from engine.scenario.scenario import Scenario
from tests.engine.capped_head import CAP, capped_scenario

SETTINGS = Settings(temperature=0.7, top_k=2, seed=5)


def _document(**more: Any) -> Scenario:
    return capped_scenario(**more)


def _softmax(rows: FloatArray) -> FloatArray:
    exps = np.exp(rows - rows.max(axis=-1, keepdims=True))
    shares: FloatArray = exps / exps.sum(axis=-1, keepdims=True)
    return shares


def _capped_of(trace: Trace) -> FloatArray:
    uncapped = trace.arrays["logits_uncapped"]
    capped: FloatArray = CAP * np.tanh(uncapped / CAP)
    assert np.abs(capped - uncapped).max() > 0.5  # far from the uncapped logits
    return capped


def test_the_head_output_is_its_last_step_of_the_logits_kind() -> None:
    trace = compute(_document())
    assert head_output(trace.steps) == "logits"
    assert [s.id for s in trace.steps][-4:] == ["logits", "softcap", "probs", "sample"]
    np.testing.assert_allclose(trace.arrays["logits"], _capped_of(trace), rtol=0, atol=1e-15)


def test_probabilities_and_loss_read_the_capped_logits() -> None:
    targets = [1, 2, 0]
    trace = compute(_document(targets=targets))
    capped = _capped_of(trace)
    np.testing.assert_allclose(trace.arrays["probs"], _softmax(capped), rtol=0, atol=1e-15)
    expected = -np.log(_softmax(capped)[np.arange(3), targets])
    np.testing.assert_allclose(trace.arrays["loss"], expected, rtol=0, atol=1e-14)
    row, col = 1, 2
    told = explain(trace, "probs", (row, col)).formula
    assert f"= exp({format_number(float(capped[row, col] - capped[row].max()))}) /" in told


def test_every_draw_reads_the_capped_logits() -> None:
    document = with_settings(_document(), SETTINGS)
    trace = compute(document)
    capped = _capped_of(trace)
    np.testing.assert_array_equal(trace.arrays["gen1.logits"], capped[-1])
    expected = sample(capped[-1], SETTINGS, 1)
    assert int(trace.arrays["gen1.chosen"][0]) == expected.chosen
    assert explain(trace, "gen1.logits", (1,)).formula == \
        f"gen1.logits[1] = logits[2,1] = {format_number(float(capped[-1, 1]))}"
    again = redrawn(trace, with_settings(document, Settings(temperature=2.0, seed=9)))
    assert again is not None
    np.testing.assert_array_equal(again.arrays["gen1.logits"], capped[-1])
    longer = extend(document, 2)
    whole = compute(longer)
    grew = grown(trace, longer)
    assert grew is not None
    np.testing.assert_allclose(grew.arrays["gen2.logits"], _capped_of(whole)[-1], rtol=0,
                               atol=1e-12)
    run = generate(document, 2, SETTINGS)  # the second token's logits come from the KV cache
    np.testing.assert_array_equal(run.tokens[0].draw.logits, capped[-1])
    after = compute(extend(document, run.tokens[0].draw.chosen))
    np.testing.assert_allclose(run.tokens[1].draw.logits, _capped_of(after)[-1], rtol=0,
                               atol=1e-12)
