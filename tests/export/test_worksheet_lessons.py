"""Variants keep the chapter's lesson (issue 35): on every variant of F11 only Wv leaves the
shares as they are, a single visible key keeps share 1, and "a key moves" moves a share by at
least a printed unit — each checked by a softmax computed here from the variant's own numbers;
a question no draw can keep is refused, naming it, with nothing written."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.cli import main
from app.export.worksheet_plan import choose_exercises, plan_sheets
from engine import Scenario, load_scenario
from tests.examples import EXAMPLES
from tests.export.conftest import leftovers


def shares(X: np.ndarray, wq: np.ndarray, wk: np.ndarray) -> np.ndarray:
    """F11's causal, scaled, one-head softmax, written out."""
    scores = (X @ wq) @ (X @ wk).T / math.sqrt(wq.shape[1])
    scores = np.where(np.tril(np.ones_like(scores)) > 0, scores, -np.inf)
    grown = np.exp(scores - scores.max(axis=1, keepdims=True))
    return grown / grown.sum(axis=1, keepdims=True)


def grown(matrix: np.ndarray, cell: tuple[int, int], by: float) -> np.ndarray:
    result = matrix.copy()
    result[cell] += by
    return result


@pytest.mark.parametrize("seed", [7, 0])
def test_every_variant_teaches_that_only_wv_leaves_the_shares(seed: int) -> None:
    scenario = load_scenario(EXAMPLES / "f11.qkv.json")
    sheets = plan_sheets(scenario, choose_exercises(scenario, "all"), "en", 3, seed)
    assert len(sheets) == 3
    for sheet in sheets:
        variant: Scenario = sheet.tasks[0].trace.scenario
        X, wq, wk = variant.X, variant.attention.Wq, variant.attention.Wk
        before = shares(X, wq, wk)
        # Exercise 5: Wq[0,0] + 1 and Wk[1,0] + 0.5 move a share visibly; Wv cannot.
        for after in (shares(X, grown(wq, (0, 0), 1), wk), shares(X, wq, grown(wk, (1, 0), 0.5))):
            assert np.max(np.abs(after - before)) >= 1e-3
        key = sheet.tasks[4].key
        assert key[0].startswith("A. Wq[0,0] + 1: changes")
        assert key[1].startswith("B. Wk[1,0] + 0.5: changes") and \
            key[2] == "C. Wv[0,0] + 1: unchanged (tick it)."
        # Exercise 6: 我 sees only itself, whatever Wq[1,1] does.
        assert shares(X, grown(wq, (1, 1), 3), wk)[0, 0] == before[0, 0] == 1.0
        # Exercise 7: a key moves, and 爱's share of itself with it.
        moved = shares(X, wq, grown(wk, (1, 0), 0.5))[1, 1] - before[1, 1]
        assert abs(moved) >= 1e-3
        assert "stays the same" not in sheet.tasks[6].key[0]


def test_a_question_no_variant_can_teach_is_refused(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A key grown by 0.0001 moves F11's shares on the document, but on no hand-friendly
    variant by a printed unit (|Δscore| ≤ 2·2·0.0001·1/√2 with |x| ≤ 2, |q| ≤ 2)."""
    doc: dict[str, Any] = json.loads((EXAMPLES / "f11.qkv.json").read_text("utf-8"))
    doc["exercises"][6]["edit"]["by"] = 0.0001
    document = tmp_path / "tiny.qkv.json"
    document.write_text(json.dumps(doc, ensure_ascii=False), "utf-8")
    for lang, words in (("en", "keeps what exercises[6] teaches"), ("zh", "保住 exercises[6]")):
        status = main(["worksheet", str(document), "--exercise", "7", "--variants", "1",
                       "--lang", lang, "--out", str(tmp_path / "s.pdf")])
        out, err = capsys.readouterr()
        assert (status, out) == (2, "")
        assert err.startswith("qkv-studio: variants") and words in err
        assert err.count("\n") == 1 and "Traceback" not in err
    assert leftovers(tmp_path) == ["tiny.qkv.json"]
