"""Export benchmark (not a test): prints median and p95 times.

Run with ``.venv/bin/python tests/bench/bench_export.py`` from the repository root.

- One 1920 × 1080 PNG frame and one SVG frame of the weights step, for F11 and for a
  64-position scenario (d = 16, two heads, seeded random values), inside a running process:
  build the frame, paint it, encode the bytes. Target: ≤ 100 ms each.
- A whole F11 deck (5 slides) from the command line, process start included
  (``qkv-studio export f11 --format pptx``, editable, and with ``--pptx-pictures``).

``--profile`` prints where the time of the slowest in-process case goes (cProfile).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.export.render import build_frame, png_bytes, render_image, svg_bytes  # noqa: E402
from app.export.settings import export_size  # noqa: E402
from app.model.examples import example_path  # noqa: E402
from engine import Trace, compute, load_scenario  # noqa: E402
from tests.bench.timing import attention_scenario, report, timed  # noqa: E402

TARGET_MS = 100.0


def sixty_four_positions() -> Trace:
    """A 64-position scenario: d = 16, two heads of width 8, causal, seeded random values."""
    return compute(attention_scenario(64))


def png_frame(trace: Trace, step: int) -> Callable[[], bytes]:
    def run() -> bytes:
        return png_bytes(render_image(build_frame(trace, step), QSize(*export_size())))
    return run


def svg_frame(trace: Trace, step: int) -> Callable[[], bytes]:
    def run() -> bytes:
        return svg_bytes(build_frame(trace, step), QSize(*export_size()))
    return run


def deck_from_command_line(runs: int, *extra: str) -> list[float]:
    command = [str(Path(sys.executable).parent / "qkv-studio"), "export", "f11", "--format",
               "pptx", *extra]
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([*command, "--out", str(Path(folder) / "f11.pptx")], check=True,
                           stdout=subprocess.DEVNULL, timeout=120)
            times.append((time.perf_counter() - start) * 1000.0)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--deck-runs", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    application = QApplication.instance() or QApplication([])
    f11 = compute(load_scenario(example_path("f11")))
    big = sixty_four_positions()
    cases = {
        "F11 weights · PNG 1920 × 1080": png_frame(f11, f11.step_index("weights")),
        "F11 weights · SVG": svg_frame(f11, f11.step_index("weights")),
        "64 positions weights · PNG 1920 × 1080": png_frame(big, big.step_index("weights")),
        "64 positions weights · SVG": svg_frame(big, big.step_index("weights")),
    }
    slowest, slowest_median = "", -1.0
    for label, action in cases.items():
        times = timed(action, args.runs)
        report(label, times, TARGET_MS)
        if statistics.median(times) > slowest_median:
            slowest, slowest_median = label, statistics.median(times)
    report("F11 deck, 5 editable slides, CLI incl. start-up",
           deck_from_command_line(args.deck_runs), None)
    report("F11 deck, 5 picture slides, CLI incl. start-up",
           deck_from_command_line(args.deck_runs, "--pptx-pictures"), None)
    if args.profile:
        print(f"\nprofile of {slowest}:")
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(5):
            cases[slowest]()
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(18)
    del application
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
