"""A document that can generate and overflows is refused in one line by every command, naming
the cell where the numbers first left float64 (issue 34): the error locator records the forward
pass again only up to the failed step, so the draw of the next token never runs on NaN."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.cli import main
from app.model.presets import preset_document
from engine import compute, dumps_scenario, parse_scenario
from engine.checkpoint import import_checkpoint
from engine.generation.append import can_generate
from tests.engine.hf_reference import FIXTURES

HUGE = 1e308
OVERFLOW = ("a value overflowed or was divided by zero (overflow encountered in matmul); look "
            "for huge numbers, or ε = 0 with a constant row")


def imported_gpt2() -> dict[str, Any]:
    """The GPT-2 fixture checkpoint imported as a document (it can generate), saved
    self-contained: its numbers in the JSON, where the test makes Wq overflow."""
    document: dict[str, Any] = json.loads(dumps_scenario(
        import_checkpoint(FIXTURES / "gpt2", "hello world"), self_contained=True))
    return document


SOURCES = {"imported gpt2": imported_gpt2, "gpt2 preset": lambda: preset_document("gpt2")}


def overflowing(source: str) -> tuple[dict[str, Any], str]:
    """The document with the first column of its first layer's Wq made 1e308, and the place
    of its first non-finite number, found independently: the first query's first cell is
    1e308 times the sum of the first layer's normed first row, past float64's largest."""
    document = SOURCES[source]()
    assert can_generate(parse_scenario(document))
    normed = compute(parse_scenario(document)).arrays["L1.norm1"][0]
    for row in document["layers"][0]["attention"]["Wq"]:
        row[0] = HUGE
    with np.errstate(over="ignore"):
        assert not np.isfinite(normed @ np.full(len(normed), HUGE))
    return document, "L1.projections (Q[0,0])"


COMMANDS = {
    "compute": lambda file, _tmp: ["compute", file],
    "explain": lambda file, _tmp: ["explain", file, "L1.Q[0,0]"],
    "export": lambda file, tmp: ["export", file, "--format", "png", "--steps", "1",
                                 "--out", f"{tmp}/frames/"],
    "generate": lambda file, _tmp: ["generate", file, "--steps", "2"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("source", list(SOURCES))
def test_an_overflow_in_a_document_that_can_generate_is_one_line_and_exit_2(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, source: str, command: str) -> None:
    document, place = overflowing(source)
    file = tmp_path / "huge.qkv.json"
    file.write_text(json.dumps(document), encoding="utf-8")
    status = main(COMMANDS[command](str(file), tmp_path))
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err == f"qkv-studio: {place}: {OVERFLOW}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["huge.qkv.json"], "nothing written"
