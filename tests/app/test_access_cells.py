"""What a screen reader hears: a sentence per grid cell, and the canvas in words."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.canvas import FrameOptions
from app.canvas.describe import describe_frame
from app.i18n import set_language
from app.window.studio import StudioWindow
from engine import format_number
from engine.scenario.names import short_name
from tests.app.driving import close_window, open_window

ROLE = Qt.ItemDataRole.AccessibleTextRole


def sentence(window: StudioWindow, path: str, row: int, col: int) -> str:
    model = window.editor.tables[path].model()
    return str(model.data(model.index(row, col), ROLE))


def test_every_editor_cell_answers_with_a_sentence(window: StudioWindow) -> None:
    assert sentence(window, "X", 1, 0) == "X, token 爱, feature 0: 1"
    assert sentence(window, "attention.Wq", 1, 0) == "Wq, row 1, column 0: −1"
    for path, table in window.editor.tables.items():
        model = table.model()
        for row in range(model.rowCount()):
            for col in range(model.columnCount()):
                text = str(model.data(model.index(row, col), ROLE))
                shown = str(model.data(model.index(row, col), Qt.ItemDataRole.DisplayRole))
                assert text.startswith(short_name(path) + ", "), text
                assert text.endswith(": " + str(model.data(model.index(row, col),
                                                           Qt.ItemDataRole.EditRole))), text
                assert shown.replace("−", "") in text.replace("−", "")
    tokens = window.editor.token_table.model()
    assert tokens.data(tokens.index(0, 1), ROLE) == "token label of position 1: 爱"


def test_vector_and_vocabulary_cells_in_g01(qtbot: QtBot) -> None:
    window = open_window(qtbot, "g01")
    assert sentence(window, "block.gamma1", 0, 1) == "γ1, column 1: 1"
    vocab = window.editor.block_editor.vocab_table.model()
    label = vocab.data(vocab.index(0, 0), Qt.ItemDataRole.DisplayRole)
    assert vocab.data(vocab.index(0, 0), ROLE) == f"vocabulary label of entry 0: {label}"
    close_window(window)


def test_cell_sentences_follow_the_language(qtbot: QtBot, window: StudioWindow) -> None:
    set_language("zh")
    assert sentence(window, "X", 1, 0) == "X，Token 爱，特征 0：1"
    assert sentence(window, "attention.Wq", 1, 0) == "Wq，第 1 行第 0 列：−1"
    tokens = window.editor.token_table.model()
    assert tokens.data(tokens.index(0, 1), ROLE) == "位置 1 的Token标签：爱"
    assert tokens.headerData(0, Qt.Orientation.Vertical) == "Token"


def test_the_canvas_describes_its_frame(window: StudioWindow) -> None:
    window.state.set_step(3)  # softmax shares
    weights = window.state.trace.arrays["weights"][0, 1]
    expected = (f"share from 爱 to 我: {format_number(float(weights[0]), 3)}; "
                f"share from 爱 to 爱: {format_number(float(weights[1]), 3)}")
    assert expected == "share from 爱 to 我: 0.804; share from 爱 to 爱: 0.196"
    description = window.canvas.accessibleDescription()
    assert description.startswith("Step 4 of 5: ")
    assert description.endswith(expected)
    window.controls.receiver_box.setCurrentIndex(0)
    assert window.canvas.accessibleDescription().endswith(
        "share from 我 to 我: 1; 爱 is masked for 我")
    window.state.set_step(1)
    assert "Q, row 我: " in window.canvas.accessibleDescription()


def test_the_canvas_description_follows_the_language(qtbot: QtBot,
                                                     window: StudioWindow) -> None:
    window.state.set_step(3)
    set_language("zh")
    qtbot.waitUntil(lambda: window.canvas.accessibleDescription().startswith("第 4 步"),
                    timeout=2000)
    assert window.canvas.accessibleDescription().endswith(
        "从 爱 到 我 的份额：0.804；从 爱 到 爱 的份额：0.196")


def test_the_status_bar_is_said_again_in_the_new_language(qtbot: QtBot,
                                                         window: StudioWindow) -> None:
    """The status bar's last line (``Opened F11 → shares for 爱: …``) stayed in the language it
    was said in; a switch says the shares again in the new one."""
    assert window.statusBar().currentMessage().startswith("Opened ")
    set_language("zh")
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("“爱”的份额"),
                    timeout=2000)
    assert window.statusBar().currentMessage() == window.state.shares_summary()


def test_a_status_line_other_than_the_shares_stays_on_a_language_switch(
        qtbot: QtBot, window: StudioWindow) -> None:
    """A warning (a failed save, a refusal) is not replaced by the shares."""
    window.statusBar().showMessage("⚠ not saved to /x.qkv.json: the disk is full")
    set_language("zh")
    qtbot.wait(50)
    assert window.statusBar().currentMessage() == "⚠ not saved to /x.qkv.json: the disk is full"


def test_several_heads_are_described_head_by_head(window: StudioWindow) -> None:
    from app.model.examples import example_path
    from engine import compute, load_scenario

    trace = compute(load_scenario(example_path("multihead")))
    text = describe_frame(trace, 3, FrameOptions(), "Softmax shares")
    heads = trace.arrays["weights"].shape[0]
    assert heads == 2
    assert text.count("head 1: share from") == text.count("head 2: share from") == trace.scenario.n
    only = describe_frame(trace, 3, FrameOptions(head=1), "Softmax shares")
    assert "head 1:" not in only and only.count("head 2: share from") == trace.scenario.n


def test_glossary_items_are_read_as_term_and_definition(window: StudioWindow) -> None:
    item = window.glossary.terms.item(0)
    text = item.data(ROLE)
    assert text.startswith(item.text() + ": ")
    assert len(text) > len(item.text()) + 20


def test_typing_describes_the_canvas_once_it_pauses(qtbot: QtBot, window: StudioWindow) -> None:
    window.state.set_step(3)
    before = window.canvas.accessibleDescription()
    assert before.endswith("share from 爱 to 我: 0.804; share from 爱 to 爱: 0.196")
    model = window.editor.tables["attention.Wq"].model()
    with qtbot.waitSignal(window.canvas.repainted, timeout=5000):
        assert model.setData(model.index(0, 0), "3")
    assert window.canvas.accessibleDescription() == before, "not on every number typed"
    qtbot.waitUntil(lambda: window.canvas.accessibleDescription() != before, timeout=2000)
    weights = window.state.trace.arrays["weights"][0, 1]
    assert window.canvas.accessibleDescription().endswith(
        f"share from 爱 to 我: {format_number(float(weights[0]), 3)}; "
        f"share from 爱 to 爱: {format_number(float(weights[1]), 3)}")
    assert format_number(float(weights[0]), 3) != "0.804"
