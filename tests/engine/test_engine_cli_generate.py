"""``qkv-studio generate`` (issue 24): the JSON it prints, the document it writes, its refusals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from app.cli import main
from app.model.presets import preset_document
from engine import compute, load_scenario
from tests.engine.generation_documents import built, cases, learned_table


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def short_embedding() -> dict[str, object]:
    """A document whose embedding has 4 rows under a six-entry head: a draw of id 4 or 5 has
    no row to append."""
    doc = built(22)
    doc["embedding"] = doc["embedding"][:4]
    return doc


def _file(tmp_path: Path, name: str, doc: dict[str, object]) -> str:
    path = tmp_path / f"{name}.qkv.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), "utf-8")
    return str(path)


@pytest.mark.parametrize("name", ["three-layers", "encoder-decoder", "rope", "alibi",
                                  "rope-kv_heads-window-mask"])
def test_the_written_document_recomputed_gives_the_printed_probabilities(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    source = _file(tmp_path, name, cases()[name])
    out_path = tmp_path / "longer.qkv.json"
    status, out, err = run(capsys, "generate", source, "--steps", "3", "--temperature", "0.9",
                           "--top-k", "3", "--seed", "17", "--out", str(out_path))
    assert status == 0 and err == ""
    printed = json.loads(out)
    longer = load_scenario(out_path)
    assert printed["tokens"] == list(longer.tokens)
    assert longer.generation is not None
    assert longer.generation.settings.top_k == 3 and longer.generation.settings.seed == 17
    chosen = [step["chosen"] for step in printed["steps"]]
    assert list(longer.generation.chosen) == chosen
    assert longer.token_ids is not None and list(longer.token_ids[-3:]) == chosen
    probs = compute(longer).arrays["probs"]
    vocab = longer.head.vocab  # type: ignore[union-attr]
    for step in printed["steps"]:
        np.testing.assert_allclose(step["probs"], probs[step["position"]], rtol=0, atol=1e-12)
        assert step["label"] == vocab[step["chosen"]]
        assert step["chosen"] in step["kept"] and len(step["kept"]) <= 3
    assert [step["position"] for step in printed["steps"]] == [
        longer.n - 4, longer.n - 3, longer.n - 2]


def test_the_same_seed_prints_the_same_run(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    source = _file(tmp_path, "rope", cases()["rope"])
    first = run(capsys, "generate", source, "--steps", "6", "--temperature", "2", "--seed", "3")
    again = run(capsys, "generate", source, "--steps", "6", "--temperature", "2", "--seed", "3")
    assert first == again and first[0] == 0
    greedy = json.loads(run(capsys, "generate", source, "--steps", "4", "--top-k", "1")[1])
    assert all(step["chosen"] == int(np.argmax(step["probs"])) for step in greedy["steps"])


@pytest.mark.parametrize(("options", "message"), [
    (("--temperature", "-0.5"), "--temperature: expected a number from 0 (greedy) to 100"),
    (("--top-p", "0"), "--top-p: expected a number above 0 and at most 1, got 0.0"),
    (("--top-p", "1.2"), "--top-p: expected a number above 0 and at most 1"),
    (("--top-k", "0"), "--top-k: expected a whole number from 1, got 0"),
    (("--top-k", "300000"), "--top-k: expected a whole number from 1 to 262144, got 300000"),
    (("--seed", "-1"), "--seed: expected a whole number from 0 to 9223372036854775807, got -1"),
    (("--seed", str(2**63)), "--seed: expected a whole number from 0 to 9223372036854775807, "
                             "got 9223372036854775808"),
    (("--steps", "0"), "--steps must be a whole number from 1 to 512, got 0"),
])
def test_bad_options_are_refused_in_one_line_and_nothing_is_written(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, options: tuple[str, str],
        message: str) -> None:
    source = _file(tmp_path, "rope", cases()["rope"])
    out_path = tmp_path / "never.qkv.json"
    steps = [] if "--steps" in options else ["--steps", "2"]  # an option is given once
    argv = ["generate", source, *steps, "--out", str(out_path), *options]
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith(f"qkv-studio: {message}") and err.count("\n") == 1
    assert not out_path.exists()


@pytest.mark.parametrize(("doc", "steps", "message"), [
    (built(2, positions=learned_table(7)), "5",
     "--steps: 5 tokens asked, 3 fit: positions.table: the learned table has 7 rows; position 7 "
     "would need row 7, past its end"),
    (built(4, positions={"kind": "rope"}), "512",
     "--steps: 512 tokens asked, 358 fit: layers.0.attention.heads: 2 heads × 363² positions is "
     "more than the limit of 262144 scores"),
])
def test_a_run_that_passes_a_limit_says_how_many_tokens_fit(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, doc: dict[str, object], steps: str,
        message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The limit met after some tokens was said as if the document itself were wrong. (The
    scores' limit as it was before a whole model fitted, 2¹⁸: today's 2²⁴ is past what 12 heads
    at 512 positions make.)"""
    monkeypatch.setattr("engine.format.layers.MAX_CELLS", 1 << 18)
    out_path = tmp_path / "never.qkv.json"
    status, out, err = run(capsys, "generate", _file(tmp_path, "doc", doc), "--steps", steps,
                           "--out", str(out_path))
    assert (status, out, err) == (2, "", f"qkv-studio: {message}\n")
    assert not out_path.exists()


@pytest.mark.parametrize(("doc", "message"), [
    ({"three": None}, "token_ids: generating needs token_ids and an embedding table to look "
                      "the new token up in"),
    (built(2, positions=learned_table(4)), "positions.table: the learned table has 4 rows; "
                                           "position 4 would need row 4, past its end"),
    (short_embedding(), "embedding: 4 rows for a vocabulary of 6 entries: each entry the head "
                        "can draw needs its row"),
    ({k: v for k, v in preset_document("bert").items() if k != "head"},
     "head.unembed: an encoder reads both directions (no causal mask) and has no vocabulary "
     "head: it does not predict the next token, so it does not generate"),
    (preset_document("bert"), "head.transform: a masked-language-model head (head.transform) "
                              "fills [MASK] positions from both sides: it does not continue the "
                              "text, so it does not generate"),
])
def test_documents_that_cannot_generate_are_refused(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path, doc: dict[str, object],
                                                    message: str) -> None:
    source = ("three-layers" if "three" in doc else _file(tmp_path, "doc", doc))
    out_path = tmp_path / "never.qkv.json"
    status, out, err = run(capsys, "generate", source, "--steps", "2", "--out", str(out_path))
    assert (status, out) == (2, "")
    assert err == f"qkv-studio: {message}\n"
    assert not out_path.exists()


def test_a_saved_run_continues_with_its_own_settings(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    source = _file(tmp_path, "rope", cases()["rope"])
    whole = json.loads(run(capsys, "generate", source, "--steps", "5", "--temperature", "1.5",
                           "--seed", "9")[1])
    part = tmp_path / "part.qkv.json"
    run(capsys, "generate", source, "--steps", "2", "--temperature", "1.5", "--seed", "9",
        "--out", str(part))
    rest = json.loads(run(capsys, "generate", str(part), "--steps", "3")[1])
    assert rest["tokens"] == whole["tokens"]
    assert [s["chosen"] for s in rest["steps"]] == [s["chosen"] for s in whole["steps"][2:]]


def test_compute_prints_the_loss(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = cases()["three-layers"]
    doc["targets"] = [1, 2, 0]
    status, out, _ = run(capsys, "compute", _file(tmp_path, "trained", doc))
    printed = json.loads(out)
    probs = np.array(printed["arrays"]["probs"])
    assert status == 0 and printed["targets"] == [1, 2, 0]
    np.testing.assert_allclose(printed["arrays"]["loss"], -np.log(probs[[0, 1, 2], [1, 2, 0]]),
                               rtol=1e-13)
    assert printed["arrays"]["loss_mean"] == [pytest.approx(np.mean(printed["arrays"]["loss"]))]


def test_an_out_file_that_cannot_be_written_exits_with_1(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    """As the README says of every command: a refused document or option exits with 2, a file
    that cannot be written with 1 (generate exited with 2 for both), and nothing is printed."""
    status, out, err = run(capsys, "generate", "continue", "--steps", "1", "--out",
                           str(tmp_path))
    assert (status, out) == (1, "")
    assert err == f"qkv-studio: cannot write {tmp_path}: a folder has that name\n"
