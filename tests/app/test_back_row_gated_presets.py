"""F5 at 1024 × 768 and a 4:3 export 1024 wide,
every step of the presets with a gated FFN (Llama, Mistral, Qwen2)
(:mod:`tests.app.back_row`); a step split over pages prints every number of its one frame."""

from __future__ import annotations

from pathlib import Path

import pytest
from pptx import Presentation
from pypdf import PdfReader

from app.canvas.arrows import AttentionArrows
from app.canvas.frame import FrameItem
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem
from app.export.job import run_export
from app.export.render import Frame, build_frame, split_frames
from app.export.settings import ExportRequest
from tests.app.back_row import group_tests, options_for, trace_of
from tests.app.back_row import projector as projector  # the 1024 × 768 canvas fixture
from tests.app.legibility import is_number_text

pytestmark = pytest.mark.slow
test_presented_at_1024_by_768, test_exported_4_by_3_1024_wide = group_tests("gated_presets")


def printed(frame: Frame) -> set[tuple[str, str]]:
    """Every number ``frame`` prints: each grid cell's text by its grid's title, each share
    label and each line of arithmetic (the worked row)."""
    (item,) = [i for i in frame.scene.items() if isinstance(i, FrameItem)]
    found = {(grid.spec.title, grid.cell_text(r, c)) for grid in item.items_of(MatrixGrid)
             for r in range(grid.spec.values.shape[0]) for c in range(grid.spec.values.shape[1])}
    found |= {("share", label) for arrows in item.items_of(AttentionArrows)
              for label in arrows.share_labels}
    return found | {("text", text.text) for text in item.items_of(TextItem)
                    if is_number_text(text.text) and text is not item.heading}


@pytest.mark.parametrize(("step_id", "pages"), [("L1.ffn", 6), ("L1.projections", 3)])
@pytest.mark.usefixtures("qapp")
def test_a_split_step_prints_every_number_of_its_whole_frame(step_id: str, pages: int) -> None:
    """Run after the export checks above (their layouts are cached): Llama's gated FFN on six
    4:3 pages, its projections on three, print together what the step's one frame prints."""
    trace = trace_of("preset:llama")
    k = [step.id for step in trace.steps].index(step_id)
    options = options_for(trace, "4:3")
    parts = list(split_frames(lambda part: build_frame(trace, k, options, part=part)))
    assert [(frame.part, frame.parts) for frame in parts] == [(p, pages) for p in range(pages)]
    whole = build_frame(trace, k, options)
    assert (whole.part, whole.parts) == (None, 1)
    assert set().union(*map(printed, parts)) == printed(whole)
    assert all(printed(frame) < printed(whole) for frame in parts)


@pytest.mark.parametrize("fmt", ["png", "pdf", "pptx"])
@pytest.mark.usefixtures("qapp")
def test_every_format_takes_a_split_steps_pages(tmp_path: Path, fmt: str) -> None:
    """Mistral's projections, split over two 4:3 pages (cached above), and its next step whole:
    two PNG files named by part then one by step, three PDF pages, three slides; progress
    counts the two steps (a page that ends no step asks whether to go on, counting nothing)."""
    trace = trace_of("preset:mistral")
    k = [step.id for step in trace.steps].index("L1.projections")
    per_step = fmt == "png"
    request = ExportRequest(format=fmt, steps=(k, k + 1), aspect="4:3", width=256,
                            name="mistral",
                            destination=tmp_path if per_step else tmp_path / f"m.{fmt}")
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> bool:
        seen.append((done, total))
        return True

    written = run_export(trace, request, options_for(trace, "4:3"), progress=progress)
    assert set(seen) == {(0, 2), (1, 2), (2, 2)}  # a part ending no step: asked, not counted
    assert seen == sorted(seen)
    if fmt == "png":
        assert [path.name for path in written] == [
            f"mistral-step{k + 1:02d}-1.png", f"mistral-step{k + 1:02d}-2.png",
            f"mistral-step{k + 2:02d}.png"]
    elif fmt == "pdf":
        assert len(PdfReader(written[0]).pages) == 3
    else:
        assert len(Presentation(str(written[0])).slides) == 3
