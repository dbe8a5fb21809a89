"""PowerPoint of a frame whose tokens are Hebrew and Arabic: each label's text keeps its
isolates and left-to-right marks, and LibreOffice (when installed) draws the embedding step's
labels in the order written, with nothing drawn for the marks."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pptx import Presentation

from app.model.operands import shown_token
from engine import Trace, compute, parse_scenario
from tests.app.documents_support import example_document
from tests.export.conftest import export

TOKENS = ["ש", "مرحبا", "עולםעולם", "עולםעולם"]
"""Short, Arabic and long: the three tell apart where each is drawn."""
LABELS = {f"0 · {shown_token('ש')}, {shown_token('עולםעולם')}, {shown_token('עולםעולם')}",
          f"1 · {shown_token('مرحبا')}", f"{shown_token('ש')} ← 0",
          f"{shown_token('مرحبا')} ← 1"}
"""The embedding table's rows picked by tokens, and two picked rows."""


def right_to_left_trace() -> Trace:
    document = example_document("training")
    document["tokens"], document["token_ids"] = TOKENS, [0, 1, 0, 0]
    document["head"]["vocab"] = ["ש", "مرحبا", "עולם", "cat"]
    return compute(parse_scenario(document))


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pptx-bidi")
    return export(right_to_left_trace(), "pptx", folder / "rtl.pptx", steps=(0,))[0]


def test_the_labels_keep_their_isolates_and_marks(deck: Path) -> None:
    slide = Presentation(str(deck)).slides[0]
    said = {shape.text_frame.text for shape in slide.shapes if shape.has_text_frame}
    assert said >= LABELS


@pytest.mark.skipif(shutil.which("soffice") is None or shutil.which("pdftotext") is None,
                    reason="LibreOffice or poppler is not installed")
def test_libreoffice_draws_each_label_in_the_order_written(deck: Path) -> None:
    subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir",
                    str(deck.parent), str(deck)], check=True, capture_output=True, timeout=120)
    words = subprocess.run(["pdftotext", "-bbox", str(deck.with_suffix(".pdf")), "-"],
                           check=True, capture_output=True, text=True).stdout
    lines: dict[float, list[tuple[float, str]]] = {}
    for left, top, word in re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>(.*?)</word>',
                                      words):
        seen = word.strip("\u200e\u2068\u2069")
        if seen:
            lines.setdefault(round(float(top)), []).append((float(left), seen))
    read = [" ".join(word for _, word in sorted(line)) for line in lines.values()]
    # Poppler gives a right-to-left word's letters as drawn, left to right.
    for drawn in ("0 · ש , םלועםלוע , םלועםלוע", "1 · ابحرم", "ש ← 0", "ابحرم ← 1"):
        assert any(f" {drawn} " in f" {line} " for line in read), (drawn, read)
    assert not any(mark in words for mark in ("\u25a1", "\ufffd")), "a mark drawn as a box"
