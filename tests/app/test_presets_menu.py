"""File → New from architecture in the window: each family's entry, in both languages, makes its
preset the unsaved document with no undo history (a new window beside unsaved work), and every
step of it is drawn."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from app.i18n import set_language
from app.model.presets import PRESETS, preset
from app.window.studio import StudioWindow
from engine import compute
from tests.app.driving import beside_unsaved_work, close_window, open_window


def preset_entries(window: StudioWindow) -> dict[str, QAction]:
    """The submenu's entries by family, found as a user finds them: under File."""
    file_menu = window.menuBar().actions()[0].menu()
    assert isinstance(file_menu, QMenu)
    submenu = next(a.menu() for a in file_menu.actions() if a.menu() is window.presets_menu)
    assert isinstance(submenu, QMenu)
    return {a.objectName().removeprefix("preset-"): a for a in submenu.actions()}


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_entry_opens_its_preset_and_every_step_is_drawn(qtbot: QtBot, name: str) -> None:
    window = open_window(qtbot)
    try:
        preset_entries(window)[name].trigger()
        scenario = window.state.scenario
        assert scenario.title == preset(name).title and window.state.path is None
        assert window.state.undo_stack.count() == 0 and window.state.undo_stack.isClean()
        np.testing.assert_array_equal(window.state.trace.arrays["probs"],
                                      compute(preset(name)).arrays["probs"])
        assert window.statusBar().currentMessage().startswith("New ")
        steps = window.state.trace.steps
        for k in range(len(steps)):
            window.state.set_step(k)
            frame = window.canvas.frame
            assert frame is not None and frame.step_index == k
            assert frame.body.childItems(), steps[k].id
            message = window.statusBar().currentMessage()
            assert not message.startswith("⚠"), f"{steps[k].id}: {message}"
    finally:
        close_window(window)


def test_the_menu_and_the_document_speak_the_interface_language(qtbot: QtBot) -> None:
    window = open_window(qtbot)
    try:
        entries = preset_entries(window)
        assert list(entries) == ["gpt2", "llama", "mistral", "qwen2", "gpt_neox", "bert"]
        assert window.presets_menu.title() == "New from &architecture"
        assert entries["mistral"].text() == \
            "Mistral — Llama with grouped K/V heads and a sliding window"
        set_language("zh")
        qtbot.waitUntil(lambda: window.presets_menu.title() == "按架构新建(&A)", timeout=2000)
        assert entries["mistral"].text() == "Mistral — Llama 加上分组共享的 K/V 头和滑动窗口"
        entries["llama"].trigger()
        assert window.windowTitle() == "QKV Studio — Llama · 微型预设[*]"
        assert window.statusBar().currentMessage().startswith(
            "新建 Llama 预设：RoPE、RMSNorm、SwiGLU 门控、没有偏置 → ")
    finally:
        set_language("en")
        close_window(window)


def test_unsaved_work_stays_and_the_preset_opens_in_a_new_window(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    with beside_unsaved_work(qtbot, monkeypatch) as (window, opened):
        before = window.state.scenario
        preset_entries(window)["bert"].trigger()
        assert window.state.scenario is before
        assert len(opened) == 1 and opened[0].state.scenario.title == "BERT · tiny preset"
        assert opened[0].statusBar().currentMessage() == \
            "New BERT preset: an encoder: no causal mask, post-norm, GELU"
