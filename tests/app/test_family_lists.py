"""Every place that names the families import-hf reads names all of them (the list is written
out in each, for a reader: a family added to the importer must be added there too)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.cli import _command_parser
from app.i18n.catalogue import read_catalogue
from engine.checkpoint.config import FAMILIES

ROOT = Path(__file__).resolve().parents[2]


def import_description() -> str:
    return _command_parser("import-hf").description or ""


def tooltip() -> tuple[str, str]:
    found = [m for m in read_catalogue(ROOT / "resources/i18n/qkv_studio_zh_CN.ts")
             if m.source.startswith("A Hugging Face model folder (")]
    assert len(found) == 1
    return found[0].source, found[0].translation


def paragraph(doc: str, start: str) -> str:
    text = (ROOT / "docs" / doc).read_text("utf-8")
    return text[text.index(start):][:900]


def named(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9_]+", text)) & set(FAMILIES)


@pytest.mark.parametrize("where", ["import-hf", "tooltip", "tooltip zh", "command-line.md",
                                   "user-guide.md"])
def test_each_list_of_families_names_every_family_imported(where: str) -> None:
    text = {"import-hf": import_description,
            "tooltip": lambda: tooltip()[0], "tooltip zh": lambda: tooltip()[1],
            "command-line.md": lambda: paragraph("command-line.md",
                                                 "`qkv-studio import-hf DIR"),
            "user-guide.md": lambda: paragraph("user-guide.md",
                                               "**File → Open checkpoint…**")}[where]()
    assert sorted(set(FAMILIES) - named(text)) == []
