"""A long dwell costs nothing to encode (issue 34): each step of an MP4 is one frame held by the
frame rate, a GIF's one frame with its duration, so ``--dwell 600`` (the longest allowed) is as
quick as ``--dwell 2``; a terminal sees the export's progress on standard error."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import imageio_ffmpeg
import pytest
from PIL import Image, ImageSequence
from PySide6.QtWidgets import QApplication

from app.cli import main
from app.export.settings import MAX_DWELL

STEPS = 5
"""F11's steps."""
LIMIT_S = 120
"""Far under what the 75,000 frames of ``--dwell 600`` at 25 a second took (over 300 s)."""


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["mp4", "gif"])
def test_the_longest_dwell_encodes_each_step_once(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"f11.{fmt}"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    started = time.monotonic()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "app.cli", "export", "f11", "--format", fmt, "--dwell",
             f"{MAX_DWELL:g}", "--out", str(out)], env=env, cwd=tmp_path, capture_output=True,
            text=True, timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"--dwell {MAX_DWELL:g} was still encoding after {LIMIT_S} s")
    seconds = time.monotonic() - started
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{out}\n", "")
    if fmt == "mp4":
        frames, length = imageio_ffmpeg.count_frames_and_secs(str(out))
        assert (frames, length) == (STEPS, pytest.approx(STEPS * MAX_DWELL))
    else:
        with Image.open(out) as gif:
            durations = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
        assert durations == [MAX_DWELL * 1000] * STEPS
    print(f"\n{fmt} --dwell {MAX_DWELL:g}: {seconds:.1f} s")


def test_a_terminal_sees_the_progress_on_standard_error(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    out = tmp_path / "f11.gif"
    assert main(["export", "f11", "--format", "gif", "--out", str(out)]) == 0
    printed, err = capsys.readouterr()
    assert printed == f"{out}\n"
    assert err.startswith("\r") and err.endswith("\n") and err.count("\n") == 1
    lines = err[1:-1].split("\r")  # one line, rewritten in place
    counts = [int(line.removeprefix("qkv-studio: exported ").removesuffix(f" of {STEPS} steps"))
              for line in lines]
    assert sorted(set(counts)) == list(range(STEPS + 1)) and counts == sorted(counts)
