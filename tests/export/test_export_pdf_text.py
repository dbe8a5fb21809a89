"""A PDF's text holds every number and word its frames print: a search, a copy and a screen
reader find them (poppler's pdftotext reads them back), in English and Chinese."""

from __future__ import annotations

import subprocess
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from app.export.words import title_for
from app.texts.printed import printed_places
from engine import Trace
from engine.format.numbers import NumberFormat
from tests.export.conftest import export, load_trace, need_tool

CASES = [("f11", "en"), ("f11", "zh"), ("g01", "en"), ("g01", "zh")]


def page_texts(path: Path, pages: int) -> list[str]:
    """Every page's text as poppler reads it."""
    tool = need_tool("pdftotext")
    return [subprocess.run([tool, "-f", str(page), "-l", str(page), str(path), "-"],
                           check=True, capture_output=True, text=True, timeout=60).stdout
            for page in range(1, pages + 1)]


def printed_numbers(trace: Trace, step: int) -> set[str]:
    """Every finite value the step writes (the opening step: the input it reads), as its grid
    prints it (one format per array)."""
    places = printed_places(trace)
    numbers: set[str] = set()
    chosen = trace.steps[step]
    for name in chosen.writes or [read for read in chosen.reads if read in trace.arrays]:
        values = np.asarray(trace.arrays[name], dtype=np.float64)
        number_format = NumberFormat.for_values(values, places)
        numbers.update(number_format.text(float(v)) for v in values.ravel() if np.isfinite(v))
    return numbers


@pytest.fixture(scope="module", params=CASES, ids=["-".join(case) for case in CASES])
def exported(request: pytest.FixtureRequest, qapp: QApplication,
             tmp_path_factory: pytest.TempPathFactory) -> tuple[Trace, str, list[str]]:
    name, lang = request.param
    trace = load_trace(name)
    [path] = export(trace, "pdf", tmp_path_factory.mktemp("text") / f"{name}-{lang}.pdf",
                    lang=lang)
    return trace, lang, page_texts(path, len(trace.steps))


def test_every_page_holds_its_step_title(exported: tuple[Trace, str, list[str]]) -> None:
    trace, lang, pages = exported
    for step, text in enumerate(pages):
        title = title_for(trace, step, lang)
        assert "".join(title.split()) in "".join(text.split()), (step, title, text[:400])


def test_every_page_holds_every_number_its_step_writes(
        exported: tuple[Trace, str, list[str]]) -> None:
    trace, _lang, pages = exported
    for step, text in enumerate(pages):
        words = set(text.split())
        numbers = printed_numbers(trace, step)
        assert numbers, step
        assert numbers <= words, (step, sorted(numbers - words))


def test_the_step_counter_and_the_ideographs_read_back(
        exported: tuple[Trace, str, list[str]]) -> None:
    """"Step 2 of 5" keeps its digits; 输入 and 行 are ideographs, not the radicals ⼊ ⾏ that
    share their glyphs."""
    trace, lang, pages = exported
    total = len(trace.steps)
    joined = "".join(pages[1].split())
    counter = f"Step2of{total}" if lang == "en" else f"第2步（共{total}步）"
    assert counter in joined, pages[1][:300]
    everything = "".join(pages)
    assert not any(0x2E80 <= ord(ch) < 0x2FE0 for ch in everything)
    if lang == "zh":
        assert "行" in everything and "输入" in everything


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_svg_keeps_the_same_words_and_numbers(qapp: QApplication, f11: Trace, tmp_path: Path,
                                              lang: str) -> None:
    """SVG writes the characters themselves (``<text>``): the counter, the title and the
    numbers are there as typed."""
    [path] = export(f11, "svg", tmp_path / "step2.svg", steps=(1,), lang=lang)
    root = ElementTree.parse(path).getroot()
    texts = [" ".join(node.itertext()) for node in root.iter() if node.tag.endswith("text")]
    words = set(" ".join(texts).split())
    joined = "".join("".join(texts).split())
    counter = "Step2of5" if lang == "en" else "第2步（共5步）"
    assert counter in joined and "".join(title_for(f11, 1, lang).split()) in joined
    assert printed_numbers(f11, 1) <= words
