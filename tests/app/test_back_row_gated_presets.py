"""F5 at 1024 × 768 and a 4:3 export 1024 wide,
every step of the presets with a gated FFN (Llama, Mistral, Qwen2)
(:mod:`tests.app.back_row`)."""

from __future__ import annotations

import pytest

from app.window.presentation import PresentationView
from tests.app.back_row import GROUPS, check_exported, check_presented, steps_of
from tests.app.back_row import projector as projector  # the 1024 × 768 canvas fixture

pytestmark = pytest.mark.slow
NAMES = GROUPS["gated_presets"]


@pytest.mark.parametrize(("name", "k"), steps_of(NAMES))
def test_presented_at_1024_by_768(projector: PresentationView, name: str, k: int) -> None:
    check_presented(projector, name, k)


@pytest.mark.parametrize(("name", "k"), steps_of(NAMES))
def test_exported_4_by_3_1024_wide(name: str, k: int) -> None:
    check_exported(name, k)
