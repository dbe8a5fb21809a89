"""File → New from architecture in the window: each family's entry, in both languages, makes its
preset the unsaved document with no undo history (a new window beside unsaved work), and every
step of it is drawn; the canvas shows what makes each family itself."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from app.canvas import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.grid import GridSpec, MatrixGrid
from app.canvas.pieces import TextItem
from app.canvas.route_map import step_label
from app.export.words import title_for
from app.i18n import set_language
from app.model.presets import PRESETS, preset
from app.window.studio import StudioWindow
from engine import compute
from tests.app import test_i18n_untranslated as untranslated_walk
from tests.app.driving import beside_unsaved_work, close_window, open_window
from tests.app.test_i18n_untranslated import check_chinese_window


def preset_entries(window: StudioWindow) -> dict[str, QAction]:
    """The submenu's entries by family, found as a user finds them: under File."""
    file_menu = window.menuBar().actions()[0].menu()
    assert isinstance(file_menu, QMenu)
    submenu = next(a.menu() for a in file_menu.actions() if a.menu() is window.presets_menu)
    assert isinstance(submenu, QMenu)
    return {a.objectName().removeprefix("preset-"): a for a in submenu.actions()}


@pytest.mark.slow  # every step of a preset drawn in the window: up to 9 s (qwen2)
@pytest.mark.parametrize("name", list(PRESETS))
def test_each_entry_opens_its_preset_and_every_step_is_drawn(qtbot: QtBot, name: str) -> None:
    window = open_window(qtbot)
    try:
        preset_entries(window)[name].trigger()
        scenario = window.state.scenario
        assert scenario.title == preset(name).title and window.state.path is None
        assert window.state.undo_stack.count() == 0 and window.state.undo_stack.isClean()
        computed = compute(preset(name)).arrays
        assert list(window.state.trace.arrays) == list(computed)
        for array, values in computed.items():
            np.testing.assert_array_equal(window.state.trace.arrays[array], values)
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
        assert list(entries) == ["gpt2", "llama", "mistral", "mixtral", "qwen2_moe", "qwen2",
                                 "gpt_neox", "bert"]
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
            "New BERT preset: an encoder: no causal mask, post-norm, GELU, fills a [MASK]"


def test_the_bert_preset_fills_the_blank_and_offers_no_next_token_in_either_language(
        qtbot: QtBot) -> None:
    """The masked-LM's last frame fills [MASK] (no draw), Generate next is disabled with the
    engine's reason, and pressing it changes nothing."""
    window = open_window(qtbot)
    try:
        preset_entries(window)["bert"].trigger()
        steps = window.state.trace.steps
        assert [s.id for s in steps[-3:]] == ["transform", "logits", "probs"]
        assert "sample" not in {s.op for s in steps}
        panel = window.generation
        assert not panel.action.isEnabled() and not panel.button.isEnabled()
        assert panel.button.toolTip().startswith(
            "head.transform: a masked-language-model head (head.transform) fills [MASK] "
            "positions from both sides: it does not continue the text, so it does not generate")
        before = window.state.scenario
        assert not panel.generate() and window.state.scenario is before
        set_language("zh")
        qtbot.waitUntil(lambda: panel.button.toolTip().startswith(
            "head.transform：掩码语言模型的头（head.transform）根据两侧填出 [MASK] 位置："
            "它不续写文本，所以不生成"), timeout=2000)
    finally:
        set_language("en")
        close_window(window)


@pytest.mark.parametrize(("lang", "title", "note"), [
    ("en", "Layer 1 · Parallel residual: the layer's input plus the attention and feed-forward "
           "outputs",
     "a parallel block: attention (through norm1) and the feed-forward (through norm2) both "
     "read X; their outputs are added to it at once, one residual"),
    ("zh", "第 1 层 · 并行残差：本层的输入加注意力输出和前馈输出",
     "并行的层：注意力（经 norm1）和前馈（经 norm2）都读 X；"
     "两者的输出一次加回到它上面，只有一次残差"),
])
def test_the_parallel_residual_frame_draws_x_plus_both_outputs(
        qapp: object, lang: str, title: str, note: str) -> None:
    trace = compute(preset("gpt_neox"))
    index = trace.step_index("L1.resid2")
    frame = FrameItem(trace, index, FrameOptions(lang=lang), title_for(trace, index, lang))
    shown = [grid.spec for grid in frame.items_of(MatrixGrid)]
    assert [spec.title for spec in shown] == ["X", "attn_out", "ffn_out", "resid2"]
    x, attn_out, ffn_out, out = (spec.values for spec in shown)
    np.testing.assert_array_equal(x, trace.arrays["X"])
    np.testing.assert_allclose(out, x + attn_out + ffn_out, rtol=0, atol=1e-12)
    texts = words(frame)
    assert any(text.endswith(title) for text in texts), texts[:3]
    assert note in texts
    labels = [step_label(trace, trace.steps[trace.step_index(k)], lang)
              for k in ("L1.norm2", "L1.resid2")]
    assert labels == ({"en": ["Norm of the input", "+ attn + FFN"],
                       "zh": ["输入的规范化", "+ 注意力 + 前馈"]}[lang])
    assert step_label(trace, trace.steps[trace.step_index("L1.norm1")], lang) in ("Norm", "规范化")
    assert any(text.startswith(("reads: X, L1.attn_out, L1.ffn_out",
                                "读取： X, L1.attn_out, L1.ffn_out")) for text in texts), texts


@cache
def frame_of(name: str, step: str) -> FrameItem:
    """The preset's frame of ``step`` in English, laid out once for the module's tests."""
    trace = compute(preset(name))
    return FrameItem(trace, trace.step_index(step), FrameOptions(lang="en"))


def words(frame: FrameItem) -> list[str]:
    return [item.text for item in frame.items_of(TextItem)]


def grids(frame: FrameItem) -> dict[str, GridSpec]:
    return {grid.spec.title: grid.spec for grid in frame.items_of(MatrixGrid)}


def test_the_canvas_shows_what_makes_each_family_itself(qapp: object) -> None:
    """RoPE's dials (all of Llama's pairs, one of NeoX's), the gate (up ⊙ silu(norm2·Wg)),
    Mistral's one K/V head and its window's masked cells, BERT's post-norm, NeoX's FFN reading
    the layer's input."""
    llama, neox = words(frame_of("llama", "L1.rope")), words(frame_of("gpt_neox", "L1.rope"))
    assert {"pair 0: cols 0,2", "pair 1: cols 1,3"} <= set(llama)
    assert "pair 0: cols 0,1" in neox and "pair 1: cols 1,3" not in neox
    assert "columns 2–3 of each head are not turned" in neox
    assert "columns 2–3 of each head are not turned" not in llama
    with pytest.raises(ValueError, match=r"no step 'L1\.rope'"):
        frame_of("gpt2", "L1.rope")
    assert "+ positions" in words(frame_of("gpt2", "L1.ffn"))
    gated, trace = grids(frame_of("llama", "L1.ffn")), compute(preset("llama"))
    z = trace.arrays["L1.norm2"] @ trace.scenario.layers[0].block.ffn.Wg
    np.testing.assert_allclose(gated["z = norm2·Wg"].values, z, atol=1e-12)
    np.testing.assert_allclose(gated["gate = silu(z)"].values, z / (1 + np.exp(-z)), atol=1e-12)
    np.testing.assert_array_equal(gated["hidden = up ⊙ gate"].values,
                                  gated["up = norm2·W1"].values * gated["gate = silu(z)"].values)
    assert "hidden = gelu_tanh(z)" in grids(frame_of("gpt2", "L1.ffn"))
    assert "hidden = silu(z)" not in gated, "a gated hidden unit is not silu of W1's z"
    for name, width in (("mistral", 4), ("qwen2", 4), ("llama", 8)):
        shown = grids(frame_of(name, "L1.projections"))
        k, v = shown["K = norm1·Wk"], shown["V = norm1·Wv"]
        assert k.values.shape == (4, width) == v.values.shape
    masked = grids(frame_of("mistral", "L1.weights"))
    causal = grids(frame_of("llama", "L1.weights"))
    beyond = np.array([[i - j >= 2 for j in range(4)] for i in range(4)])
    upper = np.triu(np.ones((4, 4), bool), 1)
    for title, spec in masked.items():
        assert spec.masked is not None and np.array_equal(spec.masked, upper | beyond), title
    assert all(np.array_equal(spec.masked, upper) for spec in causal.values())
    assert "Step 8 of 23 · Layer 1: Post-norm (LayerNorm) of the first residual" in words(
        frame_of("bert", "L1.norm1"))
    assert all(spec.masked is None or not spec.masked.any()
               for spec in grids(frame_of("bert", "L1.weights")).values())
    assert any(text.startswith("reads: X, ") for text in words(frame_of("gpt_neox", "L1.norm2")))
    assert not any(text.startswith("reads: X, ")
                   for text in words(frame_of("gpt2", "L1.norm2")))
    # RMSNorm reads no β: its footer, its grids; LayerNorm shows both
    rms = frame_of("llama", "L1.norm1")
    assert "reads: X, L1.γ1     writes: L1.norm1" in words(rms)
    assert list(grids(rms)) == ["X", "per row", "norm1", "γ1"]
    assert list(grids(frame_of("gpt2", "L1.norm1"))) == ["X", "per row", "norm1", "γ1", "β1"]
    assert "reads: X, L1.γ1, L1.β1     writes: L1.norm1" in words(frame_of("gpt2", "L1.norm1"))


STACK_NAMES = {"L1", "L2", "Wg", "f"}
"""Grid names of a two-layer stack (``L1.Wq``, the head's ``γf``), which the walk's word list
leaves out."""


@pytest.mark.parametrize("name", ["llama", "bert"])
def test_no_english_sentence_is_left_in_a_chinese_window_on_a_preset(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setattr(untranslated_walk, "ALLOWED_WORDS", untranslated_walk.ALLOWED_WORDS
                        | STACK_NAMES)
    window = open_window(qtbot)
    try:
        preset_entries(window)[name].trigger()
        check_chinese_window(qtbot, window)
    finally:
        set_language("en")
        close_window(window)
