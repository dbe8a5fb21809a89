"""A whole GPT-2 small opened in the window (issue 25, "Speed and size"): File → Open checkpoint…
until the first frame is painted (target ≤ 5 s), and File → Open of the saved document until
painted (≤ 2 s), each in a fresh process whose window already shows the built-in example; and
the longest the window stopped answering meanwhile (a 10-ms timer's longest gap).

Run with ``OPENBLAS_NUM_THREADS=1 .venv/bin/python tests/bench/bench_open_window.py [--runs N]
[--baseline TREE]`` (not collected by pytest; never fails); ``--baseline`` measures another
tree's code too (``git archive main | tar -x -C TREE``), run for run alternating with this one's.
The checkpoint is tests/bench/gpt2_small.py's (124 million float32 numbers, 498 MB, in a
temporary folder), read at n = 64.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QElapsedTimer, QTimer
from PySide6.QtWidgets import QApplication

from app.files.checkpoint import Choice, open_checkpoint
from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import load_scenario, save_scenario
from engine.checkpoint import import_checkpoint
from tests.bench.bench_checkpoint import painted
from tests.bench.gpt2_small import make_checkpoint, text_of
from tests.bench.timing import report

TOKENS = 64


class Gaps:
    """A 10-ms timer noting the longest gap between its ticks: how long the window froze."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.longest = 0
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        self.longest = max(self.longest, self.clock.restart())

    def start(self) -> None:
        self.clock.start()
        self.timer.start()


def shown_example_window() -> tuple[QApplication, StudioWindow]:
    """The application and a window showing the built-in example, settled (its first paints
    done), as a user has it before opening anything."""
    application = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(application, QApplication)
    window = StudioWindow(load_scenario(example_path("f11")))
    window.resize(1280, 800)
    window.show()
    for _ in range(20):
        application.processEvents()
        time.sleep(0.01)
    return application, window


def in_a_child(action: str, path: str) -> None:
    """One measurement in this fresh process: prints the milliseconds until painted and the
    longest gap."""
    _application, window = shown_example_window()
    gaps = Gaps()
    gaps.start()
    if action == "import":
        choice = Choice(Path(path), text_of(TOKENS), None)
        took = painted(window, lambda: open_checkpoint(window, lambda _parent: choice))
    else:
        took = painted(window, lambda: window.open_path(Path(path)))
    assert window.state.scenario.n == TOKENS, "not opened"
    print(f"{took:.1f} {gaps.longest}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", nargs=2, metavar=("ACTION", "PATH"))
    parser.add_argument("--baseline", type=Path, metavar="TREE",
                        help="also measure the code of another tree (a `git archive` of main), "
                             "its runs alternating with this tree's")
    arguments = parser.parse_args()
    if arguments.child:
        in_a_child(*arguments.child)
        return
    scripts = {"": Path(__file__)}
    if arguments.baseline:
        scripts = {"baseline ": arguments.baseline / "tests/bench/bench_open_window.py",
                   "this tree ": Path(__file__)}
    with tempfile.TemporaryDirectory() as temp:
        folder, out = Path(temp) / "gpt2-small", Path(temp) / "gpt2.qkv.json"
        size = make_checkpoint(folder)
        save_scenario(import_checkpoint(folder, text_of(TOKENS)), out)
        print(f"checkpoint: {size / 1e6:.1f} MB float32; n = {TOKENS}; load "
              f"{os.getloadavg()[0]:.1f}")
        for label, action, path, target in (
                ("window: import until painted", "import", folder, 5000),
                ("window: open saved document until painted", "open", out, 2000)):
            times: dict[str, list[float]] = {tree: [] for tree in scripts}
            frozen: dict[str, list[float]] = {tree: [] for tree in scripts}
            for _ in range(arguments.runs):
                for tree, script in scripts.items():
                    printed = subprocess.run(
                        [sys.executable, str(script), "--child", action, str(path)],
                        capture_output=True, text=True, check=True).stdout.split()
                    times[tree].append(float(printed[-2]))
                    frozen[tree].append(float(printed[-1]))
            for tree in scripts:
                report(f"{tree}{label}", times[tree], target)
                report(f"{tree}… the window's longest freeze meanwhile", frozen[tree])


if __name__ == "__main__":
    main()
