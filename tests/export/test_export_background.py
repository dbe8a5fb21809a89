"""Exports from the window: frames composed a step per event-loop turn, written by a worker,
the same files as the command line's, and Cancel answered while the worker writes."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import pytest
from pptx import Presentation
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.canvas import FrameOptions
from app.export import job
from app.export.dialog import ExportDialog
from app.export.safe import ExportCancelled
from app.export.settings import ExportRequest
from app.export.stepwise import BackgroundExport
from engine import Trace, compute
from tests.bench.timing import attention_scenario
from tests.export.conftest import leftovers

SMALL = {"width": 320, "dwell": 0.2, "name": "f11"}


def request(tmp_path: Path, fmt: str, folder: str, steps: tuple[int, ...]) -> ExportRequest:
    target = tmp_path / folder
    return ExportRequest(format=fmt, steps=steps,
                         destination=target if fmt in ("png", "svg") else target / f"f11.{fmt}",
                         **SMALL)  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", ["png", "svg", "gif", "mp4"])
def test_the_window_writes_the_bytes_the_command_line_writes(qtbot: QtBot, f11: Trace,
                                                             tmp_path: Path, fmt: str) -> None:
    steps = (2, 3, 4)
    inline = job.run_export(f11, request(tmp_path, fmt, "inline", steps))
    apart = BackgroundExport(f11, request(tmp_path, fmt, "apart", steps)).start().wait()
    assert [path.name for path in apart] == [path.name for path in inline]
    assert len(inline) == (3 if fmt in ("png", "svg") else 1)
    for one, other in zip(inline, apart, strict=True):
        assert one.read_bytes() == other.read_bytes()


def test_frames_are_composed_here_and_encoded_on_a_worker(qtbot: QtBot, f11: Trace,
                                                          tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Between two steps' frames the event loop runs (a 0 ms timer fires); PNG encoding runs
    on another thread."""
    ticks = [0]
    ticker = QTimer()
    ticker.timeout.connect(lambda: ticks.__setitem__(0, ticks[0] + 1))
    ticker.start(0)
    built_at: list[tuple[int, str]] = []
    real_frame, real_png = job.ExportPlan.frame, job.png_bytes

    def frame(plan: job.ExportPlan, step: int, **kw: object) -> object:
        built_at.append((ticks[0], threading.current_thread().name))
        return real_frame(plan, step, **kw)  # type: ignore[arg-type]

    encoded_on: list[str] = []

    def png(image: object) -> bytes:
        encoded_on.append(threading.current_thread().name)
        return real_png(image)  # type: ignore[arg-type]

    monkeypatch.setattr(job.ExportPlan, "frame", frame)
    monkeypatch.setattr(job, "png_bytes", png)
    written = BackgroundExport(f11, request(tmp_path, "png", "out", (0, 1, 2, 3, 4))).start().wait()
    ticker.stop()
    assert len(written) == 5
    main = threading.main_thread().name
    assert [thread for _tick, thread in built_at] == [main] * 5
    assert all(later > earlier for (earlier, _a), (later, _b) in itertools.pairwise(built_at))
    assert len(encoded_on) == 5 and main not in encoded_on


def test_cancel_while_the_worker_writes_leaves_nothing(qtbot: QtBot, f11: Trace, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The GIF encoder is made slow: it writes, then waits until Cancel was clicked in the
    dialog, which the window can only do if it is not the one encoding."""
    writing, clicked = threading.Event(), threading.Event()
    real_write_gif = job.write_gif

    def slow_write_gif(path: Path, *args: object) -> None:
        real_write_gif(path, *args)  # type: ignore[arg-type]
        writing.set()
        assert clicked.wait(20), "Cancel was never clicked: the window did not answer"

    monkeypatch.setattr(job, "write_gif", slow_write_gif)
    monkeypatch.setattr(QMessageBox, "critical", staticmethod(
        lambda *a: pytest.fail("cancel is not an error")))
    dialog = ExportDialog(f11, 0, FrameOptions(), name="f11")
    qtbot.addWidget(dialog)
    dialog.format_box.setCurrentIndex(dialog.format_box.findData("gif"))
    dialog.all_radio.setChecked(True)
    dialog.destination_edit.setText(str(tmp_path / "f11.gif"))
    dialog.show()

    def click_cancel_once_writing() -> None:
        if not writing.is_set():
            QTimer.singleShot(10, click_cancel_once_writing)
            return
        assert dialog.progress_dialog is not None
        dialog.progress_dialog.canceled.emit()  # what its Cancel button does
        clicked.set()

    QTimer.singleShot(0, click_cancel_once_writing)
    assert not dialog.export()
    assert clicked.is_set()
    assert leftovers(tmp_path) == []
    assert dialog.last_error is None and dialog.isVisible()


def test_a_cancelled_background_export_raises_and_a_failed_one_names_the_file(
        qtbot: QtBot, f11: Trace, tmp_path: Path) -> None:
    running = BackgroundExport(f11, request(tmp_path, "pdf", "out", (0, 1, 2, 3, 4)))
    running.start()
    running.cancel()
    with pytest.raises(ExportCancelled):
        running.wait()
    assert leftovers(tmp_path) == []
    blocker = tmp_path / "file.txt"
    blocker.write_text("a file, not a folder")
    failing = ExportRequest(format="png", steps=(0,), destination=blocker / "out", name="f11")
    with pytest.raises(Exception, match=f"{blocker} is not a folder"):
        BackgroundExport(f11, failing).start().wait()


@pytest.mark.slow
def test_a_deck_of_two_heads_and_128_positions_exports(qtbot: QtBot, tmp_path: Path) -> None:
    """The arrows' legend of a several-head document, and labels smaller than PowerPoint's
    1 pt (a 128-position grid at the document's one scale), used to stop the deck with an
    error. Such a document is now laid out frame by frame (its one scale is unreadable): the
    128 × 128 shares are a heat map, the smallest labels (the arrows' share labels) 1.7 pt,
    never under 1 pt. Its 3,400 shapes are numbered, not searched for the next free id (which
    took python-pptx 90 s), and every id is still unique."""
    trace = compute(attention_scenario(128))
    weights = trace.step_index("weights")
    [deck] = BackgroundExport(trace, request(tmp_path, "pptx", "out", (weights,))).start().wait()
    slide = Presentation(str(deck)).slides[0]
    assert slide.shapes.title.text.endswith(trace.steps[weights].title)
    runs = [run for shape in slide.shapes if shape.has_text_frame
            for paragraph in shape.text_frame.paragraphs for run in paragraph.runs]
    runs += [run for shape in slide.shapes if shape.has_table
             for cell in shape.table.iter_cells()
             for paragraph in cell.text_frame.paragraphs for run in paragraph.runs]
    sizes = sorted(run.font.size.pt for run in runs if run.font.size is not None)
    assert sizes[0] >= 1.0, "PowerPoint's smallest size"
    assert sizes[0] == pytest.approx(1.7), "the frame by itself: drawn larger, its margins thin"
    assert len(runs) > 20  # the frame's words and the arrows' share labels (heat maps: pictures)
    ids = [int(value) for value in slide.shapes._spTree.xpath("//p:cNvPr/@id")]
    assert len(ids) > 3000 and len(set(ids)) == len(ids), "every shape its own id"

