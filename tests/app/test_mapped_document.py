"""A document whose weights stay in their checkpoint (issue 37, item 1) is drawn, told,
explained, exported and painted as the generated documents are, and every step's text reads
as the eagerly imported document's, in English and Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.help.html import step_plain
from app.texts import step_text
from engine import compute
from engine.checkpoint import import_checkpoint
from engine.format.mapped_weight import MappedWeight
from tests.app.generated_checks import (
    LANGS,
    draw_every_step,
    explain_every_array,
    export_one_step,
    paint_the_lens,
    paint_the_model_view,
    tell_every_step,
)
from tests.engine.hf_reference import FIXTURES


@pytest.mark.slow
@pytest.mark.parametrize("family", ["gemma3_text", "mixtral"])
def test_a_mapped_document_is_drawn_told_explained_and_exported(
        qapp: object, tmp_path: Path, family: str) -> None:
    pair = {"pair": "a dog"} if family == "bert" else {}
    mapped = import_checkpoint(FIXTURES / family, "the cat sat on the mat", **pair)
    assert isinstance(mapped.parameters["embedding"], MappedWeight)
    ours = compute(mapped)
    theirs = compute(import_checkpoint(FIXTURES / family, "the cat sat on the mat", mapped=False,
                                       **pair))
    draw_every_step(ours)
    tell_every_step(ours)
    explain_every_array(ours)
    export_one_step(ours, tmp_path, family)
    paint_the_model_view(ours, "en")
    paint_the_lens(ours, "zh")
    for k in range(len(ours.steps)):
        for lang in LANGS:
            assert step_plain(step_text(ours, k, lang), lang) == step_plain(
                step_text(theirs, k, lang), lang), (ours.steps[k].id, lang)
