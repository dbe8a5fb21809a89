"""The document's named edits (app.model.edits): each changes exactly what it names, undo gives
back the document bit for bit, and every edit has its name in Chinese and English."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.i18n import set_language
from app.model.edits import (
    Document,
    Operation,
    Resize,
    SetBlock,
    SetCell,
    SetHead,
    SetLabel,
    SetMatrix,
    SetOption,
)
from app.state.document import DocumentState
from app.window.studio import StudioWindow
from engine import Scenario, dumps_scenario, load_scenario
from engine.resize import Sizes
from tests.app.session_support import session_of
from tests.examples import EXAMPLES


def example(name: str) -> Scenario:
    return load_scenario(EXAMPLES / f"{name}.qkv.json")


def every_number(scenario: Scenario) -> dict[str, bytes]:
    """Each parameter's bytes: equal dictionaries mean equal documents, bit for bit."""
    return {path: scenario.parameter(path).tobytes() for path in scenario.parameter_paths()}


F11 = example("f11")
G01 = example("g01")
F11_SIZES = Sizes.of(F11)
OPERATIONS: list[tuple[str, Scenario, Operation]] = [
    ("cell", F11, SetCell("attention.Wq", 1, 0, 2.5)),
    ("vector cell", G01, SetCell("block.gamma1", 0, 1, -0.75, vector=True)),
    ("matrix", F11, SetMatrix("attention.Wv", np.array([[1.0, 2.0], [3.0, 4.0]]), "paste",
                              "2×2")),
    ("import", F11, SetMatrix("X", np.array([[0.5, 0.0], [0.0, 0.5]]), "import", "x.csv")),
    ("resize", F11, Resize(Sizes(n=F11.n + 1, d=F11.d, d_k=F11_SIZES.d_k,
                                 d_v=F11_SIZES.d_v, heads=F11_SIZES.heads), "n", F11.n)),
    ("option", F11, SetOption("attention.causal", not F11.attention.causal)),
    ("decimals", F11, SetOption("display.decimals", 4)),
    ("norm", G01, SetOption("block.norm", "rmsnorm")),
    ("eps", G01, SetOption("block.eps", 1e-3)),
    ("token", F11, SetLabel("tokens", 0, "你")),
    ("add block", F11, SetBlock(True)),
    ("remove block", G01, SetBlock(False)),
    ("remove head", G01, SetHead(False)),
]
IDS = [name for name, _s, _o in OPERATIONS]


def test_each_operation_changes_what_it_names() -> None:
    cell = SetCell("attention.Wq", 1, 0, 2.5).apply(F11)
    changed = cell.attention.Wq != F11.attention.Wq
    assert changed.sum() == 1 and changed[1, 0] and cell.attention.Wq[1, 0] == 2.5
    np.testing.assert_array_equal(cell.X, F11.X)
    gamma = SetCell("block.gamma1", 0, 1, -0.75, vector=True).apply(G01).parameter("block.gamma1")
    expected = G01.parameter("block.gamma1").copy()
    expected[1] = -0.75
    np.testing.assert_array_equal(gamma, expected)
    pasted = SetMatrix("attention.Wv", np.array([[1.0, 2.0], [3.0, 4.0]]), "paste", "2×2")
    np.testing.assert_array_equal(pasted.apply(F11).attention.Wv, [[1.0, 2.0], [3.0, 4.0]])
    grown = OPERATIONS[4][2].apply(F11)
    assert grown.n == F11.n + 1
    np.testing.assert_array_equal(grown.X[:F11.n], F11.X)  # growing keeps the numbers
    assert SetOption("attention.causal", False).apply(F11).attention.causal is False
    assert SetOption("display.decimals", 4).apply(F11).decimals == 4
    assert SetOption("block.norm", "rmsnorm").apply(G01).block.norm == "rmsnorm"
    assert SetLabel("tokens", 0, "你").apply(F11).tokens == ("你", *F11.tokens[1:])
    added = SetBlock(True).apply(F11).block
    assert added is not None and added.norm == "layernorm" and added.unembed is None
    assert SetBlock(False).apply(G01).block is None
    headless = SetHead(False).apply(G01).block
    assert headless is not None and headless.unembed is None
    with_head = SetHead(True).apply(SetBlock(True).apply(F11)).block
    assert with_head is not None and with_head.unembed is not None
    np.testing.assert_array_equal(with_head.unembed, np.eye(F11.d))
    assert with_head.vocab == tuple(f"v{k + 1}" for k in range(F11.d))


@pytest.mark.parametrize(("name", "scenario", "operation"), OPERATIONS, ids=IDS)
def test_an_edit_keeps_the_document_before_it_bit_for_bit(
        name: str, scenario: Scenario, operation: Operation) -> None:
    text, numbers = dumps_scenario(scenario), every_number(scenario)
    document = Document(scenario)
    edit = document.edit(operation)
    assert document.scenario is scenario  # nothing changes until the edit is shown
    assert dumps_scenario(edit.after) != text, f"{name} changed nothing"
    assert edit.before is scenario
    assert dumps_scenario(edit.before) == text and every_number(edit.before) == numbers


@pytest.mark.parametrize(("name", "scenario", "operation"), OPERATIONS, ids=IDS)
def test_undo_of_each_operation_restores_the_document_bit_for_bit(
        name: str, scenario: Scenario, operation: Operation) -> None:
    session, _runner, _heard = session_of(scenario)
    text, numbers = dumps_scenario(scenario), every_number(scenario)
    change = session.apply(operation)
    after = dumps_scenario(session.scenario)
    assert after != text, name
    # Only a cell edit says which arrays it changed: the one it names.
    cells = {"cell": {"attention.Wq"}, "vector cell": {"block.gamma1"}}
    assert change.paths == cells.get(name), name
    undone = session.undo()
    assert undone.document and undone.paths == cells.get(name)
    assert dumps_scenario(session.scenario) == text
    assert every_number(session.scenario) == numbers
    assert dumps_scenario(session.trace.scenario) == text  # the trace follows
    session.redo()
    assert dumps_scenario(session.scenario) == after


@pytest.mark.parametrize(("name", "scenario", "operation"), OPERATIONS, ids=IDS)
def test_every_operation_is_named_in_both_languages(name: str, scenario: Scenario,
                                                    operation: Operation) -> None:
    english, chinese = operation.label("en"), operation.label("zh")
    assert english and chinese
    assert "{" not in english + chinese  # every field filled in
    if not isinstance(operation, SetCell):  # a cell's name is a formula, the same in both
        assert english != chinese
    with pytest.raises(ValueError):
        operation.label("fr")


def test_an_option_without_words_of_its_own_is_named_by_its_path_and_value() -> None:
    assert SetOption("block.ffn.use_bias", True).label("en") == "use_bias on"
    assert SetOption("block.ffn.use_bias", False).label("zh") == "关闭 use_bias"
    assert SetOption("positions.base", 500.0).label("en") == "base = 500"
    assert SetOption("positions.base", 500.0).label("zh") == "base 改为 500"
    assert SetOption("display.decimals", 3).label("zh") == "小数位数 = 3"
    assert SetOption("block.eps", 1e-3).label("en") == "ε = 0.001"


def test_typing_into_one_cell_twice_is_one_undo_step() -> None:
    session, _runner, _heard = session_of(F11)
    session.apply(SetCell("attention.Wq", 0, 0, 3.0))
    session.apply(SetCell("attention.Wq", 0, 0, 4.0))
    assert [step.text("en") for step in session.history.steps] == ["Wq[0,0] = 4"]
    session.apply(SetCell("attention.Wq", 0, 1, 5.0))  # another cell: a step of its own
    assert len(session.history.steps) == 2
    session.undo()
    session.undo()
    assert every_number(session.scenario) == every_number(F11)


def test_a_refused_operation_changes_nothing_and_says_why(qtbot: QtBot) -> None:
    state = DocumentState(F11)
    refusals: list[str] = []
    state.refused.connect(refusals.append)
    assert not state.apply(SetOption("display.decimals", 99))
    assert state.scenario is F11 and state.undo_stack.count() == 0
    assert refusals == ["decimals = 99: display.decimals: expected a whole number from 1 to "
                        "10, got 99"]


def test_undo_steps_are_named_in_the_interface_language(qtbot: QtBot,
                                                         window: StudioWindow) -> None:
    window.state.apply(SetOption("attention.causal", False))
    assert window.undo_action.text() == "&Undo causal mask off"
    try:
        set_language("zh")
        qtbot.waitUntil(lambda: "关闭因果掩码" in window.undo_action.text(), timeout=3000)
        assert window.state.undo_stack.undoText() == "关闭因果掩码"
    finally:
        set_language("en")
    qtbot.waitUntil(lambda: window.undo_action.text() == "&Undo causal mask off", timeout=3000)


def test_the_document_module_loads_no_qt() -> None:
    code = ("import sys, app.model.edits; "
            "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph'))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=Path(__file__).resolve().parents[2])
    assert result.stdout.strip() == "[]"
