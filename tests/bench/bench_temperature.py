"""The temperature slider (issue 24), not a test: milliseconds from one step of the slider to
the window repainted with the draw reshaped, at a 4,096-word vocabulary (a small model: n = 8,
d = 16, one layer), on the draw step. Each step edits the document's ``generation`` settings;
the draw is worked again from the logits the trace has (:func:`engine.generation.redraw.redrawn`).

Two ways of moving: back and forth between two temperatures (every frame's size was measured
before), and one way, a new temperature every step, as a drag is (each new temperature used to
measure every step's size again).

Run with ``.venv/bin/python tests/bench/bench_temperature.py [--runs 40]`` from the repository
root. Target: p95 ≤ 16 ms (one frame).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.window.studio import StudioWindow
from engine import parse_scenario
from tests.bench.timing import report

VOCAB, N, D = 4096, 8, 16
TARGET = 16.0


def small_model() -> dict[str, Any]:
    """One decoder layer of width 16 with an embedding and a head over 4,096 words."""
    rng = np.random.default_rng(4096)

    def table(*shape: int) -> np.ndarray:
        return rng.normal(0.0, 0.5, shape)

    return {"title": "A 4,096-word vocabulary", "tokens": [f"t{k}" for k in range(N)],
            "token_ids": list(range(N)), "embedding": table(VOCAB, D),
            "attention": {"heads": 2, "causal": True, "scale": True,
                          **{name: table(D, D) for name in ("Wq", "Wk", "Wv", "Wo")}},
            "block": {"norm": "layernorm", "placement": "pre",
                      "ffn": {"W1": table(D, 4 * D), "W2": table(4 * D, D)}},
            "head": {"final_norm": True, "unembed": table(D, VOCAB),
                     "vocab": [f"w{k}" for k in range(VOCAB)]},
            "generation": {"temperature": 1.0, "top_k": 40, "top_p": 0.9, "seed": 1,
                           "chosen": []}}


def slider_to_repaint(window: StudioWindow, app: QApplication, runs: int,
                      one_way: bool) -> tuple[list[float], list[float]]:
    """Milliseconds from a slider step until the canvas has painted the new draw, back and
    forth or ``one_way`` (up one step each time): on the clock, and the CPU time this process
    used meanwhile (on a machine shared with other work, the part that is this code's)."""
    painted = [False]
    window.canvas.repainted.connect(lambda: painted.__setitem__(0, True))
    slider = window.generation.slider
    times: list[float] = []
    cpu: list[float] = []
    for run in range(runs + 1):
        painted[0] = False
        value = slider.value() + (1 if one_way or run % 2 == 0 else -1)
        start, used = time.perf_counter(), time.process_time()
        slider.setValue(value)
        while not (painted[0] and not window.state.busy):
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        if run:  # the first run warms caches
            times.append((time.perf_counter() - start) * 1000.0)
            cpu.append((time.process_time() - used) * 1000.0)
    return times, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    runs = parser.parse_args().runs
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    window = StudioWindow(parse_scenario(small_model()))
    window.resize(1280, 800)
    window.show()
    window.state.set_step(window.state.trace.step_index("sample"))
    app.processEvents()
    for way, one_way in (("back and forth", False), ("one way (a drag)", True)):
        wall, cpu = slider_to_repaint(window, app, runs, one_way)
        report(f"4,096 words: slider {way} → repaint", wall, TARGET, on="p95")
        report("  CPU time of this process meanwhile", cpu)
    window.state.undo_stack.setClean()
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
