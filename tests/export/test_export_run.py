"""A generation run exports from the command line: ``--run`` one frame per token (its draw),
``--run --token T`` that token's steps; refusals are one line, exit 2, nothing written (issue 24
item 5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image
from pptx import Presentation
from pypdf import PdfReader
from PySide6.QtWidgets import QApplication

from app.cli import main
from engine import dumps_scenario, parse_scenario
from engine.generation_run import Run, generate
from engine.parse_generation import Settings
from tests.engine.generation_documents import cases
from tests.export.conftest import leftovers

WIDTH = "480"


def _run() -> Run:
    """Three tokens drawn at temperature 2 with seed 4: 你, 爱, 你."""
    return generate(parse_scenario(cases()["three-layers"]), 3,
                    Settings(temperature=2.0, seed=4))


@pytest.fixture
def run_file(tmp_path: Path) -> Path:
    path = tmp_path / "run.qkv.json"
    path.write_text(dumps_scenario(_run().scenario), encoding="utf-8")
    return path


def _export(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(["export", *arguments])
    out, err = capsys.readouterr()
    return status, out, err


def _chosen(texts: list[str]) -> str:
    """The entry the draw frame marks chosen (``1. 你 ✓ kept ◆ chosen``)."""
    [line] = [text for text in texts if "◆ chosen" in text]
    found = re.match(r"\d+\. (\S+) ", line)
    assert found is not None, line
    return found.group(1)


def _slide_texts(deck: Path) -> list[list[str]]:
    return [[shape.text_frame.text for shape in slide.shapes if shape.has_text_frame]
            for slide in Presentation(str(deck)).slides]


def test_a_whole_run_is_one_slide_per_token_naming_its_choice(
        qapp: QApplication, tmp_path: Path, run_file: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    labels = [token.label for token in _run().tokens]
    assert labels == ["你", "爱", "你"]
    out = tmp_path / "run.pptx"
    status, printed, err = _export(capsys, str(run_file), "--run", "--format", "pptx",
                                   "--out", str(out))
    assert (status, printed.strip(), err) == (0, str(out), "")
    slides = _slide_texts(out)
    assert len(slides) == 3
    for t, (texts, label) in enumerate(zip(slides, labels, strict=True), start=1):
        assert texts[0].startswith(f"Token {t} of 3 “{label}” · Step 32 of 32 · "), texts[0]
        assert _chosen(texts) == label


def test_a_whole_run_in_chinese_names_each_token(
        qapp: QApplication, tmp_path: Path, run_file: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.pptx"
    assert _export(capsys, str(run_file), "--run", "--format", "pptx", "--lang", "zh",
                   "--out", str(out))[0] == 0
    headings = [texts[0] for texts in _slide_texts(out)]
    assert "第 1 个 Token（共 3 个）“你”" in headings[0], headings
    assert "第 2 个 Token（共 3 个）“爱”" in headings[1], headings


def test_a_whole_run_is_a_pdf_page_and_a_gif_frame_per_token(
        qapp: QApplication, tmp_path: Path, run_file: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    pdf, gif = tmp_path / "run.pdf", tmp_path / "run.gif"
    for path in (pdf, gif):
        assert _export(capsys, str(run_file), "--run", "--format", path.suffix[1:],
                       "--width", WIDTH, "--out", str(path))[0] == 0
    pages = [" ".join(page.extract_text().split()) for page in PdfReader(str(pdf)).pages]
    assert len(pages) == 3
    assert all("Token" in page and "draw next token" in page for page in pages)
    marked = [re.findall(r"(\S+) ✓ kept ◆ chosen", page) for page in pages]
    assert marked == [[token.label] for token in _run().tokens]
    assert Image.open(gif).n_frames == 3


def test_one_token_exports_its_own_steps(qapp: QApplication, tmp_path: Path, run_file: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "token2.pptx"
    assert _export(capsys, str(run_file), "--run", "--token", "2", "--steps", "31-32",
                   "--format", "pptx", "--out", str(out))[0] == 0
    slides = _slide_texts(out)
    assert [texts[0].split(" · ")[:2] for texts in slides] == [
        ["Token 2 of 3 “爱”", "Step 31 of 32"], ["Token 2 of 3 “爱”", "Step 32 of 32"]]
    assert _chosen(slides[1]) == "爱"


@pytest.mark.parametrize(("arguments", "words"), [
    (["--run", "--token", "4"], "--token 4: the run has tokens 1 to 3"),
    (["--run", "--token", "0"], "--token 0: the run has tokens 1 to 3"),
    (["--token", "1"], "--token needs --run"),
    (["--run", "--steps", "3"], "give --token T with --steps"),
    (["--run", "--format", "png"], "not png"),
])
def test_a_run_choice_the_document_does_not_have_is_refused(
        qapp: QApplication, tmp_path: Path, run_file: Path,
        capsys: pytest.CaptureFixture[str], arguments: list[str], words: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    fmt = [] if "--format" in arguments else ["--format", "pdf"]
    status, printed, err = _export(capsys, str(run_file), *arguments, *fmt,
                                   "--out", str(out / "x.pdf"))
    assert (status, printed) == (2, "")
    assert len(err.splitlines()) == 1 and words in err, err
    assert leftovers(out) == []


def test_a_document_without_a_run_is_refused(qapp: QApplication, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    status, printed, err = _export(capsys, "g01", "--run", "--format", "gif",
                                   "--out", str(tmp_path / "x.gif"))
    assert (status, printed) == (2, "")
    assert err.startswith("qkv-studio: --run: ") and "has no generation run" in err
    assert leftovers(tmp_path) == []
