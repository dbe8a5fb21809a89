"""Generation stops at a RoPE checkpoint's context: ``import-hf`` refuses a text past
``max_position_embeddings``, so generating must not quietly go past it either. The imported
document keeps the context as ``positions.context``; a document without it (written before the
key, or made by hand) generates as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from engine import ScenarioError, compute, load_scenario
from engine.checkpoint import import_checkpoint
from engine.format.document import parse_scenario
from engine.format.generation_keys import Settings
from engine.format.writer import to_document
from engine.generation.append import can_generate, check_room
from engine.generation.run import generate
from tests.engine.hf_reference import FIXTURES

ROPE_FIXTURES = ("gemma2-capped", "gemma3_text", "llama", "llama-rope-yarn", "mistral", "mixtral",
                 "olmo2", "phi3-longrope", "qwen2_moe", "qwen3", "gpt_neox", "stablelm",
                 "starcoder2", "phi")
TEXT = "the cat sat " * 9


@pytest.mark.parametrize("fixture", ROPE_FIXTURES)
def test_an_imported_rope_document_keeps_transformers_context(fixture: str) -> None:
    scenario = import_checkpoint(FIXTURES / fixture, "the cat")
    assert scenario.positions is not None and scenario.positions.kind == "rope"
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    theirs = transformers.AutoConfig.from_pretrained(FIXTURES / fixture)
    assert scenario.positions.context == theirs.max_position_embeddings
    again = parse_scenario(to_document(scenario))  # written and read back
    assert again.positions is not None and again.positions.context == scenario.positions.context


def test_generating_past_the_context_is_refused_naming_it() -> None:
    scenario = import_checkpoint(FIXTURES / "gemma2-capped", TEXT)
    assert scenario.positions is not None and scenario.positions.context == 32
    n = scenario.n
    run = generate(scenario, 32 - n, Settings(seed=1))  # up to the last position: computed
    longer = run.scenario
    assert longer.n == 32 and not can_generate(longer)
    with pytest.raises(ScenarioError) as refused:
        check_room(longer)
    assert str(refused.value) == (
        "positions.context: the model was made for 32 positions (its checkpoint's "
        "max_position_embeddings), and 32 are already taken: position 32 would be past its "
        "context")
    with pytest.raises(ScenarioError, match=r"asked, 12 fit: positions\.context: "):
        generate(scenario, 33 - n, Settings(seed=1))
    assert "draw" not in compute(longer).arrays  # the trace ends without a draw


def test_a_document_without_the_context_generates_as_before() -> None:
    scenario = import_checkpoint(FIXTURES / "gemma2-capped", TEXT)
    document = to_document(scenario)
    del document["positions"]["context"]
    older = parse_scenario(document)
    assert older.positions is not None and older.positions.context is None
    assert generate(older, 40 - older.n, Settings(seed=1)).scenario.n == 40


def test_the_cli_refuses_the_steps_past_the_context(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    source = tmp_path / "g.qkv.json"
    assert main(["import-hf", str(FIXTURES / "gemma2-capped"), "--text", TEXT,
                 "--out", str(source)]) == 0
    assert json.loads(source.read_text("utf-8"))["positions"]["context"] == 32
    n = load_scenario(source).n
    capsys.readouterr()
    status = main(["generate", str(source), "--steps", "15", "--seed", "1",
                   "--out", str(tmp_path / "longer.qkv.json")])
    err = capsys.readouterr().err
    assert status != 0
    assert f"15 tokens asked, {32 - n} fit: positions.context: the model was made for 32" in err
    assert not (tmp_path / "longer.qkv.json").exists()
