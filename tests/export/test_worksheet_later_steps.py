"""A worksheet's frames blank a hidden cell wherever its array is drawn (issue 26): Q[1,0],
hidden at the projections, is blank in the scores frame too, read by poppler's pdftotext;
the scores computed from it are asked in their own right, the key holds both."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from app.cli import main
from tests.examples import EXAMPLES

X = np.array([[1.0, 1.0], [1.0, -1.0]])
WQ = np.array([[3.5, 1.0], [-3.75, 1.0]])
WK = np.array([[0.5, 0.5], [0.5, -0.5]])


def pdf_pages(path: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    return text.split("\f")


def lesson(tmp_path: Path) -> Path:
    """F11 with Wq giving Q[1,0] = 3.5 + 3.75 = 7.25 (a number found nowhere else); the
    exercise hides it and 爱's row of scores."""
    doc: dict[str, Any] = json.loads((EXAMPLES / "f11.qkv.json").read_text("utf-8"))
    doc["attention"]["Wq"] = WQ.tolist()
    doc["exercises"] = [{"title": {"en": "Q, then the scores", "zh": "先 Q，再分数"},
                         "prompt": {"en": "Predict them.", "zh": "预测它们。"},
                         "kind": "fill", "step": "scores",
                         "hide": [{"array": "Q", "cells": [[1, 0]]},
                                  {"array": "scores", "rows": [1]}]}]
    path = tmp_path / "later.qkv.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), "utf-8")
    return path


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_hidden_q_cell_is_blank_in_the_scores_frame_of_the_sheet(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        lang: str) -> None:
    q, k = X @ WQ, X @ WK
    scores = q @ k.T / math.sqrt(2)
    assert q[1, 0] == 7.25 and q[0, 0] == -0.25
    sheet, key = tmp_path / "s.pdf", tmp_path / "k.pdf"
    status = main(["worksheet", str(lesson(tmp_path)), "--lang", lang, "--out", str(sheet),
                   "--answers", str(key)])
    assert (status, capsys.readouterr().err) == (0, "")
    text = "".join(pdf_pages(sheet))
    assert "7.25" not in text  # Q[1,0]: blank in the projections frame and the scores frame
    for hidden in scores[1]:
        assert f"{hidden:.3f}".replace("-", "−") not in text
    # Q's shown cells are drawn in both frames: −0.25 (Q[0,0]) twice, beside the one score
    # of 我 the mask leaves, −0.25/√2.
    assert text.count("−0.25") == 2
    assert f"{scores[0, 0]:.3f}".replace("-", "−") in text
    answers = "".join(pdf_pages(key))
    assert "Q[1,0] = X[1,0]·Wq[0,0] + X[1,1]·Wq[1,0] = 1·3.5 + (−1)·(−3.75) = 7.25" in answers
    assert f"= {scores[1, 0]:.3f}" in answers
