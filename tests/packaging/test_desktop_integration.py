"""Fast checks of the packaging pieces: --selftest, --version, --help, icons, desktop files."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import app.selftest as selftest
from app import __version__
from app.cli import main

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "packaging" / "linux"
APP_ID = "io.github.qkvstudio.QKVStudio"
DESKTOP = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"
MIME = LINUX / f"{APP_ID}.mime.xml"
ICONS = ROOT / "resources" / "icons"
ICON_SIZES = (16, 32, 48, 64, 128, 256, 512)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert data[:8] == PNG_MAGIC, "not a PNG"
    assert data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


# --- --selftest, --version, --help ---------------------------------------------------------

def test_selftest_in_process_paints_every_f11_step() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert selftest.run_selftest(out, err) == 0, err.getvalue()
    line = out.getvalue()
    assert line.count("\n") == 1
    assert re.match(r"selftest ok: 5 frames, weights frame \d+×\d+ with \d+ colours", line)
    assert "encoded png/jpeg/svg" in line


def test_selftest_checks_measure_real_pictures() -> None:
    checks, encoders, platform = selftest.run_checks()
    assert [check.step_id for check in checks][3] == "weights"
    for check in checks:
        assert check.width >= 320 and check.height >= 160
        assert check.colours >= selftest.MIN_COLOURS
        assert check.dark_fraction >= selftest.MIN_DARK_FRACTION
    assert encoders == ["png", "jpeg", "svg"]
    assert platform == "offscreen"


def test_selftest_flag_through_main(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--selftest"]) == 0
    assert capsys.readouterr().out.startswith("selftest ok: 5 frames")


def test_selftest_fails_on_a_blank_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtGui import QColor, QImage

    real_paint = selftest.paint_frame

    def blank(trace: object, index: int, scale: float = 1.0) -> tuple[QImage, object]:
        image, scene = real_paint(trace, index, scale)  # type: ignore[arg-type]
        image.fill(QColor("white"))
        return image, scene

    monkeypatch.setattr(selftest, "paint_frame", blank)
    out, err = io.StringIO(), io.StringIO()
    assert selftest.run_selftest(out, err) == 1
    assert out.getvalue() == ""
    assert err.getvalue().startswith("selftest FAILED: step 'inputs': only 1 distinct colours")


def test_selftest_fails_when_the_examples_are_missing(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    import app.model.examples

    monkeypatch.setattr(app.model.examples, "EXAMPLES_DIR", tmp_path)
    err = io.StringIO()
    assert selftest.run_selftest(io.StringIO(), err) == 1
    assert "built-in example 'f11' not found" in err.getvalue()


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"qkv-studio {__version__}"


def test_help_mentions_selftest(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    assert "--selftest" in text and "--version" in text and "compute FILE" in text


def test_selftest_as_a_process_without_display(tmp_path: Path) -> None:
    """The console script's code path, in a fresh interpreter with QT_QPA_PLATFORM unset."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    result = subprocess.run([sys.executable, "-c", "import sys; from app.cli import main; "
                             "sys.exit(main(['--selftest']))"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "platform offscreen" in result.stdout


# --- icons ---------------------------------------------------------------------------------

def test_icon_svg_and_every_png_size() -> None:
    svg = ET.parse(ICONS / "qkv-studio.svg").getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert svg.get("viewBox") == "0 0 256 256"
    for size in ICON_SIZES:
        assert png_size((ICONS / f"qkv-studio-{size}.png").read_bytes()) == (size, size)


def test_make_icons_writes_ico_and_icns(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    sys.path.insert(0, str(ROOT / "packaging"))
    try:
        from make_icons import make_icons
    finally:
        sys.path.remove(str(ROOT / "packaging"))
    from PIL import Image

    made = make_icons(ICONS, tmp_path)
    with Image.open(made["ico"]) as ico:
        assert {(256, 256), (48, 48), (16, 16)} <= set(ico.info["sizes"])
    assert made["icns"].read_bytes()[:4] == b"icns"
    with Image.open(made["icns"]) as icns:
        assert icns.size == (1024, 1024)


# --- desktop file, MIME type, AppStream ----------------------------------------------------

def test_desktop_file_fields() -> None:
    text = DESKTOP.read_text(encoding="utf-8")
    assert "\nExec=qkv-studio %f\n" in text
    assert f"\nIcon={APP_ID}\n" in text
    assert "\nMimeType=application/x-qkv-studio+json;\n" in text


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None,
                    reason="desktop-file-validate missing (Debian: desktop-file-utils)")
def test_desktop_file_validates() -> None:
    result = subprocess.run(["desktop-file-validate", str(DESKTOP)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "", result.stdout  # no errors, warnings or hints


@pytest.mark.skipif(shutil.which("appstreamcli") is None,
                    reason="appstreamcli missing (Debian: appstream)")
def test_metainfo_validates() -> None:
    result = subprocess.run(["appstreamcli", "validate", "--no-net", "--no-color", str(METAINFO)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    # Only the pedantic note about capitals in the ID is expected.
    flagged = [line for line in result.stdout.splitlines() if re.match(r"[EWI]: ", line)]
    assert flagged == [], result.stdout


def test_metainfo_content() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == APP_ID
    assert root.find("launchable").text == DESKTOP.name  # type: ignore[union-attr]
    release = root.find("releases/release")
    assert release is not None
    assert (release.get("version"), release.get("date")) == (__version__, "2026-11-30")
    assert root.find("content_rating").get("type") == "oars-1.1"  # type: ignore[union-attr]
    assert root.find("provides/mediatype").text == "application/x-qkv-studio+json"  # type: ignore[union-attr]
    lang = "{http://www.w3.org/XML/1998/namespace}lang"
    assert any(p.get(lang) == "zh-CN" for p in root.iter("p"))
    # The screenshots it will point at once there is a public URL are committed.
    shot = ROOT / "packaging" / "screenshots" / "f11-weights.png"
    assert png_size(shot.read_bytes())[0] >= 620  # AppStream's smallest recommended width


@pytest.mark.skipif(shutil.which("update-mime-database") is None,
                    reason="update-mime-database missing (Debian: shared-mime-info)")
def test_mime_type_installs(tmp_path: Path) -> None:
    packages = tmp_path / "mime" / "packages"
    packages.mkdir(parents=True)
    shutil.copy(MIME, packages / f"{APP_ID}.xml")
    result = subprocess.run(["update-mime-database", str(tmp_path / "mime")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    globs = (tmp_path / "mime" / "globs2").read_text(encoding="utf-8")
    assert "60:application/x-qkv-studio+json:*.qkv.json" in globs.splitlines()
    subclasses = (tmp_path / "mime" / "subclasses").read_text(encoding="utf-8")
    assert "application/x-qkv-studio+json application/json" in subclasses.splitlines()
