"""PowerPoint of a frame whose tokens are Hebrew and Arabic: each label's text keeps its
isolates and left-to-right marks, and LibreOffice (when installed) draws the embedding step's
labels in the order written, with nothing drawn for the marks."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest
from pptx import Presentation

from app.model.operands import shown_token
from engine import Trace, compute, parse_scenario
from tests.app.documents_support import example_document
from tests.export.conftest import export

TOKENS = ["ש", "مرحبا", "עולםעולם", "עולםעולם"]
"""Short, Arabic and long: the three tell apart where each is drawn."""
LABELS = {f"0 · {shown_token('ש')}, {shown_token('עולםעולם')}",
          f"1 · {shown_token('مرحبا')}", f"{shown_token('ש')} ← 0",
          f"{shown_token('مرحبا')} ← 1"}
"""The embedding table's rows picked by tokens (each token once), and two picked rows."""


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
    for drawn in ("0 · ש , םלועםלוע", "1 · ابحرم", "ש ← 0", "ابحرم ← 1"):
        assert any(f" {drawn} " in f" {line} " for line in read), (drawn, read)
    assert not any(mark in words for mark in ("\u25a1", "\ufffd")), "a mark drawn as a box"


BYTE_TOKENS = ["مر<0xD8>", "<0xAD>با"]
"""مرحبا split by a byte-level BPE inside ح (0xD8 0xAD): a byte named after Arabic letters and
one before them."""


def byte_trace() -> Trace:
    document = example_document("training")
    document["tokens"], document["token_ids"] = [*BYTE_TOKENS, *BYTE_TOKENS], [0, 1, 0, 1]
    document["head"]["vocab"] = [*BYTE_TOKENS, "ש", "cat"]
    return compute(parse_scenario(document))


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler is not installed")
def test_a_byte_name_after_arabic_letters_is_drawn_as_written_in_pdf(tmp_path: Path) -> None:
    """``مر<0xD8>`` is drawn with ``<0xD8>`` left to right, on the letters' left (read after
    them); its brackets were mirrored, ``>0xD8<``, in every export. PDF: poppler reads the drawn
    glyphs back, each word where it is drawn."""
    trace = byte_trace()
    pdf = export(trace, "pdf", tmp_path / "rtl.pdf", steps=(0,))[0]
    words = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True,
                           capture_output=True, text=True).stdout
    drawn = [(float(left), float(right), float(top),
              word.strip("\u200e\u2068\u2069").replace("&lt;", "<").replace("&gt;", ">"))
             for left, top, right, word in re.findall(
                 r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)"[^>]*>(.*?)</word>',
                 words)]
    named = [word for *_, word in drawn if "0x" in word]
    # The step draws each of the two tokens that hold a byte in three places (6 names) and the
    # table's row that both pick once (a row names each token once): 7 names of 0xD8 and 7 of
    # 0xAD, each read as written.
    assert sorted(named) == ["<0xAD>"] * 7 + ["<0xD8>"] * 7, named
    for left, right, top, word in drawn:
        if word == "<0xD8>":  # ر (its final form, poppler's ﺮ) drawn just right of it
            assert any(other in ("\ufeae", "\u0631") and -1 < x - right < 4
                       and abs(y - top) < 8 for x, _, y, other in drawn), (left, top)


def test_a_byte_name_after_arabic_letters_is_drawn_as_written_in_svg(tmp_path: Path) -> None:
    """SVG: Qt writes each run where it draws it, ``<0xD8>``'s own runs on the left of مر."""
    svg = export(byte_trace(), "svg", tmp_path / "rtl.svg", steps=(0,))[0]
    runs: dict[tuple[str, str], list[tuple[float, str]]] = {}
    for group in ElementTree.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}g"):
        for node in group.findall("{http://www.w3.org/2000/svg}text"):  # Qt: a run a group
            text = "".join(node.itertext()).strip("\u200e\u2068\u2069")
            if text:
                runs.setdefault((group.attrib.get("transform", ""), node.attrib["y"]), []).append(
                    (float(node.attrib["x"]), text))
    # Qt splits a label into runs (<0, xD8>, مر): each name ends with its > and each مر is
    # drawn right after one (at the same height, the next run to the right).
    pieces = [[text for _, text in sorted(line)] for line in runs.values()]
    named = [text for line in pieces for text in line if "D8" in text]
    assert named and all(text.endswith("D8>") and "D8<" not in text and not text.startswith(">")
                         for text in named), named
    follows = [line[k - 1] for line in pieces for k, text in enumerate(line)
               if text.startswith("مر") and k > 0]
    assert len(follows) == 7 and all(text.endswith("D8>")
                                     for text in follows), follows


def test_a_byte_name_after_arabic_letters_keeps_its_marks_in_powerpoint(
        tmp_path: Path) -> None:
    """PowerPoint's text holds the byte name between left-to-right marks inside the isolate,
    so a renderer reads ``<0xD8>`` left to right after the Arabic letters."""
    deck_path = export(byte_trace(), "pptx", tmp_path / "rtl.pptx", steps=(0,))[0]
    said = {shape.text_frame.text for shape in Presentation(str(deck_path)).slides[0].shapes
            if shape.has_text_frame}
    marked = "\u200e\u2068مر\u200e<0xD8>\u200e\u2069\u200e"
    assert f"0 · {marked}" in said and f"{marked} ← 0" in said
    assert "\u200e\u2068\u200e<0xAD>\u200eبا\u2069\u200e ← 1" in said
    if shutil.which("soffice") is None or shutil.which("pdftotext") is None:
        return
    subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir",
                    str(deck_path.parent), str(deck_path)], check=True, capture_output=True,
                   timeout=120)
    words = subprocess.run(["pdftotext", "-bbox", str(deck_path.with_suffix(".pdf")), "-"],
                           check=True, capture_output=True, text=True).stdout
    named = [word.replace("&lt;", "<").replace("&gt;", ">") for word in re.findall(
        r"<word [^>]*>([^<]*0x[^<]*)</word>", words)]
    assert named and all(word.strip("\u200e\u2068\u2069") in ("<0xD8>", "<0xAD>")
                         for word in named), named
