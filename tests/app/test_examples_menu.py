"""File → Open example: titles with a note in the interface language, each example opening the
way it is meant to be seen, and the pronoun example's shares."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from app.canvas.side_by_side import CompareFrameItem
from app.i18n import set_language
from app.model.examples import example_names, example_path, opening_receiver
from app.texts import words_en
from app.texts.example_words import example_label, example_title
from app.window.startup import start_window
from app.window.studio import StudioWindow
from engine import compute, load_scenario
from tests.app.documents_support import launch_names
from tests.app.driving import close_window, open_window

__all__ = ["launch_names"]


def example_actions(window: StudioWindow) -> list[str]:
    file_menu = window.menuBar().actions()[0].menu()
    assert isinstance(file_menu, QMenu)
    examples = next(a.menu() for a in file_menu.actions() if isinstance(a.menu(), QMenu)
                    and a.menu() is not window.recent_menu)
    assert isinstance(examples, QMenu)
    return [a.text() for a in examples.actions()]


def test_every_example_has_a_title_and_a_note_in_both_languages() -> None:
    assert {word_id.split(".")[0] for word_id in words_en.EXAMPLES} == set(example_names())
    for name in example_names():
        words = {lang: (example_title(name, lang), example_label(name, lang))
                 for lang in ("en", "zh")}
        for title, label in words.values():
            assert title and label.startswith(f"{title} — ") and len(label) > len(title) + 3
            assert len(label) <= 90
        assert words["en"] != words["zh"]


def test_the_menu_lists_titles_with_notes_in_the_interface_language(qtbot: QtBot) -> None:
    window = open_window(qtbot)
    try:
        english = example_actions(window)
        assert english[0] == "F11 · Q/K/V on two positions — the chapter's walk-through: " \
                             "我 reads itself, 爱 reads both"
        assert "LayerNorm vs RMSNorm — the row [1, 3] under both norms, side by side" in english
        assert not set(english) & set(example_names()), "titles, not ids"
        set_language("zh")
        qtbot.waitUntil(lambda: example_actions(window)[0].startswith("F11 · 两个位置"),
                        timeout=2000)
        assert "LayerNorm 与 RMSNorm — 同一行 [1, 3] 在两种 Norm 下并排对照" in \
            example_actions(window)
    finally:
        set_language("en")
        close_window(window)


def test_norms_opens_side_by_side_and_tokenizer_on_its_embed_step(qtbot: QtBot) -> None:
    window = open_window(qtbot, "f11")
    try:
        window.state.set_step(3)
        assert window.open_example("norms")
        assert window.compare.active and window.compare.preset == "norm"
        window.refresh_canvas(True)
        item = window.canvas.frame
        assert isinstance(item, CompareFrameItem)
        assert item.header.text == "Compare · A: LayerNorm  |  B: RMSNorm"
        assert window.open_example("tokenizer")
        assert not window.compare.active
        assert window.state.trace.steps[window.state.step].id == "embed"
        assert window.open_example("g01")
        assert window.state.step == 0 and not window.compare.active
        assert window.open_example("pronoun")
        assert window.state.trace.steps[window.state.step].id == "weights"
        assert window.state.scenario.tokens[window.state.focused_receiver()] == "it"
        assert window.controls.receiver_box.currentText().endswith("it")
    finally:
        close_window(window)


def test_the_pronoun_reads_its_antecedent() -> None:
    trace = compute(load_scenario(example_path("pronoun")))
    tokens = list(trace.scenario.tokens)
    it, animal, street = tokens.index("it"), tokens.index("animal"), tokens.index("street")
    shares = trace.arrays["weights"][0, it]
    assert int(np.argmax(shares)) == animal
    # Recomputed here: q = X·Wq, k = X·Wk, softmax over the keys up to "it".
    doc = json.loads(example_path("pronoun").read_text("utf-8"))
    X, Wq, Wk = (np.array(doc[k] if k == "X" else doc["attention"][k]) for k in ("X", "Wq", "Wk"))
    scores = (X[it] @ Wq) @ (X[: it + 1] @ Wk).T / np.sqrt(2)
    expected = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
    np.testing.assert_allclose(shares[: it + 1], expected)
    assert shares[animal] > 0.6 > shares[street] > shares[tokens.index("The")]
    assert shares[tokens.index("tired")] == 0.0  # after "it": hidden by the causal mask
    assert "Wq" in doc["note"] and "Wk" in doc["note"] and "by hand" in doc["note"]


def test_the_position_examples_open_where_they_teach(qtbot: QtBot) -> None:
    window = open_window(qtbot, "f11")
    try:
        assert window.open_example("order")
        state = window.state
        assert state.trace.steps[state.step].id == "weights"
        assert state.scenario.tokens[state.focused_receiver()] == "A"
        assert state.trace.arrays["weights"][0, 1, 0] > 0.99, "A reads 排除, the verb before it"
        assert window.open_example("rope")
        assert window.state.trace.steps[window.state.step].op == "rope"
    finally:
        close_window(window)


@pytest.mark.parametrize("route", ["menu", "open", "launch"])
def test_pronoun_opens_on_it_by_every_route_as_its_export_does(
        qtbot: QtBot, launch_names: None, route: str) -> None:
    """The Examples menu, File → Open of the example's file and `qkv-studio pronoun` all land
    on the shares with "it" reading, the receiver an export of pronoun takes by default; File →
    Open and the launch had shown "tired", the last token."""
    path = example_path("pronoun")
    assert opening_receiver(path) == "it"
    if route == "launch":
        window = start_window("pronoun")
    else:
        window = open_window(qtbot, "f11")
        assert (window.open_example("pronoun") if route == "menu" else window.open_path(path))
    try:
        qtbot.waitUntil(lambda: window.state.scenario.title.startswith("Which word"), timeout=5000)
        tokens = window.state.scenario.tokens
        assert tokens[window.state.receiver] == "it" and tokens[-1] != "it"
        assert window.state.trace.steps[window.state.step].id == "weights"
    finally:
        if route != "launch":
            close_window(window)
