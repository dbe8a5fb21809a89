"""Build the PyInstaller bundle and run it in a clean environment (slow: about 40 s).

The bundle is built from scratch into a temporary folder with packaging/build-linux.sh, using the
Python environment that runs the tests, then started with nothing from the project around it:
no venv on PATH, no PYTHONPATH, an empty HOME.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD_SCRIPT = ROOT / "packaging" / "build-linux.sh"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# The trimmed bundle is about 185 MB (without the 172 MB ffmpeg); this catches a trim undone.
MAX_BUNDLE_BYTES = 200 * 2**20

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux build script"),
]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == PNG_MAGIC, f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "QT_QPA_PLATFORM": "offscreen", **extra}


@pytest.fixture(scope="module")
def frozen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build once for this module; return the frozen executable."""
    base = tmp_path_factory.mktemp("bundle")
    result = subprocess.run(
        ["bash", str(BUILD_SCRIPT), "--dist", str(base / "dist"), "--work", str(base / "work"),
         "--venv", sys.prefix, "--no-check"],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert "build-linux.sh: built" in result.stdout
    executable = base / "dist" / "qkv-studio" / "qkv-studio"
    assert executable.is_file() and os.access(executable, os.X_OK)
    return executable


def run(executable: Path, *args: str, home: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(executable), *args], env=clean_env(home, **extra), cwd=home,
                          capture_output=True, text=True, timeout=300)


def test_frozen_selftest(frozen: Path, tmp_path: Path) -> None:
    result = run(frozen, "--selftest", home=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("selftest ok: 5 frames")
    assert "encoded png/jpeg/svg" in result.stdout


def test_frozen_version_and_compute(frozen: Path, tmp_path: Path) -> None:
    version = run(frozen, "--version", home=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("qkv-studio "), version.stderr
    computed = run(frozen, "compute", "f11", home=tmp_path)
    assert computed.returncode == 0, computed.stderr
    trace = json.loads(computed.stdout)
    assert trace["tokens"] == ["我", "爱"]


def test_frozen_export_png(frozen: Path, tmp_path: Path) -> None:
    out = tmp_path / "png"
    result = run(frozen, "export", "f11", "--format", "png", "--out", str(out), home=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    pictures = sorted(out.glob("*.png"))
    assert len(pictures) == 5, result.stdout
    for picture in pictures:
        width, height = png_size(picture)
        assert width >= 400 and height >= 200, (picture.name, width, height)


def test_frozen_bundle_is_trimmed(frozen: Path) -> None:
    bundle = frozen.parent
    internal = bundle / "_internal"
    size = sum(path.stat().st_size for path in bundle.rglob("*")
               if path.is_file() and not path.is_symlink())
    assert size < MAX_BUNDLE_BYTES, f"bundle is {size / 2**20:.0f} MB"
    plugins = internal / "PySide6" / "Qt" / "plugins"
    assert sorted(p.name for p in (plugins / "platforms").iterdir()) == [
        "libqminimal.so", "libqoffscreen.so", "libqxcb.so"]
    assert not (plugins / "platformthemes" / "libqgtk3.so").exists()
    assert (plugins / "imageformats" / "libqjpeg.so").exists()
    assert (plugins / "imageformats" / "libqsvg.so").exists()
    names = {path.name for path in internal.rglob("*")}
    for unwanted in ("libQt6Network.so.6", "libQt6WaylandClient.so.6", "libQt6Test.so.6",
                     "libcrypto.so.3", "libqgtk3.so"):
        assert unwanted not in names, unwanted
    dangling = [path for path in internal.rglob("*") if path.is_symlink() and not path.exists()]
    assert dangling == []
    assert (internal / "resources" / "examples" / "f11.qkv.json").is_file()
    assert (bundle / "share" / "applications" / "io.github.qkvstudio.QKVStudio.desktop").is_file()


@pytest.fixture
def xvfb_display() -> Iterator[str]:
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("Xvfb missing (Debian: xvfb)")
    for number in range(142, 180):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(
                f"/tmp/.X{number}-lock").exists():
            break
    display = f":{number}"
    server = subprocess.Popen([xvfb, display, "-screen", "0", "1280x800x24", "-nolisten", "tcp",
                               "-noreset"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.skip(f"Xvfb did not start on {display}")
            time.sleep(0.05)
        yield display
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)


def test_frozen_selftest_on_xcb(frozen: Path, tmp_path: Path, xvfb_display: str) -> None:
    """The bundled xcb platform plugin and its libraries load on a (virtual) X server."""
    result = run(frozen, "--selftest", home=tmp_path, QT_QPA_PLATFORM="xcb",
                 DISPLAY=xvfb_display)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "platform xcb" in result.stdout
