"""The glossary's generation terms (issue 24): KV cache, temperature, top-k, top-p, cross-entropy
and teacher forcing, each in both languages, each worked example's numbers the engine's and equal
to an independent computation here."""

from __future__ import annotations

import math

import numpy as np
import pytest

from app.texts import LANGUAGES, glossary_entry, linked_terms
from engine import compute, load_scenario, parse_scenario
from engine.format.writer import to_document
from engine.generation.kv_cache import cache_of
from tests.examples import EXAMPLES, trace_of

TERMS = ("KV-cache", "temperature", "top-k", "top-p", "cross-entropy", "teacher-forcing")


def softmax(row: list[float], t: float = 1.0) -> list[float]:
    exps = [math.exp(v / t) for v in row]
    return [e / sum(exps) for e in exps]


def row(values: list[float]) -> str:
    return "[" + ", ".join(f"{v:.3f}".rstrip("0").rstrip(".") for v in values) + "]"


def in_every_example(term_id: str, *texts: str) -> None:
    for lang in LANGUAGES:
        example = glossary_entry(term_id, lang).example
        for text in texts:
            assert text in example, (term_id, lang, text, example)


@pytest.mark.parametrize("term_id", TERMS)
def test_every_generation_term_is_in_both_languages_and_linked(term_id: str) -> None:
    en, zh = (glossary_entry(term_id, lang) for lang in ("en", "zh"))
    assert en.term != zh.term and en.definition != zh.definition and en.example != zh.example
    for lang, entry in (("en", en), ("zh", zh)):
        assert entry.term_id == term_id
        assert term_id in {t for _, _, t in linked_terms(entry.term, lang)}, (lang, entry.term)


def test_temperature_of_2_1_0() -> None:
    by_hand = {t: softmax([2, 1, 0], t) for t in (0.5, 1.0, 2.0)}
    assert by_hand[1.0][0] == pytest.approx(0.665, abs=5e-4)
    in_every_example("temperature", "[2, 1, 0]", f"{row(by_hand[1.0])}", f"{row(by_hand[0.5])}",
                     f"{row(by_hand[2.0])}", "T = 0.5", "T = 2")


def test_top_k_keeps_two_and_scales_them_up() -> None:
    probs = softmax([2, 1, 0, -1])
    kept = probs[:2]
    in_every_example("top-k", "[2, 1, 0, −1]", row(probs), "k = 2", row(kept),
                     row([p / sum(kept) for p in kept]))


def test_top_p_keeps_the_fewest_reaching_p() -> None:
    probs = [0.5, 0.3, 0.15, 0.05]
    assert probs[0] < 0.75 <= probs[0] + probs[1]
    in_every_example("top-p", "p = 0.75", "0.5 + 0.3 = 0.8", row([0.5 / 0.8, 0.3 / 0.8]))


def test_cross_entropy_from_the_training_example() -> None:
    scenario = load_scenario(EXAMPLES / "training.qkv.json")
    trace = compute(scenario)
    logits = trace.arrays["logits"]
    assert scenario.targets is not None
    losses = [math.log(sum(math.exp(v) for v in logits[i])) - logits[i, t]
              for i, t in enumerate(scenario.targets)]
    np.testing.assert_allclose(trace.arrays["loss"], losses, atol=1e-12)
    p = math.exp(-losses[0])
    assert f"{-math.log(round(p, 7)):.3f}" == f"{losses[0]:.3f}", "the printed p gives the loss"
    in_every_example("cross-entropy", f"{round(p, 7)}", f"= {losses[0]:.3f}",
                     " + ".join(f"{v:.3f}" for v in losses) + ") / 4",
                     f"= {sum(losses) / 4:.3f}")


def test_teacher_forcing_reads_the_true_word_and_generation_repeats() -> None:
    trace = trace_of("training")
    probs = trace.arrays["probs"][0]
    assert int(np.argmax(probs)) == 0 and trace.scenario.tokens[:2] == ("我", "爱")
    in_every_example("teacher-forcing", f"{probs[0]:.3f}", "我 我 我 我", "4")


def test_kv_cache_of_the_continue_example() -> None:
    trace = trace_of("continue")
    cache = cache_of(trace)
    assert cache.keys["L1."].shape == (2, 2) and cache.values["L1."].shape == (2, 7)
    doc = to_document(trace.scenario)
    doc["token_ids"], doc["tokens"] = [0, 1, 2], ["我", "爱", "你"]
    full = compute(parse_scenario(doc)).arrays["L1.weights"][0, 2]  # recomputed, all 3 rows
    # By hand: q = k = [1, 0] turned by p radians, so the score of key j is cos(2 − j) / √2.
    scores = [math.cos(2 - j) / math.sqrt(2) for j in range(3)]
    np.testing.assert_allclose(full, softmax(scores), atol=1e-12)
    in_every_example("KV-cache", "2 × 2", "2 × 7", row(softmax(scores)), "2 + 1 + 1 = 4",
                     "2 + 3 + 4 = 9")
