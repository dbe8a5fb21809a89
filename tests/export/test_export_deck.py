"""PowerPoint: one 16:9 slide per step, the frame filling it, the title said once, notes; by
default editable (tables, connectors, text boxes), one picture per slide on request.

Every deck is read back with python-pptx; the numbers expected in the tables are computed here
from the chapter's F11 inputs with numpy and formatted here.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pptx.oxml.ns import qn
from PySide6.QtWidgets import QApplication

from app.canvas import SLIDE as SLIDE_THEME
from app.export.words import caption_for, notes_for, title_for
from app.texts import step_text
from engine import Trace
from tests.export.conftest import cjk_share, export, load_trace

SLIDE = (12_192_000, 6_858_000)
"""13.333 × 7.5 in: PowerPoint's 16:9."""


@pytest.fixture(scope="module")
def decks(qapp: QApplication, f11: Trace, g01: Trace,
          tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("pptx")
    made = {lang: export(f11, "pptx", folder / f"f11-{lang}.pptx", lang=lang)[0]
            for lang in ("en", "zh")}
    made["pictures"] = export(f11, "pptx", folder / "f11-pictures.pptx", pptx_pictures=True)[0]
    made["g01"] = export(g01, "pptx", folder / "g01.pptx")[0]
    made["multihead"] = export(load_trace("multihead"), "pptx", folder / "multihead.pptx",
                               steps=(3,))[0]
    return made


def shapes(slide: Any) -> Iterator[Any]:
    """Every shape of a slide but its title."""
    return (shape for shape in slide.shapes if shape != slide.shapes.title)


def texts(slide: Any) -> list[str]:
    """Every text on a slide: text boxes, shapes and table cells (the title included)."""
    found = []
    for shape in slide.shapes:
        if shape.has_text_frame:
            found.append(shape.text_frame.text)
        if shape.has_table:
            found += [cell.text for row in shape.table.rows for cell in row.cells]
    return found


def tables(slide: Any) -> list[list[list[str]]]:
    """Each table's cell texts without its row of column labels."""
    return [[[cell.text for cell in row.cells] for row in list(shape.table.rows)[1:]]
            for shape in slide.shapes if shape.has_table]


def shown(values: np.ndarray, places: int = 3) -> list[list[str]]:
    """Numbers as the frame prints them: rounded, trailing zeros cut, a true minus sign."""
    def one(value: float) -> str:
        text = f"{value:.{places}f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text.replace("-", "\u2212")
    return [[one(float(v)) for v in row] for row in values]


def f11_by_hand() -> dict[str, np.ndarray]:
    """The chapter's F11, computed here: Q, K, V, scaled scores and causal softmax shares."""
    x = np.array([[1.0, 1.0], [1.0, -1.0]])
    q = x @ np.array([[1.0, 1.0], [-1.0, 1.0]])
    k = x @ np.array([[0.5, 0.5], [0.5, -0.5]])
    v = x @ np.array([[5.0, 10.0], [5.0, -10.0]])
    scores = q @ k.T / np.sqrt(2.0)
    masked = np.where(np.tril(np.ones((2, 2))) > 0, scores, -np.inf)
    shares = np.exp(masked - masked.max(axis=1, keepdims=True))
    shares /= shares.sum(axis=1, keepdims=True)
    return {"Q": q, "K": k, "V": v, "scores": scores, "shares": shares, "mixed": shares @ v}


def connectors(slide: Any) -> list[Any]:
    return [shape for shape in slide.shapes if shape.shape_type == MSO_SHAPE_TYPE.LINE
            or shape._element.tag == qn("p:cxnSp")]


def fill_of(shape: Any) -> str:
    """A shape's solid fill, ``rrggbb`` upper case, read from its XML."""
    colour = shape._element.spPr.find(qn("a:solidFill")).find(qn("a:srgbClr"))
    return str(colour.get("val")).upper()


def cell_lines(cell: Any) -> list[tuple[str, str]]:
    """A table cell's four borders as (width, colour or "none"); ("", "style") for a border
    the cell leaves to the table style (PowerPoint's is black)."""
    properties = cell._tc.tcPr
    found = []
    for side in ("a:lnL", "a:lnR", "a:lnT", "a:lnB"):
        line = None if properties is None else properties.find(qn(side))
        if line is None:
            found.append(("", "style"))
            continue
        colour = line.find(qn("a:solidFill"))
        found.append((line.get("w"), "none" if colour is None else
                      colour.find(qn("a:srgbClr")).get("val").upper()))
    return found


def test_table_lines_are_the_frames_grey_and_labels_have_none(decks: dict[str, Path]) -> None:
    grey = ("9AA0A6", "#9aa0a6")  # the slide theme's grid line, as the canvas paints it
    assert SLIDE_THEME.color("grid_line").name() == grey[1]
    for name in ("en", "g01"):
        for slide in Presentation(str(decks[name])).slides:
            for shape in slide.shapes:
                if not shape.has_table:
                    continue
                rows = list(shape.table.rows)
                for cell in rows[0].cells:  # the column labels
                    assert {colour for _w, colour in cell_lines(cell)} == {"none"}
                for row in rows[1:]:
                    for cell in row.cells:
                        lines = cell_lines(cell)
                        assert {colour for _w, colour in lines} == {grey[0]}
                        assert all(int(width) > 0 for width, _c in lines)


def test_each_heads_grid_has_its_colour_square_before_its_title(
        decks: dict[str, Path]) -> None:
    slide = Presentation(str(decks["multihead"])).slides[0]
    squares = [shape for shape in shapes(slide) if shape.shape_type == MSO_SHAPE_TYPE.AUTO_SHAPE
               and not shape.text_frame.text and shape.width == shape.height]
    for head, colour in ((1, "E69F00"), (2, "56B4E9")):  # Okabe–Ito orange, sky blue
        titles = [shape for shape in shapes(slide) if shape.has_text_frame
                  and shape.text_frame.text.startswith(f"shares · head {head}")]
        assert len(titles) == 1
        title = titles[0]
        before = [square for square in squares if square.left < title.left
                  and title.left - square.left < 2 * square.width
                  and title.top <= square.top + square.height // 2 <= title.top + title.height]
        assert [fill_of(square) for square in before] == [colour]


def test_relu_zeroed_cells_carry_their_corner_mark(decks: dict[str, Path], g01: Trace) -> None:
    step = g01.step_index("ffn")
    zeroed = {tuple(cell) for cell in np.argwhere(g01.arrays["ffn_hidden"] == 0.0).tolist()}
    assert zeroed, "G01's ReLU zeroes some units"
    slide = Presentation(str(decks["g01"])).slides[step]
    marks = [shape for shape in shapes(slide) if shape.shape_type == MSO_SHAPE_TYPE.FREEFORM]
    hidden = [shape for shape in slide.shapes if shape.has_table and shape.name.startswith(
        "hidden")]
    assert len(hidden) == 2, "hidden = relu(z), then hidden · W2"
    for table in hidden:
        table_rows = list(table.table.rows)
        tops = np.cumsum([table.top] + [row.height for row in table_rows])[1:-1]
        lefts = np.cumsum([table.left] + [column.width for column in table.table.columns])[:-1]
        found = set()
        for mark in marks:
            rows = np.flatnonzero(np.abs(tops - mark.top) <= 2)
            cols = np.flatnonzero(np.abs(lefts - mark.left) <= 2)
            if len(rows) and len(cols):
                found.add((int(rows[0]), int(cols[0])))
                assert fill_of(mark) in ("000000", "FFFFFF"), "the ink of the cell's number"
        assert found == zeroed


def test_one_16_9_slide_per_step(decks: dict[str, Path]) -> None:
    for name, count in (("en", 5), ("pictures", 5), ("g01", 12)):
        deck = Presentation(str(decks[name]))
        assert (deck.slide_width, deck.slide_height) == SLIDE
        assert len(deck.slides) == count


def test_the_title_is_said_once(decks: dict[str, Path], f11: Trace) -> None:
    for name in ("en", "pictures"):
        for k, slide in enumerate(Presentation(str(decks[name])).slides):
            title = slide.shapes.title.text
            assert title.startswith(f"Step {k + 1} of 5") and title_for(f11, k, "en") in title
            others = [text for text in texts(slide) if text != title]
            assert not any(title_for(f11, k, "en") in text for text in others), others


def test_the_frame_fills_the_slide(decks: dict[str, Path]) -> None:
    """The frame is fitted to the slide edge to edge in one direction (picture slides show it
    whole, see below); inside, it keeps its own margins, so its shapes span at least 85 % of
    the slide's width or height."""
    for name in ("en", "pictures", "g01"):
        for slide in Presentation(str(decks[name])).slides:
            boxes = [(s.left, s.top, s.left + s.width, s.top + s.height) for s in slide.shapes]
            left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
            right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
            assert right <= SLIDE[0] + 1 and bottom <= SLIDE[1] + 1 and left >= 0 and top >= 0
            assert (right - left) >= 0.85 * SLIDE[0] or (bottom - top) >= 0.85 * SLIDE[1]


def test_tables_print_the_traces_numbers(decks: dict[str, Path]) -> None:
    expected = f11_by_hand()
    slides = list(Presentation(str(decks["en"])).slides)
    assert shown(expected["Q"]) in tables(slides[1])
    assert shown(expected["K"]) in tables(slides[1])
    assert shown(expected["V"]) in tables(slides[1])
    assert shown(expected["scores"]) in tables(slides[2])
    assert shown(expected["shares"]) in tables(slides[3])
    assert shown(expected["mixed"]) in tables(slides[4])
    assert shown(expected["shares"]) == [["1", "0"], ["0.804", "0.196"]]


def test_cells_carry_the_canvas_colours_and_masked_cells_are_grey(
        decks: dict[str, Path]) -> None:
    slide = list(Presentation(str(decks["en"])).slides)[3]
    [shares] = [s for s in slide.shapes if s.has_table and s.name == "shares"]
    fills = {(r, c): shares.table.cell(r + 1, c).fill.fore_color.rgb
             for r in range(2) for c in range(2)}
    masked = fills[(0, 1)]
    assert masked[0] == masked[1] == masked[2], "the masked cell is grey"
    assert len({fills[(0, 0)], fills[(1, 0)], fills[(1, 1)]}) == 3, "cividis, one per value"
    yellow = fills[(0, 0)]
    assert yellow[0] > 200 and yellow[1] > 200 and yellow[2] < 120, "share 1 is cividis' top"


def test_masked_cells_are_hatched_as_the_canvas_hatches_them(decks: dict[str, Path]) -> None:
    """F11's scores note says "hatched cells are hidden by the mask in the next step": the cell
    爱 may not read (row 我, column 爱) is hatched with upward diagonals (the canvas's "////")
    in the masked grey #B0B0B0 over that grey at 35 % on white, on both steps that mask it;
    the other cells are plain colour. It was plain grey, so the note named nothing."""
    from pptx.enum.dml import MSO_FILL, MSO_PATTERN

    light = round(0.35 * 0xB0 + 0.65 * 0xFF)
    for step, name in ((2, "scores"), (3, "shares")):
        slide = list(Presentation(str(decks["en"])).slides)[step]
        [table] = [s.table for s in slide.shapes if s.has_table and s.name == name]
        for r, c in ((1, 0), (1, 1), (2, 0), (2, 1)):
            fill = table.cell(r, c).fill
            if (r, c) == (1, 1):
                assert fill.type == MSO_FILL.PATTERNED
                assert fill.pattern == MSO_PATTERN.LIGHT_UPWARD_DIAGONAL
                assert str(fill.fore_color.rgb) == "B0B0B0"
                assert str(fill.back_color.rgb) == f"{light:02X}" * 3
            else:
                assert fill.type == MSO_FILL.SOLID


def test_arrows_are_connectors_with_arrowheads_and_shares(decks: dict[str, Path]) -> None:
    """F11 step 4: the receiver 爱 reads both keys (two arrows), 我 reads itself (one)."""
    slide = list(Presentation(str(decks["en"])).slides)[3]
    lines = connectors(slide)
    assert len(lines) == 3
    for line in lines:
        tail = line.line._get_or_add_ln().find(qn("a:tailEnd"))
        assert tail is not None and tail.get("type") == "triangle"
    words = texts(slide)
    assert "0.804" in words and "0.196" in words


def test_share_labels_are_as_large_as_the_shares_in_their_table(decks: dict[str, Path]) -> None:
    """The canvas prints an arrow's share at the size of the grids' numbers (they are numbers
    too): on the slide each label is as large as the same share in the shares table (the
    labels were set at 13/17 of it)."""
    slide = list(Presentation(str(decks["en"])).slides)[3]
    in_table = {cell.text: cell.text_frame.paragraphs[0].runs[0].font.size
                for shape in slide.shapes if shape.has_table and shape.name == "shares"
                for row in list(shape.table.rows)[1:] for cell in row.cells}
    labels = {shape.text_frame.text: shape.text_frame.paragraphs[0].runs[0].font.size
              for shape in shapes(slide) if shape.shape_type == MSO_SHAPE_TYPE.AUTO_SHAPE
              and shape.has_text_frame and shape.text_frame.text in ("0.804", "0.196")}
    assert set(labels) == {"0.804", "0.196"}
    for share, size in labels.items():
        assert size is not None and size == in_table[share]


def test_the_arrows_words_are_pictured_over_the_whole_arrows(qapp: QApplication,
                                                             tmp_path: Path) -> None:
    """Pronoun, receiver "it", shares: the arrows' words (boxes, legend, "× masked" beside the
    keys "it" may not read) are one picture under native connectors and share labels. It
    covers all the arrows draw, labels included; it was drawn from a copy without heads,
    narrower by the labels' column, which cut "× masked" and "Key (encoder)" and set the legend
    on three lines where the frame has two."""
    from app.canvas import FrameOptions

    trace = load_trace("pronoun")
    receiver = list(trace.scenario.tokens).index("it")
    [path] = export(trace, "pptx", tmp_path / "pronoun.pptx",
                    steps=(trace.step_index("weights"),),
                    options=FrameOptions(receiver=receiver))
    [slide] = Presentation(str(path)).slides
    [words] = [shape for shape in shapes(slide) if shape.shape_type == MSO_SHAPE_TYPE.PICTURE
               and shape._element.nvPicPr.cNvPr.get("descr") == "AttentionArrows"]
    shares = np.asarray(trace.arrays["weights"])[0, receiver]
    labels = [shape for shape in shapes(slide) if shape.shape_type == MSO_SHAPE_TYPE.AUTO_SHAPE
              and shape.has_text_frame and shape.text_frame.text[:1].isdigit()]
    assert sorted(label.text_frame.text for label in labels) == sorted(
        shown(np.array([shares[shares > 0]]))[0])
    for label in labels:
        assert words.left < label.left
        assert label.left + label.width <= words.left + words.width
        assert words.top < label.top < words.top + words.height


def faces(shape: Any) -> list[tuple[str, str, str]]:
    """Each run of a text box as (text, Latin typeface, East Asian typeface)."""
    return [(run.text, run._r.rPr.find(qn("a:latin")).get("typeface"),
             run._r.rPr.find(qn("a:ea")).get("typeface"))
            for paragraph in shape.text_frame.paragraphs for run in paragraph.runs]


def test_latin_texts_set_their_quotes_and_middle_dots_in_a_narrow_face(
        qapp: QApplication, f11: Trace, tmp_path: Path) -> None:
    """The CJK face draws “ ” and · full-width; the canvas asks it for narrow ones in English
    lines, a deck cannot. So in English lines they are runs in a face whose marks are narrow
    (measured here: under 0.6 em, the CJK face's 1 em), in Chinese lines they stay full-width
    in the CJK face. In LibreOffice the wide marks pushed worked rows out of their boxes."""
    from PySide6.QtGui import QFont, QFontMetricsF

    def em_width(family: str, mark: str) -> float:
        face = QFont(family)
        face.setPixelSize(100)
        return QFontMetricsF(face).horizontalAdvance(mark) / 100

    from app.canvas import FrameOptions

    english, chinese = (
        Presentation(str(export(f11, "pptx", tmp_path / f"{lang}.pptx", lang=lang,
                                steps=(f11.step_index("weights"),),
                                options=FrameOptions(worked_row=True))[0])).slides[0]
        for lang in ("en", "zh"))
    title = faces(english.shapes.title)
    assert [text for text, _l, _e in title] == [
        "Step 4 of 5 ", "·", " Causal mask and softmax shares"]
    [worked] = [faces(shape) for shape in shapes(english) if shape.has_text_frame
                and shape.text_frame.text == "Worked row for “爱”: the shares"]
    assert [text for text, _l, _e in worked] == ["Worked row for ", "“", "爱", "”",
                                                 ": the shares"]
    for text, latin, east_asian in title + worked:
        assert latin == east_asian
        if text in "“”·":
            assert "CJK" not in latin and em_width(latin, text) < 0.6
        else:
            assert "CJK" in latin and em_width(latin, "“") > 0.95
    [heading] = [faces(chinese.shapes.title)]
    [zh_worked] = [faces(shape) for shape in shapes(chinese) if shape.has_text_frame
                   and shape.text_frame.text.startswith("逐项计算“爱”")]
    for text, latin, east_asian in heading + zh_worked:
        assert "CJK" in latin and latin == east_asian, f"{text!r} keeps the CJK face"


def test_the_frames_words_are_text_boxes(decks: dict[str, Path], f11: Trace) -> None:
    slide = list(Presentation(str(decks["en"])).slides)[3]
    words = texts(slide)
    assert f11.scenario.title in words
    assert any(word.startswith("reads:") for word in words)
    assert any("softmax" in word for word in words)


def test_what_has_no_native_form_is_a_picture_of_that_item(decks: dict[str, Path],
                                                           g01: Trace) -> None:
    """G01's last step draws probability bars: a picture beside native tables."""
    slide = list(Presentation(str(decks["g01"])).slides)[g01.step_index("probs")]
    pictures = [s for s in shapes(slide) if s.shape_type == MSO_SHAPE_TYPE.PICTURE]
    assert pictures and any(s.has_table for s in slide.shapes)
    for picture in pictures:
        assert picture.width < SLIDE[0] / 2, "a picture of one item, not of the slide"


def test_picture_slides_are_one_picture_filling_the_slide(decks: dict[str, Path]) -> None:
    for slide in Presentation(str(decks["pictures"])).slides:
        [picture] = list(shapes(slide))
        assert picture.shape_type == MSO_SHAPE_TYPE.PICTURE
        assert (picture.left, picture.top, picture.width, picture.height) == (0, 0, *SLIDE)
        with Image.open(io.BytesIO(picture.image.blob)) as image:
            assert image.size == (1920, 1080)


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
        assert title_for(f11, k, "zh") in slide.shapes.title.text
        notes = slide.notes_slide.notes_text_frame.text
        assert cjk_share(notes) > 0.5, "Chinese notes"
        assert step_text(f11, k, "zh").summary in notes


def test_eight_positions_draw_one_connector_per_visible_pair(qapp: QApplication,
                                                             tmp_path: Path) -> None:
    """Causal, eight positions, every share positive: 1 + 2 + … + 8 = 36 arrows."""
    from tests.export.test_export_sizes import eight_tokens

    trace = eight_tokens()
    step = trace.step_index("weights")
    [path] = export(trace, "pptx", tmp_path / "eight.pptx", steps=(step,))
    [slide] = Presentation(str(path)).slides
    assert len(connectors(slide)) == 36
    labels = [t for t in texts(slide) if t and t[0].isdigit()]
    shares = np.asarray(trace.arrays["weights"])[0, -1]
    for share in shares:
        assert shown(np.array([[share]]))[0][0] in labels


def test_a_label_with_a_line_break_names_it_at_the_canvas_size(qapp: QApplication,
                                                               tmp_path: Path) -> None:
    """A token label may hold a line break (a real tokenizer's newline): the slide names it
    (↵), as the canvas does, in one paragraph set at the size the canvas draws (a second
    paragraph used to keep PowerPoint's 18 pt default, many times the first's)."""
    import json

    from app.model.examples import example_path
    from engine import compute, parse_scenario

    doc = json.loads(example_path("f11").read_text(encoding="utf-8"))
    doc["tokens"] = ["line\nbreak", "爱"]
    trace = compute(parse_scenario(doc))
    [path] = export(trace, "pptx", tmp_path / "breaks.pptx",
                    steps=(trace.step_index("weights"),))
    [slide] = Presentation(str(path)).slides
    frames = [shape.text_frame for shape in slide.shapes if shape.has_text_frame]
    frames += [cell.text_frame for shape in slide.shapes if shape.has_table
               for row in shape.table.rows for cell in row.cells]
    assert not [frame for frame in frames if "line\nbreak" in frame.text]
    named = [frame for frame in frames if "line↵break" in frame.text]
    assert named, "the label is written as text"
    for frame in named:
        sizes = {run.font.size for paragraph in frame.paragraphs for run in paragraph.runs}
        ends = {paragraph.font.size for paragraph in frame.paragraphs}
        assert len(frame.paragraphs) == 1 and len(sizes) == 1 and None not in sizes
        assert ends == sizes


def test_no_shape_takes_the_themes_drop_shadow(decks: dict[str, Path]) -> None:
    """A shape whose style refers to one of the theme's effects (python-pptx's connectors and
    auto shapes refer to its drop shadows) carries an empty effect list of its own: the PNGs
    have no shadows, and neither may the deck."""
    checked = 0
    for deck in decks.values():
        for slide in Presentation(str(deck)).slides:
            for shape in slide.shapes:
                element = shape._element
                ref = element.find(f"{qn('p:style')}/{qn('a:effectRef')}")
                if ref is None or ref.get("idx") == "0":
                    continue
                properties = element.find(qn("p:spPr"))
                assert properties is not None and properties.find(qn("a:effectLst")) is not None \
                    and len(properties.find(qn("a:effectLst"))) == 0, shape.name
                checked += 1
    assert checked
