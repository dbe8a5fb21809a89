"""A worksheet a teacher can hand out (issue 35): a Chinese sheet names cells and arrays in
Chinese, never by code names; the deck's lines break between words, never inside one; short
exercises share an A4 page."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from pptx import Presentation
from PySide6.QtWidgets import QApplication

from app.cli import main
from app.export.worksheet_plan import choose_exercises, plan_sheets
from engine import load_scenario
from tests.examples import EXAMPLES

CODE_NAME = re.compile(r"[A-Za-z_]+\.[A-Za-z]|[A-Za-z]\[\d|\b(weights|scores|mixed)\b")
"""``attention.Wk``, ``Wk[1``, an array's name in the trace."""


@pytest.mark.parametrize("name", ["f11", "three-layers", "pronoun", "single-key"])
def test_a_chinese_sheet_names_cells_in_chinese(name: str) -> None:
    scenario = load_scenario(EXAMPLES / f"{name}.qkv.json")
    sheet, = plan_sheets(scenario, choose_exercises(scenario, "all"), "zh")
    lines = [line for task in sheet.tasks for line in (task.given, *task.question, task.check)]
    lines += [line for task in sheet.tasks if task.exercise.kind != "fill" for line in task.key]
    assert [line for line in lines if CODE_NAME.search(line)] == []
    if name == "f11":
        assert sheet.tasks[4].question[:2] == ("观察“份额”的每一个数。",
                                               "☐ A. Wq 第 1 行第 1 列 加 1")
        assert sheet.tasks[6].question[:2] == ("修改：Wk 第 2 行第 1 列 加 0.5（从 0.5 变为 1）。",
                                               "观察 爱 给 爱 的份额。")
        assert sheet.tasks[6].key == ("爱 给 爱 的份额 变小：0.196 → 0.056。",)


def words_of(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]+", text))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_deck_breaks_lines_between_words(qapp: QApplication, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             lang: str) -> None:
    """Every Latin word of a slide of words is a word of the exercise's prompt or lines: none is
    cut in two ("vi" / "sible" of F11's 爱's query meets both visible keys)."""
    deck = tmp_path / "s.pptx"
    status = main(["worksheet", "f11", "--lang", lang, "--out", str(tmp_path / "s.pdf"),
                   "--pptx", str(deck)])
    assert (status, capsys.readouterr().err) == (0, "")
    scenario = load_scenario(EXAMPLES / "f11.qkv.json")
    sheet, = plan_sheets(scenario, choose_exercises(scenario, "all"), lang)
    slides = list(Presentation(str(deck)).slides)
    start = 0
    for task in sheet.tasks:
        said = " ".join((task.prompt, task.given, *task.question, task.check))
        lines = [shape.text_frame.text for shape in slides[start].shapes if shape.has_text_frame]
        assert len(lines) > 3
        for line in lines[1:]:  # the title is one box
            assert words_of(line) <= words_of(said) | {"How", "to", "check"}, line
        start += 1 + len(task.frames)
    assert start == len(slides)


def page_count(path: Path) -> int:
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True,
                          text=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))  # type: ignore[union-attr]


def test_short_exercises_share_a_page(qapp: QApplication, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """F11's seven exercises: each frame cut to its heading and its picture, two or three
    exercises a page, the three questions' frame (Exercise 3's) not printed again — 3 pages a
    variant, 21 before for three."""
    sheet = tmp_path / "s.pdf"
    status = main(["worksheet", "f11", "--variants", "3", "--seed", "7", "--out", str(sheet)])
    assert (status, capsys.readouterr().err) == (0, "")
    assert page_count(sheet) == 9
    text = subprocess.run(["pdftotext", str(sheet), "-"], check=True, capture_output=True,
                          text=True).stdout
    pages = text.split("\f")
    headings = [re.findall(r"Exercise (\d) ·", page) for page in pages[:9]]
    assert headings == [["1", "2"], ["3", "4", "5"], ["6", "7"]] * 3
    assert text.count("The frame is the one of Exercise 3.") == 9
    assert "writes:" not in text  # the frames' footer, cut off, is not in the PDF as hidden text
