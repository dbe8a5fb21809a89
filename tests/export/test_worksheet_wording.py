"""A variant's sheet words its prompt from its own numbers (issue 26): pronoun's variant 1 of
seed 7 has “it” give “because” its largest share, and its sheet says so (pdftotext)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from app.cli import main
from engine import compute, load_scenario
from engine.exercises.hand import hand_variant
from tests.examples import EXAMPLES


def test_a_variant_sheet_names_its_own_largest_share(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = load_scenario(EXAMPLES / "pronoun.qkv.json")
    variant = compute(hand_variant(document, 7, 1, {"": None}))
    favoured = document.tokens[int(np.argmax(variant.arrays["weights"][0, 7]))]
    assert favoured == "because"
    sheet = tmp_path / "s.pdf"
    status = main(["worksheet", "pronoun", "--exercise", "1", "--variants", "1", "--seed", "7",
                   "--out", str(sheet)])
    assert (status, capsys.readouterr().err) == (0, "")
    text = subprocess.run(["pdftotext", str(sheet), "-"], check=True, capture_output=True,
                          text=True).stdout
    assert "“it” gives “because” the largest share." in " ".join(text.split())
    assert "“animal” the largest" not in text
