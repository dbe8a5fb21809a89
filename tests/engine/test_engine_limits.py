"""What the editor accepts, it can save and open again (issue 13, item 4)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import engine.files.memory
from engine import ScenarioError, dumps_scenario, load_scenario, parse_scenario, save_scenario
from engine.format.io import MAX_FILE_BYTES, MAX_NUMBER_BYTES, MAX_TEXT_BYTES
from engine.format.reader import MAX_POSITIONS, MAX_VOCAB
from engine.format.sidecar_write import JSON_NUMBERS
from engine.scenario.edit import with_document_value
from engine.scenario.scenario import number_count
from tests.examples import EXAMPLES

LONGEST = -2.2250738585072014e-308  # 24 characters, the longest a float64 is written


def worst_document(rows: int) -> dict[str, object]:
    """A block whose W2 is ``rows`` × 1 of the longest numbers, one to a line, deepest indent."""
    document = json.loads((EXAMPLES / "norms.qkv.json").read_text(encoding="utf-8"))
    document["X"] = [[LONGEST]]
    document["tokens"] = ["\U0001f600" * 40]  # 4 bytes each, the most an accepted character takes
    document["attention"].update(Wq=[[1]], Wk=[[1]], Wv=[[1]])
    document["block"].update(gamma1=[1], beta1=[0], gamma2=[1], beta2=[0], gamma_f=[1],
                             beta_f=[0])
    document["block"]["ffn"].update(W1=[[LONGEST] * rows], W2=[[LONGEST]] * rows)
    return document


def test_a_saved_number_takes_at_most_its_bound() -> None:
    small, large = (parse_scenario(worst_document(rows)) for rows in (100, 300))
    grown = len(dumps_scenario(large).encode()) - len(dumps_scenario(small).encode())
    per_number = grown / (number_count(large) - number_count(small))
    assert 30 < per_number <= MAX_NUMBER_BYTES  # the bound is near what the worst case takes


def test_the_file_limit_holds_every_document_the_editor_accepts() -> None:
    text = (MAX_POSITIONS + MAX_VOCAB) * 40 * 6 + (200 + 2000) * 6
    assert text + 2 * 1024 * 1024 < MAX_TEXT_BYTES  # and room for keys and brackets
    # A document keeps at most JSON_NUMBERS numbers in its JSON, past that in its sidecar.
    assert MAX_FILE_BYTES >= JSON_NUMBERS * MAX_NUMBER_BYTES + MAX_TEXT_BYTES
    # The n = d = 512 block of issue 13 (eight matrices of 2¹⁸: X, Wq, Wk, Wv, Wo, W1, W2,
    # unembed; twelve rows at their longest) and a GPT-2 small layer (tests/engine/
    # test_engine_gpt2_size.py) still fit the JSON alone; a whole GPT-2 small (124,439,808
    # numbers) fits the document.
    assert JSON_NUMBERS >= 8 * (1 << 18) + 12 * 4 * 1024
    assert JSON_NUMBERS >= 7_095_552


def test_an_edit_past_the_computers_memory_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    """The document's numbers and its trace's, as float64, against the computer's memory."""
    monkeypatch.setattr(engine.files.memory, "physical_memory", lambda: 8 * 100)
    scenario = load_scenario(EXAMPLES / "f11.qkv.json")
    assert number_count(scenario) == 16  # X 2×2 and three 2×2 weights
    with pytest.raises(ScenarioError) as caught:
        with_document_value(scenario, "attention.Wv", np.ones((2, 50)).tolist())
    assert str(caught.value) == ("document: its 112 numbers and its trace's 330 need about 0.0 "
                                 "GiB of float64, more than this computer's 0.0 GiB of memory")
    save_scenario(scenario, tmp_path / "kept.qkv.json")  # what is accepted saves and reopens
    assert number_count(load_scenario(tmp_path / "kept.qkv.json")) == 16
