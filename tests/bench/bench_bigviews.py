"""A step change on a GPT-2-shaped layer in the window (not a test): d = 768, 12 heads, FFN
3072, n = 8, a vocabulary of 4,096 (what the reader accepts today) and of 50,257 (GPT-2's, set
on the scenario directly), in one run. Each step is shown in turn, and the time from the click
until the canvas has painted it is measured; prints median and p95 (target 100 ms), never fails.

Run with ``OPENBLAS_NUM_THREADS=1 .venv/bin/python tests/bench/bench_bigviews.py [--rounds 3]``
from the repository root.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.window.studio import StudioWindow
from tests.bench.timing import gpt2_shaped, report


def step_changes(window: StudioWindow, rounds: int) -> list[float]:
    """Milliseconds from each step change until the canvas repainted, every step ``rounds``
    times (after one round to warm up: the document's type scale, the heat maps' blocks)."""
    times: list[float] = []
    count = len(window.state.trace.steps)
    for warm in [True] + [False] * rounds:
        for index in range(count):
            loop = QEventLoop()
            window.canvas.repainted.connect(loop.quit)
            QTimer.singleShot(5000, loop.quit)
            start = time.perf_counter()
            window.state.set_step(index)
            window.canvas.viewport().update()
            loop.exec()
            window.canvas.repainted.disconnect(loop.quit)
            if not warm:
                times.append((time.perf_counter() - start) * 1000.0)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    for vocab in (4096, 50_257):
        window = StudioWindow(gpt2_shaped(vocab=vocab))
        window.resize(1024, 768)
        window.show()
        app.processEvents()
        report(f"step change, d 768, vocabulary {vocab:,}", step_changes(window, args.rounds),
               target=100.0, on="p95")
        window.close()
        window.deleteLater()
        app.processEvents()


if __name__ == "__main__":
    main()
