"""``export --receiver / --head / --worked-row``: the frames show the choice, as a frame built
with those options shows it; a choice the document lacks is refused; an example without
``--receiver`` opens on its own receiver (pronoun: "it")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.canvas import FrameOptions
from app.cli import main
from app.export.dialog import ExportDialog
from app.export.settings import parse_head, parse_receiver
from app.model.examples import example_path, opening_receiver
from tests.export.conftest import export, leftovers, load_trace


def cli_png(capsys: pytest.CaptureFixture[str], folder: Path, name: str, step: str,
            *choices: str) -> list[bytes]:
    """The PNGs ``qkv-studio export NAME --format png --steps STEP CHOICES`` writes (a step
    too small for a projector is split into parts, a file each)."""
    status = main(["export", name, "--format", "png", "--steps", step, "--width", "960",
                   "--out", str(folder), *choices])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    return [Path(line).read_bytes() for line in out.split()]


def options_png(folder: Path, name: str, step: int, options: FrameOptions) -> list[bytes]:
    """The PNGs of step ``step`` (0-based) exported with ``options`` directly."""
    trace = load_trace(name)
    written = export(trace, "png", folder, steps=(step,), options=options, name=name,
                     width=960)
    return [path.read_bytes() for path in written]


def test_pronoun_exports_on_it_which_reads_animal(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = load_trace("pronoun")
    it = trace.scenario.tokens.index("it")
    assert it == 7
    scores = trace.arrays["scores"][0, it, : it + 1]  # what "it" may see (causal)
    shares = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
    assert round(float(shares[1]), 2) == 0.65  # "animal": computed here from the scores
    step = trace.step_index("weights")
    exported = cli_png(capsys, tmp_path / "cli", "pronoun", str(step + 1))
    assert exported == options_png(tmp_path / "it", "pronoun", step,
                                   FrameOptions(receiver=it))
    assert exported != options_png(tmp_path / "last", "pronoun", step, FrameOptions())
    assert cli_png(capsys, tmp_path / "tired", "pronoun", str(step + 1), "--receiver",
                   "tired") == options_png(tmp_path / "last2", "pronoun", step, FrameOptions())


def test_a_receiver_by_position_and_a_head_are_the_ones_drawn(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = load_trace("multihead")
    step = trace.step_index("weights")
    chosen = FrameOptions(receiver=1, head=1, worked_row=True)  # n = 3: the worked row is on
    exported = cli_png(capsys, tmp_path / "cli", "multihead", str(step + 1), "--receiver", "1",
                       "--head", "2")
    assert exported == options_png(tmp_path / "chosen", "multihead", step, chosen)
    assert cli_png(capsys, tmp_path / "token", "multihead", str(step + 1), "--receiver", "爱",
                   "--head", "2") == exported
    assert exported != options_png(tmp_path / "all", "multihead", step,
                                   FrameOptions(receiver=1, worked_row=True))


def test_the_worked_row_follows_the_window_unless_chosen(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    step = load_trace("f11").step_index("weights")
    on = options_png(tmp_path / "on", "f11", step, FrameOptions(worked_row=True))
    off = options_png(tmp_path / "off", "f11", step, FrameOptions(worked_row=False))
    assert on != off
    assert cli_png(capsys, tmp_path / "default", "f11", str(step + 1)) == on  # n = 2 ≤ 4
    assert cli_png(capsys, tmp_path / "chosen-off", "f11", str(step + 1), "--worked-row",
                   "off") == off
    pronoun = load_trace("pronoun").step_index("weights")
    assert cli_png(capsys, tmp_path / "chosen-on", "pronoun", str(pronoun + 1),
                   "--worked-row", "on") == options_png(
        tmp_path / "pronoun-on", "pronoun", pronoun, FrameOptions(receiver=7, worked_row=True))


@pytest.fixture()
def twice_the(tmp_path: Path) -> Path:
    """A copy of pronoun where "the" stands twice (its "The" lowered)."""
    document = json.loads(example_path("pronoun").read_text(encoding="utf-8"))
    document["tokens"][0] = "the"
    path = tmp_path / "doc" / "twice.qkv.json"
    path.parent.mkdir()
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(("choice", "message"), [
    (["--receiver", "the"], "--receiver the: 'the' stands at positions 0 and 4; give one of "
                            "those numbers"),
    (["--receiver", "cat"], "--receiver cat: no token is 'cat'; give a token or a position "
                            "(0: the, 1: animal, 2: didn't, 3: cross, 4: the, 5: street, "
                            "6: because, 7: it, …)"),
    (["--receiver", "10"], "--receiver 10: this document has positions 0 to 9"),
    (["--head", "2"], "--head 2: this document has 1 head"),
    (["--head", "0"], "--head 0: this document has 1 head"),
    (["--head", "first"], "--head expects all or a head number (1 head), got 'first'"),
])
def test_a_choice_the_document_lacks_is_refused_in_one_line(
        qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str], twice_the: Path,
        choice: list[str], message: str) -> None:
    out = tmp_path / "out"
    status = main(["export", str(twice_the), "--format", "pptx", "--out", str(out), *choice])
    printed, err = capsys.readouterr()
    assert (status, printed, err) == (2, "", f"qkv-studio: {message}\n")
    assert not out.exists() and leftovers(tmp_path) == ["doc", "doc/twice.qkv.json"]


def test_heads_are_counted_from_1_up_to_the_most_any_attention_has() -> None:
    assert [parse_head(text, 3) for text in ("all", "ALL", "1", "3")] == [None, None, 0, 2]
    with pytest.raises(ValueError, match=r"^--head 4: this document has heads 1 to 3$"):
        parse_head("4", 3)


def test_a_receiver_is_a_token_first_then_a_position() -> None:
    assert parse_receiver("B", ["排除", "A", "保留", "B"]) == 3
    assert parse_receiver("3", ["排除", "A", "保留", "B"]) == 3
    assert parse_receiver("0", ["1", "0"]) == 1, "a token named like a number is that token"


def test_a_receiver_of_spaces_is_that_token_and_a_refusal_quotes_spaces() -> None:
    """A byte-level tokenizer's lone space is a token: ``--receiver " "`` names it (the typed
    text stripped only when no token is the text as typed), and a refusal quotes the tokens
    and the text that would not read unquoted."""
    assert parse_receiver(" ", ["a", " ", "b"]) == 1
    assert parse_receiver(" b ", ["a", " ", "b"]) == 2
    with pytest.raises(ValueError, match=r"^--receiver ' ': ' ' stands at positions 1 and 3; "):
        parse_receiver(" ", ["a", " ", "b", " "])
    with pytest.raises(ValueError, match=r"^--receiver z: no token is 'z'; give a token or a "
                                         r"position \(0: a, 1: ' ', 2: ' b', 3: ''\)$"):
        parse_receiver("z", ["a", " ", " b", ""])


def test_only_a_built_in_example_names_an_opening_receiver(tmp_path: Path) -> None:
    assert opening_receiver(example_path("pronoun")) == "it"
    assert opening_receiver(example_path("order")) == "A"
    assert opening_receiver(example_path("f11")) is None
    copy = tmp_path / "pronoun.qkv.json"
    shutil.copy(example_path("pronoun"), copy)
    assert opening_receiver(copy) is None


def test_the_dialog_starts_on_the_windows_view_and_exports_its_own_choice(
        qtbot: QtBot, tmp_path: Path) -> None:
    trace = load_trace("multihead")
    step = trace.step_index("weights")
    window = FrameOptions(receiver=0, head=1, worked_row=True)
    dialog = ExportDialog(trace, step, window, name="multihead")
    qtbot.addWidget(dialog)
    assert (dialog.receiver_box.currentText(), dialog.head_box.currentText(),
            dialog.worked_row_box.isChecked()) == ("0: 我", "Head 2", True)
    assert [dialog.receiver_box.itemText(k) for k in range(3)] == ["0: 我", "1: 爱", "2: 猫"]
    assert dialog.frame_options() == window
    dialog.format_box.setCurrentIndex(dialog.format_box.findData("png"))
    dialog.current_radio.setChecked(True)
    dialog.width_radio.setChecked(True)
    dialog.width_spin.setValue(960)
    dialog.receiver_box.setCurrentIndex(2)
    dialog.head_box.setCurrentIndex(0)
    dialog.worked_row_box.setChecked(False)
    dialog.destination_edit.setText(str(tmp_path / "dialog"))
    assert dialog.export() and len(dialog.written) == 1
    assert [dialog.written[0].read_bytes()] == options_png(
        tmp_path / "direct", "multihead", step, FrameOptions(receiver=2, worked_row=False))


def test_the_dialog_offers_no_head_choice_for_one_head(qtbot: QtBot) -> None:
    dialog = ExportDialog(load_trace("pronoun"), 0, FrameOptions())
    qtbot.addWidget(dialog)
    assert not dialog.head_box.isEnabled() and dialog.head_box.count() == 2
    assert dialog.receiver_box.currentText() == "9: tired", "no receiver: the last, as drawn"
