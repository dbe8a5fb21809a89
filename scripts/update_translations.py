"""Refresh the interface translations: ``pyside6-lupdate`` the app's Python files into the ``.ts``
catalogues, then ``pyside6-lrelease`` them into the ``.qm`` files the app loads.

Run it after adding or changing a ``tr()`` string, translate the new entries (Qt Linguist:
``pyside6-linguist resources/i18n/qkv_studio_zh_CN.ts``, or by hand in the XML), and run it again
so the ``.qm`` matches. ``tests/app/test_i18n_catalogue.py`` fails while a string is missing or
a ``.qm`` is stale.

Usage: ``.venv/bin/python scripts/update_translations.py [--check]``; ``--check`` changes nothing
and exits 1 if the catalogues are not up to date.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "resources" / "i18n"
CATALOGUE = "qkv_studio"


def tool(name: str) -> str:
    """A Qt tool shipped with PySide6, next to the running Python or on the PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: install PySide6-Essentials into this environment")
    return found


def sources() -> list[str]:
    """Every Python file of the app, relative to the repository, sorted."""
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "app").rglob("*.py")
                  if "__pycache__" not in p.parts)


def locales() -> tuple[str, ...]:
    """The Qt locale of every translated language (``app.i18n.language.QT_LOCALES``)."""
    from app.i18n.language import QT_LOCALES

    return tuple(QT_LOCALES.values())


def ts_path(locale: str) -> Path:
    return I18N / f"{CATALOGUE}_{locale}.ts"


def lupdate(ts: Path) -> None:
    """Merge the app's current strings into ``ts`` (no source locations, no obsolete entries)."""
    subprocess.run([tool("pyside6-lupdate"), *sources(), "-locations", "none", "-no-obsolete",
                    "-ts", str(ts)], cwd=ROOT, check=True, capture_output=True)


def lrelease(ts: Path, qm: Path) -> None:
    subprocess.run([tool("pyside6-lrelease"), str(ts), "-qm", str(qm)], check=True,
                   capture_output=True)


def check() -> list[str]:
    """Problems that make the committed catalogues out of date (empty when all is well)."""
    from app.i18n.catalogue import read_catalogue

    problems = []
    with tempfile.TemporaryDirectory() as folder:
        for locale in locales():
            ts = ts_path(locale)
            fresh = Path(folder) / ts.name
            shutil.copy(ts, fresh)
            lupdate(fresh)
            missing = [f"{m.context}: {m.source!r}" for m in read_catalogue(fresh)
                       if not m.finished]
            problems += [f"{ts.name}: untranslated {item}" for item in missing]
            if read_catalogue(fresh) != read_catalogue(ts):
                problems.append(f"{ts.name}: the app's strings changed; run this script")
            qm = Path(folder) / f"{CATALOGUE}_{locale}.qm"
            lrelease(ts, qm)
            if qm.read_bytes() != ts.with_suffix(".qm").read_bytes():
                problems.append(f"{ts.with_suffix('.qm').name} is stale; run this script")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check, change nothing")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.check:
        problems = check()
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    for locale in locales():
        ts = ts_path(locale)
        lupdate(ts)
        lrelease(ts, ts.with_suffix(".qm"))
        print(f"{ts.relative_to(ROOT)} and {ts.with_suffix('.qm').name} updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
