"""Every refusal is worded by id in each language's catalogue (engine.words): each raise site
names an id and exactly the values its wording needs, and real refusals read in Chinese with
their numbers."""

from __future__ import annotations

import ast
import json
import multiprocessing
import pickle
import string
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.i18n import set_language
from app.model.examples import example_path
from app.model.layer_edits import MoveLayer, RemoveLayer
from app.texts.problems import problem_words
from engine import ScenarioError, load_scenario, parse_scenario
from engine.format.writer import to_document
from engine.words import en
from engine.words.refusals import Refusal
from tests.app.driving import close_window, open_window
from tests.engine.generation_documents import example as generating

ROOT = Path(__file__).resolve().parents[2]
RAISING = ("engine", "app/model", "app/given_once.py", "app/checkpoint_options.py")
"""Where refusals are raised with an id, folders and files (the window's own refusals are worded
by tr())."""


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _calls(name: str) -> list[tuple[str, ast.Call]]:
    found = []
    for place in RAISING:
        root = ROOT / place
        for path in [root] if root.is_file() else sorted(root.rglob("*.py")):
            if path == ROOT / "engine" / "words" / "refusals.py":
                continue  # the catalogue itself (its unpickling passes the id on)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                        and node.func.id == name:
                    found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return found


def _ids(node: ast.expr) -> list[str]:
    """The literal ids an id argument can be (a string, or a choice of two)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _ids(node.body) + _ids(node.orelse)
    raise AssertionError(f"not a literal id: {ast.unparse(node)}")


def test_every_raise_site_gives_a_refusal_by_id() -> None:
    sites = _calls("ScenarioError")
    assert len(sites) > 100
    for where, call in sites:
        assert len(call.args) == 2 and not call.keywords, where
        problem = call.args[1]
        assert isinstance(problem, ast.Call) and isinstance(problem.func, ast.Name) \
            and problem.func.id == "Refusal", f"{where}: {ast.unparse(problem)}"


def test_every_refusal_names_a_catalogue_id_and_exactly_its_values() -> None:
    calls = _calls("Refusal")
    assert len(calls) > 120
    used = set()
    for where, call in calls:
        given = {keyword.arg for keyword in call.keywords}
        for key in _ids(call.args[0]):
            assert key in en.REFUSALS, f"{where}: {key}"
            assert given == fields(en.REFUSALS[key]), f"{where}: {key} gets {given}"
            used.add(key)
    assert used | {"no_reason", "either"} == set(en.REFUSALS), set(en.REFUSALS) - used


def test_an_unknown_id_is_refused_when_made() -> None:
    with pytest.raises(KeyError, match="no refusal has the id 'heads_splits'"):
        Refusal("heads_splits", columns=2)


def refusal_of(document: dict[str, object]) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(document)
    return caught.value


def test_a_pickled_refusal_keeps_its_id_and_values() -> None:
    f11 = to_document(load_scenario(example_path("f11")))
    error = refusal_of({**f11, "attention": {**f11["attention"], "heads": 3}})
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) == "attention.Wq: 2 columns do not split into 3 heads"
    assert again.refusal == error.refusal == Refusal("heads_split", columns=2,
                                                     heads=Refusal("heads_of", heads=3))
    assert problem_words(again, "zh") == "attention.Wq：2 列无法平均分给 3 个头"


def test_a_refusal_read_in_another_process_still_reads_in_chinese(tmp_path: Path) -> None:
    f11 = to_document(load_scenario(example_path("f11")))
    path = tmp_path / "bad.qkv.json"
    path.write_text(json.dumps({**f11, "attention": {**f11["attention"], "Wk": [[1, 0]]}}),
                    encoding="utf-8")
    # The way File → Open reads a big file: in a spawned process, the refusal pickled back.
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool, \
            pytest.raises(ScenarioError) as caught:
        pool.submit(load_scenario, str(path)).result()
    assert str(caught.value) == "attention.Wk: expected 2 rows to match d=2, got 1"
    assert problem_words(caught.value, "zh") == "attention.Wk：应有 2 行（与 d=2 一致），得到 1 行"


def test_real_refusals_read_in_chinese_with_their_numbers() -> None:
    f11 = to_document(load_scenario(example_path("f11")))
    g01 = to_document(load_scenario(example_path("g01")))
    three = generating("three-layers")
    attention = f11["attention"]
    cases = [
        ({**f11, "attention": {**attention, "Wk": [[1, 0], [0, 1], [1, 1]]}},
         "attention.Wk: expected 2 rows to match d=2, got 3",
         "attention.Wk：应有 2 行（与 d=2 一致），得到 3 行"),
        ({**f11, "attention": {**attention, "Wk": [[1, 0, 1], [0, 1, 1]]}},
         "attention.Wk: expected 2 columns to match Wq (queries and keys must have the same "
         "width), got 3",
         "attention.Wk：应有 2 列（与 Wq 一致：查询与键的宽度必须相同），得到 3 列"),
        ({**f11, "attention": {**attention, "heads": 3}},
         "attention.Wq: 2 columns do not split into 3 heads",
         "attention.Wq：2 列无法平均分给 3 个头"),
        ({**g01, "block": {**g01["block"], "eps": -0.5}},
         "block.eps: ε must not be negative, got -0.5",
         "block.eps：ε 不能为负，得到的是 -0.5"),
        ({**g01, "attention": {**g01["attention"], "Wo": [[1, 0, 0], [0, 1, 0]]}},
         "attention.Wo: the block adds the attention output to X, so Wo's columns must be d=2, "
         "got 3",
         "attention.Wo：解码块要把注意力输出加回 X，所以 Wo 的列数必须是 d=2，得到的是 3"),
        ({**f11, "positions": {"kind": "learned", "table": [[0, 0]]}},
         "positions.table: expected at least 2 rows for n = 2 from offset 0, got 1",
         "positions.table：n = 2、从偏移 0 起，至少应有 2 行，得到 1 行"),
        ({**f11, "positions": {"kind": "sinusoidal", "pairing": "half"}},
         "positions.pairing: belongs to kind rope, not sinusoidal",
         "positions.pairing：属于 kind rope，不属于 sinusoidal"),
        ({**three, "generation": {"temperature": -1}},
         "generation.temperature: expected a number from 0 (greedy) to 100, got -1.0",
         "generation.temperature：温度应为 0（贪心）到 100 之间的数，得到的是 -1.0"),
        ({**three, "generation": {"chosen": [0, 1]}},
         "generation.chosen: expected the last 2 token ids [1, 2], the ids the run appended, "
         "got [0, 1]",
         "generation.chosen：最后 2 个 Token 编号应为 [1, 2]（即生成所追加的编号），"
         "得到的是 [0, 1]"),
        ({**f11, "attention": {**attention, "causal": {"on": 1}}},
         "attention.causal: expected true or false, got an object",
         "attention.causal：应为 true 或 false，得到的是一个对象"),
    ]
    for document, english, chinese in cases:
        error = refusal_of(document)
        assert (str(error), problem_words(error, "en"), problem_words(error, "zh")) == \
            (english, english, chinese)


def test_refused_layer_edits_read_in_chinese() -> None:
    stacked = load_scenario(example_path("encoder-decoder"))
    with pytest.raises(ScenarioError) as caught:
        RemoveLayer(0, "encoder.layers").apply(stacked)
    assert str(caught.value) == "encoder.layers: a stack keeps at least one layer"
    assert problem_words(caught.value, "zh") == "encoder.layers：一个栈至少保留一层"
    with pytest.raises(ScenarioError) as caught:
        MoveLayer(0, "encoder.layers", -1).apply(stacked)
    assert problem_words(caught.value, "zh") == "encoder.layers：第 1 层已经是第一层"


def test_a_negative_eps_typed_in_the_chinese_window_is_refused_in_chinese(qtbot: QtBot) -> None:
    window = open_window(qtbot, "g01")
    try:
        set_language("zh")
        refused: list[str] = []
        window.state.refused.connect(refused.append)
        editor = window.editor.block_editor
        editor.eps_edit.setText("-2")
        editor.eps_edit.editingFinished.emit()
        assert len(refused) == 1 and refused[0].endswith("：ε 不能为负，得到的是 -2.0"), refused
        assert window.state.document.scenario.block.eps == 1e-5
    finally:
        set_language("en")
        close_window(window)
