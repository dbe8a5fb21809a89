"""A generation run, token by token (app.model.run): token t's document is the prompt and the
first t − 1 chosen tokens, and its draw step chooses token t again (issue 24 item 5)."""

from __future__ import annotations

import numpy as np
import pytest

from app.model.run import prefix, prompt_length, run_tokens
from engine import compute, parse_scenario
from engine.format.generation_keys import Settings
from engine.generation.run import generate
from tests.engine.generation_documents import cases

STEPS = 3
NAMES = ["three-layers", "g01-shorthand", "encoder-decoder", "learned", "key_mask",
         "rope-kv_heads-window-mask"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("settings", [Settings(temperature=0.0),
                                      Settings(temperature=1.5, top_k=4, seed=7)],
                         ids=["greedy", "seeded"])
def test_each_token_is_drawn_again_by_its_prefix(name: str, settings: Settings) -> None:
    prompt = parse_scenario(cases()[name])
    run = generate(prompt, STEPS, settings)
    document = run.scenario
    chosen = [token.draw.chosen for token in run.tokens]
    assert [token.id for token in run_tokens(document)] == chosen
    assert prompt_length(document) == prompt.n
    for t in range(1, STEPS + 1):
        before = prefix(document, t)
        assert before.n == prompt.n + t - 1
        assert before.token_ids == document.token_ids[:prompt.n + t - 1]
        trace = compute(before)
        assert trace.steps[-1].op == "sample"
        assert int(trace.arrays[f"gen{t}.chosen"][0]) == chosen[t - 1]
        if settings.temperature == 0.0:  # greedy: the most probable entry, by numpy
            assert int(np.argmax(trace.arrays["probs"][-1])) == chosen[t - 1]


def test_the_prefix_keeps_the_key_mask_of_its_positions() -> None:
    document = generate(parse_scenario(cases()["key_mask"]), STEPS, Settings()).scenario
    assert [int(v) for v in prefix(document, 1).layers[0].attention.key_mask] == [1, 0, 1, 1]
    assert [int(v) for v in prefix(document, 3).layers[0].attention.key_mask] == [1, 0, 1, 1,
                                                                                   1, 1]


def test_the_tokens_name_their_vocabulary_entries() -> None:
    document = generate(parse_scenario(cases()["three-layers"]), 2, Settings()).scenario
    tokens = run_tokens(document)
    assert [token.t for token in tokens] == [1, 2]
    assert [token.label for token in tokens] == list(document.tokens[-2:])


@pytest.mark.parametrize("t", [0, 4])
def test_a_token_outside_the_run_is_refused(t: int) -> None:
    document = generate(parse_scenario(cases()["three-layers"]), STEPS, Settings()).scenario
    with pytest.raises(ValueError, match="tokens 1 to 3"):
        prefix(document, t)


def test_a_document_without_a_run_has_no_tokens() -> None:
    prompt = parse_scenario(cases()["three-layers"])
    assert run_tokens(prompt) == ()
    with pytest.raises(ValueError, match="no generation run"):
        prefix(prompt, 1)


def test_the_prefix_keeps_the_token_types_of_its_positions() -> None:
    """A document with token types (BERT's segments) that generated: token t's document holds
    the types of its positions (all of them were refused as too many: token_types: expected 5
    type ids, got 7)."""
    document = cases()["learned"]
    n, d = len(document["token_ids"]), len(document["embedding"][0])
    document["type_table"] = [[0.25] * d, [-0.5] * d]
    document["token_types"] = [1] + [0] * (n - 1)
    run = generate(parse_scenario(document), STEPS, Settings()).scenario
    assert run.token_types is not None and len(run.token_types) == n + STEPS
    for t in range(1, STEPS + 1):
        before = prefix(run, t)
        assert before.token_types == run.token_types[:n + t - 1]
        assert int(compute(before).arrays[f"gen{t}.chosen"][0]) == run_tokens(run)[t - 1].id
