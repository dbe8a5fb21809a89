"""A size typed in the editor whose document would not fit in memory is refused with the
reason in the window's language, and the document stays as it was."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

import engine.files.memory
from app import i18n
from tests.app.driving import close_window, open_window
from tests.app.test_documents_properties import set_size


@pytest.mark.parametrize(("lang", "words"), [("en", "more than this computer's"),
                                             ("zh", "超过了这台计算机的")])
def test_a_wider_d_past_memory_is_refused_and_the_document_kept(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, lang: str, words: str) -> None:
    i18n.set_language(lang)  # the suite's fixture sets English again after
    window = open_window(qtbot, "f11")
    try:
        before = window.state.scenario
        monkeypatch.setattr(engine.files.memory, "physical_memory", lambda: 8)
        with qtbot.waitSignal(window.state.refused, timeout=5000) as said:
            set_size(qtbot, window, "d", before.d + 1)
        assert words in said.args[0] and "GiB" in said.args[0], said.args[0]
        assert window.state.scenario is before
        assert window.editor.size_boxes["d"].value() == before.d
    finally:
        close_window(window)
