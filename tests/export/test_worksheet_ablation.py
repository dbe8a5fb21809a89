"""The ablation question on paper (issue 38 item 3): the sheet says which head is switched off
and offers rise / fall / same without the after-value; the key gives the way and before → after,
in English and Chinese, checked against a numpy forward pass — and a variant's key too, whose
number must go the document's way (the question's lesson)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from app.cli import main
from app.export.worksheet_plan import choose_exercises, plan_sheets
from engine import format_number, load_scenario
from engine.format.writer import to_document
from tests.engine.ablation_reference import reference_probs
from tests.examples import EXAMPLES

WORDS = {"en": ("The change: Head 1 of layer 1 is switched off", "☐ rises ☐ falls ☐ stays the same",
                "probs of 你, column 0 rises: {} → {}."),
         "zh": ("改动：关闭第 1 层的第 1 个头", "☐ 变大 ☐ 变小 ☐ 不变",
                "probs 中 你 一行第 0 列 变大：{} → {}。")}


def text_of(path: Path) -> str:
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                         capture_output=True, text=True).stdout
    return re.sub(r"[ \t]+", " ", out)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_sheet_asks_and_the_key_answers(qapp: QApplication, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str],
                                            lang: str) -> None:
    sheet, key = tmp_path / "s.pdf", tmp_path / "k.pdf"
    status = main(["worksheet", "three-layers", "--exercise", "3", "--lang", lang,
                   "--out", str(sheet), "--answers", str(key)])
    assert (status, capsys.readouterr().err) == (0, "")
    doc = to_document(load_scenario(EXAMPLES / "three-layers.qkv.json"))
    before, after = (format_number(float(reference_probs(doc, off)[2, 0]), 3)
                     for off in ({}, {0: {0}}))
    change, ticks, answer = WORDS[lang]
    asked = text_of(sheet)
    assert change in asked and ticks in asked
    assert before in asked and after not in asked  # the frame shows p before, never after
    assert answer.format(before, after) in text_of(key)


def test_each_variant_keeps_the_way_and_its_key_is_its_own(qapp: QApplication) -> None:
    scenario = load_scenario(EXAMPLES / "three-layers.qkv.json")
    sheets = plan_sheets(scenario, choose_exercises(scenario, "3"), "en", variants=3)
    befores = set()
    for sheet in sheets:
        (task,) = sheet.tasks
        doc = to_document(task.trace.scenario)
        before, after = (float(reference_probs(doc, off)[2, 0]) for off in ({}, {0: {0}}))
        assert after - before >= 0.001  # rises, by at least a printed unit
        shown = (format_number(before, 3), format_number(after, 3))
        assert task.key == (f"probs of 你, column 0 rises: {shown[0]} → {shown[1]}.",)
        befores.add(shown[0])
    assert len(befores) == 3 and "0.674" not in befores
