"""PowerPoint: a 16:9 deck, one slide per step, title, picture and speaker notes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
from PySide6.QtWidgets import QApplication

from app.export.words import caption_for, notes_for, title_for
from app.texts import step_text
from engine import Trace
from tests.export.conftest import cjk_share, export


@pytest.fixture(scope="module")
def decks(qapp: QApplication, f11: Trace,
          tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pptx")
    return {lang: export(f11, "pptx", folder / f"f11-{lang}.pptx", lang=lang, scale=1.0)[0]
            for lang in ("en", "zh")}


def test_one_16_9_slide_per_step(decks: dict[str, Path]) -> None:
    deck = Presentation(str(decks["en"]))
    assert (deck.slide_width, deck.slide_height) == (12_192_000, 6_858_000)
    assert len(deck.slides) == 5


def test_each_slide_has_its_title_and_a_fitted_centred_picture(decks: dict[str, Path],
                                                               f11: Trace) -> None:
    deck = Presentation(str(decks["en"]))
    for k, slide in enumerate(deck.slides):
        assert slide.shapes.title is not None
        assert slide.shapes.title.text == title_for(f11, k, "en")
        pictures = [s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.PICTURE]
        assert len(pictures) == 1
        picture = pictures[0]
        with Image.open(io.BytesIO(picture.image.blob)) as image:
            aspect = image.width / image.height
        assert picture.width / picture.height == pytest.approx(aspect, rel=0.002)
        assert picture.left >= 0 and picture.left + picture.width <= deck.slide_width
        assert picture.top >= slide.shapes.title.top + slide.shapes.title.height
        assert picture.top + picture.height <= deck.slide_height
        centre = picture.left + picture.width / 2
        assert centre == pytest.approx(deck.slide_width / 2, abs=2)
        margin = max(deck.slide_width - picture.width, 0)
        assert margin < deck.slide_width * 0.9, "the picture is not a thumbnail"


def test_notes_hold_the_step_explanation(decks: dict[str, Path], f11: Trace) -> None:
    deck = Presentation(str(decks["en"]))
    for k, slide in enumerate(deck.slides):
        notes = slide.notes_slide.notes_text_frame.text
        assert notes == notes_for(f11, k, "en")
        assert caption_for(f11, k, "en") in notes
        assert step_text(f11, k, "en").why in notes
        assert cjk_share(notes) < 0.05, "English notes"


def test_chinese_deck_has_chinese_titles_and_notes(decks: dict[str, Path], f11: Trace) -> None:
    deck = Presentation(str(decks["zh"]))
    for k, slide in enumerate(deck.slides):
        assert slide.shapes.title.text == title_for(f11, k, "zh")
        notes = slide.notes_slide.notes_text_frame.text
        assert cjk_share(notes) > 0.5, "Chinese notes"
        assert step_text(f11, k, "zh").summary in notes
