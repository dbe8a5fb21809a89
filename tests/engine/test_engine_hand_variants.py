"""Worksheet variants with hand-friendly numbers (issue 26): the rule, the same draw for the same
seed, and a clear refusal when no draw keeps the softmax discriminating."""

from __future__ import annotations

import numpy as np
import pytest

from engine import ScenarioError, Trace, compute, load_scenario
from engine.exercises import hand
from engine.exercises.answers import answer
from tests.examples import EXAMPLES


def test_a_variant_follows_the_rule_and_keeps_the_exercises() -> None:
    f11 = load_scenario(EXAMPLES / "f11.qkv.json")
    variant = hand.hand_variant(f11, 3, 2)
    assert variant.exercises == f11.exercises
    assert np.array_equal(variant.X, np.round(variant.X)) and np.abs(variant.X).max() <= 2
    for name in ("Wq", "Wk"):
        values = variant.parameter(f"attention.{name}")
        assert np.array_equal(values * 2, np.round(values * 2)) and np.abs(values).max() <= 1
    trace = compute(variant)
    scores, seen = trace.arrays["scores"][0], trace.visible
    spread = scores[1][seen[1]].max() - scores[1][seen[1]].min()  # 爱 sees two keys
    assert 0.5 <= spread <= 3.0
    # Its answers are its own: the shares of 爱 from its own scores.
    shares = [c.value for c in answer(trace, variant.exercises[2]).cells]
    expected = np.exp(scores[1] - scores[1].max()) / np.exp(scores[1] - scores[1].max()).sum()
    assert shares == pytest.approx([1.0, *expected], abs=1e-12)


def test_the_same_seed_draws_the_same_variant() -> None:
    f11 = load_scenario(EXAMPLES / "f11.qkv.json")
    first, again = hand.hand_variant(f11, 9, 1), hand.hand_variant(f11, 9, 1)
    other = hand.hand_variant(f11, 9, 2)
    assert all(np.array_equal(first.parameter(p), again.parameter(p))
               for p in f11.parameter_paths())
    assert not all(np.array_equal(first.parameter(p), other.parameter(p))
                   for p in f11.parameter_paths())


def test_no_discriminating_draw_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hand, "TRIES", 5)
    monkeypatch.setattr(hand, "LEAST_SPREAD", 50.0)
    with pytest.raises(ScenarioError) as caught:
        hand.hand_variant(load_scenario(EXAMPLES / "f11.qkv.json"), 0, 1)
    assert str(caught.value) == ("variants: variant 1: no draw of 5 kept the asked rows' "
                                 "visible scores between 50.0 and 3.0 apart; use a document with "
                                 "fewer positions, or ask about fewer rows")


def _spread(trace: Trace, row: int) -> float:
    scores, seen = trace.arrays["scores"][0, row], trace.visible[row]
    return float(scores[seen].max() - scores[seen].min())


def test_a_sheet_asks_only_the_rows_its_exercises_name() -> None:
    """Pronoun's exercises ask about row 7 (“it”) only: its output row, its share of “animal”.
    F11's first hides K and V too (every query reads them): every row; its question about
    every share (Wv leaves them unchanged): every row; its second, row 1's scores."""
    pronoun = load_scenario(EXAMPLES / "pronoun.qkv.json")
    assert hand.asked_rows(compute(pronoun), pronoun.exercises, {""}) == {"": {7}}
    f11 = load_scenario(EXAMPLES / "f11.qkv.json")
    trace = compute(f11)
    assert [hand.asked_rows(trace, [e], {""}) for e in f11.exercises[:2]] == \
        [{"": None}, {"": {1}}]
    assert hand.asked_rows(trace, [f11.exercises[4]], {""}) == {"": None}
    assert hand.asked_rows(trace, f11.exercises[1:3], {"", "L2."}) == \
        {"": {0, 1}, "L2.": None}  # a scope no exercise asks about: every row


def test_a_ten_token_sheet_draws_variants_for_the_row_it_asks_about(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Nine rows of pronoun within the rule are out of reach (no draw of 300 here); row 7
    alone is drawn, and each variant's row 7 keeps the rule."""
    monkeypatch.setattr(hand, "TRIES", 300)
    pronoun = load_scenario(EXAMPLES / "pronoun.qkv.json")
    with pytest.raises(ScenarioError):
        hand.hand_variant(pronoun, 0, 1)
    for number in (1, 2, 3):
        trace = compute(hand.hand_variant(pronoun, 0, number, {"": {7}}))
        assert 0.5 <= _spread(trace, 7) <= 3.0
        assert not all(0.5 <= _spread(trace, row) <= 3.0 for row in range(1, 10))
