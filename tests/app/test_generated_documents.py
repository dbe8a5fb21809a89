"""Every document the engine accepts opens in the window, draws, tells and exports.

Version-2 documents are generated over every construct of the format
(:mod:`tests.app.generated_documents`) and each is checked by
:func:`tests.app.generated_checks.check_document`: the :data:`EXAMPLES`, which together meet
every construct, three to a module (test_generated_examples_*), and documents drawn at random
(test_generated_random_*), so that two test workers, each taking whole modules, share them.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.export.job import run_export
from app.export.settings import FORMATS, ExportRequest
from engine import Trace, compute, parse_scenario
from tests.app.generated_documents import CONSTRUCTS, EXAMPLES, build, constructs


def test_the_examples_meet_every_construct() -> None:
    met = set().union(*(constructs(spec) for spec in EXAMPLES))
    assert met == CONSTRUCTS


def export_three_steps(trace: Trace, steps: tuple[int, int, int], fmt: str,
                       folder: Path) -> str:
    """Three steps exported in ``fmt`` (480 wide, Chinese): each file over 1 kB; a deck's
    slides' text (empty for another format)."""
    per_step = FORMATS[fmt].per_step
    destination = folder if per_step else folder / f"three.{fmt}"
    written = run_export(trace, ExportRequest(format=fmt, steps=steps, destination=destination,
                                              name="three", width=480, lang="zh", dwell=0.5))
    assert len(written) == (3 if per_step else 1)
    assert all(path.stat().st_size > 1000 for path in written)
    if fmt != "pptx":
        return ""
    with zipfile.ZipFile(written[0]) as pptx:
        slides = sorted(n for n in pptx.namelist()
                        if n.startswith("ppt/slides/slide") and n.endswith(".xml"))
        assert len(slides) == 3
        return "".join(pptx.read(n).decode() for n in slides)


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_the_embedding_steps_export_in_every_format(fmt: str, qtbot: QtBot,
                                                     tmp_path: Path) -> None:
    """BERT's embedding steps (scaled rows, + positions + types, the norm → X) in every export
    format, titled in Chinese."""
    trace = compute(parse_scenario(build(EXAMPLES[6])))
    assert [step.id for step in trace.steps[:3]] == ["embed", "positions", "embedding_norm"]
    text = export_three_steps(trace, (0, 1, 2), fmt, tmp_path)
    if fmt == "pptx":
        assert "嵌入相加" in text and "嵌入规范化" in text


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_the_masked_lm_steps_export_in_every_format(fmt: str, qtbot: QtBot,
                                                     tmp_path: Path) -> None:
    """BERT's masked-LM head (the transform, the logits, the probabilities that fill [MASK])
    in every export format, titled and filled in Chinese."""
    trace = compute(parse_scenario(build(EXAMPLES[9])))
    assert [step.id for step in trace.steps[-3:]] == ["transform", "logits", "probs"]
    last = len(trace.steps) - 1
    text = export_three_steps(trace, (last - 2, last - 1, last), fmt, tmp_path)
    if fmt == "pptx":
        assert "掩码语言模型的变换" in text and "填空" in text
