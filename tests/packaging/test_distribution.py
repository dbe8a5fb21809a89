"""Fast checks of the build scripts' pure parts: the smaller ICU data, the system libraries,
the .deb's control file and file list, and install.sh in a temporary HOME (no bundle needed:
a stand-in folder with the same layout)."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
INSTALL = PACKAGING / "linux" / "install.sh"
APP_ID = "io.github.qkvstudio.QKVStudio"


@pytest.fixture(scope="module", autouse=True)
def packaging_on_path() -> Iterator[None]:
    sys.path.insert(0, str(PACKAGING))
    yield
    sys.path.remove(str(PACKAGING))


# --- ICU data -----------------------------------------------------------------------------

def synthetic_package(items: dict[str, bytes]) -> bytes:
    """A common data package written from ICU's layout, independently of icu_data.py."""
    header = struct.pack("<HBB", 32, 0xDA, 0x27) + struct.pack("<HHBBBB4s4s4s", 20, 0, 0, 0, 2, 0,
                                                               b"CmnD", b"\1\0\0\0", b"\3\0\0\0")
    header += b"\0" * (32 - len(header))
    names = sorted(items)
    table = 4 + 8 * len(names)
    name_bytes = b"".join(n.encode() + b"\0" for n in names)
    start = table + len(name_bytes)
    start += -(len(header) + start) % 16
    offsets, body = [], b""
    for name in names:
        offsets.append(start + len(body))
        body += items[name] + b"\xaa" * (-len(items[name]) % 16)
    name_offsets = []
    cursor = table
    for name in names:
        name_offsets.append(cursor)
        cursor += len(name) + 1
    toc = struct.pack("<I", len(names)) + b"".join(
        struct.pack("<II", n, d) for n, d in zip(name_offsets, offsets, strict=True))
    prefix = header + toc + name_bytes
    return prefix + b"\xaa" * (-len(prefix) % 16) + body


ITEMS = {"icudt73l/root.res": b"R" * 40, "icudt73l/coll/zh.res": b"Z" * 16,
         "icudt73l/af.res": b"A" * 3, "icudt73l/brkitr/cjdict.dict": b"D" * 21}


def test_icu_package_reads_and_writes_back_byte_for_byte() -> None:
    from icu_data import read_package, write_package

    data = synthetic_package(ITEMS)
    header, items = read_package(data)
    assert list(items) == sorted(ITEMS)
    # Items come back with ICU's 16-byte padding; their own bytes first.
    assert {name: items[name][:len(raw)] for name, raw in ITEMS.items()} == ITEMS
    assert write_package(header, items) == data
    kept = {name: items[name] for name in ("icudt73l/root.res", "icudt73l/coll/zh.res")}
    assert read_package(write_package(header, kept))[1] == kept


def test_icu_selection_keeps_chinese_and_english_not_dictionaries() -> None:
    from icu_data import select

    assert sorted(select(ITEMS)) == ["icudt73l/coll/zh.res", "icudt73l/root.res"]


def test_icu_refuses_what_is_not_a_package() -> None:
    from icu_data import PackageError, read_package

    with pytest.raises(PackageError, match="not a little-endian ICU common data package"):
        read_package(b"\x10\0" + b"\0" * 40)


def qt_icu_data() -> Path:
    import PySide6

    found = sorted((Path(PySide6.__file__).parent / "Qt" / "lib").glob("libicudata.so.*"))
    if not found or any(shutil.which(t) is None for t in ("ld", "objcopy", "nm", "readelf")):
        pytest.skip("needs the PySide6 wheel's ICU and binutils (ld, objcopy, nm, readelf)")
    return found[0]


PROBE = """
from PySide6.QtCore import QCollator, QLocale, QStringDecoder, QTimeZone
for name in ("zh_CN", "en_US"):
    locale = QLocale(name)
    collator = QCollator(locale)
    print(name, collator.compare("爱", "我"), collator.compare("b", "a"),
          sorted(["我", "爱", "你", "b", "A"], key=collator.sortKey))
print(QTimeZone(b"Asia/Shanghai").displayName(QTimeZone.TimeType.StandardTime,
                                              QTimeZone.NameType.LongName, QLocale("zh_CN")))
print(QStringDecoder("GB18030").isValid())
"""


def probe(preload: Path | None) -> str:
    env = {"PATH": "/usr/bin:/bin", "QT_QPA_PLATFORM": "offscreen", "LANG": "C.UTF-8"}
    if preload is not None:
        env["LD_PRELOAD"] = str(preload)
    result = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_smaller_icu_data_answers_qt_as_the_full_one(tmp_path: Path) -> None:
    """Collation in both languages (the file dialog sorts with it), time-zone names, GB18030:
    the same answers from the 4 MB library as from ICU's 31 MB, preloaded under its soname."""
    from icu_data import shrink

    source = qt_icu_data()
    out = tmp_path / source.name
    before, after = shrink(source, out)
    assert (before, after) == (3921, 108) or after < before / 20
    assert out.stat().st_size < source.stat().st_size / 6
    full, small = probe(None), probe(out)
    assert small == full
    assert "zh_CN -1 1" in full  # 爱 (ài) sorts before 我 (wǒ) in pinyin order: real data used


# --- system libraries ---------------------------------------------------------------------

def test_system_libraries_are_the_desktops_own_not_wheel_copies() -> None:
    from system_libraries import debian_depends, is_system_library

    assert is_system_library("libX11.so.6") and is_system_library("libglib-2.0.so.0")
    assert not is_system_library("libfreetype-57f805ba.so.6.20.6")  # Pillow's own copy
    assert not is_system_library("libxcb-cursor.so.0")  # often missing: stays bundled
    assert not is_system_library("libstdc++.so.6")
    assert "libx11-6" in debian_depends() and "libglib2.0-0" in debian_depends()
    assert debian_depends() == sorted(set(debian_depends()))


# --- the .deb -----------------------------------------------------------------------------

def fake_bundle(base: Path) -> Path:
    """The bundle's layout in miniature: the launcher, _internal/, a symlink, share/."""
    bundle = base / "qkv-studio"
    (bundle / "_internal" / "PySide6").mkdir(parents=True)
    launcher = bundle / "qkv-studio"
    launcher.write_text("#!/bin/sh\necho \"qkv-studio $*\"\n")
    launcher.chmod(0o755)
    (bundle / "_internal" / "PySide6" / "libQt6Core.so.6").write_bytes(b"\x7fELF" + b"\0" * 60)
    (bundle / "_internal" / "libQt6Core.so.6").symlink_to("PySide6/libQt6Core.so.6")
    share = bundle / "share"
    (share / "applications").mkdir(parents=True)
    shutil.copy(PACKAGING / "linux" / f"{APP_ID}.desktop", share / "applications")
    (share / "mime" / "packages").mkdir(parents=True)
    shutil.copy(PACKAGING / "linux" / f"{APP_ID}.mime.xml",
                share / "mime" / "packages" / f"{APP_ID}.xml")
    icon = share / "icons" / "hicolor" / "48x48" / "apps"
    icon.mkdir(parents=True)
    shutil.copy(ROOT / "resources" / "icons" / "qkv-studio-48.png", icon / f"{APP_ID}.png")
    return bundle


def test_deb_file_list_puts_the_bundle_in_opt_and_share_in_usr(tmp_path: Path) -> None:
    from deb import file_list

    bundle = fake_bundle(tmp_path)
    targets = {target.as_posix() for _source, target in file_list(bundle)}
    assert targets == {
        "opt/qkv-studio/qkv-studio",
        "opt/qkv-studio/_internal/PySide6/libQt6Core.so.6",
        "opt/qkv-studio/_internal/libQt6Core.so.6",
        f"usr/share/applications/{APP_ID}.desktop",
        f"usr/share/mime/packages/{APP_ID}.xml",
        f"usr/share/icons/hicolor/48x48/apps/{APP_ID}.png",
    }


def test_deb_control_file_fields() -> None:
    from deb import control_text

    text = control_text("0.1.0", 150512, "Ana Li <ana@example.org>", "2.36")
    fields = dict(line.split(": ", 1) for line in text.splitlines() if not line.startswith(" "))
    assert fields["Package"] == "qkv-studio" and fields["Version"] == "0.1.0"
    assert fields["Architecture"] == "amd64" and fields["Installed-Size"] == "150512"
    assert fields["Depends"].startswith("libc6 (>= 2.36), ")
    assert "libx11-6" in fields["Depends"] and "libxcb-cursor0" not in fields["Depends"]
    assert fields["Recommends"] == "ffmpeg, fonts-noto-cjk, fonts-noto-color-emoji"
    long_lines = [line for line in text.splitlines() if line.startswith(" ")]
    assert long_lines and all(len(line) <= 80 for line in long_lines)
    assert text.endswith("\n") and "\n\n" not in text


@pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="dpkg-deb missing (not Debian)")
def test_deb_tree_builds_and_lists_every_file(tmp_path: Path) -> None:
    from deb import lay_out

    root = tmp_path / "root"
    lay_out(fake_bundle(tmp_path), root, "0.1.0", "Ana Li <ana@example.org>", "2.36")
    link = root / "usr" / "bin" / "qkv-studio"
    assert os.readlink(link) == "/opt/qkv-studio/qkv-studio"
    assert (root / "opt/qkv-studio/qkv-studio").stat().st_mode & 0o777 == 0o755
    assert (root / "usr/share/man/zh_CN/man1/qkv-studio.1.gz").is_file()
    md5 = (root / "DEBIAN" / "md5sums").read_text().splitlines()
    assert any(line.endswith("  opt/qkv-studio/qkv-studio") for line in md5)
    assert not any("usr/bin/qkv-studio" in line or "DEBIAN" in line for line in md5)
    deb = tmp_path / "x.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "--build", str(root), str(deb)],
                   check=True, capture_output=True, timeout=120)
    listing = subprocess.run(["dpkg-deb", "--contents", str(deb)], capture_output=True,
                             text=True, check=True).stdout
    assert "./usr/bin/qkv-studio -> /opt/qkv-studio/qkv-studio" in listing
    assert "root/root" in listing


# --- install.sh ---------------------------------------------------------------------------

def install_sh(folder: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home)}
    return subprocess.run(["sh", str(folder / "install.sh"), *args], env=env, cwd=home,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(shutil.which("ldd") is None, reason="ldd missing")
def test_install_sh_sets_up_one_user_and_uninstall_leaves_nothing(tmp_path: Path) -> None:
    unpacked = fake_bundle(tmp_path / "unpacked")
    shutil.copy(INSTALL, unpacked / "install.sh")
    home = tmp_path / "home"
    home.mkdir()

    installed = install_sh(unpacked, home)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert "已安装 QKV Studio" in installed.stdout
    target = home / ".local/opt/qkv-studio"
    command = home / ".local/bin/qkv-studio"
    assert os.readlink(command) == str(target / "qkv-studio")
    ran = subprocess.run([str(command), "--version"], capture_output=True, text=True, check=True)
    assert ran.stdout == "qkv-studio --version\n"
    desktop = (home / f".local/share/applications/{APP_ID}.desktop").read_text()
    assert f'\nExec="{target}/qkv-studio" %f\n' in desktop
    assert not (target / "share").exists()
    if shutil.which("update-mime-database"):
        globs = (home / ".local/share/mime/globs2").read_text()
        assert "application/x-qkv-studio+json:*.qkv.json" in globs

    again = install_sh(unpacked, home)  # installing twice replaces, never duplicates
    assert again.returncode == 0, again.stderr
    assert (target / ".installed-files").read_text().count(f"{APP_ID}.desktop") == 1

    removed = install_sh(unpacked, home, "--uninstall")
    assert removed.returncode == 0, removed.stderr
    assert "已从" in removed.stdout
    assert home.is_dir() and list(home.iterdir()) == []  # empty folders too, but not HOME

    refused = install_sh(unpacked, home, "--uninstall")
    assert refused.returncode == 1
    assert "not installed" in refused.stderr and "未安装" in refused.stderr


def test_install_sh_names_an_unknown_option(tmp_path: Path) -> None:
    result = subprocess.run(["sh", str(INSTALL), "--everywhere"], capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, timeout=60)
    assert result.returncode == 2
    assert "unknown option --everywhere" in result.stderr and "未知选项" in result.stderr
