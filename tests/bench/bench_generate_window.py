"""Generate next in the window (issue 24), not a test: milliseconds from pressing the button to the
window repainted with the longer document, at the GPT-2 small layer size of
:mod:`tests.bench.bench_generate` (d = 768, 12 heads, FFN 3072, a vocabulary of 256; n = 8 → 9), on
the probabilities step. The window grows the trace from the KV cache
(:func:`engine.generation.grow.grown`). Each run is undone (untimed) so that every press appends to
n = 8.

Run with ``.venv/bin/python tests/bench/bench_generate_window.py [--runs 20]`` from the
repository root. Target: median and p95 ≤ 150 ms.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.model.edits import AppendToken
from app.window.studio import StudioWindow
from engine import Trace, compute, parse_scenario
from engine.generation.grow import grown
from tests.bench.bench_generate import TOKEN, N, gpt2_layer
from tests.bench.timing import report, timed

TARGET = 150.0


def press_to_repaint(window: StudioWindow, app: QApplication,
                     runs: int) -> tuple[list[float], list[float]]:
    """Milliseconds from pressing Generate next until the canvas has painted the n + 1 frame:
    on the clock, and the CPU time this process used meanwhile (every thread)."""
    painted = [False]
    window.canvas.repainted.connect(lambda: painted.__setitem__(0, True))

    def wait(n: int) -> None:
        while not (painted[0] and window.state.trace.scenario.n == n and not window.state.busy):
            # Idle until an event comes, as the window's own loop does: a busy loop would take
            # a core from the worker computing the trace.
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)

    times: list[float] = []
    cpu: list[float] = []
    for run in range(runs + 1):
        painted[0] = False
        start, used = time.perf_counter(), time.process_time()
        window.generation.button.click()
        wait(N + 1)
        if run:  # the first run warms caches
            times.append((time.perf_counter() - start) * 1000.0)
            cpu.append((time.process_time() - used) * 1000.0)
        painted[0] = False
        window.undo_action.trigger()
        wait(N)
    return times, cpu


def parts(window: StudioWindow, app: QApplication, runs: int) -> None:
    """Where the time goes: the edit (the validated longer document), its trace (grown from
    the KV cache, as the window does, or computed whole), and the frame of the probabilities
    step for it."""
    scenario = window.state.scenario
    longer = AppendToken(TOKEN).apply(scenario)
    report("  AppendToken: the 9-token document", timed(lambda: AppendToken(TOKEN).apply(
        scenario), runs))
    trace = window.state.trace
    report("  grown: the 9-token trace from the cache", timed(lambda: grown(trace, longer), runs))
    report("  compute: the trace of the 9 tokens", timed(lambda: compute(longer), runs))
    traces: tuple[Trace, Trace] = (compute(longer), window.state.trace)

    def frame(k: int) -> None:
        window.state.show(traces[k % 2].scenario, traces[k % 2])
        window.canvas.build_pending()
        app.processEvents()

    times = timed(lambda: [frame(k) for k in range(2)], runs)
    report("  frames: the probabilities step, 9 then 8", times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    window = StudioWindow(parse_scenario(gpt2_layer()))
    window.resize(1280, 800)
    window.show()
    window.state.set_step(window.state.trace.step_index("probs"))
    app.processEvents()
    wall, cpu = press_to_repaint(window, app, runs)
    report("GPT-2 layer: Generate next → repaint (8 → 9)", wall, TARGET, on="p95")
    report("  CPU time of this process meanwhile", cpu)
    parts(window, app, max(3, runs // 4))
    window.state.undo_stack.setClean()
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
