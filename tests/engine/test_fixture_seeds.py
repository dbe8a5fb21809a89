"""The committed checkpoint fixtures are drawn from seeds of their own: two families sharing one
would draw the same random numbers for tensors of the same shapes, and a bug that two of them
share could hide behind the coincidence (olmo2 and gemma3_text shared 2541 until issue 37)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "make_checkpoint_fixtures.py"
FIXTURES = ROOT / "tests" / "engine" / "checkpoints"


def seeds() -> dict[str, int]:
    """``SEEDS`` of the script that writes the fixtures, read without running it (it needs
    ml_dtypes, which the app does not)."""
    for node in ast.parse(SCRIPT.read_text("utf-8")).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == \
                ["SEEDS"]:
            found: dict[str, int] = ast.literal_eval(node.value)
            return found
    raise AssertionError(f"no SEEDS in {SCRIPT}")


def test_every_committed_fixture_has_a_seed_no_other_has() -> None:
    given = seeds()
    assert sorted(given) == sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())
    shared = {seed: sorted(family for family, s in given.items() if s == seed)
              for seed in given.values() if list(given.values()).count(seed) > 1}
    assert not shared, f"families sharing a seed: {shared}"
