"""GIF and MP4: one common frame size, each step held for its dwell time."""

from __future__ import annotations

import itertools
import struct
from pathlib import Path

import imageio_ffmpeg
import numpy as np
import pytest
from PIL import Image, ImageSequence
from PySide6.QtWidgets import QApplication

from app.export.animation import frame_rate, gif_duration_ms
from engine import Trace
from tests.export.conftest import assert_not_blank, export

DWELL = 1.5
WIDTH = 640


def gif_blocks(data: bytes) -> tuple[bool, list[bool]]:
    """Read a GIF's structure: a global colour table?, and for each image a local one?"""
    assert data[:6] in (b"GIF87a", b"GIF89a")
    packed = data[10]
    position = 13 + (3 * 2 ** ((packed & 7) + 1) if packed & 0x80 else 0)
    local: list[bool] = []
    while data[position] != 0x3B:
        kind = data[position]
        if kind == 0x21:
            position += 2
        elif kind == 0x2C:
            flags = data[position + 9]
            local.append(bool(flags & 0x80))
            position += 10 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0) + 1
        else:
            raise AssertionError(f"unexpected GIF block {kind:#x} at {position}")
        while data[position]:
            position += data[position] + 1
        position += 1
    return bool(packed & 0x80), local


@pytest.fixture(scope="module")
def f11_gif(qapp: QApplication, f11: Trace, tmp_path_factory: pytest.TempPathFactory) -> Path:
    [path] = export(f11, "gif", tmp_path_factory.mktemp("gif") / "f11.gif", dwell=DWELL,
                    width=WIDTH)
    return path


def test_gif_has_one_frame_per_step_held_for_the_dwell_time(f11_gif: Path) -> None:
    with Image.open(f11_gif) as gif:
        assert gif.info["loop"] == 0
        frames = [(frame.info["duration"], frame.size, np.asarray(frame.convert("RGB")))
                  for frame in ImageSequence.Iterator(gif)]
    assert len(frames) == 5
    assert [duration for duration, _, _ in frames] == [1500] * 5
    sizes = {size for _, size, _ in frames}
    assert sizes == {(WIDTH, WIDTH * 9 // 16)}, "one common 16:9 size"
    pictures = [picture for _, _, picture in frames]
    for picture in pictures:
        assert_not_blank(np.dstack([picture, np.full(picture.shape[:2], 255, np.uint8)]),
                         colours=20, dark=500)
    assert all(not np.array_equal(a, b) for a, b in itertools.pairwise(pictures))


def test_gif_frames_share_one_palette(f11_gif: Path) -> None:
    has_global, local = gif_blocks(f11_gif.read_bytes())
    assert has_global
    assert local == [False] * 5, "no frame brings its own colour table"


def test_gif_durations_are_hundredths() -> None:
    assert gif_duration_ms(1.5) == 1500
    assert gif_duration_ms(0.123) == 120
    assert gif_duration_ms(0.001) == 10


def test_an_mp4_frame_lasts_the_dwell_to_the_millisecond() -> None:
    assert [frame_rate(s) for s in (0.8, 2.0, 600.0, 1 / 3, 0.0004)] == [
        "5/4", "1/2", "1/600", "3/1", "1000/1"]


@pytest.mark.slow
def test_mp4_holds_each_step_and_has_an_even_size(f11: Trace, tmp_path: Path) -> None:
    dwell = 0.8
    [path] = export(f11, "mp4", tmp_path / "f11.mp4", dwell=dwell, width=WIDTH - 7)
    frames, seconds = imageio_ffmpeg.count_frames_and_secs(str(path))
    assert frames == 5, "each step encoded once, held by the frame rate"
    assert seconds == pytest.approx(5 * dwell, abs=0.05)
    reader = imageio_ffmpeg.read_frames(str(path))
    meta = next(reader)
    width, height = meta["size"]
    assert (width, height) == (WIDTH - 8, 356), "633 px rounded to even, the height 16:9 and even"
    assert meta["fps"] == pytest.approx(1 / dwell)
    assert "h264" in meta["codec"] and meta["pix_fmt"].startswith("yuv420p")
    first = np.frombuffer(next(reader), np.uint8).reshape(height, width, 3)
    reader.close()
    assert_not_blank(np.dstack([first, np.full(first.shape[:2], 255, np.uint8)]),
                     colours=50, dark=500)
    assert tuple(int(v) for v in first[-4, -4]) == pytest.approx((255, 255, 255), abs=3), \
        "the band around the frame is the slide background"
    header = struct.unpack(">I4s", path.read_bytes()[:8])
    assert header[1] == b"ftyp"


def test_mp4_without_any_ffmpeg_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import imageio_ffmpeg

    from app.export import animation
    from app.export.safe import ExportError

    def missing() -> str:
        raise RuntimeError("no ffmpeg in this build")

    monkeypatch.setattr(imageio_ffmpeg, "get_ffmpeg_exe", missing)
    monkeypatch.setattr(animation.shutil, "which", lambda _name: None)
    with pytest.raises(ExportError) as refused:
        animation.ffmpeg_exe()
    assert str(refused.value).startswith("MP4 export needs ffmpeg, and none was found: install")
    assert "sudo apt install ffmpeg" in refused.value.words("en")
    assert refused.value.words("zh").startswith("导出 MP4 需要 ffmpeg，但没有找到")
    assert "sudo apt install ffmpeg" in refused.value.words("zh")
    monkeypatch.setattr(animation.shutil, "which", lambda _name: "/usr/bin/ffmpeg")
    assert animation.ffmpeg_exe() == "/usr/bin/ffmpeg"
