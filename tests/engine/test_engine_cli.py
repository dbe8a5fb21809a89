"""``qkv-studio compute`` and ``qkv-studio explain``: run in-process, plus one real process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from app.cli import main
from engine import compute, load_scenario
from tests.examples import EXAMPLES

NAMES = ("f11", "g01", "multihead", "norms", "single-key", "tokenizer")

# The named arrays of the format's table, in its order. Version 2 adds what the canvas shows
# beside them: each norm's row statistics and the FFN's pre-activation, printed after the array
# they belong to and written by no step of their own.
DERIVED = ("norm1_stats", "norm2_stats", "ffn_pre", "final_norm_stats")
PRINTED = ("X", "norm1", "norm1_stats", "Q", "K", "V", "scores", "weights", "mixed", "attn_out",
           "resid1", "norm2", "norm2_stats", "ffn_pre", "ffn_hidden", "ffn_out", "resid2",
           "final_norm", "final_norm_stats", "logits", "probs")
ATTENTION = ("X", "Q", "K", "V", "scores", "weights", "mixed", "attn_out")

BAD_WK = {"X": [[1, 1], [1, -1]],
          "attention": {"Wq": [[1, 1], [-1, 1]], "Wk": [[1, 0], [0, 1], [1, 1]],
                        "Wv": [[5, 10], [5, -10]]}}
BAD_WK_MESSAGE = "qkv-studio: attention.Wk: expected 2 rows to match d=2, got 3\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_compute_f11(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "compute", "f11")
    assert status == 0 and err == ""
    printed = json.loads(out)
    assert list(printed["arrays"]) == list(ATTENTION)
    assert [step["id"] for step in printed["steps"]] == ["inputs", "projections", "scores",
                                                         "weights", "mix"]
    assert printed["tokens"] == ["我", "爱"] and "vocab" not in printed
    assert printed["arrays"]["Q"] == [[0.0, 2.0], [2.0, 0.0]]
    assert printed["arrays"]["weights"][0][0] == [1.0, 0.0]
    first = printed["steps"][1]
    assert set(first) >= {"id", "title", "reads", "writes"}
    assert first["reads"][:1] == ["X"] and first["writes"] == ["Q", "K", "V"]


def test_compute_g01(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "compute", "g01", "--indent", "2")
    assert status == 0
    assert out.startswith("{\n  \"title\"")
    printed = json.loads(out)
    assert list(printed["arrays"]) == [n for n in PRINTED if n in printed["arrays"]]
    assert set(printed["arrays"]) == set(PRINTED)  # G01 produces every array of the table
    assert [step["id"] for step in printed["steps"]] == [
        "norm1", "projections", "scores", "weights", "mix", "resid1", "norm2", "ffn", "resid2",
        "final_norm", "logits", "probs"]
    assert printed["vocab"] == ["w1", "w2", "w3"]
    assert [f"{p:.6f}" for p in printed["arrays"]["probs"][1]] == ["0.048611", "0.359188",
                                                                    "0.592201"]


@pytest.mark.parametrize("name", NAMES)
def test_compute_prints_exactly_the_trace(capsys: pytest.CaptureFixture[str], name: str) -> None:
    status, out, _ = run(capsys, "compute", name)
    assert status == 0
    printed = json.loads(out)
    trace = compute(load_scenario(EXAMPLES / f"{name}.qkv.json"))
    assert set(printed["arrays"]) <= set(PRINTED)
    assert list(printed["arrays"]) == list(trace.arrays)
    for key, array in trace.arrays.items():
        assert np.array_equal(np.array(printed["arrays"][key]), array), key
    assert [s["id"] for s in printed["steps"]] == [s.id for s in trace.steps]
    written = [w for s in printed["steps"] for w in s["writes"]]
    # Every array is written by exactly one step (X only by the embedding lookup).
    assert sorted(written) == sorted(k for k in trace.arrays if k not in DERIVED
                                     and (k != "X" or name == "tokenizer"))


def test_compute_a_path(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "compute", str(EXAMPLES / "norms.qkv.json"))
    assert status == 0 and json.loads(out)["arrays"]["norm1"] == [[-1.0, 1.0]]


def test_compute_refuses_a_malformed_document(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    path = tmp_path / "bad.qkv.json"
    path.write_text(json.dumps(BAD_WK), encoding="utf-8")
    assert run(capsys, "compute", str(path)) == (2, "", BAD_WK_MESSAGE)


def test_compute_refuses_a_missing_file(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    status, out, err = run(capsys, "compute", str(tmp_path / "nothing.qkv.json"))
    assert (status, out) == (2, "")
    assert err == "qkv-studio: nothing.qkv.json: cannot be read (No such file or directory)\n"


def test_explain_prints_the_formula(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "explain", "f11", "Q[1,0]") == (
        0, "Q[1,0] = X[1,0]·Wq[0,0] + X[1,1]·Wq[1,0] = 1·1 + (−1)·(−1) = 2\n", "")
    status, out, _ = run(capsys, "explain", "f11", "weights[1,0]")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("weights[0,1,0] = exp(s0 − max) / ") and lines[0].endswith(
        " = 0.80443")
    assert lines[1:] == ["s = scores[0,1,·], max over the visible keys = 1.414214",
                         "no key is masked in this row"]


@pytest.mark.parametrize(("cell", "message"), [
    ("Q[a]", "qkv-studio: 'Q[a]': expected ARRAY[i,j], for example Q[1,0] or weights[0,1,0]\n"),
    ("Q[5,0]", "qkv-studio: Q[5,0]: outside the 2×2 array Q\n"),
    ("norm1[0,0]", "qkv-studio: norm1: no such array in this trace (it has X, Q, K, V, scores, "
                   "weights, mixed, attn_out)\n"),
])
def test_explain_refuses_a_bad_cell(capsys: pytest.CaptureFixture[str], cell: str,
                                    message: str) -> None:
    assert run(capsys, "explain", "f11", cell) == (2, "", message)


def test_explain_refuses_a_malformed_document(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    path = tmp_path / "bad.qkv.json"
    path.write_text(json.dumps(BAD_WK), encoding="utf-8")
    assert run(capsys, "explain", str(path), "Q[0,0]") == (2, "", BAD_WK_MESSAGE)


def test_the_installed_command_refuses_with_status_2(tmp_path: Path) -> None:
    """One real process: exit status 2, one line on stderr, nothing on stdout, no traceback."""
    command = Path(sys.executable).parent / "qkv-studio"
    if not command.exists():
        pytest.skip("the qkv-studio script is not installed next to this interpreter")
    path = tmp_path / "bad.qkv.json"
    path.write_text(json.dumps(BAD_WK), encoding="utf-8")
    done = subprocess.run([str(command), "compute", str(path)], capture_output=True,
                          timeout=60, check=False)
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode("utf-8") == BAD_WK_MESSAGE
    assert b"Traceback" not in done.stderr


def test_python_dash_m_app_cli_runs_the_command() -> None:
    """``python -m app.cli compute f11`` prints the trace: the module runs ``main`` (it used to
    exit 0 having done nothing, so an export from it wrote no file and said nothing)."""
    done = subprocess.run([sys.executable, "-m", "app.cli", "compute", "f11"],
                          capture_output=True, timeout=120, check=False,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr.decode("utf-8")
    arrays = json.loads(done.stdout)["arrays"]
    assert np.allclose(arrays["X"], compute(load_scenario(EXAMPLES / "f11.qkv.json")).arrays["X"])
