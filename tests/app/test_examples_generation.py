"""The generation examples (issue 24): ``continue`` continues 我 爱 with 你 。, and ``training``
has an honest loss under the causal mask and a near-zero one without it — each claim taken from
the engine, computed again here by hand, and said in both languages' notes."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.i18n import set_language
from app.model.examples import example_path
from app.texts.example_words import document_words
from app.window.studio import StudioWindow
from engine import Scenario, ScenarioError, compute, load_scenario, parse_scenario
from engine.format.generation_keys import Settings
from engine.generation.run import generate
from engine.scenario.variants import variant
from tests.app.documents_support import example_document
from tests.app.driving import close_window, open_window
from tests.examples import EXAMPLES

GREEDY = Settings(temperature=0.0)


def notes(doc: dict[str, Any]) -> list[str]:
    return [doc["note"], document_words(doc["title"], doc["note"], "zh")[1]]


def with_ids(doc: dict[str, Any], ids: list[int]) -> Scenario:
    doc = {**doc, "token_ids": ids, "tokens": [doc["head"]["vocab"][i] for i in ids]}
    doc.pop("targets", None)
    return parse_scenario(doc)


def by_hand(doc: dict[str, Any], ids: list[int], causal: bool = True) -> np.ndarray:
    """The logits of one layer (RoPE on 2 columns, 1 radian per position; an optional block
    with no norm) and a head with no final norm, in plain numpy."""
    layer = doc["layers"][0]
    att = layer["attention"]
    x = np.array(doc["embedding"], float)[ids]
    n = len(ids)

    def turned(rows: np.ndarray) -> np.ndarray:
        c, s = np.cos(np.arange(n)), np.sin(np.arange(n))
        return np.stack([rows[:, 0] * c - rows[:, 1] * s, rows[:, 0] * s + rows[:, 1] * c], 1)

    q, k = turned(x @ np.array(att["Wq"])), turned(x @ np.array(att["Wk"]))
    scores = q @ k.T / math.sqrt(2)
    if causal:
        scores = np.where(np.tril(np.ones((n, n), bool)), scores, -np.inf)
    shares = np.exp(scores - scores.max(1, keepdims=True))
    shares /= shares.sum(1, keepdims=True)
    stream = shares @ (x @ np.array(att["Wv"]))
    if "block" in layer:
        ffn = layer["block"]["ffn"]
        stream = x + stream
        stream = stream + np.maximum(stream @ np.array(ffn["W1"]), 0) @ np.array(ffn["W2"])
    logits: np.ndarray = stream @ np.array(doc["head"]["unembed"], float)
    return logits


def greedy_by_hand(doc: dict[str, Any], ids: list[int], steps: int) -> list[int]:
    ids = list(ids)
    for _ in range(steps):
        ids.append(int(np.argmax(by_hand(doc, ids)[-1])))
    return ids


def test_continue_greedy_gives_the_sentence() -> None:
    doc = example_document("continue")
    vocab = doc["head"]["vocab"]
    run = generate(parse_scenario(doc), 2, GREEDY)
    assert [t.draw.chosen for t in run.tokens] == greedy_by_hand(doc, [0, 1], 2)[2:] == [2, 3]
    assert run.scenario.tokens == ("我", "爱", "你", "。")
    other = generate(with_ids(doc, [vocab.index("检查")]), 3, GREEDY)
    assert other.scenario.tokens == ("检查", "路径", "过滤", "。")
    assert greedy_by_hand(doc, [4], 3) == [4, 5, 6, 3]
    for note in notes(doc):
        assert "你" in note and "[4]" in note and "0.7" in note and "0.98" in note


def test_continue_margins_survive_temperature_0_7() -> None:
    doc = example_document("continue")
    for ids, steps in (([0, 1], 2), ([4], 3), ([0], 3)):
        run = generate(with_ids(doc, ids), steps, Settings(temperature=0.7, top_k=1))
        chosen = greedy_by_hand(doc, ids, steps)
        assert [t.draw.chosen for t in run.tokens] == chosen[len(ids):]
        for k, token in enumerate(run.tokens):
            logits = by_hand(doc, chosen[:len(ids) + k])[-1]
            np.testing.assert_allclose(token.draw.logits, logits, atol=1e-12)
            tempered = np.exp(logits / 0.7) / np.exp(logits / 0.7).sum()
            assert tempered[token.draw.chosen] == tempered.max() >= 0.98
            np.testing.assert_allclose(token.draw.tempered, tempered, atol=1e-12)


def losses_by_hand(doc: dict[str, Any], causal: bool) -> np.ndarray:
    logits = by_hand(doc, doc["token_ids"], causal)
    logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    return -logp[np.arange(len(logits)), doc["targets"]]


def test_training_loss_is_honest_with_the_mask_and_near_zero_without() -> None:
    doc = example_document("training")
    assert doc["targets"] == [*doc["token_ids"][1:], doc["token_ids"][-1]]
    masked = compute(parse_scenario(doc))
    unmasked = compute(variant(masked.scenario, "causal").scenario)
    assert not unmasked.scenario.layers[0].attention.causal
    for trace, causal in ((masked, True), (unmasked, False)):
        np.testing.assert_allclose(trace.arrays["loss"], losses_by_hand(doc, causal), atol=1e-12)
        assert trace.arrays["loss_mean"][0] == trace.arrays["loss"].mean()
    on, off = masked.arrays["loss_mean"][0], unmasked.arrays["loss_mean"][0]
    assert on > 0.5 and off < 0.05
    # Without the mask each position i < n − 1 gives the key of i + 1 nearly all its share.
    shares = unmasked.arrays["L1.weights"][0]
    assert all(shares[i, i + 1] > 0.99 for i in range(3)) and shares[3, 3] > 0.99
    for note in notes(doc):
        assert f"loss_mean {on:.2f}" in note and f"loss_mean {off:.3f}" in note


def test_the_copying_model_only_repeats_when_it_generates() -> None:
    doc = example_document("training")
    run = generate(with_ids(doc, [0]), 3, GREEDY)
    assert run.scenario.tokens == ("我", "我", "我", "我") == tuple(
        doc["head"]["vocab"][i] for i in greedy_by_hand(doc, [0], 3))
    assert all("我" in note for note in notes(doc))
    with pytest.raises(ScenarioError, match=r"^targets: "):  # one target per position: no room
        generate(parse_scenario(doc), 1, GREEDY)


def test_the_examples_open_where_they_teach(qtbot: QtBot) -> None:
    window = open_window(qtbot, "f11")
    try:
        assert window.open_example("continue")
        state = window.state
        assert state.trace.steps[state.step].id == "sample" and not window.compare.active
        assert int(np.argmax(state.trace.arrays["probs"][-1])) == 2  # 你
        assert window.open_example("training")
        assert window.compare.active and window.compare.preset == "causal"
        assert "loss_mean" in window.state.trace.arrays
    finally:
        close_window(window)


def test_the_command_line_guide_says_what_the_engine_computes() -> None:
    readme = (EXAMPLES.parent.parent / "docs" / "command-line.md").read_text("utf-8")
    masked = compute(parse_scenario(example_document("training")))
    unmasked = compute(variant(masked.scenario, "causal").scenario)
    loss = masked.arrays["loss"]
    assert f"loss_mean {masked.arrays['loss_mean'][0]:.3f}: mask on" in readme
    assert f"its loss is {loss[0]:.3f} at three of the four positions" in readme
    assert np.allclose(loss[:3], loss[0]) and loss[3] < 0.01
    assert f"drops to {unmasked.arrays['loss_mean'][0]:.3f}" in readme
    run = generate(parse_scenario(example_document("continue")), 2, GREEDY)
    assert f"--temperature 0     # tokens {' '.join(run.scenario.tokens)}" in readme
    for name in ("continue", "training"):
        assert f"`{name}` (" in readme


def test_the_chinese_window_says_the_example_it_opened_in_chinese(qtbot: QtBot) -> None:
    set_language("zh")
    window = StudioWindow(load_scenario(example_path("training")))
    try:
        chinese, _note = document_words(window.state.scenario.title, "", "zh")
        assert chinese != window.state.scenario.title
        window.show()
        qtbot.waitUntil(lambda: window.statusBar().currentMessage() != "", timeout=3000)
        message = window.statusBar().currentMessage()
        assert chinese in message and window.state.scenario.title not in message, message
    finally:
        close_window(window)
