"""The arrows' title, boxes, tokens and legend, which no edit of the shares changes, are kept on
screen as one layer of pixels over the arrows (issue 36 item 5): an edit draws them once, and
anything that changes them (the receiver, the mask, a token, the language) is drawn anew."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from pytestqt.qtbot import QtBot

from app.canvas.arrows import ArrowSpec, AttentionArrows
from app.canvas.number_layer import forget_layers
from app.canvas.theme import SLIDE
from tests.app.on_screen import counted_calls, painted_on_screen
from tests.app.on_screen import no_kept_layers as no_kept_layers  # autouse

SCALE = 0.6
N = 5


def shares(seed: int, visible: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """Two heads of softmax rows over the visible keys."""
    logits = np.random.default_rng(seed).normal(size=(2, N, N))
    weights: npt.NDArray[np.float64] = np.where(visible, np.exp(logits), 0.0)
    return weights / weights.sum(axis=-1, keepdims=True)


def arrows(seed: int = 0, receiver: int = N - 1, lang: str = "en", token: str = "t0",
           visible: npt.NDArray[np.bool_] | None = None) -> AttentionArrows:
    seen = np.tril(np.ones((N, N), dtype=bool)) if visible is None else visible
    return AttentionArrows(ArrowSpec(tokens=[token, *(f"t{k}" for k in range(1, N))],
                                     weights=shares(seed, seen), visible=seen,
                                     receiver=receiver, heads=[0, 1]),
                           SLIDE, f"Who “t{receiver}” reads", lang=lang)


def painted(item: AttentionArrows, monkeypatch: pytest.MonkeyPatch
            ) -> tuple[npt.NDArray[np.uint8], int]:
    """``item`` painted on screen at :data:`SCALE` (a fraction of a pixel off), and how many
    times its boxes and words were drawn."""
    draw_fixed = AttentionArrows._draw_fixed
    drawn = counted_calls(monkeypatch, AttentionArrows, "_draw_fixed")
    pixels = painted_on_screen(item, (700, 500), (2.3, 4.7), SCALE)
    monkeypatch.setattr(AttentionArrows, "_draw_fixed", draw_fixed)
    return pixels, drawn[0]


def whole(item: AttentionArrows, monkeypatch: pytest.MonkeyPatch) -> npt.NDArray[np.uint8]:
    """``item`` painted with no layer kept (its words laid out once already, as an edited
    frame's are: on screen a text met before is drawn from its kept glyphs)."""
    painted(item, monkeypatch)
    forget_layers()
    pixels, count = painted(item, monkeypatch)
    assert count == 1
    forget_layers()
    return pixels


def test_an_edit_of_the_shares_draws_the_boxes_and_words_once(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = whole(arrows(seed=1), monkeypatch)
    first, count = painted(arrows(seed=0), monkeypatch)
    assert count == 1, "no layer kept yet"
    pixels, count = painted(arrows(seed=1), monkeypatch)
    assert count == 0, "other shares, the same boxes: the layer as kept"
    np.testing.assert_array_equal(pixels, expected)
    assert (pixels != first).any(), "the arrows themselves are drawn anew"


@pytest.mark.parametrize("change", ["receiver", "mask", "token", "language"])
def test_what_changes_the_boxes_or_words_is_never_taken_from_the_kept_layer(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    visible = np.tril(np.ones((N, N), dtype=bool))
    if change == "mask":
        visible[N - 1, 2] = False  # the receiver may not read key 2: its box dashed
    other = arrows(receiver=2 if change == "receiver" else N - 1,
                   token="t9" if change == "token" else "t0",
                   lang="zh" if change == "language" else "en", visible=visible)
    expected = whole(other, monkeypatch)
    before, _count = painted(arrows(), monkeypatch)
    pixels, count = painted(other, monkeypatch)
    assert count == 1, "drawn anew"
    np.testing.assert_array_equal(pixels, expected)
    assert (pixels != before).any()
