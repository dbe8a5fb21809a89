"""``qkv-studio export g01 --steps 10 --out g01.png`` writes the file g01.png (it once wrote a
folder g01.png/ holding g01-step10.png); several steps sent to one .png name are refused with a
line saying what to give instead, and nothing is written."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from PySide6.QtWidgets import QApplication

from tests.export.conftest import leftovers
from tests.export.test_export_cli import run


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_one_step_to_a_file_name_writes_that_file(qapp: QApplication, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  fmt: str) -> None:
    out = tmp_path / f"g01.{fmt}"
    status, lines, err = run(capsys, "g01", "--format", fmt, "--steps", "10", "--out",
                             str(out), "--width", "320")
    assert (status, err) == (0, "")
    assert lines == [str(out)]
    assert out.is_file()
    assert leftovers(tmp_path) == [f"g01.{fmt}"]
    if fmt == "png":
        with Image.open(out) as image:
            assert (image.format, image.width, image.height) == ("PNG", 320, 180)
    else:
        assert ET.parse(out).getroot().tag.endswith("svg")


def test_a_pdf_name_is_the_file_and_an_existing_folder_keeps_its_step_names(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "g01", "--format", "pdf", "--steps", "10", "--out",
                           str(tmp_path / "g01.pdf"), "--width", "320")
    assert (status, lines) == (0, [str(tmp_path / "g01.pdf")])
    assert len(PdfReader(tmp_path / "g01.pdf").pages) == 1
    folder = tmp_path / "frames.png"
    folder.mkdir()
    status, lines, _ = run(capsys, "g01", "--format", "png", "--steps", "10", "--out",
                           str(folder), "--width", "320")
    assert (status, lines) == (0, [str(folder / "g01-step10.png")]), "a folder stays a folder"


def test_several_steps_to_one_file_name_are_refused_and_nothing_is_written(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g01.png"
    status, lines, err = run(capsys, "g01", "--format", "png", "--steps", "9-10", "--out",
                             str(out), "--width", "320")
    assert (status, lines) == (2, [])
    assert err == (f"qkv-studio: --out {out} names one file, but 2 steps are exported: give "
                   "one step (--steps N) or a folder (--out g01/)\n")
    assert leftovers(tmp_path) == []
