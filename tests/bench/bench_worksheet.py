"""Worksheet benchmark (not a test): prints median and p95 times, compares variants in one run.

Run with ``OPENBLAS_NUM_THREADS=1 .venv/bin/python tests/bench/bench_worksheet.py`` from the
repository root.

- Answering every built-in exercise of F11 (seven: four fills, three questions whose answers
  compute edited variants).
- Planning F11's worksheet (all seven exercises): its own numbers, then four hand-friendly
  variants (drawn until the softmax discriminates), then three-layers' two variants; and one
  three-layers variant with the rule on the shares asked of every attention against only the
  two its exercises show (each more attention that must discriminate takes many more draws).
- Painting F11's whole sheet and key as A4 PDF bytes; and four variants' sheet, key and slides,
  as File → Export worksheet… paints them on the interface thread (a task per event-loop turn).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.export.worksheet import key_pdf, paint_worksheets, sheet_pdf  # noqa: E402
from app.export.worksheet_plan import choose_exercises, plan_sheets  # noqa: E402
from app.model.examples import example_path  # noqa: E402
from engine import compute, load_scenario  # noqa: E402
from engine.exercises.answers import answer  # noqa: E402
from engine.exercises.hand import hand_variant  # noqa: E402
from tests.bench.timing import report, timed  # noqa: E402


def main() -> None:
    _app = QApplication(["bench"])
    f11 = load_scenario(example_path("f11"))
    three = load_scenario(example_path("three-layers"))
    trace = compute(f11)
    every = choose_exercises(f11, "all")
    report("answer F11's 7 exercises", timed(
        lambda: [answer(trace, exercise) for exercise in f11.exercises], 20))
    report("plan F11's sheet, own numbers", timed(lambda: plan_sheets(f11, every, "en"), 10))
    report("plan F11's sheet, 4 variants", timed(
        lambda: plan_sheets(f11, every, "en", 4, 1), 5))
    report("plan three-layers, 2 variants", timed(
        lambda: plan_sheets(three, choose_exercises(three, "all"), "en", 2, 1), 2))
    # The rule on the shares asked of every attention, against the ones the sheet shows (L1, L2).
    report("three-layers variant, every attention", timed(
        lambda: hand_variant(three, 1, 1), 3))
    report("three-layers variant, the sheet's two", timed(
        lambda: hand_variant(three, 1, 1, {"L1.": None, "L2.": None}), 3))
    sheets = plan_sheets(f11, every, "en")
    report("paint F11's sheet and key (PDF)", timed(
        lambda: (sheet_pdf(sheets, "en"), key_pdf(sheets, "en")), 5))
    four = plan_sheets(f11, every, "en", 4, 1)
    report("paint 4 variants: sheet, key, slides", timed(
        lambda: paint_worksheets(four, "en", key=True, deck=True), 3))


if __name__ == "__main__":
    main()
