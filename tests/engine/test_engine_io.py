"""Documents on disk: atomic saves that round-trip, and reads that refuse what is not a scenario."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

import engine
import engine.format.io
from engine import (
    ScenarioError,
    compute,
    dumps_scenario,
    load_scenario,
    read_document,
    save_scenario,
)
from engine.format.writer import to_document
from engine.scenario.edit import with_parameter
from tests.examples import EXAMPLES

NAMES = ("f11", "g01", "multihead", "norms", "single-key", "tokenizer")


def refusal(path: Path) -> str:
    with pytest.raises(ScenarioError) as caught:
        read_document(path)
    message = str(caught.value)
    assert len(message.splitlines()) == 1
    return message


@pytest.mark.parametrize("name", NAMES)
def test_save_then_load_gives_an_identical_trace(name: str, tmp_path: Path) -> None:
    original = load_scenario(EXAMPLES / f"{name}.qkv.json")
    path = tmp_path / f"{name}.qkv.json"
    save_scenario(original, path)
    again = load_scenario(path)
    a, b = compute(original), compute(again)
    assert list(a.arrays) == list(b.arrays)
    for key in a.arrays:
        assert np.array_equal(a.arrays[key], b.arrays[key]), key
    assert a.steps == b.steps
    assert to_document(again) == to_document(original)
    assert (again.title, again.note, again.tokens) == (original.title, original.note,
                                                       original.tokens)
    # Saving the loaded copy writes the very same bytes.
    save_scenario(again, tmp_path / "twice.qkv.json")
    assert (tmp_path / "twice.qkv.json").read_bytes() == path.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, "twice.qkv.json"])


def test_saved_text_is_readable_json(tmp_path: Path) -> None:
    scenario = load_scenario(EXAMPLES / "f11.qkv.json")
    text = dumps_scenario(scenario)
    assert text.endswith("}\n")
    assert '    [1, -1]' in text  # one matrix row per line, integral numbers as ints
    assert '"我"' in text  # not escaped
    assert json.loads(text) == to_document(scenario)


def test_unusual_floats_round_trip_exactly(tmp_path: Path) -> None:
    scenario = with_parameter(load_scenario(EXAMPLES / "f11.qkv.json"),
        "X", [[0.1 + 0.2, -1e-300], [123456789.123456789, 2.0**-1074]])
    save_scenario(scenario, tmp_path / "odd.qkv.json")
    assert np.array_equal(load_scenario(tmp_path / "odd.qkv.json").X, scenario.X)


def test_negative_zero_keeps_its_sign_through_a_save(tmp_path: Path) -> None:
    """−0.0 is a number a document may hold (and the trace carries its sign on): saving writes
    it as −0.0, not as the int 0, so the reopened document is the same bit for bit."""
    scenario = with_parameter(load_scenario(EXAMPLES / "f11.qkv.json"),
        "X", [[-0.0, 0.0], [-0.0, -1.0]])
    save_scenario(scenario, tmp_path / "zero.qkv.json")
    again = load_scenario(tmp_path / "zero.qkv.json").X
    assert np.signbit(again).tolist() == [[True, False], [True, True]]
    assert "[-0.0, 0]" in (tmp_path / "zero.qkv.json").read_text(encoding="utf-8")


def old_file(tmp_path: Path) -> tuple[Path, bytes]:
    path = tmp_path / "kept.qkv.json"
    content = (EXAMPLES / "f11.qkv.json").read_bytes()
    path.write_bytes(content)
    return path, content


def test_a_failing_rename_leaves_the_old_file_and_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, content = old_file(tmp_path)

    def refuse(_src: object, _dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(engine.format.io.os, "replace", refuse)
    with pytest.raises(OSError, match=r"kept\.qkv\.json: the disk is full"):
        save_scenario(load_scenario(EXAMPLES / "g01.qkv.json"), path)
    assert path.read_bytes() == content
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_a_failing_write_leaves_the_old_file_and_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, content = old_file(tmp_path)

    def refuse(_fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(engine.format.io.os, "fsync", refuse)
    with pytest.raises(OSError, match=r"kept\.qkv\.json: the disk reported an input/output error"):
        save_scenario(load_scenario(EXAMPLES / "g01.qkv.json"), path)
    assert path.read_bytes() == content
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_an_interrupted_save_leaves_no_temporary(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path, content = old_file(tmp_path)

    def interrupt(_src: object, _dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(engine.format.io.os, "replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        save_scenario(load_scenario(EXAMPLES / "g01.qkv.json"), path)
    assert path.read_bytes() == content
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_read_refuses_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "scenes"
    folder.mkdir()
    assert refusal(folder) == "scenes: is a folder, not a scenario document"


def test_read_refuses_a_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "picture.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert refusal(path) == ("picture.png: is a binary file, not a scenario document "
                             "(JSON text)")


def test_read_refuses_text_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.json"
    path.write_bytes('{"title": "café"}'.encode("latin-1"))
    assert refusal(path) == "latin.json: is not UTF-8 text (byte 14)"


def test_read_reports_the_line_and_column_of_invalid_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.qkv.json"
    path.write_text('{\n  "X": [[1, 2]],\n  "attention": {,}\n}\n', encoding="utf-8")
    # The stray comma is on line 3, column 17.
    assert refusal(path) == ("broken.qkv.json: invalid JSON at line 3, column 17: Expecting "
                             "property name enclosed in double quotes")


def test_read_refuses_a_file_over_the_size_limit(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.qkv.json"
    path.write_bytes((EXAMPLES / "g01.qkv.json").read_bytes())
    size = path.stat().st_size
    monkeypatch.setattr(engine.format.io, "MAX_FILE_BYTES", 1024)

    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("an oversized file was opened")

    monkeypatch.setattr(Path, "read_bytes", never)
    monkeypatch.setattr(Path, "open", never)
    message = refusal(path)
    assert message == (f"big.qkv.json: the file is {size / 1024:.1f} KiB; scenario documents "
                       "are limited to 1 KiB").replace(".0 KiB", " KiB")


def test_a_file_just_over_the_limit_says_so_in_bytes(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "edge.json"
    path.write_bytes(b"[" + b" " * 1023 + b"]")  # 1025 bytes
    monkeypatch.setattr(engine.format.io, "MAX_FILE_BYTES", 1024)
    assert refusal(path) == ("edge.json: the file is 1025 bytes; scenario documents are "
                             "limited to 1024 bytes")
    monkeypatch.setattr(engine.format.io, "MAX_FILE_BYTES", 1025)
    assert read_document(path) == []


def test_read_refuses_a_device_without_reading_it() -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    # /dev/zero has size 0 and never ends: reading it whole would fill the memory.
    assert refusal(Path("/dev/zero")) == ("zero: is not a regular file (a device, a pipe or a "
                                          "socket): nothing was read from it")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_read_refuses_a_pipe_without_blocking(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    assert refusal(pipe).startswith("pipe.json: is not a regular file")


def test_read_refuses_a_missing_file(tmp_path: Path) -> None:
    assert refusal(tmp_path / "gone.json") == ("gone.json: cannot be read (No such file or "
                                               "directory)")


def test_read_refuses_numbers_with_thousands_of_digits(tmp_path: Path) -> None:
    path = tmp_path / "digits.json"
    path.write_text('{"X": [[' + "7" * 5000 + "]]}", encoding="utf-8")
    assert refusal(path) == "digits.json: holds a number with too many digits to be read"


def test_read_refuses_deep_nesting(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    assert refusal(path) == "deep.json: is nested too deeply to be a scenario document"


def test_read_accepts_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "bom.qkv.json"
    path.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / "f11.qkv.json").read_bytes())
    assert load_scenario(path).tokens == ("我", "爱")


def test_load_names_the_place_inside_the_document(tmp_path: Path) -> None:
    path = tmp_path / "doc.qkv.json"
    doc = json.loads((EXAMPLES / "f11.qkv.json").read_text(encoding="utf-8"))
    doc["X"][1][0] = "NaN"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r'^X\[1\]\[0\]: expected a number, got "NaN"$'):
        load_scenario(path)
    path.write_text(json.dumps(doc).replace('"NaN"', "NaN"), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"^X\[1\]\[0\]: nan is not allowed"):
        load_scenario(path)


@pytest.mark.slow
def test_the_largest_accepted_document_saves_under_the_file_limit_and_reopens(
        tmp_path: Path) -> None:
    """Every matrix of 2¹⁸ numbers, every number at its longest JSON spelling
    (24 characters), every label at 40 four-byte characters: what is accepted can be saved and
    opened again (docs/limits.md)."""
    from engine.format.reader import MAX_POSITIONS

    n = d = MAX_POSITIONS  # 512 × 512 = 2¹⁸: X, Q, the hidden layer and the logits
    assert n * d == 1 << 18
    longest = -2.2250738585072014e-308
    assert len(json.dumps(longest)) == 24

    def full(*shape: int) -> list[object]:
        values: list[object] = np.full(shape, longest).tolist()
        return values

    label = "😀" * 40
    document = {"title": label * 5, "note": "😀" * 2000, "tokens": [label] * n, "X": full(n, d),
                "attention": {"heads": 1, **{name: full(d, d) for name in ("Wq", "Wk", "Wv", "Wo")},
                              **{name: full(d) for name in ("bq", "bk", "bv", "bo")}},
                "block": {"ffn": {"W1": full(d, d), "b1": full(d), "W2": full(d, d),
                                  "b2": full(d)},
                          **{name: full(d) for name in ("gamma1", "beta1", "gamma2", "beta2",
                                                        "gamma_f", "beta_f")},
                          "unembed": full(d, d), "vocab": [label] * d}}
    scenario = engine.parse_scenario(document)
    path = tmp_path / "largest.qkv.json"
    save_scenario(scenario, path)
    size = path.stat().st_size
    assert 8 * n * d * 24 < size <= engine.format.io.MAX_FILE_BYTES
    again = load_scenario(path)
    np.testing.assert_array_equal(again.block.unembed, scenario.block.unembed)
    assert again.block.vocab == scenario.block.vocab
