"""A generation run exports from the command line: ``--run`` one frame per token (its draw),
``--run --token T`` that token's steps; refusals are one line, exit 2, nothing written (issue 24
item 5). The export dialog offers the same choices, through the same code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image
from pptx import Presentation
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from app import i18n
from app.canvas import FrameOptions
from app.cli import main
from app.export.dialog import ExportDialog
from app.export.run_pages import token_trace
from engine import Trace, compute, dumps_scenario, parse_scenario
from engine.format.generation_keys import Settings
from engine.generation.run import Run, generate
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


# -------------------------------------------------------------- the export dialog's run option

def _dialog(qtbot: QtBot, trace: Trace, *, token: int | None = None,
            whole: Trace | None = None) -> ExportDialog:
    dialog = ExportDialog(trace, len(trace.steps) - 1, FrameOptions(), name="run", whole=whole,
                          token=token)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def _export_from(qtbot: QtBot, dialog: ExportDialog, fmt: str, out: Path) -> list[Path]:
    dialog.format_box.setCurrentIndex(dialog.format_box.findData(fmt))
    dialog.destination_edit.setText(str(out))
    with qtbot.waitSignal(dialog.accepted, timeout=60_000):
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    return dialog.written


def test_the_dialogs_whole_run_writes_what_the_command_line_writes(
        qtbot: QtBot, tmp_path: Path, run_file: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Every token's draw from the dialog: the deck ``export --run`` writes, slide for slide."""
    cli = tmp_path / "cli.pptx"
    assert _export(capsys, str(run_file), "--run", "--format", "pptx", "--out", str(cli))[0] == 0
    dialog = _dialog(qtbot, compute(_run().scenario))
    assert dialog.document_radio.isChecked() and not dialog.token_spin.isEnabled()
    assert dialog.run_radio.text() == "Every token's draw, one frame each (3)"
    dialog.run_radio.setChecked(True)
    assert not dialog.all_radio.isEnabled(), "one frame per token: no steps to choose"
    out = tmp_path / "dialog.pptx"
    assert _export_from(qtbot, dialog, "pptx", out) == [out]
    assert _slide_texts(out) == _slide_texts(cli)
    assert [_chosen(texts) for texts in _slide_texts(out)] == ["你", "爱", "你"]


def test_the_dialog_exports_one_tokens_chosen_steps(qtbot: QtBot, tmp_path: Path) -> None:
    run = _run()
    dialog = _dialog(qtbot, compute(run.scenario))
    dialog.token_radio.setChecked(True)
    assert dialog.token_spin.isEnabled()
    dialog.token_spin.setValue(2)
    assert dialog.token_label.text() == "of 3 “爱”"
    dialog.range_radio.setChecked(True)
    dialog.first_spin.setValue(31)
    dialog.last_spin.setValue(32)
    out = tmp_path / "token2.pptx"
    assert _export_from(qtbot, dialog, "pptx", out) == [out]
    slides = _slide_texts(out)
    assert [texts[0].split(" · ")[:2] for texts in slides] == [
        ["Token 2 of 3 “爱”", "Step 31 of 32"], ["Token 2 of 3 “爱”", "Step 32 of 32"]]
    assert _chosen(slides[1]) == "爱"


def test_the_dialog_refuses_every_draw_as_a_file_per_step(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical",
                        staticmethod(lambda parent, title, text: shown.append(text)))
    dialog = _dialog(qtbot, compute(_run().scenario))
    dialog.run_radio.setChecked(True)
    dialog.format_box.setCurrentIndex(dialog.format_box.findData("png"))
    dialog.destination_edit.setText(str(tmp_path))
    assert not dialog.export()
    assert shown == [dialog.last_error] and "GIF, MP4, PDF or PowerPoint" in shown[0]
    assert leftovers(tmp_path) == [] and dialog.isVisible()


def test_a_dialog_opened_on_a_token_starts_on_it_and_can_export_the_whole_document(
        qtbot: QtBot, tmp_path: Path) -> None:
    """From the window while token 2 is viewed: its steps by default, headed with it; the
    whole document's steps without a token's heading."""
    run = _run()
    whole = compute(run.scenario)
    token = token_trace(run.scenario, 2)
    dialog = _dialog(qtbot, token, token=2, whole=whole)
    assert dialog.token_radio.isChecked() and dialog.token_spin.value() == 2
    dialog.current_radio.setChecked(True)
    out = tmp_path / "token.pptx"
    assert _export_from(qtbot, dialog, "pptx", out) == [out]
    [texts] = _slide_texts(out)
    assert texts[0].startswith("Token 2 of 3 “爱” · Step 32 of 32 · "), texts[0]
    assert _chosen(texts) == "爱"
    again = _dialog(qtbot, token, token=2, whole=whole)
    again.document_radio.setChecked(True)
    again.current_radio.setChecked(True)
    document = tmp_path / "document.pptx"
    assert _export_from(qtbot, again, "pptx", document) == [document]
    [texts] = _slide_texts(document)
    assert texts[0].startswith("Step 32 of 32 · "), texts[0]
    vocab = whole.scenario.head.vocab  # type: ignore[union-attr]
    assert _chosen(texts) == vocab[int(whole.arrays["gen4.chosen"][0])]


def test_the_dialogs_run_choice_speaks_chinese(qtbot: QtBot) -> None:
    i18n.set_language("zh")
    try:
        dialog = _dialog(qtbot, compute(_run().scenario))
        assert dialog.run_radio.text() == "每个 Token 的抽取，各一帧（共 3 帧）"
        dialog.token_spin.setValue(2)
        assert f"{dialog.token_radio.text()} 2 {dialog.token_label.text()}" == \
            "第 2 个 Token（共 3 个）“爱”的各步"
        assert dialog.document_radio.text() == "整个文档的各步"
    finally:
        i18n.set_language("en")
