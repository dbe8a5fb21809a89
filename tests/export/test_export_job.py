"""A multi-step export: progress, cancel and failure leave no partial file behind."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from app.export.job import run_export
from app.export.safe import ExportCancelled, ExportError
from app.export.settings import FORMATS, ExportRequest
from engine import Trace
from tests.export.conftest import export, leftovers

SMALL = {"width": 320, "dwell": 0.2}


def destination(folder: Path, fmt: str) -> Path:
    return folder / "out" if FORMATS[fmt].per_step else folder / "out" / f"f11.{fmt}"


def test_progress_is_reported_once_per_step(qapp: QApplication, f11: Trace,
                                            tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> bool:
        seen.append((done, total))
        return True

    request = ExportRequest(format="pdf", steps=(1, 2, 3), destination=tmp_path / "a.pdf")
    assert run_export(f11, request, progress=progress) == [tmp_path / "a.pdf"]
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_cancel_mid_export_leaves_nothing(qapp: QApplication, f11: Trace, tmp_path: Path,
                                          fmt: str) -> None:
    def cancel_after_two(done: int, total: int) -> bool:
        return done < 2

    request = ExportRequest(format=fmt, steps=(0, 1, 2, 3, 4),
                            destination=destination(tmp_path, fmt), name="f11",
                            **SMALL)  # type: ignore[arg-type]
    with pytest.raises(ExportCancelled):
        run_export(f11, request, progress=cancel_after_two)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_failed_write_is_named_and_leaves_nothing(qapp: QApplication, f11: Trace,
                                                    tmp_path: Path, fmt: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def disk_full(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    target = destination(tmp_path, fmt)
    message = f"cannot write {re.escape(str(target))}.*: the disk is full"
    with pytest.raises(ExportError, match=message):
        export(f11, fmt, target, **SMALL)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("fmt", ["png", "pptx"])
def test_a_path_under_a_regular_file_is_refused_by_name(qapp: QApplication, f11: Trace,
                                                        tmp_path: Path, fmt: str) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("a file, not a folder")
    target = blocker / ("out" if fmt == "png" else "out.pptx")
    with pytest.raises(ExportError) as caught:
        export(f11, fmt, target, steps=(0,))
    assert str(caught.value) == f"cannot write {target}: {blocker} is not a folder"
    assert leftovers(tmp_path) == ["file.txt"]


def test_an_existing_file_survives_a_failed_export(qapp: QApplication, f11: Trace,
                                                   tmp_path: Path) -> None:
    target = tmp_path / "f11.pdf"
    target.write_bytes(b"the lesson's old PDF")
    with pytest.raises(ExportCancelled):
        export_request = ExportRequest(format="pdf", steps=(0, 1), destination=target)
        run_export(f11, export_request, progress=lambda done, total: done == 0)
    assert target.read_bytes() == b"the lesson's old PDF"
    assert leftovers(tmp_path) == ["f11.pdf"]


def test_steps_out_of_range_are_refused(f11: Trace, tmp_path: Path) -> None:
    request = ExportRequest(format="png", steps=(4, 5), destination=tmp_path)
    with pytest.raises(ValueError, match="step 6 is out of range"):
        run_export(f11, request)
    assert os.listdir(tmp_path) == []
