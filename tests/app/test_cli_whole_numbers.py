"""Every whole number the command line takes is read by one helper (engine.format.whole_text): a
number of thousands of digits, or digits of another script, is refused in one line naming the
option,
never with Python's own "Exceeds the limit (4300 digits)" or read as another number (issue 34)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main
from engine import ScenarioError, dumps_scenario
from engine.checkpoint import import_checkpoint
from engine.format.whole_text import MOST_DIGITS, read_whole
from tests.engine.hf_reference import FIXTURES

HUGE = "9" * 5000
"""Past the 4,300 digits Python's int() reads from text."""
ARABIC_ONE = "\u0661"
"""ARABIC-INDIC DIGIT ONE: int() reads it as 1."""
TOO_LONG = f"expected a whole number of at most {MOST_DIGITS} digits, got one of 5000"
GPT2 = str(FIXTURES / "gpt2")


def generating(tmp_path: Path) -> str:
    """The GPT-2 fixture imported as a document that can generate."""
    path = tmp_path / "gpt2.qkv.json"
    path.write_text(dumps_scenario(import_checkpoint(FIXTURES / "gpt2", "hello world")),
                    encoding="utf-8")
    return str(path)


# (command line with N where the number goes, the refusal of HUGE after "qkv-studio: ")
OPTIONS: dict[str, tuple[list[str], str]] = {
    "compute --indent": (["compute", "f11", "--indent", "N"], f"--indent: {TOO_LONG}"),
    "explain index": (["explain", "f11", "Q[N,0]"], f"Q[…]: {TOO_LONG}"),
    "generate --steps": (["generate", "DOC", "--steps", "N"], f"--steps: {TOO_LONG}"),
    "generate --top-k": (["generate", "DOC", "--steps", "1", "--top-k", "N"],
                         f"--top-k: {TOO_LONG}"),
    "generate --seed": (["generate", "DOC", "--steps", "1", "--seed", "N"],
                        "--seed: expected a whole number from 0 to 9223372036854775807, got a "
                        "whole number of about 5000 digits"),
    "import-hf --layers": (["import-hf", GPT2, "--text", "hi", "--layers", "1-N"],
                           '--layers: expected layers such as 1-2, 3 or 1,3-4, from 1 to 2, got '
                           f'"1-{"9" * 35}..."'),
    "export --steps": (["export", "f11", "--format", "png", "--steps", "N"],
                       f"--steps: {TOO_LONG}"),
    "export --token": (["export", "f11", "--format", "png", "--token", "N"],
                       f"--token: {TOO_LONG}"),
    "export --width": (["export", "f11", "--format", "png", "--width", "N"],
                       f"--width: {TOO_LONG}"),
    "export --receiver": (["export", "f11", "--format", "png", "--receiver", "N"],
                          f"--receiver: {TOO_LONG}"),
    "export --head": (["export", "f11", "--format", "png", "--head", "N"],
                      f"--head: {TOO_LONG}"),
    "export --decimals": (["export", "f11", "--format", "png", "--decimals", "N"],
                          "--decimals: expected a whole number from 0 to 6, got a whole number "
                          "of about 5000 digits"),
    "worksheet --exercise": (["worksheet", "f11", "--exercise", "N"], f"--exercise: {TOO_LONG}"),
    "worksheet --variants": (["worksheet", "f11", "--variants", "N"], f"--variants: {TOO_LONG}"),
    "worksheet --seed": (["worksheet", "f11", "--variants", "1", "--seed", "N"],
                         f"--seed: {TOO_LONG}"),
}


def command(tmp_path: Path, words: list[str], number: str) -> list[str]:
    line = [word.replace("N", number) if "N" in word and word != "DOC" else word
            for word in words]
    line = [generating(tmp_path) if word == "DOC" else word for word in line]
    if line[0] in ("export", "worksheet"):
        line += ["--out", str(tmp_path / ("out/" if line[0] == "export" else "sheet.pdf"))]
    return line


@pytest.mark.parametrize("option", list(OPTIONS))
def test_a_number_of_5000_digits_is_refused_naming_the_option(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str) -> None:
    words, refusal = OPTIONS[option]
    before = sorted(tmp_path.rglob("*"))
    status = main(command(tmp_path, words, HUGE))
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err == f"qkv-studio: {refusal}\n"
    assert sorted(tmp_path.rglob("*")) == before or option.startswith("generate"), \
        "nothing written"


@pytest.mark.parametrize("option", list(OPTIONS))
def test_a_digit_of_another_script_is_not_read_as_a_number(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str) -> None:
    words, _refusal = OPTIONS[option]
    status = main(command(tmp_path, words, ARABIC_ONE))
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and "Traceback" not in err
    place = {"explain index": "'Q[١,0]': expected ARRAY[i,j]",
             "import-hf --layers": "--layers: expected layers such as"}
    assert err.startswith(f"qkv-studio: {place.get(option, option.split()[-1])}"), err
    assert ARABIC_ONE in err


@pytest.mark.parametrize(("text", "low", "high", "number"), [
    ("0", 0, 16, 0), (" 16 ", 0, 16, 16), ("-3", -5, 5, -3), ("007", 0, 9, 7),
    ("9" * MOST_DIGITS, None, None, 10**MOST_DIGITS - 1),
])
def test_whole_numbers_in_range_are_read(text: str, low: int | None, high: int | None,
                                         number: int) -> None:
    assert read_whole(text, "--n", low, high) == number


@pytest.mark.parametrize(("text", "low", "high", "message"), [
    ("17", 0, 16, "--n: expected a whole number from 0 to 16, got 17"),
    ("-1", 0, 16, "--n: expected a whole number from 0 to 16, got -1"),
    ("0" * 30 + "123", 0, 16, "--n: expected a whole number from 0 to 16, got 123"),
    ("1" + "0" * 30, 0, 16,
     "--n: expected a whole number from 0 to 16, got a whole number of about 31 digits"),
    ("1" * (MOST_DIGITS + 1), None, None,
     f"--n: expected a whole number of at most {MOST_DIGITS} digits, got one of "
     f"{MOST_DIGITS + 1}"),
    ("1.0", 0, 16, '--n: expected a whole number, got "1.0"'),
    ("²", 0, 16, '--n: expected a whole number, got "²"'),
    ("", 0, 16, '--n: expected a whole number, got ""'),
    ("1_000", None, None, '--n: expected a whole number, got "1_000"'),
])
def test_anything_else_is_refused_in_one_line(text: str, low: int | None, high: int | None,
                                              message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        read_whole(text, "--n", low, high)
    assert str(caught.value) == message


def test_the_helper_never_hands_int_a_text_it_would_refuse() -> None:
    """Python refuses to read more than 4300 digits; every such text is refused first."""
    for digits in (4300, 4301, 100_000):
        with pytest.raises(ScenarioError, match="digits"):
            read_whole("7" * digits, "--n", 0, 10)
        with pytest.raises(ScenarioError, match="digits"):
            read_whole("7" * digits, "--n")
