"""Generate next in the window (issue 24): greedy and seeded draws as the engine's run makes
them, the user's own pick by clicking a bar, undo as rewind and redo that never draws again, the
temperature slider as one undo step, disabled controls and refusals, and the record saved."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app import i18n
from app.canvas.bars import ProbabilityBars
from app.model.edits import AppendToken, SetGeneration
from app.state import session as state_module
from app.window.studio import StudioWindow
from engine import Scenario, compute, parse_scenario
from engine.checkpoint import import_checkpoint
from engine.format.generation_keys import Settings
from engine.generation.redraw import with_settings
from engine.generation.run import generate
from engine.generation.sampling import sample
from tests.app.documents_support import patch_save_dialog
from tests.app.driving import DEFAULT_SIZE, close_window
from tests.engine import generation_documents
from tests.engine.capped_head import capped_scenario
from tests.engine.hf_reference import FIXTURES


def softmax(row: np.ndarray) -> np.ndarray:
    e = np.exp(row - row.max())
    return e / e.sum()


def open_on(qtbot: QtBot, scenario: Scenario) -> StudioWindow:
    window = StudioWindow(scenario)
    window.resize(*DEFAULT_SIZE)
    with qtbot.waitActive(window):
        window.show()
    steps = [step.id for step in window.state.trace.steps]
    window.state.set_step(steps.index("probs") if "probs" in steps else len(steps) - 1)
    window.canvas.build_pending()
    return window


@pytest.fixture
def generating(qtbot: QtBot) -> Iterator[StudioWindow]:
    """A window on the three-layer stack with token ids, on its probabilities step."""
    window = open_on(qtbot, generation_documents.scenario("three-layers"))
    yield window
    close_window(window)


def choose_mode(window: StudioWindow, index: int) -> None:
    """Pick greedy (0) or sampling (1) as a user does: the choice made in the box."""
    box = window.generation.mode_box
    box.setCurrentIndex(index)
    box.activated.emit(index)


def test_greedy_generate_next_appends_the_argmax_with_its_embedding_row(
        qtbot: QtBot, generating: StudioWindow) -> None:
    before = generating.state.scenario
    panel = generating.generation
    assert panel.isVisible()
    choose_mode(generating, 0)
    assert before.generation is None and generating.state.scenario.generation is not None
    assert generating.state.scenario.generation.settings.temperature == 0.0
    # Independently: the last position's logits through a softmax, then the largest share.
    last = compute(before).arrays["L3.resid2"][-1]
    head = before.head
    assert head is not None and head.unembed is not None and before.embedding is not None
    probs = softmax(last_normed(before, last) @ head.unembed)
    expected = int(np.argmax(probs))
    qtbot.mouseClick(panel.button, Qt.MouseButton.LeftButton)
    after = generating.state.scenario
    assert after.n == before.n + 1
    assert after.token_ids is not None and after.token_ids[-1] == expected
    assert after.tokens[-1] == head.vocab[expected]
    np.testing.assert_array_equal(after.X[-1], before.embedding[expected])
    assert after.generation is not None and after.generation.chosen == (expected,)
    status = generating.statusBar().currentMessage()
    assert status.startswith(f"append token {expected} “{head.vocab[expected]}” → shares for")


def last_normed(scenario: Scenario, row: np.ndarray) -> np.ndarray:
    """The head's final LayerNorm of one row (γ, β of the document)."""
    head = scenario.head
    assert head is not None and head.final_norm and head.gamma_f is not None
    assert head.beta_f is not None
    centred = row - row.mean()
    return centred / np.sqrt((centred ** 2).mean() + head.eps) * head.gamma_f + head.beta_f


def test_the_same_seed_gives_the_tokens_of_the_engines_run(qtbot: QtBot,
                                                           generating: StudioWindow) -> None:
    start = generating.state.scenario
    panel = generating.generation
    choose_mode(generating, 1)
    panel.slider.setValue(70)
    assert panel.temperature_label.text() == "0.70"
    panel.top_k_box.setValue(2)
    panel.seed_box.setValue(11)
    settings = Settings(temperature=0.7, top_k=2, top_p=1.0, seed=11)
    assert generating.state.scenario.generation is not None
    assert generating.state.scenario.generation.settings == settings
    for _ in range(4):
        qtbot.keyClick(generating, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    run = generate(start, 4, settings)
    assert generating.state.scenario.token_ids == run.scenario.token_ids
    assert generating.state.scenario.generation == run.scenario.generation
    assert len(set(run.scenario.token_ids[start.n:])) > 1  # a real draw, not one id again


def test_undo_rewinds_and_redo_replays_the_same_id_without_drawing(
        qtbot: QtBot, generating: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    start = generating.state.scenario
    panel = generating.generation
    choose_mode(generating, 1)
    panel.seed_box.setValue(5)
    for _ in range(3):
        assert panel.generate()
    made = generating.state.scenario
    assert made.token_ids is not None and made.generation is not None
    generating.undo_action.trigger()
    generating.undo_action.trigger()
    rewound = generating.state.scenario
    assert rewound.token_ids == made.token_ids[:-2]
    assert rewound.generation is not None and rewound.generation.chosen == \
        made.generation.chosen[:1]

    def no_draw(*_args: object) -> None:
        raise AssertionError("redo drew again")

    monkeypatch.setattr("app.window.generation_panel.sample", no_draw)
    generating.redo_action.trigger()
    generating.redo_action.trigger()
    assert generating.state.scenario.token_ids == made.token_ids
    assert generating.state.scenario.generation == made.generation
    assert generating.statusBar().currentMessage().startswith(
        f"Redone: append token {made.token_ids[-1]}")
    with pytest.raises(AssertionError, match="drew again"):
        panel.generate()  # a draw would have been seen
    for _ in range(5):
        generating.undo_action.trigger()
    assert generating.state.scenario.token_ids == start.token_ids
    assert generating.state.scenario.generation is None


def bar_point(window: StudioWindow, entry: int) -> QPoint:
    """The viewport point in the middle of ``entry``'s bar on the canvas."""
    bars = [item for item in window.canvas.scene().items() if isinstance(item, ProbabilityBars)]
    assert len(bars) == 1
    rect = next(rect for rect, shown in bars[0].rows if shown == entry)
    scene = bars[0].mapToScene(QPointF(rect.center().x() + rect.width() / 4, rect.center().y()))
    return window.canvas.mapFromScene(scene)


def test_clicking_a_bar_appends_that_entry(qtbot: QtBot, generating: StudioWindow) -> None:
    start = generating.state.scenario
    probs = generating.state.trace.arrays["probs"][-1]
    least = int(np.argmin(probs))  # no draw at any setting would favour it
    qtbot.mouseClick(generating.canvas.viewport(), Qt.MouseButton.LeftButton,
                     pos=bar_point(generating, least))
    after = generating.state.scenario
    assert after.token_ids == (*(start.token_ids or ()), least)
    assert after.generation is not None and after.generation.chosen == (least,)
    generating.canvas.build_pending()
    qtbot.mouseClick(generating.canvas.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(3, 3))  # beside the bars: nothing picked
    assert generating.state.scenario is after


def test_a_double_click_on_a_bar_picks_once_and_does_not_zoom(
        qtbot: QtBot, generating: StudioWindow) -> None:
    start = generating.state.scenario
    least = int(np.argmin(generating.state.trace.arrays["probs"][-1]))
    point = bar_point(generating, least)
    # a double-click arrives as press, release, double-click, release
    qtbot.mouseClick(generating.canvas.viewport(), Qt.MouseButton.LeftButton, pos=point)
    generating.canvas.build_pending()
    point = bar_point(generating, least)  # the picked token's frame has one more group of bars
    qtbot.mouseDClick(generating.canvas.viewport(), Qt.MouseButton.LeftButton, pos=point)
    qtbot.mouseRelease(generating.canvas.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert generating.state.scenario.token_ids == (*(start.token_ids or ()), least)
    assert not generating.canvas.zoomed_to_step


def test_a_bar_clicked_while_comparing_picks_nothing(qtbot: QtBot,
                                                     generating: StudioWindow) -> None:
    start = generating.state.scenario
    generating.compare.action.trigger()
    assert generating.compare.active
    generating.canvas.barClicked.emit(0)  # wherever the comparison draws its bars
    assert generating.state.scenario is start


def test_a_drag_of_the_temperature_slider_is_one_undo_step(qtbot: QtBot,
                                                           generating: StudioWindow) -> None:
    panel = generating.generation
    choose_mode(generating, 1)
    steps = generating.state.undo_stack.count()
    panel.slider.setSliderDown(True)
    for value in (95, 80, 62, 45):
        panel.slider.setValue(value)
    panel.slider.setSliderDown(False)
    assert generating.state.undo_stack.count() == steps + 1
    assert generating.state.undo_stack.undoText() == "generation: temperature = 0.45"
    assert panel.temperature_label.text() == "0.45"
    generating.undo_action.trigger()
    assert generating.state.scenario.generation is None  # the settings by default again
    assert panel.slider.value() == 100 and panel.temperature_label.text() == "1.00"


def test_a_slider_step_draws_again_without_a_forward_pass(
        qtbot: QtBot, generating: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's trace after a drag is the full compute's bit for bit, though no forward
    pass ran; the frame on screen and the step texts read it; undo shows the first trace."""
    state = generating.state
    choose_mode(generating, 1)
    first = state.trace
    monkeypatch.setattr(state_module, "compute", forbidden)
    panel = generating.generation
    for value in (90, 73, 41):
        panel.slider.setValue(value)
    assert state.trace.scenario is state.scenario
    assert state.scenario.generation is not None
    assert state.scenario.generation.settings.temperature == 0.41
    expected = compute(state.scenario)
    assert list(state.trace.arrays) == list(expected.arrays)
    assert all(np.array_equal(state.trace.arrays[k], a) for k, a in expected.arrays.items())
    state.set_step(state.trace.step_index("sample"))
    frame = generating.canvas.frame
    assert frame is not None and frame.trace is state.trace
    generating.undo_action.trigger()
    assert state.trace is first


def test_generate_next_grows_the_trace_from_the_cache(
        qtbot: QtBot, generating: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """Generate next computes no forward pass of the longer document: its trace is grown from
    the KV cache and equals the full compute to 1e-12."""
    state = generating.state
    monkeypatch.setattr(state_module, "compute", forbidden)
    for _ in range(2):
        assert generating.generation.generate()
        expected = compute(state.scenario)
        assert state.trace.scenario is state.scenario
        assert [s.id for s in state.trace.steps] == [s.id for s in expected.steps]
        for name, array in expected.arrays.items():
            np.testing.assert_allclose(state.trace.arrays[name], array, rtol=0, atol=1e-12)


def forbidden(_scenario: Scenario) -> None:
    raise AssertionError("the window computed the whole document")


def test_greedy_and_back_are_steps_of_their_own(qtbot: QtBot, generating: StudioWindow) -> None:
    panel = generating.generation
    choose_mode(generating, 0)
    assert not panel.slider.isEnabled() and not panel.top_k_box.isEnabled()
    assert panel.temperature_label.text() == "0"  # greedy's T, not the greyed slider's 1.00
    choose_mode(generating, 1)
    assert panel.slider.isEnabled() and panel.temperature_label.text() == "1.00"
    stack = generating.state.undo_stack
    assert [stack.text(k) for k in range(stack.count())] == [
        "generation: greedy", "generation: temperature = 1"]


@pytest.mark.parametrize(("name", "english", "chinese"), [
    ("g01", "token_ids: generating needs token_ids and an embedding table",
     "token_ids：生成需要 token_ids 和一张嵌入表"),
    ("tokenizer", "head.unembed: generating needs a vocabulary head",
     "head.unembed：生成需要词表头"),
    ("bert", "head.unembed: an encoder reads both directions (no causal mask) and has no "
             "vocabulary head: it does not predict the next token",
     "head.unembed：编码器双向阅读（没有因果掩码），也没有词表头：它不预测下一个 Token"),
])
def test_a_document_that_cannot_generate_has_its_controls_disabled_saying_why(
        qtbot: QtBot, name: str, english: str, chinese: str) -> None:
    from app.model.examples import example_path
    from engine.format.io import load_scenario
    window = open_on(qtbot, load_scenario(example_path(name)))
    try:
        panel = window.generation
        assert not panel.action.isEnabled()
        for widget in panel.controls:
            assert not widget.isEnabled()
        assert panel.button.toolTip().startswith(english)
        assert panel.top_k_box.toolTip().startswith(english)
        before = window.state.scenario
        qtbot.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
        assert not panel.generate() and not panel.pick(0)
        assert window.state.scenario is before
        assert window.statusBar().currentMessage() == f"⚠ {panel.button.toolTip()}"
        i18n.set_language("zh")
        QApplication.processEvents()
        assert panel.button.toolTip().startswith(chinese)
        assert panel.button.text() == "生成下一个"
    finally:
        close_window(window)


def test_at_the_learned_tables_end_generate_next_is_disabled_saying_why(qtbot: QtBot) -> None:
    """Four tokens and a four-row table: the controls are disabled with the engine's reason
    (it was only said after a click), and Generate next keeps the document."""
    doc = generation_documents.built(2, positions=generation_documents.learned_table(4))
    window = open_on(qtbot, parse_scenario(doc))
    try:
        panel = window.generation
        assert window.state.scenario.n == 4
        assert not panel.button.isEnabled() and not panel.action.isEnabled()
        assert panel.button.toolTip().startswith(
            "positions.table: the learned table has 4 rows; position 4 would need row 4")
        before = window.state.scenario
        steps = window.state.undo_stack.count()
        assert not panel.generate()
        assert window.state.scenario is before and window.state.undo_stack.count() == steps
    finally:
        close_window(window)


def test_save_and_open_keep_the_generation_record(qtbot: QtBot, generating: StudioWindow,
                                                  tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    panel = generating.generation
    choose_mode(generating, 1)
    panel.top_p_box.setValue(0.9)
    panel.seed_box.setValue(3)
    assert panel.generate() and panel.generate()
    made = generating.state.scenario
    target = tmp_path / "run.qkv.json"
    patch_save_dialog(monkeypatch, target)
    assert generating.save_as()
    saved = json.loads(target.read_text("utf-8"))
    assert made.generation is not None
    assert saved["generation"] == {"temperature": 1, "top_p": 0.9, "seed": 3,
                                   "chosen": list(made.generation.chosen)}
    generating.show_document(generation_documents.scenario("three-layers"), None)
    assert panel.top_p_box.value() == 1.0 and panel.seed_box.value() == 0
    assert generating.open_path(target)
    opened = generating.state.scenario
    assert opened.generation == made.generation and opened.token_ids == made.token_ids
    assert panel.top_p_box.value() == 0.9 and panel.seed_box.value() == 3
    assert panel.mode_box.currentIndex() == 1


def test_the_edits_are_named_in_both_languages() -> None:
    assert AppendToken(2, "你").label("en") == "append token 2 “你”"
    assert AppendToken(2, "你").label("zh") == "追加 Token 2“你”"
    greedy = SetGeneration(Settings(temperature=0.0), "temperature")
    assert (greedy.label("en"), greedy.label("zh")) == ("generation: greedy", "生成：贪心")
    off = SetGeneration(Settings(), "top_k")
    assert (off.label("en"), off.label("zh")) == ("generation: top-k off", "生成：关闭 top-k")
    seed = SetGeneration(Settings(seed=9), "seed")
    assert seed.label("zh") == "生成：随机种子 = 9"


def test_generate_next_draws_from_the_step_the_head_ends_with(
        qtbot: QtBot) -> None:
    """A head capped by ``head.softcap``: Generate next draws from the capped logits' last
    row, not from the uncapped ones (a seed where the two draws differ)."""
    start = capped_scenario()
    trace = compute(start)
    capped, logits = trace.arrays["logits"][-1], trace.arrays["logits_uncapped"][-1]
    settings = next(s for s in (Settings(temperature=1.0, seed=k) for k in range(50))
                    if sample(capped, s, 1).chosen != sample(logits, s, 1).chosen)
    window = StudioWindow(with_settings(start, settings))  # never shown: only the draw
    try:
        assert window.generation.generate()
        ids = window.state.scenario.token_ids
        assert ids is not None and ids[-1] == sample(capped, settings, 1).chosen
    finally:
        close_window(window)


def test_a_cell_edit_leaves_the_settings_shown_and_an_undo_of_them_shows_them_again(
        qtbot: QtBot, generating: StudioWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """Typing numbers changes no setting: the panel is not filled again on every cell (it
    asked the document whether it can grow and set seven tooltips each time); a settings
    edit and its undo are shown."""
    panel = generating.generation
    choose_mode(generating, 1)
    panel.seed_box.setValue(5)
    assert generating.state.scenario.generation is not None
    filled: list[int] = []
    fill = type(panel)._fill

    def counted(self: object) -> None:
        filled.append(1)
        fill(self)  # type: ignore[arg-type]

    monkeypatch.setattr(type(panel), "_fill", counted)
    path, table = next(iter(generating.editor.tables.items()))
    model = table.model()
    assert model.setData(model.index(0, 0), "0.75")
    assert float(generating.state.scenario.parameter(path).flat[0]) == 0.75
    assert filled == []
    assert (panel.seed_box.value(), panel.mode_box.currentIndex()) == (5, 1)
    generating.undo_action.trigger()  # the cell
    assert filled == []
    generating.undo_action.trigger()  # the seed: shown as it was
    assert filled == [1]
    assert panel.seed_box.value() != 5


def test_at_a_rope_checkpoints_context_generate_next_is_disabled_saying_why(
        qtbot: QtBot) -> None:
    """gemma2-capped's max_position_embeddings is 32: a document of 32 imported positions
    cannot take another (one of 31 can), in either language."""
    scenario = import_checkpoint(FIXTURES / "gemma2-capped", "the cat sat " * 9)
    longer = generate(scenario, 32 - scenario.n, Settings(seed=1)).scenario
    window = open_on(qtbot, longer)
    try:
        panel = window.generation
        assert window.state.scenario.n == 32
        assert not panel.button.isEnabled() and not panel.action.isEnabled()
        assert panel.button.toolTip().startswith(
            "positions.context: the model was made for 32 positions (its checkpoint's "
            "max_position_embeddings)")
        before = window.state.scenario
        assert not panel.generate()
        assert window.state.scenario is before
    finally:
        close_window(window)
    shorter = generate(scenario, 31 - scenario.n, Settings(seed=1)).scenario
    assert open_and_able(qtbot, shorter)


def open_and_able(qtbot: QtBot, scenario: Scenario) -> bool:
    window = open_on(qtbot, scenario)
    try:
        return window.generation.button.isEnabled()
    finally:
        close_window(window)
