"""``qkv-studio export … --lang zh|en``: speaker notes, titles and the frame's own words follow the
language, in PowerPoint, SVG, PNG and PDF."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pptx import Presentation
from PySide6.QtWidgets import QApplication

from app.canvas import FrameOptions
from app.canvas.theme import DARK
from app.cli import main
from app.export.render import build_frame, export_options
from app.export.words import notes_for, title_for
from app.texts import HEADINGS
from app.texts.words import say
from engine import Trace, compute, load_scenario
from tests.export.conftest import cjk_share

SVG_TEXT = "{http://www.w3.org/2000/svg}text"


@pytest.fixture(scope="module")
def f11() -> Trace:
    from app.model.examples import example_path

    return compute(load_scenario(example_path("f11")))


def export(tmp_path: Path, *arguments: str) -> list[Path]:
    status = main(["export", "f11", *arguments])
    assert status == 0
    return sorted(p for p in tmp_path.rglob("*") if p.is_file())


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_cli_deck_has_notes_and_titles_in_its_language(
        qapp: QApplication, tmp_path: Path, f11: Trace, lang: str) -> None:
    out = tmp_path / f"f11-{lang}.pptx"
    export(tmp_path, "--format", "pptx", "--lang", lang, "--out", str(out), "--scale", "0.5")
    deck = Presentation(str(out))
    assert len(deck.slides) == 5
    for k, slide in enumerate(deck.slides):
        notes = slide.notes_slide.notes_text_frame.text
        assert notes == notes_for(f11, k, lang)
        assert all(heading in notes for heading in HEADINGS[lang])
        assert title_for(f11, k, lang) in slide.shapes.title.text
        share = cjk_share(notes)
        assert share > 0.5 if lang == "zh" else share < 0.05


def svg_texts(path: Path) -> str:
    """Every ``<text>`` of an SVG, joined without white space (Qt writes one element per run of
    one font, so a line mixing Chinese and Latin letters comes in pieces)."""
    return "".join("".join((node.text or "").split())
                   for node in ET.parse(path).getroot().iter(SVG_TEXT))


def bare(text: str) -> str:
    return "".join(text.split())


def test_svg_frame_words_follow_the_language(qapp: QApplication, tmp_path: Path) -> None:
    export(tmp_path, "--format", "svg", "--steps", "4", "--lang", "zh", "--out",
           str(tmp_path / "zh"))
    export(tmp_path, "--format", "svg", "--steps", "4", "--lang", "en", "--out",
           str(tmp_path / "en"))
    zh = svg_texts(tmp_path / "zh" / "f11-step04.svg")
    en = svg_texts(tmp_path / "en" / "f11-step04.svg")
    assert bare("第 4 步（共 5 步）") in zh and "Step4of5" not in zh
    for key in ("reads", "shares", "rows_sum_note", "query", "key", "arrow_legend"):
        assert bare(say(f"frame.{key}", "zh")) in zh, key
        assert bare(say(f"frame.{key}", "en")) in en, key
    assert bare(say("frame.who_reads", "zh", token="爱")) in zh
    assert "Step4of5" in en and bare("Who “爱” reads, and how much") in en
    assert "第" not in en and "份额" not in en


def test_png_frames_differ_by_language_and_show_cjk_glyphs(
        qapp: QApplication, tmp_path: Path) -> None:
    paths = {}
    for lang in ("zh", "en"):
        export(tmp_path, "--format", "png", "--steps", "4", "--lang", lang, "--scale", "1",
               "--out", str(tmp_path / lang))
        paths[lang] = tmp_path / lang / "f11-step04.png"
    with Image.open(paths["zh"]) as zh, Image.open(paths["en"]) as en:
        zh_pixels, en_pixels = np.asarray(zh.convert("L")), np.asarray(en.convert("L"))
    heading_zh, heading_en = heading_band(zh_pixels), heading_band(en_pixels)
    assert not np.array_equal(heading_zh, heading_en)
    assert (heading_zh < 100).sum() > 400, "the Chinese heading is drawn in dark ink"


def heading_band(pixels: np.ndarray) -> np.ndarray:
    """The 40 rows from the first ink down: the frame's heading, wherever the frame is fitted
    in the picture."""
    top = int(np.argmax((pixels < 100).any(axis=1)))
    return pixels[top:top + 40]


def test_pdf_frame_words_follow_the_language(qapp: QApplication, tmp_path: Path) -> None:
    tool = shutil.which("pdftotext")
    if tool is None:
        pytest.skip("pdftotext is not installed (apt-get install -y poppler-utils)")
    out = tmp_path / "f11.pdf"
    export(tmp_path, "--format", "pdf", "--lang", "zh", "--out", str(out))
    text = subprocess.run([tool, str(out), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert re.search(r"第\s*4\s*步", text)
    assert "份额" in text
    assert "Step 4 of 5" not in text


def test_an_export_never_takes_the_window_theme_and_keeps_its_language(f11: Trace) -> None:
    options = FrameOptions(theme=DARK, lang="en", receiver=0)
    made = export_options(options, lang="zh")
    assert made.theme.name == "slide" and made.lang == "zh" and made.receiver == 0
    frame = build_frame(f11, 3, options, lang="zh")
    assert frame.title == title_for(f11, 3, "zh")
