"""Failed exports: sizes too large for any format, a re-export that fails part way, a full disk.

Each refusal is one line, writes nothing and leaves every older file as it was.
"""

from __future__ import annotations

import errno
import math
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

import app.export.dialog
import app.export.render
import app.export.safe
import engine.files.safe_write as safe_write
from app.canvas import FrameOptions
from app.cli import main
from app.export import job
from app.export.animation import Mp4Writer
from app.export.dialog import ExportDialog
from app.export.safe import ExportError, PictureTooLargeError
from app.export.settings import FORMATS, ExportRequest
from engine import Trace
from tests.export.conftest import export, leftovers

F11 = Path(__file__).resolve().parents[2] / "resources" / "examples" / "f11.qkv.json"
FORMAT_CASES = [(fmt, False) for fmt in FORMATS] + [("pptx", True)]
"""Every format, and PowerPoint both editable and as pictures."""


def largest_width(limit: int, tall: int = 9, wide: int = 16) -> int:
    """Independent: the widest picture of shape wide:tall whose 4-byte pixels fit ``limit``."""
    width = math.isqrt(limit // 4 * wide // tall) + 2
    while width * math.ceil(width * tall / wide) * 4 > limit:
        width -= 1
    return width


def destination(tmp_path: Path, fmt: str) -> Path:
    return tmp_path / "out" if FORMATS[fmt].per_step else tmp_path / "out" / f"f11.{fmt}"


# --- sizes -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("fmt", "pictures"), FORMAT_CASES)
def test_every_format_refuses_a_picture_too_large_with_the_width_that_fits(
        qapp: QApplication, f11: Trace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        fmt: str, pictures: bool) -> None:
    monkeypatch.setattr(app.export.render, "MAX_IMAGE_BYTES", 1_000_000)
    with pytest.raises(PictureTooLargeError) as caught:
        export(f11, fmt, destination(tmp_path, fmt), steps=(0,), width=1000,
               pptx_pictures=pictures)
    fits = largest_width(1_000_000)
    assert str(caught.value) == ("a picture of 1000 × 562 pixels would need 2 MiB; at most 1 MiB "
                                 f"fit, which at this shape is a width of at most {fits} pixels")
    assert caught.value.words("zh") == (f"1000 × 562 像素的图片需要 2 MiB；最多只能用 1 MiB，按这个"
                                        f"形状宽度最多 {fits} 像素")
    assert leftovers(tmp_path) == []  # not even the folder
    written = export(f11, fmt, destination(tmp_path, fmt), steps=(0,), width=fits,
                     pptx_pictures=pictures)
    assert [path.stat().st_size > 0 for path in written] == [True]


@pytest.mark.parametrize(("arguments", "size"), [
    (["--format", "pptx", "--width", "100000"], "100000 × 56250"),
    (["--format", "png", "--width", "2147483647"], "2147483648 × 1207959552"),
    (["--format", "gif", "--scale", "1e7"], "19200000000 × 10800000000"),
    (["--format", "svg", "--width", "2147483646"], "2147483646 × 1207959550"),
    (["--format", "pdf", "--scale", "1e306"], "1.92e+309 × 1.08e+309"),
    (["--format", "mp4", "--width", "1" + "0" * 17], "1.00e+17 × 5.62e+16"),
])
def test_no_size_ends_in_a_traceback_on_the_command_line(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        arguments: list[str], size: str) -> None:
    status = main(["export", str(F11), *arguments, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.startswith(f"qkv-studio: a picture of {size} pixels would need ")
    assert err.endswith(f"a width of at most {largest_width(512 * 2**20)} pixels\n")
    assert err.count("\n") == 1
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_dialog_refuses_an_editable_deck_too_large_as_png_does(
        qtbot: QtBot, f11: Trace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        lang: str) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical",
                        staticmethod(lambda parent, title, text: shown.append(text)))
    monkeypatch.setattr(app.export.dialog, "current_language", lambda: lang)
    dialog = ExportDialog(f11, 0, FrameOptions(), name="f11")
    qtbot.addWidget(dialog)
    dialog.format_box.setCurrentIndex(dialog.format_box.findData("pptx"))
    dialog.width_radio.setChecked(True)
    dialog.width_spin.setValue(16384)  # the dialog's largest width: 604 MiB at 16:9
    dialog.destination_edit.setText(str(tmp_path / "deck.pptx"))
    assert not dialog.export()
    with pytest.raises(PictureTooLargeError) as png:
        export(f11, "png", tmp_path / "png", steps=(0,), width=16384)
    assert shown == [png.value.words(lang)] and dialog.last_error == shown[0]
    assert ("像素的图片需要" in shown[0]) == (lang == "zh")
    assert leftovers(tmp_path) == []


# --- a re-export into a folder that fails part way -------------------------------------------

def earlier_export(f11: Trace, folder: Path) -> dict[str, bytes]:
    written = export(f11, "png", folder, steps=(0, 1, 2, 3))
    return {path.name: path.read_bytes() for path in written}


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_a_move_failing_at_step_3_leaves_every_old_file_as_it_was(
        qapp: QApplication, f11: Trace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        fmt: str) -> None:
    folder = tmp_path / "frames"
    earlier_export(f11, folder)
    if fmt == "svg":
        export(f11, "svg", folder, steps=(0, 1, 2, 3))
    old = {path.name: path.read_bytes() for path in folder.iterdir()}
    real_publish = app.export.safe.publish
    calls: list[Path] = []

    def publish_twice(staged: Path, path: Path) -> None:
        calls.append(Path(path))
        if len(calls) == 3:
            raise OSError(errno.EIO, "Input/output error")
        real_publish(staged, path)

    monkeypatch.setattr(app.export.safe, "publish", publish_twice)
    with pytest.raises(ExportError) as caught:
        export(f11, fmt, folder, steps=(0, 1, 2, 3), transparent=True)  # new bytes for each
    third = folder / f"f11-step03.{fmt}"
    assert str(caught.value) == f"cannot write {third}: the disk reported an input/output error"
    assert len(calls) == 3
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == old
    assert leftovers(tmp_path) == ["frames", *sorted(f"frames/{name}" for name in old)]


def test_a_new_file_moved_in_before_the_failure_is_removed_again(
        qapp: QApplication, f11: Trace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "frames"
    old = {path.name: path.read_bytes() for path in export(f11, "png", folder, steps=(0,))}
    real_publish = app.export.safe.publish
    calls: list[Path] = []

    def publish_twice(staged: Path, path: Path) -> None:
        calls.append(Path(path))
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_publish(staged, path)

    monkeypatch.setattr(app.export.safe, "publish", publish_twice)
    with pytest.raises(ExportError, match=r"f11-step03\.png: the disk is full$"):
        export(f11, "png", folder, steps=(0, 1, 2, 3), transparent=True)
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == old


def test_a_write_failing_at_step_3_touches_no_old_file(
        qapp: QApplication, f11: Trace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "frames"
    old = earlier_export(f11, folder)
    real_write_all = app.export.safe.write_all
    calls: list[Path] = []

    def write_twice(path: Path, data: bytes) -> None:
        calls.append(path)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write_all(path, data)

    monkeypatch.setattr(app.export.safe, "write_all", write_twice)
    with pytest.raises(ExportError) as caught:
        export(f11, "png", folder, steps=(0, 1, 2, 3), transparent=True)
    assert str(caught.value) == f"cannot write {folder / 'f11-step03.png'}: the disk is full"
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == old
    assert leftovers(tmp_path) == ["frames", *sorted(f"frames/{name}" for name in old)]


# --- a full disk -----------------------------------------------------------------------------

def _full(*_args: object, **_kwargs: object) -> int:
    raise OSError(errno.ENOSPC, "No space left on device")


def _fill_then_fail(path: Path, *_args: object, **_kwargs: object) -> None:
    Path(path).write_bytes(b"part of a file")
    raise OSError(errno.ENOSPC, "No space left on device")


def _mp4_onto_dev_full(_temp: Path, width: int, height: int, dwell: float, *,
                       shown: Path) -> Mp4Writer:
    """The real ffmpeg, writing where every write ends in ENOSPC."""
    return Mp4Writer(Path("/dev/full"), width, height, dwell, shown=shown)


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_full_disk_reads_the_disk_is_full_for_every_format(
        qapp: QApplication, f11: Trace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        fmt: str) -> None:
    target = destination(tmp_path, fmt)
    old_file = (target if not FORMATS[fmt].per_step else target / f"f11-step01.{fmt}")
    old_file.parent.mkdir(parents=True)
    old_file.write_bytes(b"an older export")
    if fmt in ("png", "svg", "pdf"):
        monkeypatch.setattr(safe_write.os, "write", _full)
    elif fmt == "gif":
        monkeypatch.setattr(job, "write_gif", _fill_then_fail)
    elif fmt == "pptx":
        monkeypatch.setattr(job, "write_pptx", _fill_then_fail)
    else:
        if not Path("/dev/full").exists():
            pytest.skip("no /dev/full here")
        monkeypatch.setattr(job, "Mp4Writer", _mp4_onto_dev_full)
    request = ExportRequest(format=fmt, steps=(0, 1), destination=target, name="f11",
                            width=320)
    with pytest.raises(ExportError) as caught:
        job.run_export(f11, request)
    assert str(caught.value) == f"cannot write {old_file}: the disk is full"
    assert caught.value.words("zh") == f"无法写入 {old_file}：磁盘已满"
    assert old_file.read_bytes() == b"an older export"
    assert leftovers(tmp_path) == [str(p.relative_to(tmp_path)) for p in
                                   sorted([old_file, *old_file.parents])
                                   if tmp_path in p.parents]
