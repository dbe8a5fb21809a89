"""A worksheet read as a student reads it gives no answer away (issue 35): all the text of the
student's PDF (poppler's pdftotext) and of its deck (python-pptx: every text box and table cell)
holds no hidden value of any exercise of the sheet, printed as the sheet prints numbers or
rounded one decimal shorter or longer — for every built-in example with exercises, in English
and Chinese, and for variants. The key holds them all.

What the test cannot tell from a leak, and so lets pass: a whole number (the sheet prints 0, 1,
2 … as step, page and exercise numbers, shapes and column labels), and a value equal, as
printed, to a number the sheet must give — a parameter of the document, a √dₖ the scores frame
divides by, a cell its exercises leave shown beside their blanks (F11's masked score
1.414 = √2 beside 爱's hidden 2/√2), or a shown cell an exercise computes its blanks from
(pronoun's share 0.65 that “it” gives “animal” is also its hidden output 0.65·1 + 0·…).
"""

from __future__ import annotations

import math
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from app.cli import main
from app.export.worksheet_plan import Sheet, choose_exercises, plan_sheets
from engine import format_number, load_scenario
from engine.arithmetic.printed import printed_places
from engine.exercises.answers import answer
from engine.exercises.fit import hidden_masks
from tests.app.test_worksheet_dialog import deck_text
from tests.examples import EXAMPLES

CASES = [("f11", "en", 0, 0), ("f11", "zh", 0, 0), ("pronoun", "en", 0, 0),
         ("single-key", "en", 0, 0), ("three-layers", "zh", 0, 0), ("f11", "en", 3, 7),
         ("pronoun", "en", 2, 0), ("three-layers", "en", 2, 0)]


def printed(value: float, places: int) -> Iterator[str]:
    """``value`` as the sheet prints it and one decimal shorter and longer, where that is not a
    whole number."""
    for rounding in (places - 1, places, places + 1):
        text = format_number(value, rounding)
        if re.fullmatch(r"−?\d+\.\d+", text):
            yield text


def hidden(sheet: Sheet) -> dict[str, str]:
    """Every hidden value of the sheet's exercises as it could be printed → what it is: each
    fill exercise's cells, each question's watched number after the edit."""
    found: dict[str, str] = {}
    for task in sheet.tasks:
        places = printed_places(task.trace)
        solved = answer(task.trace, task.exercise)
        values = [(cell.name, cell.value) for cell in solved.cells]
        values += [(f"exercise {task.number} after its edit", moved.after)
                   for moved in solved.moved if moved.change]
        for name, value in values:
            for text in printed(value, places):
                found.setdefault(text, f"exercise {task.number}: {name} = {value:.6g}")
    return found


def given(sheet: Sheet) -> set[str]:
    """The numbers the sheet must print, as it could print them: the document's parameters, the
    √dₖ of its attentions, the shown cells of the arrays its exercises hide cells of or
    compute their blanks from (what the steps of their frames read), and the numbers a
    question's frame shows (what its step reads and writes)."""
    trace = sheet.tasks[0].trace
    places = printed_places(trace)
    scenario = trace.scenario
    values = [float(v) for path in scenario.parameter_paths()
              for v in np.ravel(scenario.parameter(path))]
    for path in scenario.parameter_paths():
        if path.endswith("Wq"):
            width = scenario.parameter(path).shape[-1]
            values += [math.sqrt(width / heads) for heads in range(1, width + 1)
                       if width % heads == 0]
    masks: dict[str, np.ndarray] = {}
    for task in sheet.tasks:
        if task.exercise.kind == "fill":
            for name, mask in hidden_masks(task.trace, task.exercise).items():
                masks[name] = masks[name] | mask if name in masks else mask
    read = {name for task in sheet.tasks if task.exercise.kind == "fill"
            for step in task.frames for name in trace.steps[step].reads if name in trace.arrays}
    # A question's frame shows its step's numbers as they are (three-layers' shares of layer 1
    # print 0.820 as 0.82, which its ablation's hidden 0.819 rounds to one decimal shorter).
    read |= {name for task in sheet.tasks if task.exercise.kind != "fill"
             for step in task.frames
             for name in (*trace.steps[step].reads, *trace.steps[step].writes)
             if name in trace.arrays}
    for name in read | set(masks):
        shown = trace.arrays[name] if name not in masks else trace.arrays[name][~masks[name]]
        values += [float(v) for v in np.ravel(shown)]
    return {text for value in values for text in printed(value, places)}


def leaks(text: str, sheet: Sheet) -> list[str]:
    """Each hidden value of ``sheet`` found in ``text`` (as a whole number, not inside another)
    that the sheet need not print, with the line it is on."""
    allowed = given(sheet)
    found = []
    for number, what in hidden(sheet).items():
        if number in allowed:
            continue
        pattern = re.compile(rf"(?<![\d.]){re.escape(number)}(?!\d)")
        found += [f"{number} ({what}) in: {line.strip()}" for line in text.splitlines()
                  if pattern.search(line)]
    return found


def pdf_pages(path: Path) -> list[str]:
    return subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout.split("\f")


def slide_texts(path: Path) -> list[str]:
    """Each slide's text: its text boxes' and its table cells', one per line."""
    return ["\n".join(texts) for texts in deck_text(path)]


def by_sheet(pages: list[str], sheets: tuple[Sheet, ...], lang: str) -> list[str]:
    """The PDF's text of each sheet (each starts a page headed with its variant)."""
    if len(sheets) == 1:
        return ["\n".join(pages)]
    word = "第 {} 份" if lang == "zh" else "Variant {}"
    starts = [next(k for k, page in enumerate(pages) if word.format(sheet.variant) in page)
              for sheet in sheets]
    return ["\n".join(pages[start:end]) for start, end in zip(starts, [*starts[1:], None],
                                                               strict=True)]


def slides_by_sheet(slides: list[str], sheets: tuple[Sheet, ...]) -> list[str]:
    """The deck's text of each sheet: a slide of words per exercise, then its frames."""
    texts, start = [], 0
    for sheet in sheets:
        count = sum(1 + len(task.frames) for task in sheet.tasks)
        texts.append("\n".join(slides[start:start + count]))
        start += count
    assert start == len(slides)
    return texts


@pytest.mark.parametrize(("name", "lang", "variants", "seed"), CASES)
def test_the_student_sheet_gives_no_hidden_value_away(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
        lang: str, variants: int, seed: int) -> None:
    scenario = load_scenario(EXAMPLES / f"{name}.qkv.json")
    sheets = plan_sheets(scenario, choose_exercises(scenario, "all"), lang, variants, seed)
    sheet_pdf, key_pdf, deck = tmp_path / "s.pdf", tmp_path / "k.pdf", tmp_path / "s.pptx"
    options = ["--variants", str(variants), "--seed", str(seed)] if variants else []
    status = main(["worksheet", name, "--lang", lang, *options, "--out", str(sheet_pdf),
                   "--answers", str(key_pdf), "--pptx", str(deck)])
    assert (status, capsys.readouterr().err) == (0, "")
    pdf = by_sheet(pdf_pages(sheet_pdf), sheets, lang)
    pptx = slides_by_sheet(slide_texts(deck), sheets)
    found = [f"{where}: {leak}" for sheet, pdf_text, deck_text in zip(sheets, pdf, pptx,
                                                                       strict=True)
             for where, text in (("PDF", pdf_text), ("PPTX", deck_text))
             for leak in leaks(text, sheet)]
    assert found == []
    # The key has them all: every hidden value as the sheet prints it.
    key = " ".join(pdf_pages(key_pdf))
    for sheet in sheets:
        places = printed_places(sheet.tasks[0].trace)
        for task in sheet.tasks:
            for cell in answer(task.trace, task.exercise).cells:
                assert format_number(cell.value, places) in key, cell.name


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_how_to_check_line_answers_an_exercise(lang: str) -> None:
    """Single-key hides A's share of itself, F11 asks which edit leaves the shares: a check line
    saying "a single visible key gets share 1" or "editing Wv never moves the shares" answers
    them (a whole number, which the text test above lets pass, or no number at all)."""
    for name in ("f11", "single-key", "three-layers"):
        scenario = load_scenario(EXAMPLES / f"{name}.qkv.json")
        for task in plan_sheets(scenario, choose_exercises(scenario, "all"), lang)[0].tasks:
            assert re.search(r"\d", task.check) is None, task.check
            assert "Wv" not in task.check, task.check
