"""Animations: an animated GIF (Pillow, one shared palette) and an H.264 MP4 (ffmpeg).

Both take frames of one size (every picture of an export has the same even size, see
:meth:`app.export.settings.ExportRequest.pixel_size`), as ``height × width × 3`` uint8 RGB arrays.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from types import TracebackType

import numpy as np
import numpy.typing as npt
from PySide6.QtGui import QImage

from app.export.safe import ExportError, disk_full
from app.texts.sentences import say

RGBArray = npt.NDArray[np.uint8]
GIF_TICK_MS = 10
DWELL_STEP_S = Fraction(1, 1000)
"""An MP4's dwell time is held to the millisecond: its frame rate is 1 / dwell as a fraction."""


def rgb_array(image: QImage) -> RGBArray:
    """The image's pixels as a ``height × width × 3`` RGB array (a copy)."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    width, height = rgb.width(), rgb.height()
    rows = np.frombuffer(rgb.constBits(), dtype=np.uint8, count=rgb.sizeInBytes())
    rows = rows.reshape(height, rgb.bytesPerLine())
    return rows[:, : width * 3].reshape(height, width, 3).copy()


def gif_duration_ms(seconds: float) -> int:
    """A frame duration GIF can store: whole hundredths of a second, at least one."""
    return max(1, round(seconds * 1000 / GIF_TICK_MS)) * GIF_TICK_MS


def write_gif(path: Path, frames: Sequence[RGBArray], durations_ms: Sequence[int]) -> None:
    """Write a looping GIF, one frame per array, every frame in one shared 256-colour palette.

    The palette is made from all frames together (median cut), so colours do not flicker from one
    step to the next, and frames are mapped to it without dithering, which keeps text crisp.
    """
    from PIL import Image

    if len(frames) != len(durations_ms) or not frames:
        raise ValueError("write_gif needs one duration per frame, and at least one frame")
    pictures = [Image.fromarray(frame, "RGB") for frame in frames]
    montage = Image.fromarray(np.concatenate(list(frames), axis=0), "RGB")
    palette = montage.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                               dither=Image.Dither.NONE)
    indexed = [picture.quantize(palette=palette, dither=Image.Dither.NONE)
               for picture in pictures]
    shared = bytes(palette.getpalette() or [])
    # Passing the palette makes Pillow write it once, as the global colour table.
    indexed[0].save(path, format="GIF", save_all=True, append_images=indexed[1:],
                    duration=list(durations_ms), loop=0, optimize=False, disposal=1,
                    palette=shared)


def ffmpeg_exe() -> str:
    """The ffmpeg binary shipped in the imageio-ffmpeg wheel (or one on PATH).

    Raises
    ------
    ExportError
        If there is none (a desktop build without the bundled ffmpeg and none installed).
    """
    try:
        import imageio_ffmpeg

        exe: str = imageio_ffmpeg.get_ffmpeg_exe()
    except (ImportError, RuntimeError):
        found = shutil.which("ffmpeg")
        if found is None:
            raise ExportError(say("export.ffmpeg_missing")) from None
        exe = found
    return exe


def _child_environment() -> dict[str, str]:
    """The environment for ffmpeg: a frozen build's own library path is taken back out."""
    env = dict(os.environ)
    if getattr(sys, "frozen", False):
        original = env.pop("LD_LIBRARY_PATH_ORIG", None)
        if original is None:
            env.pop("LD_LIBRARY_PATH", None)
        else:
            env["LD_LIBRARY_PATH"] = original
    return env


def frame_rate(dwell: float) -> str:
    """The frame rate at which every frame lasts ``dwell`` seconds (to the millisecond), as
    ffmpeg reads a rate: ``"5/4"`` for 0.8 s, ``"1/600"`` for ten minutes."""
    held = max(DWELL_STEP_S, Fraction(dwell).limit_denominator(DWELL_STEP_S.denominator))
    rate = 1 / held
    return f"{rate.numerator}/{rate.denominator}"


class Mp4Writer:
    """Feed raw RGB frames through a pipe into ffmpeg, which encodes H.264 yuv420p, each frame
    held for ``dwell`` seconds.

    A step is one frame of the video, at a frame rate of 1 / ``dwell``: a step held for ten
    minutes is encoded once, not 15,000 times, so encoding takes as long as the steps, not
    their dwell. Use as a context manager; an exception inside the block kills ffmpeg (the
    caller removes the partial file). ``width`` and ``height`` must be even.
    """

    def __init__(self, path: Path, width: int, height: int, dwell: float, *,
                 shown: Path | None = None) -> None:
        if width % 2 or height % 2:
            raise ValueError(f"H.264 yuv420p needs even sizes, got {width}×{height}")
        self.path = path
        self.shown = shown or path  # named in messages: the destination, not the temporary
        self.width, self.height = width, height
        self.frames = 0
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed in __exit__
        exe = ffmpeg_exe()
        command = [
            exe, "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{width}x{height}",
            "-framerate", frame_rate(dwell), "-i", "pipe:0",
            # sRGB in, BT.709 limited-range out, and the stream says so (players pick the matrix).
            "-an", "-vf", "scale=out_color_matrix=bt709:out_range=tv,setparams=range=tv:"
            "color_primaries=bt709:color_trc=bt709:colorspace=bt709",
            "-c:v", "libx264", "-preset", "veryfast", "-tune", "stillimage", "-pix_fmt", "yuv420p",
            "-movflags", "+faststart", "-map_metadata", "-1", "-f", "mp4", str(path),
        ]
        try:
            self._process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                             stdout=subprocess.DEVNULL, stderr=self._errors,
                                             env=_child_environment())
        except OSError as error:
            self._errors.close()
            raise ExportError(say("export.ffmpeg_not_started", path=self.shown, exe=exe,
                                  error=error.strerror or error)) from None

    def __enter__(self) -> Mp4Writer:
        return self

    def add(self, frame: RGBArray) -> None:
        """Append ``frame``, held for the dwell time."""
        if frame.shape != (self.height, self.width, 3):
            raise ValueError(f"frame of shape {frame.shape}, expected "
                             f"{(self.height, self.width, 3)}")
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(np.ascontiguousarray(frame, dtype=np.uint8).tobytes())
        except BrokenPipeError:
            self._process.wait()
            raise self._failure() from None
        self.frames += 1

    def _failure(self) -> ExportError:
        self._errors.seek(0)
        message = self._errors.read().decode("utf-8", "replace").strip().splitlines()
        detail = message[-1] if message else f"exit status {self._process.returncode}"
        detail = detail.replace(str(self.path), str(self.shown))
        if any(os.strerror(errno.ENOSPC) in line for line in message):
            return disk_full(self.shown)
        return ExportError(say("export.ffmpeg_failed", path=self.shown, detail=detail))

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 _traceback: TracebackType | None) -> None:
        stdin = self._process.stdin
        try:
            if kind is None:
                assert stdin is not None
                with contextlib.suppress(BrokenPipeError):
                    stdin.close()
                if self._process.wait() != 0:
                    raise self._failure()
            else:
                self._process.kill()
                self._process.wait()
        finally:
            if stdin is not None and not stdin.closed:
                with contextlib.suppress(OSError):
                    stdin.close()
            self._errors.close()
