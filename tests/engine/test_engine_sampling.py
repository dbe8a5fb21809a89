"""Sampling the next token (issue 24): temperature, top-k, top-p, seeded draws."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import ScenarioError
from engine.parse_generation import Settings
from engine.sampling import entropy, kept_ids, sample, tempered

LOGITS = np.array([1.5, -0.3, 2.25, 0.7, 2.0, -1.2, 0.1, 1.1])
GREEDY = 2


def _softmax(values: list[float]) -> list[float]:
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    return [e / sum(exps) for e in exps]


def test_temperature_divides_the_logits_before_the_softmax() -> None:
    for temperature in (0.5, 1.0, 3.0):
        expected = _softmax([v / temperature for v in LOGITS.tolist()])
        np.testing.assert_allclose(tempered(LOGITS, temperature), expected, rtol=1e-14)


@pytest.mark.parametrize("seed", range(12))
def test_top_k_one_and_temperature_towards_zero_are_greedy(seed: int) -> None:
    for settings in (Settings(top_k=1, seed=seed), Settings(top_k=1, temperature=5.0, seed=seed),
                     Settings(temperature=0.0, seed=seed), Settings(temperature=1e-6, seed=seed),
                     Settings(temperature=1e-300, top_p=0.3, seed=seed)):
        draw = sample(LOGITS, settings, t=1 + seed)
        assert draw.chosen == GREEDY
        assert draw.kept.tolist() == [GREEDY]
        assert draw.sample_probs[GREEDY] == 1.0


def test_temperature_zero_puts_all_the_mass_on_the_largest_logit() -> None:
    greedy = tempered(LOGITS, 0.0)
    assert greedy.tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
    assert entropy(greedy) == 0.0


@pytest.mark.parametrize("top_p", [0.05, 0.3, 0.5, 0.62, 0.9, 0.999, 1.0])
@pytest.mark.parametrize("top_k", [None, 3, 5])
def test_top_p_keeps_the_smallest_set_whose_mass_reaches_p(top_p: float,
                                                           top_k: int | None) -> None:
    probs = _softmax(LOGITS.tolist())
    order = sorted(range(len(probs)), key=lambda k: -probs[k])[: top_k or len(probs)]
    pool = sum(probs[k] for k in order)
    kept = kept_ids(np.array(probs), top_k, top_p).tolist()
    assert kept == order[: len(kept)]  # most probable first
    mass = sum(probs[k] for k in kept) / pool
    assert mass >= top_p - 1e-12
    without_last = sum(probs[k] for k in kept[:-1]) / pool
    assert without_last < top_p  # one fewer would not reach p: the smallest such set
    draw = sample(LOGITS, Settings(top_k=top_k, top_p=top_p), t=1)
    assert draw.kept.tolist() == kept
    assert math.isclose(float(draw.sample_probs.sum()), 1.0, rel_tol=1e-15)
    for k in range(len(probs)):
        expected = probs[k] / sum(probs[j] for j in kept) if k in kept else 0.0
        assert math.isclose(float(draw.sample_probs[k]), expected, rel_tol=1e-12)
    assert draw.chosen in kept


def test_the_same_seed_and_step_give_the_same_draw_and_others_differ() -> None:
    settings = Settings(temperature=1.5, seed=7)
    draws = [sample(LOGITS, settings, t).chosen for t in range(1, 41)]
    assert draws == [sample(LOGITS, settings, t).chosen for t in range(1, 41)]
    other = [sample(LOGITS, Settings(temperature=1.5, seed=8), t).chosen for t in range(1, 41)]
    assert draws != other
    assert len(set(draws)) > 2  # a warm temperature spreads the choice


def test_the_draw_follows_the_renormalised_probabilities() -> None:
    settings = Settings(temperature=1.0, top_k=3, seed=3)
    counts = np.bincount([sample(LOGITS, settings, t).chosen for t in range(1, 4001)],
                         minlength=len(LOGITS))
    expected = sample(LOGITS, settings, 1).sample_probs
    assert set(np.flatnonzero(counts).tolist()) == {2, 4, 0}
    np.testing.assert_allclose(counts / 4000, expected, atol=0.03)


def test_entropy_in_nats() -> None:
    assert math.isclose(entropy(np.array([0.5, 0.5, 0.0])), math.log(2), rel_tol=1e-15)
    draw = sample(LOGITS, Settings(top_k=2), 1)
    p = draw.sample_probs[draw.kept]
    assert math.isclose(draw.sample_entropy, float(-(p * np.log(p)).sum()), rel_tol=1e-14)


@pytest.mark.parametrize(("keys", "place"), [({"temperature": -0.1}, "temperature"),
                                             ({"top_k": 0}, "top_k"),
                                             ({"top_p": 0.0}, "top_p"),
                                             ({"top_p": 1.5}, "top_p"),
                                             ({"top_k": 262145}, "top_k"),
                                             ({"seed": -1}, "seed"),
                                             ({"seed": 2**63}, "seed")])
def test_settings_no_run_can_use_are_refused(keys: dict[str, float], place: str) -> None:
    with pytest.raises(ScenarioError) as refused:
        Settings(**keys)  # type: ignore[arg-type]
    assert refused.value.place == place


def test_a_draw_names_its_arrays_as_generation_step_t() -> None:
    draw = sample(LOGITS, Settings(top_k=2, temperature=0.5, seed=1), 3)
    arrays = draw.trace_arrays(3)
    assert list(arrays) == ["gen3.logits", "gen3.tempered", "gen3.kept", "gen3.sample_probs",
                            "gen3.chosen"]
    assert arrays["gen3.kept"].tolist() == [2.0, 4.0]
    assert arrays["gen3.chosen"].tolist() == [float(draw.chosen)]
    np.testing.assert_allclose(arrays["gen3.tempered"], _softmax((LOGITS / 0.5).tolist()),
                               rtol=1e-14)
