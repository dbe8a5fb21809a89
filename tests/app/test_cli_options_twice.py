"""An option given twice is refused in one line naming it (exit 2, nothing run or written), never
read as its last value as argparse would (``lens --top 3 --top 5`` printed 5): by any spelling,
for every command; options meant to repeat (``append``, ``count``) stay allowed."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from app.cli import COMMANDS, _command_parser, build_parser, main
from app.given_once import given_twice, refuse_repeats


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(list(arguments))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("arguments", "refusal"), [
    (["--top", "3", "--top", "5"], "--top was given twice (3, then 5)"),
    (["--top=3", "--top", "5"], "--top was given twice (3, then 5)"),
    (["--top", "5", "--top=5"], "--top was given twice (5, then 5)"),
    (["--top", "3", "--to", "5"], "--top was given twice (3, then 5)"),  # argparse's abbreviation
])
def test_lens_top_twice_is_refused(capsys: pytest.CaptureFixture[str], arguments: list[str],
                                   refusal: str) -> None:
    assert run(capsys, "lens", "continue", *arguments) == (
        2, "", f"qkv-studio lens: {refusal}; give it once\n")


def test_lens_top_once_still_runs(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "lens", "continue", "--top=2")
    assert (status, err) == (0, "")
    layers = json.loads(out)["layers"]
    assert [len(position["top"]) for layer in layers for position in layer["positions"]] \
        == [2] * (len(layers) * 2)


@pytest.mark.parametrize(("arguments", "refusal"), [
    (["--decimals", "2", "--decimals", "4"], "--decimals was given twice (2, then 4)"),
    (["--steps", "3", "--step", "4"], "--steps was given twice (3, then --step 4)"),  # alias
    (["--step=3", "--steps=3"], "--step was given twice (3, then --steps 3)"),
    (["--width", "400", "--width", "a b"], '--width was given twice (400, then "a b")'),
    (["--lang", "zh", "--lang", "en"], "--lang was given twice (zh, then en)"),
    (["--caption", "--caption"], "--caption was given twice"),
    (["--run", "--caption", "--run"], "--run was given twice"),
])
def test_export_option_twice_is_refused_and_writes_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, arguments: list[str],
        refusal: str) -> None:
    status, out, err = run(capsys, "export", "f11", "--format", "svg", "--out", str(tmp_path),
                           *arguments)
    assert (status, out, err) == (2, "", f"qkv-studio export: {refusal}; give it once\n")
    assert list(tmp_path.iterdir()) == []


def test_the_first_option_repeated_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    status, _out, err = run(capsys, "generate", "continue", "--steps", "1", "--seed", "1",
                            "--temperature", "0", "--seed", "2", "--temperature", "1")
    assert (status, err) == (
        2, "qkv-studio generate: --seed was given twice (1, then 2); give it once\n")


def test_worksheet_words_it_in_its_language(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    sheet = str(tmp_path / "s.pdf")
    assert run(capsys, "worksheet", "f11", "--lang", "zh", "--variants", "2", "--seed", "1",
               "--seed=2", "--out", sheet) == (
        2, "", "qkv-studio worksheet: --seed 给了两次（先是 1，又是 2）；只能给一次\n")
    cut = f'"{sheet[:17]}..."'  # a long value is quoted and cut, as a document's are
    assert run(capsys, "worksheet", "f11", "--lang", "zh", "--out", sheet, "--out", sheet) == (
        2, "", f"qkv-studio worksheet: --out 给了两次（先是 {cut}，又是 {cut}）；只能给一次\n")
    assert list(tmp_path.iterdir()) == []


def test_the_window_s_own_options_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--selftest", "--selftest") == (
        2, "", "qkv-studio: --selftest was given twice; give it once\n")


def test_positional_arguments_are_not_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "explain", "f11", "Q[1,0]")
    assert (status, err) == (0, "")
    assert out.startswith("Q[1,0] = ") and out.rstrip().endswith("= 2")


# What each command needs to parse (the window's own line: nothing).
NEEDED: dict[str, list[str]] = {
    "compute": ["f11"], "explain": ["f11", "Q[0,0]"], "generate": ["f11", "--steps", "1"],
    "import-hf": ["dir", "--text", "t"], "export": ["f11", "--format", "png"],
    "worksheet": ["f11", "--out", "s.pdf"], "lens": ["f11"], "window": []}


def _value(action: argparse.Action) -> list[str]:
    """A value the option takes: its first choice, else 1; a flag takes none."""
    if action.nargs == 0:
        return []
    return [str(next(iter(action.choices)))] if action.choices else ["1"]


@pytest.mark.parametrize("command", [*COMMANDS, "window"])
def test_every_option_of_every_command_is_taken_once(command: str) -> None:
    parser = build_parser() if command == "window" else _command_parser(command)
    options = [action for action in parser._actions if action.option_strings
               and not isinstance(action, argparse._HelpAction | argparse._VersionAction)]
    assert options or command == "explain"
    for action in options:
        option = action.option_strings[0]
        args = parser.parse_args([*NEEDED[command], option, *_value(action), option,
                                  *_value(action)])
        error = given_twice(args)
        assert error is not None, f"{command} {option}"
        assert str(error).startswith(f"{option} was given twice"), str(error)
    assert given_twice(parser.parse_args(NEEDED[command])) is None


def test_options_meant_to_repeat_stay_allowed() -> None:
    parser = refuse_repeats(argparse.ArgumentParser(prog="qkv-studio test"))
    parser.add_argument("--layer", action="append")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    parser.add_argument("--top")
    args = parser.parse_args(["--layer", "1", "-vv", "--layer=2", "--top", "3", "--verbose"])
    assert given_twice(args) is None
    assert (args.layer, args.verbose, args.top) == (["1", "2"], 3, "3")
    assert str(given_twice(parser.parse_args(["--top", "3", "-vv", "--top", "4"]))) \
        == "--top was given twice (3, then 4); give it once"
