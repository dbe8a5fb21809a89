"""Edit-to-repaint latency of the studio window (not a test): prints median and p95.

Run with ``.venv/bin/python tests/bench/bench_window.py`` from the repository root.

For n = 2, 16, 64 and 128 positions (d = 16, two heads of width 8, causal), the window shows the
shares step with its arrows; one run types a new number into a Wq cell through the grid's model
(the path the cell editor takes), then waits until the canvas has painted the new frame.
Targets: p95 ≤ 16 ms up to n = 16 and ≤ 50 ms at n = 128 (at n = 128 only each row's strongest
arrows are drawn; ``--all-arrows`` measures with every arrow).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.window import StudioWindow
from tests.bench.timing import attention_scenario, report

SIZES = (2, 16, 64, 128)
TARGETS = {2: 16.0, 16: 16.0, 64: None, 128: 50.0}


def edit_to_repaint(window: StudioWindow, app: QApplication, runs: int) -> list[float]:
    """Milliseconds from committing a cell edit until the canvas has painted the new frame."""
    model = window.editor.tables["attention.Wq"].model()
    index = model.index(0, 0)
    painted = [False]
    window.canvas.repainted.connect(lambda: painted.__setitem__(0, True))
    times = []
    for run in range(runs + 1):
        painted[0] = False
        start = time.perf_counter()
        model.setData(index, f"{0.25 + 0.01 * run:.2f}")
        while not painted[0]:
            app.processEvents()
        if run:  # the first run warms caches
            times.append((time.perf_counter() - start) * 1000.0)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--all-arrows", action="store_true")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    for n in SIZES:
        started = time.perf_counter()
        window = StudioWindow(attention_scenario(n))
        window.resize(1280, 800)
        window.show()
        window.state.set_step(window.state.trace.step_index("weights"))
        window.state.set_show_all_arrows(args.all_arrows)
        app.processEvents()
        opened = (time.perf_counter() - started) * 1000.0
        times = edit_to_repaint(window, app, args.runs)
        report(f"n={n:<4} edit → repaint (weights step)", times, TARGETS[n], on="p95")
        print(f"{'':<6}window built and shown in {opened:.0f} ms")
        window.state.undo_stack.setClean()
        window.close()
        window.deleteLater()
        app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
