"""A stack whose layers differ in their number of heads: the window offers every head."""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from app.model.outline import parameter_cells
from app.state.big import work_of
from app.window.studio import StudioWindow
from engine import Scenario, parse_scenario
from tests.app.driving import close_window
from tests.engine.v2_documents import attention, document


def two_then_four_heads() -> Scenario:
    """Layer 1 with two heads, layer 2 with four (d = 4, d_k = d_v = 2)."""
    doc = document(11, n=3, d=4, layers=2)
    doc["layers"][1]["attention"] = attention(np.random.default_rng(5), 4, heads=4)
    return parse_scenario(doc)


def test_the_head_chooser_offers_the_heads_of_the_layer_with_most(qtbot: QtBot) -> None:
    window = StudioWindow(two_then_four_heads())
    try:
        box = window.controls.head_box
        assert [box.itemData(k) for k in range(box.count())] == [None, 0, 1, 2, 3]
        assert box.isEnabled()
        box.setCurrentIndex(4)  # head 4, which only layer 2 has
        assert window.state.head == 3
    finally:
        close_window(window)


def test_the_work_estimate_counts_every_layers_scores() -> None:
    scenario = two_then_four_heads()
    assert scenario.most_heads == 4
    assert [a.heads for a in scenario.attentions] == [2, 4]
    assert work_of(scenario) == (2 + 4) * 3 * 3 + parameter_cells(scenario)


def test_a_head_only_layer_2_has_survives_an_edit(qtbot: QtBot) -> None:
    """Recomputing keeps head 4 chosen: it exists in layer 2 (it was dropped as out of range)."""
    window = StudioWindow(two_then_four_heads())
    try:
        window.state.set_head(3)
        with qtbot.waitSignal(window.state.traceChanged):
            assert window.state.edit_cell("X", 0, 0, 0.25)
        assert window.state.head == 3
    finally:
        close_window(window)


def test_an_example_that_opens_on_a_later_step_says_that_steps_shares(qtbot: QtBot) -> None:
    """The encoder–decoder opens on the cross-attention's shares: the status line quotes them
    (it quoted the encoder's first shares, the step the document was computed on)."""
    from tests.app.driving import open_window

    window = open_window(qtbot, "f11")
    try:
        assert window.open_example("encoder-decoder")
        state = window.state
        assert state.trace.steps[state.step].id == "L1.cross.weights"
        assert window.statusBar().currentMessage().endswith(f"→ {state.shares_summary()}")
        assert "我" in state.shares_summary() or "爱" in state.shares_summary()
    finally:
        close_window(window)


def test_block_settings_compare_when_only_a_later_layer_has_a_block(qtbot: QtBot) -> None:
    """“The other norm” changes every block, so it applies when layer 2 has one and layer 1
    none (it was greyed out: layer 1 was read as the document's block)."""
    from PySide6.QtGui import QStandardItemModel

    from app.window.compare_mode import BLOCK_PRESETS, PRESETS

    doc = document(12, n=3, d=4, layers=2)
    del doc["layers"][0]["block"]
    window = StudioWindow(parse_scenario(doc))
    try:
        model = window.compare.preset_box.model()
        assert isinstance(model, QStandardItemModel)
        for preset in BLOCK_PRESETS:
            assert model.item(PRESETS.index(preset)).isEnabled(), preset
    finally:
        close_window(window)
