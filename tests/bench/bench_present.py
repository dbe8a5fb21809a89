"""How long presentation (F5) takes to lay out a frame for its screen (not a test): prints the
median and p95 of building one step's frame alone from cold caches, per example and screen.

Run with ``.venv/bin/python tests/bench/bench_present.py`` from the repository root
(``OPENBLAS_NUM_THREADS=1``). A frame alone measures its step at every wrap width, and again
with the rows after a source arranged each other way (projections, inputs, RoPE) and without
the arrows (shares and mix steps under the screen's target): this is what stepping to a frame
not shown before costs. "whole" never splits a step (a frame alone in the window), "slides"
may show one as two (presentation: a step still under its target is measured again as each
half, pronoun's mask + softmax and continue's FFN at 1080 lines).
"""

from __future__ import annotations

import itertools
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.canvas.compose import forget
from app.canvas.context import FrameOptions
from app.canvas.frame import FrameItem
from app.canvas.worked_row import WORKED_ROW_POSITIONS
from app.model.examples import example_path
from engine import compute, load_scenario

EXAMPLES = ("g01", "multihead", "three-layers", "encoder-decoder", "pronoun", "continue")
VARIANTS = (("whole", None), ("slides", 0))
"""Frames that never split a step, and presentation's, which may show one as two slides."""
SCREENS = (("4:3", 768), ("16:9", 1080))
ROUNDS = 3


def main() -> int:
    QApplication.instance() or QApplication([])
    for name in EXAMPLES:
        trace = compute(load_scenario(example_path(name)))
        for (aspect, lines), (variant, part) in itertools.product(SCREENS, VARIANTS):
            options = FrameOptions(aspect=aspect,
                                   worked_row=trace.scenario.n <= WORKED_ROW_POSITIONS)
            times: list[float] = []
            for _ in range(ROUNDS):
                for k in range(len(trace.steps)):
                    forget()
                    start = time.perf_counter()
                    FrameItem(trace, k, options, alone=True, screen=lines, part=part)
                    times.append(1000 * (time.perf_counter() - start))
            times.sort()
            p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
            print(f"{name:16} {aspect:5} {variant:6} {len(trace.steps):3} steps: median "
                  f"{statistics.median(times):6.1f} ms, p95 {p95:6.1f} ms, "
                  f"worst {times[-1]:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
