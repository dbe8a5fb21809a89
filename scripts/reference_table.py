"""Print the importer's agreement with transformers as markdown tables: family × array → the
largest |Δ| between the engine's trace of an imported checkpoint and transformers' own forward
(attention shares of every head in each layer, each layer's output, logits, probabilities).

It runs the reference tests' cases (tests/engine/test_engine_checkpoint_transformers.py: the
same tiny random float64 models, seeds, text and comparison), once with transformers' float32
casts (RMSNorm, the eager softmax, RoPE's angles) computed in float64 as the tests patch them,
once stock. Needs the ``reference`` extra (torch and transformers). Run from the repository
root:

    .venv/bin/python scripts/reference_table.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.engine.test_engine_checkpoint_transformers import (  # noqa: E402
    VARIANTS,
    exact_float64,
    gaps,
)

COLUMNS = ("L1 shares", "L2 shares", "L1 output", "L2 output", "logits", "probs")


def row(case: str, patched: bool) -> list[str]:
    """The case's largest |Δ| per column (— where the model has no such array)."""
    with pytest.MonkeyPatch.context() as monkeypatch, tempfile.TemporaryDirectory() as folder:
        if patched:
            exact_float64(monkeypatch)
        found, _pairs, _trace = gaps(case, Path(folder))
    named = {"logits": found.get("logits"), "probs": found.get("probs")}
    for k in (1, 2):
        named[f"L{k} shares"] = found[f"L{k}.weights"]
        named[f"L{k} output"] = found.get(f"L{k}.resid2", found.get(f"L{k}.norm2"))
    return [case] + [f"{named[column]:.1e}" if named[column] is not None else "—"
                     for column in COLUMNS]


def table(patched: bool) -> str:
    lines = ["| family | " + " | ".join(COLUMNS) + " |",
             "| --- |" + " ---: |" * len(COLUMNS)]
    lines += ["| " + " | ".join(row(case, patched)) + " |" for case in VARIANTS]
    return "\n".join(lines)


def main() -> None:
    print("Max |Δ| against transformers, float64 (its float32 casts patched to float64):\n")
    print(table(patched=True))
    print("\nMax |Δ| against stock transformers (RMSNorm, eager softmax and RoPE angles in "
          "float32):\n")
    print(table(patched=False))


if __name__ == "__main__":
    main()
