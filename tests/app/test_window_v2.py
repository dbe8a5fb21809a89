"""A version-2 document opens in the window: a stack and an encoder–decoder, every step shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.texts.lookup import step_text
from app.window.studio import StudioWindow
from engine import load_scenario
from tests.app.driving import close_window
from tests.engine.test_engine_v2_stacks import attention, block, encoder_decoder, head, stack


@pytest.mark.parametrize("make", ["three layers", "encoder-decoder"])
def test_a_version_2_document_opens_and_every_step_is_drawn(qtbot: QtBot, tmp_path: Path,
                                                            make: str) -> None:
    doc = (stack([{"attention": attention(4), "block": block(4)} for _ in range(3)],
                 head=head(4)) if make == "three layers" else encoder_decoder("pre"))
    path = tmp_path / "v2.qkv.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    window = StudioWindow(load_scenario(path))
    try:
        window.resize(1280, 800)
        window.show()
        steps = window.state.trace.steps
        assert len(steps) == (30 if make == "three layers" else 52)
        for k in range(len(steps)):
            assert window.state.step == k
            assert window.canvas.frame is not None
            window.timeline.next()
        assert window.state.step == len(steps) - 1
        text = step_text(window.state.trace, len(steps) - 1, "zh")
        assert text.summary == "softmax 把每行 logits 变成词表上的概率。"
    finally:
        close_window(window)
