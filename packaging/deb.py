"""Lay out the Debian package's tree from the bundle: ``python packaging/deb.py BUNDLE ROOT``.

``packaging/build-deb.sh`` runs this, then ``dpkg-deb --build ROOT``. The bundle goes under
``/opt/qkv-studio`` (its ``share/`` folder under ``/usr/share``), ``/usr/bin/qkv-studio`` links to
it, and the desktop caches are refreshed by the triggers of shared-mime-info,
desktop-file-utils and hicolor-icon-theme (dpkg runs them for files in their folders), so the
package needs no maintainer scripts.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import sys
from pathlib import Path

PACKAGE = "qkv-studio"
OPT = Path("opt") / PACKAGE
DOC = Path("usr/share/doc") / PACKAGE
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from system_libraries import debian_depends  # noqa: E402 (this folder is not a package)

SUMMARY = "watch a transformer compute attention, step by step"
DESCRIPTION = """\
QKV Studio shows exactly how a transformer computes: type small matrices
by hand (or open a tiny Hugging Face checkpoint) and step through
embeddings, Q/K/V, scores, softmax and the mixed values, every number
visible. The steps export as PNG, SVG, PDF, GIF, MP4 and PowerPoint.
.
The interface speaks English and Chinese (中文)."""
MAN_PAGES = {"": "qkv-studio.1", "zh_CN": "qkv-studio.zh_CN.1"}


def control_text(version: str, installed_kib: int, maintainer: str, glibc: str) -> str:
    """The DEBIAN/control file."""
    depends = ", ".join([f"libc6 (>= {glibc})", *debian_depends()])
    return (f"Package: {PACKAGE}\nVersion: {version}\nArchitecture: amd64\n"
            f"Maintainer: {maintainer}\nInstalled-Size: {installed_kib}\n"
            f"Depends: {depends}\nRecommends: ffmpeg, fonts-noto-cjk, fonts-noto-color-emoji\n"
            f"Section: education\nPriority: optional\n"
            f"Description: {SUMMARY}\n"
            + "".join(f" {line}\n" for line in DESCRIPTION.splitlines()))


def file_list(bundle: Path) -> list[tuple[Path, Path]]:
    """(source, path in the package) for every file: the bundle under /opt, share/ under /usr."""
    pairs = []
    for source in sorted(bundle.rglob("*")):
        if source.is_dir() and not source.is_symlink():
            continue
        relative = source.relative_to(bundle)
        if relative.parts[0] == "share":
            pairs.append((source, Path("usr") / relative))
        else:
            pairs.append((source, OPT / relative))
    return pairs


def _gzipped(text: str, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                              compresslevel=9) as packed:
        packed.write(text.encode("utf-8"))
    out.chmod(0o644)


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_symlink():
        target.symlink_to(os.readlink(source))
        return
    shutil.copy2(source, target)
    # Shared libraries and extension modules are read, not run (Debian policy 8.1: 0644).
    executable = source.stat().st_mode & 0o111 and ".so" not in source.name
    target.chmod(0o755 if executable else 0o644)


def lay_out(bundle: Path, root: Path, version: str, maintainer: str, glibc: str) -> None:
    """Write the package tree for ``bundle`` into ``root`` (which must not exist yet)."""
    for source, target in file_list(bundle):
        _copy(source, root / target)
    (root / "usr/bin").mkdir(parents=True)
    (root / "usr/bin" / PACKAGE).symlink_to(Path("/") / OPT / PACKAGE)
    for language, page in MAN_PAGES.items():
        folder = Path("usr/share/man") / language / "man1"
        _gzipped((ROOT / "packaging/linux" / page).read_text(encoding="utf-8"),
                 root / folder / "qkv-studio.1.gz")
    (root / DOC).mkdir(parents=True)
    shutil.copy(ROOT / "packaging/linux/copyright", root / DOC / "copyright")
    (root / DOC / "copyright").chmod(0o644)
    _gzipped(changelog(version, maintainer), root / DOC / "changelog.gz")
    overrides = root / "usr/share/lintian/overrides" / PACKAGE
    overrides.parent.mkdir(parents=True)
    shutil.copy(ROOT / "packaging/linux/lintian-overrides", overrides)
    overrides.chmod(0o644)
    for folder in [root, *(p for p in root.rglob("*") if p.is_dir() and not p.is_symlink())]:
        folder.chmod(0o755)
    control = root / "DEBIAN"
    control.mkdir()
    (control / "control").write_text(control_text(version, installed_kib(root), maintainer,
                                                  glibc), encoding="utf-8")
    (control / "md5sums").write_text(md5sums(root), encoding="utf-8")
    for name in ("control", "md5sums"):
        (control / name).chmod(0o644)


def changelog(version: str, maintainer: str) -> str:
    """A native package's changelog: one entry for this version."""
    return (f"{PACKAGE} ({version}) unstable; urgency=medium\n\n"
            f"  * Built from the QKV Studio sources with PyInstaller (packaging/README.md).\n\n"
            f" -- {maintainer}  Mon, 30 Nov 2026 00:00:00 +0000\n")


def installed_kib(root: Path) -> int:
    """Installed-Size: the files' sizes in KiB, rounded up (symlinks count one KiB, as dpkg)."""
    total = 0
    for path in root.rglob("*"):
        if path.is_symlink():
            total += 1024
        elif path.is_file():
            total += path.stat().st_size
    return -(-total // 1024)


def md5sums(root: Path) -> str:
    """DEBIAN/md5sums: every regular file, sorted, paths without the leading slash."""
    lines = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink() and path.parts[len(root.parts)] != "DEBIAN":
            digest = hashlib.md5(path.read_bytes(), usedforsecurity=False).hexdigest()
            lines.append(f"{digest}  {path.relative_to(root).as_posix()}\n")
    return "".join(lines)


if __name__ == "__main__":
    bundle_arg, root_arg, version_arg, maintainer_arg, glibc_arg = sys.argv[1:6]
    lay_out(Path(bundle_arg), Path(root_arg), version_arg, maintainer_arg, glibc_arg)
