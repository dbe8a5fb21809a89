"""The committed catalogues: every tr() string of the app is translated, and the .qm is fresh."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication

from app.export.dialog import FORMAT_LABELS
from app.export.settings import FORMATS
from app.i18n.catalogue import read_catalogue, translations
from app.i18n.language import catalogue_path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "update_translations.py"


def test_every_string_is_translated_and_the_qm_matches_the_ts() -> None:
    """lupdate into a copy finds no new or untranslated string; lrelease gives the same .qm."""
    result = subprocess.run([sys.executable, str(SCRIPT), "--check"], cwd=ROOT,
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == ""


def test_the_catalogue_is_chinese_and_complete() -> None:
    messages = read_catalogue(catalogue_path("zh", ".ts"))
    assert len(messages) > 150
    assert all(m.finished for m in messages)
    table = translations(catalogue_path("zh", ".ts"))
    assert table["StudioWindow", "&File"] == "文件(&F)"
    assert table["Timeline", "Play"] == "播放"
    for message in messages:
        for field in ("{n}", "{count}", "{title}", "{name}", "{value}", "{shares}"):
            assert message.source.count(field) == message.translation.count(field), message
        if "&" in message.source.replace("&&", ""):
            assert "&" in message.translation, f"mnemonic lost: {message}"


def test_the_compiled_catalogue_loads_and_translates(qapp: QApplication) -> None:
    translator = QTranslator()
    assert translator.load(str(catalogue_path("zh")))
    assert translator.translate("StudioWindow", "&File") == "文件(&F)"
    assert translator.translate("GlossaryDock", "Glossary") == "术语表"
    assert translator.translate("StudioWindow", "no such source") == ""


def test_the_export_formats_are_in_the_catalogue() -> None:
    assert tuple(spec.label for spec in FORMATS.values()) == FORMAT_LABELS
    table = translations(catalogue_path("zh", ".ts"))
    assert all(("ExportDialog", label) in table for label in FORMAT_LABELS)
