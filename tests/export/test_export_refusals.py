"""Refusals from the command line: one line, exit 2, no traceback, no crash (issue 13: items 1,
2, 5, 8, 10, 11). The crashing cases run in a real process and assert its exit status."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

import engine.files.safe_write as safe_write
from app.export.job import run_export
from app.export.safe import ExportError
from app.export.settings import ExportRequest
from tests.export.conftest import leftovers, load_trace

ROOT = Path(__file__).resolve().parents[2]
QKV_STUDIO = Path(sys.executable).parent / "qkv-studio"
F11 = ROOT / "resources" / "examples" / "f11.qkv.json"


def studio(*arguments: str, cwd: Path, timeout: float = 120,
           **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run([str(QKV_STUDIO), *arguments], cwd=cwd, env=env, text=True,
                          stderr=subprocess.PIPE, timeout=timeout, check=False,
                          **kwargs)  # type: ignore[call-overload]


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    """The process's only line of output on stderr, after checking it is exit 2 and one line."""
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    return lines[0]


def document(folder: Path, name: str, **changes: object) -> Path:
    value = json.loads(F11.read_text(encoding="utf-8"))
    value.update(changes)
    path = folder / name
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def big_document(folder: Path, n: int = 512) -> Path:
    return document(folder, "big.qkv.json", tokens=[f"t{i}" for i in range(n)],
                    X=[[i % 7 - 3, i % 5 - 2] for i in range(n)])


@pytest.mark.slow
def test_a_huge_png_is_refused_with_the_width_that_fits(tmp_path: Path) -> None:
    widths = set()
    for size in (["--width", "100000"], ["--scale", "1e6"]):
        line = one_line(studio("export", "f11", "--format", "png", "--steps", "1", *size,
                               "--out", str(tmp_path / "out"), cwd=tmp_path))
        assert line.startswith("qkv-studio: a picture of ") and "at most 512 MiB fit" in line
        widths.add(int(line.split("a width of at most ")[1].split()[0]))
        assert leftovers(tmp_path) == []  # no .qkv-export-* folder, no out/
    # Asked too wide or too large, the one picture has one largest width, and that width fits
    # (exported once: a picture of nearly 512 MiB).
    assert len(widths) == 1, widths
    fits = studio("export", "f11", "--format", "png", "--steps", "1", "--width",
                  str(widths.pop()), "--out", str(tmp_path / "out"), cwd=tmp_path, timeout=300)
    assert fits.returncode == 0, fits.stderr


def test_the_scores_of_a_512_position_document_never_crash(tmp_path: Path) -> None:
    # This crashed with SIGSEGV (exit 139) at the default size; now the default fits the slide
    # sheet, and a scale too large for memory is refused in one line.
    path = big_document(tmp_path)
    default = studio("export", str(path), "--format", "png", "--steps", "3", "--out",
                     str(tmp_path / "out"), cwd=tmp_path)
    assert default.returncode == 0, (default.returncode, default.stderr[-2000:])
    assert (tmp_path / "out" / "big-step03.png").read_bytes().startswith(b"\x89PNG")
    line = one_line(studio("export", str(path), "--format", "png", "--steps", "3", "--scale",
                           "12", "--out", str(tmp_path / "huge"), cwd=tmp_path))
    assert line.startswith("qkv-studio: a picture of ") and "a width of at most" in line
    assert leftovers(tmp_path) == ["big.qkv.json", "out", "out/big-step03.png"]


@pytest.mark.parametrize(("arguments", "expected"), [
    (["--format", "png", "--scale", "inf"],
     "qkv-studio: --scale must be a positive finite number, got inf"),
    (["--format", "gif", "--dwell", "inf"],
     "qkv-studio: --dwell must be more than 0 and at most 600 seconds, got inf"),
    (["--format", "mp4", "--dwell", "inf"],
     "qkv-studio: --dwell must be more than 0 and at most 600 seconds, got inf"),
    (["--format", "gif", "--dwell", "1e6"],
     "qkv-studio: --dwell must be more than 0 and at most 600 seconds, got 1e+06"),
])
def test_numbers_out_of_range_are_one_line(tmp_path: Path, arguments: list[str],
                                           expected: str) -> None:
    assert one_line(studio("export", "f11", *arguments, cwd=tmp_path)) == expected
    assert leftovers(tmp_path) == []


def test_a_lone_surrogate_is_refused_with_its_place(tmp_path: Path) -> None:
    titled = document(tmp_path, "t.qkv.json", title="a\udfff")
    assert "\\udfff" in titled.read_text(encoding="utf-8")  # valid JSON with an escape
    expected = ("qkv-studio: title: character 2 is \\udfff, a lone half of a UTF-16 surrogate "
                "pair, not a character")
    assert one_line(studio("export", str(titled), "--format", "pptx", cwd=tmp_path)) == expected
    tokened = document(tmp_path, "k.qkv.json", tokens=["我", "\udfff"])
    for command in (["compute", str(tokened)], ["explain", str(tokened), "Q[0,0]"]):
        result = studio(*command, cwd=tmp_path)
        assert one_line(result).startswith("qkv-studio: tokens[1]: character 1 is \\udfff")
        assert result.stdout == ""
    assert leftovers(tmp_path) == ["k.qkv.json", "t.qkv.json"]


def test_a_closed_pipe_is_one_line(tmp_path: Path) -> None:
    path = big_document(tmp_path, 256)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    process = subprocess.Popen([str(QKV_STUDIO), "compute", str(path)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(10) == b'{"title": '
    process.stdout.close()  # as `| head -c 10` does
    errors = process.stderr.read().decode()
    assert process.wait(timeout=120) == 2
    assert errors == "qkv-studio: cannot write the output: the reader of the output closed it\n"


@pytest.mark.parametrize("command", [["compute", "f11"], ["explain", "f11", "Q[0,0]"]])
def test_a_full_output_device_is_one_line(tmp_path: Path, command: list[str]) -> None:
    with open("/dev/full", "w") as full:
        result = studio(*command, cwd=tmp_path, stdout=full)
    assert result.returncode == 2
    assert result.stderr == "qkv-studio: cannot write the output: the disk is full\n"


def test_indent_is_bounded(tmp_path: Path) -> None:
    # Unbounded, this wrote 49.7 GB: the output goes nowhere, and a minute is plenty.
    result = studio("compute", "f11", "--indent", "100000000", cwd=tmp_path, timeout=60,
                    stdout=subprocess.DEVNULL)
    assert one_line(result) == ("qkv-studio: --indent must be a whole number from 0 to 16, got "
                                "100000000")
    assert json.loads(studio("compute", "f11", "--indent", "16", cwd=tmp_path).stdout)


def test_a_label_with_terminal_control_characters_is_refused_at_its_place(
        tmp_path: Path) -> None:
    """ESC and BEL in a label would drive the terminal `explain` prints to (and no SVG or slide
    can hold them): the document is refused, naming the label and the character."""
    hostile = "\u001b[2J\u001b]0;PWN\u0007"
    path = document(tmp_path, "esc.qkv.json", tokens=["我", hostile])
    result = studio("explain", str(path), "scores[0,1,1]", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "tokens[1]: character 1 is \\u001b" in result.stderr
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr


def test_out_with_a_trailing_slash_is_a_folder(tmp_path: Path) -> None:
    result = studio("export", "f11", "--format", "pdf", "--steps", "1", "--out", "decks/",
                    cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["decks/f11.pdf"]
    assert (tmp_path / "decks" / "f11.pdf").read_bytes().startswith(b"%PDF")


def test_a_pdf_onto_a_full_disk_fails_and_keeps_the_old_pdf(
        qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "talk.pdf"
    old = b"%PDF-1.4 an older deck " * 1800  # about 41 KB
    target.write_bytes(old)

    def full(handle: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(safe_write.os, "write", full)
    request = ExportRequest(format="pdf", steps=(0,), destination=target, name="talk")
    with pytest.raises(ExportError) as caught:
        run_export(load_trace("f11"), request)
    assert str(caught.value) == f"cannot write {target}: the disk is full"
    assert target.read_bytes() == old and leftovers(tmp_path) == ["talk.pdf"]


@pytest.mark.parametrize("name", ["null", "full"])
def test_an_export_onto_a_device_is_refused(tmp_path: Path, name: str,
                                            device_node: Callable[[str], Path]) -> None:
    device = device_node(name)
    result = studio("export", "f11", "--format", "pdf", "--out", str(device), cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr == (f"qkv-studio: cannot write {device}: it is a device, not a file; "
                             "choose a file name\n")
    assert device.is_char_device()


def test_a_pdf_onto_a_real_full_disk(tmp_path: Path) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                      capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        target = folder / "talk.pdf"
        old = b"%PDF-1.4 an older deck " * 1800
        target.write_bytes(old)
        result = studio("export", "g01", "--format", "pdf", "--out", str(target), cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        assert result.stderr == f"qkv-studio: cannot write {target}: the disk is full\n"
        assert target.read_bytes() == old
        assert sorted(os.listdir(folder)) == ["talk.pdf"]
    finally:
        subprocess.run(["umount", str(folder)], check=False)
