"""``qkv-studio worksheet`` (issue 26): a blank hides exactly its cell in the PDF (poppler's
pdftotext) and in the PPTX (python-pptx); the key's values are the trace's; variants differ and
each key matches its own variant's computation; refusals write nothing."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pptx import Presentation
from PySide6.QtWidgets import QApplication

from app.cli import main
from app.export.worksheet_plan import choose_exercises, plan_sheets
from engine import compute, load_scenario, parse_scenario
from engine.exercises.hand import HALVES, WHOLE, discriminates, hand_variant
from tests.examples import EXAMPLES
from tests.export.conftest import leftovers

KEY_LINE = re.compile(r"^([A-Za-z_][\w.]*)\[([\d,]+)\] = .* = (−?[\d.]+)$")


def pdf_text(path: Path, page: int | None = None) -> str:
    pages = ["-f", str(page), "-l", str(page)] if page is not None else []
    return subprocess.run(["pdftotext", "-layout", *pages, str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, list[str], str]:
    status = main(["worksheet", *arguments])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def one_blank(tmp_path: Path) -> Path:
    """F11 with one exercise hiding one output cell, mixed[1,0] = 10·0.804 = 8.044."""
    doc: dict[str, Any] = json.loads((EXAMPLES / "f11.qkv.json").read_text("utf-8"))
    doc["exercises"] = [{"title": {"en": "One cell", "zh": "一个格子"},
                         "prompt": {"en": "Predict it.", "zh": "预测它。"}, "kind": "fill",
                         "step": "mix", "hide": [{"array": "mixed", "cells": [[1, 0]]}]}]
    path = tmp_path / "one.qkv.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), "utf-8")
    return path


def test_a_blank_hides_exactly_its_cell(qapp: QApplication, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    document = one_blank(tmp_path)
    sheet, key, deck = tmp_path / "s.pdf", tmp_path / "k.pdf", tmp_path / "s.pptx"
    status, lines, err = run(capsys, str(document), "--out", str(sheet), "--answers", str(key),
                             "--pptx", str(deck))
    assert (status, err) == (0, "")
    assert lines == [str(sheet), str(key), str(deck)]
    text = pdf_text(sheet)
    # mixed = [[10, 0], [8.044, 3.911]]: the hidden cell is nowhere, its neighbours are there.
    assert "8.044" not in text
    assert "3.911" in text and "0.804" in text and "0.196" in text
    assert "How to check:" in text and "Working" in text
    assert "mixed[1,0] = weights[0,1,0]·V[0,0] + weights[0,1,1]·V[1,0] = 0.804·10 + 0.196·0 = " \
        "8.044" in pdf_text(key)
    tables = [shape.table for slide in Presentation(str(deck)).slides for shape in slide.shapes
              if shape.has_table]
    texts = [[cell.text for cell in row.cells] for table in tables for row in table.rows]
    assert not any("8.044" in cell for row in texts for cell in row)
    mixed = next(table for table in tables
                 if any(cell.text == "3.911" for row in table.rows for cell in row.cells))
    cells = [[cell.text for cell in row.cells] for row in mixed.rows]
    assert cells[-2:] == [["10", "0"], ["", "3.911"]]  # under the column labels' row


def test_the_key_holds_every_hidden_value_as_computed(qapp: QApplication, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "k.pdf"
    status, _lines, err = run(capsys, "f11", "--out", str(tmp_path / "s.pdf"), "--answers",
                              str(key))
    assert (status, err) == (0, "")
    trace = compute(load_scenario(EXAMPLES / "f11.qkv.json"))
    found = {}
    for line in pdf_text(key).splitlines():
        match = KEY_LINE.match(line.strip())
        if match:
            index = tuple(int(k) for k in match.group(2).split(","))
            found[(match.group(1), index)] = float(match.group(3).replace("−", "-"))
    # Six projection rows (12 numbers), two scores, three shares, four outputs.
    assert len(found) == 12 + 2 + 3 + 4
    for (name, index), value in found.items():
        assert value == pytest.approx(float(trace.arrays[name][index]), abs=5e-4), name
    text = pdf_text(key)
    assert "C. Wv[0,0] + 1: unchanged (tick it)." in text
    assert "share of 爱 for 爱 falls: 0.196 → 0.056." in text


def test_variants_differ_and_each_key_is_its_own(qapp: QApplication, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    sheet, key = tmp_path / "s.pdf", tmp_path / "k.pdf"
    status, _lines, err = run(capsys, "f11", "--exercise", "4", "--variants", "3", "--seed",
                              "5", "--out", str(sheet), "--answers", str(key))
    assert (status, err) == (0, "")
    scenario = load_scenario(EXAMPLES / "f11.qkv.json")
    variants = [hand_variant(scenario, 5, k) for k in (1, 2, 3)]
    drawn = [np.concatenate([v.X.ravel(), v.attention.Wq.ravel(), v.attention.Wk.ravel(),
                             v.attention.Wv.ravel()]) for v in variants]
    assert all(not np.array_equal(a, b) for k, a in enumerate(drawn) for b in drawn[k + 1:])
    for variant in variants:
        # The rule: whole numbers from −2 to 2 and halves from −1 to 1, shares that differ.
        assert set(variant.X.ravel()) <= set(WHOLE) and set(variant.attention.Wv.ravel()) \
            <= set(WHOLE)
        assert set(variant.attention.Wq.ravel()) | set(variant.attention.Wk.ravel()) \
            <= set(HALVES)
        assert discriminates(compute(variant))
    pages = [pdf_text(key, page) for page in (1, 2, 3)]
    for number, (page, variant) in enumerate(zip(pages, variants, strict=True), start=1):
        assert f"Variant {number}" in page
        mixed = compute(variant).arrays["mixed"]
        values = [float(m.group(3).replace("−", "-")) for line in page.splitlines()
                  if (m := KEY_LINE.match(line.strip()))]
        assert values == pytest.approx(mixed.ravel().tolist(), abs=5e-4)
    assert [f"Variant {k}" in pdf_text(sheet, k) for k in (1, 2, 3)] == [True] * 3


def test_chinese_sheet_and_key(qapp: QApplication, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    sheet, key = tmp_path / "s.pdf", tmp_path / "k.pdf"
    status, _lines, err = run(capsys, "single-key", "--lang", "zh", "--out", str(sheet),
                              "--answers", str(key))
    assert (status, err) == (0, "")
    text = pdf_text(sheet)
    assert "如何判断是否做对" in text and "练习 1" in text and "演算" in text
    assert "参考答案" in pdf_text(key) and "不变" in pdf_text(key)


@pytest.mark.parametrize(("arguments", "message"), [
    (["f11", "--exercise", "9"], "--exercise 9: expected all or a number from 1 to 7"),
    (["g01"], "the document has no exercises"),
    (["f11", "--variants", "51"], "--variants: expected a number of variants from 1 to 50, got "
                                  "51"),
    (["f11", "--variants", "0"], "--variants: expected a number of variants from 1 to 50, got "
                                 "0"),
    (["f11", "--lang", "zh", "--variants", "0"], "--variants：变体份数应是 1 到 50 之间的整数，"
                                                 "实际是 0"),
    (["f11", "--seed", "3"], "--seed chooses the variants' numbers: give --variants K too"),
])
def test_refusals_write_nothing(qapp: QApplication, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str], arguments: list[str],
                                message: str) -> None:
    status, lines, err = run(capsys, *arguments, "--out", str(tmp_path / "s.pdf"))
    assert (status, lines) == (2, [])
    assert err.startswith(f"qkv-studio: {message}")
    assert leftovers(tmp_path) == []


def test_an_exercise_that_does_not_fit_is_refused(qapp: QApplication, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    document = one_blank(tmp_path)
    doc = json.loads(document.read_text("utf-8"))
    doc["exercises"][0]["hide"][0]["cells"] = [[2, 0]]
    document.write_text(json.dumps(doc), "utf-8")
    status, _lines, err = run(capsys, str(document), "--out", str(tmp_path / "s.pdf"))
    assert status == 2
    assert err == ("qkv-studio: exercises[0].hide[0].cells[0]: [2,0] is outside the 2×2 array "
                   "mixed\n")
    assert leftovers(tmp_path) == ["one.qkv.json"]


def test_a_file_that_cannot_be_written_exits_1(qapp: QApplication, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", "utf-8")
    status, lines, err = run(capsys, "f11", "--out", str(tmp_path / "s.pdf"), "--answers",
                             str(blocker / "k.pdf"))
    assert (status, lines) == (1, [])
    assert err.startswith("qkv-studio: ") and "k.pdf" in err
    assert leftovers(tmp_path) == ["a-file", "s.pdf"]


def test_the_plan_names_the_frames_and_blanks() -> None:
    scenario = parse_scenario(json.loads((EXAMPLES / "f11.qkv.json").read_text("utf-8")))
    sheet, = plan_sheets(scenario, choose_exercises(scenario, "all"), "en")
    assert [task.frames for task in sheet.tasks] == [(1,), (2,), (3,), (4,), (3,), (3,), (3,)]
    # Every exercise's blanks are blank in every frame of the sheet: 4 + 4 + 4 projections,
    # 爱's two scores, three visible shares (the masked one is shown: exactly 0), four outputs.
    for task in sheet.tasks:
        assert {name: int(mask.sum()) for name, mask in task.blanks.items()} == \
            {"Q": 4, "K": 4, "V": 4, "scores": 2, "weights": 3, "mixed": 4}
    assert [task.frames_of for task in sheet.tasks] == [None, None, None, None, 3, 3, 3]
    assert [task.given for task in sheet.tasks[:4]] == [
        "", "Blank cells of Q and K are asked in Exercise 1: use your answers there.",
        "Blank cells of scores are asked in Exercise 2: use your answers there.",
        "Blank cells of V and shares are asked in Exercises 1 and 3: use your answers there."]


def test_pronouns_variants_are_drawn_with_the_default_seed(qapp: QApplication) -> None:
    """Ten tokens: the rule on the shares holds for the row its exercises ask about (“it”),
    not all nine rows, which no draw of 2,000 could keep (the command once refused seed 0)."""
    scenario = load_scenario(EXAMPLES / "pronoun.qkv.json")
    sheets = plan_sheets(scenario, (0, 1), "en", variants=2, seed=0)
    assert [sheet.variant for sheet in sheets] == [1, 2]
    for sheet in sheets:
        trace = sheet.tasks[0].trace
        scores, seen = trace.arrays["scores"][0, 7], trace.visible[7]
        assert 0.5 <= scores[seen].max() - scores[seen].min() <= 3.0
        assert trace.scenario.X.tolist() != scenario.X.tolist()
