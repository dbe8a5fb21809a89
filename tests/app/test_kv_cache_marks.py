"""The KV cache, seen: a document whose last token was generated outlines, on each attention
frame of the main stack, the rows the cache reuses, the rows that left the window, the rows
computed at earlier tokens and the new row, and its step texts say so in both languages.

Which rows are which is worked out here from the document's length, window and heads alone
(the last row is new; with a window w, row j left it when (n − 1) − j ≥ w), not read back
from the code that draws them.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from PySide6.QtCore import QRectF
from pytestqt.qtbot import QtBot

from app.canvas import FrameItem, FrameOptions
from app.canvas.frame import build_frame_scene
from app.canvas.grid import NUMBER_SIZE, MatrixGrid
from app.canvas.kv_cache_marks import PEN_WIDTH, TAG_GAP, CacheBand
from app.canvas.layout import TextItem
from app.texts import step_text
from engine import Trace, compute, parse_scenario
from engine.checkpoint import import_checkpoint
from engine.format.generation_keys import Settings
from engine.generation.run import generate
from tests.app.legibility import digit_ink
from tests.engine.generation_documents import cases
from tests.engine.hf_reference import FIXTURES

GENERATED = 2
"""Tokens each document's run appends."""
LANGS = ("en", "zh")


@cache
def generated(name: str) -> Trace:
    """The trace of a generation document after a greedy run of :data:`GENERATED` tokens."""
    run = generate(parse_scenario(cases()[name]), GENERATED, Settings(temperature=0.0))
    return compute(run.scenario)


def frame(trace: Trace, step_id: str, lang: str = "en") -> FrameItem:
    return FrameItem(trace, trace.step_index(step_id), FrameOptions(lang=lang))


def bands(item: FrameItem) -> dict[str, list[tuple[str, tuple[int, ...]]]]:
    """Grid title → its outlines (kind, rows), for every grid that has one."""
    found: dict[str, list[tuple[str, tuple[int, ...]]]] = {}
    for grid in item.items_of(MatrixGrid):
        marks = [(band.kind, band.rows) for band in grid.childItems()
                 if isinstance(band, CacheBand)]
        if marks:
            found.setdefault(grid.spec.title, []).extend(marks)
    return found


def texts(item: FrameItem) -> list[str]:
    return [t.text for t in item.items_of(TextItem)]


def _span(a: int, b: int) -> str:
    return f"p{a}–p{b}" if b > a else f"p{a}"


def test_each_projection_of_a_generated_stack_marks_cached_and_new_rows(qtbot: QtBot) -> None:
    trace = generated("three-layers")
    n = trace.scenario.n
    assert n == 3 + GENERATED  # the example's three tokens and the two generated
    earlier = tuple(range(n - 1))
    for layer in (1, 2, 3):
        marks = bands(frame(trace, f"L{layer}.projections"))
        assert marks == {
            "Q = norm1·Wq": [("earlier", earlier), ("new", (n - 1,))],
            "K = norm1·Wk": [("reused", earlier), ("new", (n - 1,))],
            "V = norm1·Wv": [("reused", earlier), ("new", (n - 1,))],
        }, layer


@pytest.mark.parametrize("lang", LANGS)
def test_the_projection_frame_says_which_rows_come_from_the_cache(qtbot: QtBot,
                                                                  lang: str) -> None:
    trace = generated("three-layers")
    n = trace.scenario.n
    words = texts(frame(trace, "L2.projections", lang))
    rows, new = _span(0, n - 2), f"p{n - 1}"
    expected = {
        "en": [f"KV cache · generated token {GENERATED}",
               f"K, V rows {rows}: reused from the cache  (- - - dashed)",
               f"Q rows {rows}: computed at earlier tokens, not kept  (··· dotted)",
               f"row {new}: new, computed now  (━ solid) · 1 row instead of {n}"],
        "zh": [f"KV 缓存 · 第 {GENERATED} 个生成的 Token",
               f"K、V 第 {rows} 行：从缓存复用（- - - 虚线框）",
               f"Q 第 {rows} 行：在之前的 Token 时已算过，不必保留（··· 点线框）",
               f"第 {new} 行：新的一行，现在计算（━ 实线框）· 只算 1 行，而不是 {n} 行"],
    }[lang]
    at = words.index(expected[0])
    assert words[at:at + len(expected)] == expected
    tags = {"en": ["← earlier", "← new", "← cache", "← new", "← cache", "← new"],
            "zh": ["← 之前已算", "← 新", "← 缓存", "← 新", "← 缓存", "← 新"]}[lang]
    assert [w for w in words if w.startswith("←")] == tags


@pytest.mark.parametrize("step_id", ["L1.scores", "L3.weights", "L2.mix"])
def test_scores_shares_and_mix_mark_only_their_query_rows(qtbot: QtBot, step_id: str) -> None:
    trace = generated("three-layers")
    n = trace.scenario.n
    item = frame(trace, step_id)
    marks = bands(item)
    step = trace.steps[trace.step_index(step_id)]
    marked = {grid.spec.title for grid in item.items_of(MatrixGrid)
              if any(isinstance(c, CacheBand) for c in grid.childItems())}
    assert marks and all(kinds == [("earlier", tuple(range(n - 1))), ("new", (n - 1,))]
                         for kinds in marks.values())
    # Q, K, V and the scores read by a later step are not what this step computes.
    assert not any(title.startswith(("Q", "K", "V")) for title in marked)
    written = {"scores": "scores", "weights": "shares", "mix": "mixed"}[step.op]
    assert any(title.startswith(written) for title in marked)
    assert f"row p{n - 1}: the new query, computed now against {n} keys  (━ solid)" in \
        texts(item)


@pytest.mark.parametrize(("name", "step_id"), [("three-layers", "L1.projections"),
                                               ("encoder-decoder", "L1.cross.projections"),
                                               ("window", "L1.scores")])
def test_a_tag_never_covers_a_grid(qtbot: QtBot, name: str, step_id: str) -> None:
    item = frame(generated(name), step_id)
    tags = [t for t in item.items_of(TextItem) if t.text.startswith("←")]
    assert tags
    for tag in tags:
        for grid in item.items_of(MatrixGrid):
            parts = [grid.boundingRect()] if tag.parentItem() is not grid else \
                [_cells(grid), grid.title_rect(), grid.note_rect()]
            assert not any(tag.sceneBoundingRect().intersects(grid.mapRectToScene(part))
                           for part in parts), tag.text


def _cells(grid: MatrixGrid) -> QRectF:
    rows, cols = grid.spec.values.shape
    return grid.cell_rect(0, 0).united(grid.cell_rect(rows - 1, cols - 1))


@pytest.mark.parametrize("step_id", ["L1.scores", "L2.mix"])
def test_a_tag_sits_beside_the_cells_not_beyond_a_wider_note(qtbot: QtBot,
                                                             step_id: str) -> None:
    """The scores grid's note (÷ √dₖ) and the mix grid's title run wider than their cells: the
    tags sat right of them, far from the rows they name."""
    item = frame(generated("three-layers"), step_id)
    tags = [t for t in item.items_of(TextItem) if t.text.startswith("←")]
    assert tags
    wider = False
    for tag in tags:
        grid = tag.parentItem()
        assert isinstance(grid, MatrixGrid)
        right = _cells(grid).right()
        assert tag.pos().x() == pytest.approx(right + TAG_GAP), tag.text
        band = next(b for b in grid.childItems() if isinstance(b, CacheBand)
                    and b.rect().top() <= tag.mapRectToParent(tag.boundingRect()).center().y()
                    <= b.rect().bottom())
        assert band.kind in ("earlier", "new")
        wider = wider or grid.boundingRect().right() > right + TAG_GAP
    assert wider, "a grid wider than its cells, so the test tells the two places apart"


def test_no_marks_without_a_generation_run(qtbot: QtBot) -> None:
    trace = generated("three-layers")
    plain = compute(replace(trace.scenario, generation=None))
    for step_id in ("L1.projections", "L1.scores", "L1.weights", "L1.mix"):
        item = frame(plain, step_id)
        assert bands(item) == {}
        assert not any("KV cache" in t or "←" in t for t in texts(item))
        index = plain.step_index(step_id)
        assert "cache" not in step_text(plain, index, "en").summary
        assert "缓存" not in step_text(plain, index, "zh").summary


def test_grouped_heads_the_cache_holds_g_heads(qtbot: QtBot) -> None:
    trace = generated("kv_heads")
    att = trace.scenario.layers[0].attention
    assert (att.heads, att.groups) == (2, 1)
    index = trace.step_index("L1.projections")
    assert ("the cache holds g = 1 K/V head per position (h = 2 query heads share it)"
            in texts(frame(trace, "L1.projections")))
    assert ("缓存每个位置只存 g = 1 个 K/V 头（h = 2 个 Query 头共用）"
            in texts(frame(trace, "L1.projections", "zh")))
    assert step_text(trace, index, "en").summary.endswith(
        "The cache holds g = 1 K/V head per position, shared by the 2 query heads.")
    assert step_text(trace, index, "zh").summary.endswith(
        "缓存每个位置只存 g = 1 个 K/V 头，由 2 个 Query 头共用。")
    # K is drawn with the one K/V head's columns: its rows are still the positions'.
    n = trace.scenario.n
    assert bands(frame(trace, "L1.projections"))["K = norm1·Wk"] == [
        ("reused", tuple(range(n - 1))), ("new", (n - 1,))]


@pytest.mark.parametrize("lang", LANGS)
def test_rows_that_left_the_window_are_marked_dropped(qtbot: QtBot, lang: str) -> None:
    trace = generated("window")
    n, w = trace.scenario.n, trace.scenario.layers[0].attention.window
    assert (n, w) == (6, 2)
    new = n - 1
    dropped = tuple(j for j in range(new) if new - j >= w)  # 0 … 3
    reused = tuple(j for j in range(new) if new - j < w)  # 4
    item = frame(trace, "L2.projections", lang)
    assert bands(item)["K = norm1·Wk"] == [("dropped", dropped), ("reused", reused),
                                          ("new", (new,))]
    line = {"en": f"K, V rows {_span(dropped[0], dropped[-1])}: left the window of {w}, "
                  "dropped from the cache's view  (-·- dash-dot)",
            "zh": f"K、V 第 {_span(dropped[0], dropped[-1])} 行：已移出大小为 {w} 的窗口，"
                  "缓存中不再读取（-·- 点划线框）"}[lang]
    assert line in texts(item)
    one = {"en": f"K, V row p{reused[0]}: reused from the cache  (- - - dashed)",
           "zh": f"K、V 第 p{reused[0]} 行：从缓存复用（- - - 虚线框）"}[lang]
    assert one in texts(item)
    summary = step_text(trace, trace.step_index("L2.projections"), lang).summary
    assert {"en": f"({len(dropped)} of them left the window of {w} and are no longer read)",
            "zh": f"（其中 {len(dropped)} 个已移出大小为 {w} 的窗口，不再读取）"}[lang] in summary
    scores_summary = step_text(trace, trace.step_index("L2.scores"), lang).summary
    assert {"en": f"against the {w} keys it sees", "zh": f"与它能看到的 {w} 个 Key"}[lang] \
        in scores_summary


@pytest.mark.parametrize("lang", LANGS)
def test_encoder_decoder_memory_is_computed_once(qtbot: QtBot, lang: str) -> None:
    trace = generated("encoder-decoder")
    memory = len(trace.tokens_of("enc.tokens"))
    n = trace.scenario.n
    item = frame(trace, "L1.cross.projections", lang)
    marks = bands(item)
    kv = [kinds for title, kinds in marks.items() if title.startswith(("K", "V"))]
    assert kv == [[("reused", tuple(range(memory)))]] * 2
    q = [kinds for title, kinds in marks.items() if title.startswith("Q")]
    assert q == [[("earlier", tuple(range(n - 1))), ("new", (n - 1,))]]
    words = texts(item)
    once = {"en": "← computed once", "zh": "← 只算一次"}[lang]
    assert words.count(once) >= 1  # K's tag gives way where Wv's row is beside it
    assert {"en": f"K, V of the memory, rows {_span(0, memory - 1)}: computed once, when the "
                  "encoder ran  (- - - dashed)",
            "zh": f"编码器记忆的 K、V（第 {_span(0, memory - 1)} 行）：编码器运行时只算一次"
                  "（- - - 虚线框）"}[lang] in words
    summary = step_text(trace, trace.step_index("L1.cross.projections"), lang).summary
    assert {"en": f"the memory's K and V ({memory} encoder rows) were computed once",
            "zh": f"编码器记忆的 K 和 V（{memory} 行）在编码器运行时只算一次"}[lang] in summary
    # The encoder's own steps are not the cache's.
    assert bands(frame(trace, "enc.L1.projections", lang)) == {}


@pytest.mark.parametrize("lang", LANGS)
def test_the_step_text_quotes_the_documents_numbers(lang: str) -> None:
    trace = generated("three-layers")
    n = trace.scenario.n
    token = trace.scenario.tokens[-1]
    index = trace.step_index("L3.projections")
    expected = {
        "en": f"Generating token {GENERATED} of the run (“{token}”, position p{n - 1}): K and "
              f"V of the {n - 1} earlier positions come from the KV cache; only the new row is "
              f"computed (1 row instead of {n}).",
        "zh": f"生成第 {GENERATED} 个 Token（“{token}”，位置 p{n - 1}）：前 {n - 1} 个位置的 "
              f"K 和 V 来自 KV 缓存；只计算新的一行（1 行，而不是 {n} 行）。",
    }[lang]
    assert step_text(trace, index, lang).summary.endswith(expected)


def _marks_placed(trace: Trace, step_id: str) -> list[tuple[str, float]]:
    """Each line of the marks (its words and where it starts), in the Chinese frame."""
    item = frame(trace, step_id, "zh")
    return [(t.text, round(t.sceneBoundingRect().top(), 1)) for t in item.items_of(TextItem)
            if "缓存" in t.text or t.text.startswith(("←", "第 p", "Q 第"))]


@pytest.mark.parametrize("step_id", ["L1.projections", "L1.scores"])
def test_the_marks_are_measured_as_the_frame_fits_them(qtbot: QtBot, step_id: str) -> None:
    """The same document without its run, laid out first, does not lend the generated one its
    measure (which has no room for the marks)."""
    trace = generated("kv_heads")
    alone = compute(replace(trace.scenario, title=f"alone {step_id}"))
    after = compute(replace(trace.scenario, title=f"after {step_id}"))
    frame(compute(replace(after.scenario, generation=None)), step_id, "zh")
    assert _marks_placed(after, step_id) == _marks_placed(alone, step_id)


@pytest.mark.parametrize(("name", "step_id"), [("window", "L1.projections"),
                                               ("three-layers", "L1.scores"),
                                               ("encoder-decoder", "L1.cross.projections")])
def test_an_outline_runs_beside_the_digits_never_through_them(qtbot: QtBot, name: str,
                                                              step_id: str) -> None:
    """The outline's sides run outside the first and last columns, its top and bottom (with
    their halo) in the cells' padding above and below the digits' ink: the halo had erased the
    first and last character of every outlined row."""
    item = frame(generated(name), step_id)
    checked = 0
    for grid in item.items_of(MatrixGrid):
        for band in (b for b in grid.childItems() if isinstance(b, CacheBand)):
            cols = grid.spec.values.shape[1]
            first, last = grid.cell_rect(band.rows[0], 0), grid.cell_rect(band.rows[-1], cols - 1)
            stroke = (PEN_WIDTH + 2.0) / 2  # the halo's half width
            ink = digit_ink(NUMBER_SIZE)
            assert band.rect().left() + stroke <= first.left() + 1.0
            assert band.rect().right() - stroke >= last.right() - 1.0
            assert band.rect().top() + stroke < first.center().y() - ink / 2
            assert band.rect().bottom() - stroke > last.center().y() + ink / 2
            checked += 1
    assert checked


def test_a_step_shown_in_parts_marks_the_grids_of_its_part(qtbot: QtBot) -> None:
    """Gemma 2's scores step of a generated document is shown in four parts (each head's row
    cut in two): each part marks only the scores it shows, and none fails on the other
    parts' grids, let go with the rows not shown (every PNG export of it failed so)."""
    document = import_checkpoint(FIXTURES / "gemma2", "the cat sat")
    trace = compute(generate(document, GENERATED, Settings(temperature=0.0)).scenario)
    n = trace.scenario.n
    index = trace.step_index("L1.scores")
    marked = []
    for part in range(4):
        _scene, item = build_frame_scene(trace, index, FrameOptions(lang="en"), part=part)
        assert item.composition is not None and item.composition.parts == 4
        marked.append(bands(item))
    shown = [("earlier", tuple(range(n - 1))), ("new", (n - 1,))]
    assert marked == [{}, {"scores · head 1": shown}, {}, {"scores · head 2": shown}]
