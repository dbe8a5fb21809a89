"""F5 at 1024 × 768 and a 4:3 export 1024 wide,
every step of the small built-in examples
(:mod:`tests.app.back_row`)."""

from __future__ import annotations

from app.model.examples import example_names
from app.model.presets import PRESETS
from tests.app.back_row import GROUPS, PRESET, group_tests
from tests.app.back_row import projector as projector  # the 1024 × 768 canvas fixture

test_presented_at_1024_by_768, test_exported_4_by_3_1024_wide = group_tests("examples")


def test_the_groups_hold_every_example_and_preset_once() -> None:
    groups = [name for names in GROUPS.values() for name in names]
    assert sorted(groups) == sorted([*example_names(), *(PRESET + name for name in PRESETS)])
