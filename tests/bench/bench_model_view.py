"""The model view and the logit lens of a GPT-2-small-shaped document (12 layers × 12 heads,
32 tokens, a vocabulary of 50,257): the time from asking (View → Model view, View → Logit lens)
to the window painted, and a PNG export of each.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tests/bench/bench_model_view.py``. Prints the
median and p95 of each; never fails on speed (issue #38 asks for 1 s and 10 s for the model
view, 2 s for the lens).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.canvas.lens_view import LensItem, LensOptions  # noqa: E402
from app.canvas.model_view import ModelViewItem, ModelViewOptions  # noqa: E402
from app.canvas.theme import SLIDE  # noqa: E402
from app.export.picture_export import picture_frame, write_picture  # noqa: E402
from engine import Trace, compute  # noqa: E402
from engine.checkpoint import import_checkpoint  # noqa: E402
from tests.bench.gpt2_small import make_checkpoint, text_of  # noqa: E402

TOKENS = 32
RUNS = 5


def gpt2_trace(folder: Path) -> Trace:
    make_checkpoint(folder / "ckpt")
    return compute(import_checkpoint(folder / "ckpt", text_of(TOKENS)))


def main() -> None:
    app = QApplication.instance() or QApplication([])
    from app.window.studio import StudioWindow

    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        trace = gpt2_trace(folder)
        window = StudioWindow(trace.scenario, trace=trace)
        window.show()
        app.processEvents()
        timings: dict[str, list[float]] = {}
        for _ in range(RUNS):
            start = time.perf_counter()
            view = window.view_menu.show_model_view(window)
            view.view.viewport().repaint()
            app.processEvents()
            timings.setdefault("model view, 144 heads, shown in the window", []).append(
                time.perf_counter() - start)
            start = time.perf_counter()
            lens = window.view_menu.show_lens(window)
            assert lens is not None
            lens.view.viewport().repaint()
            app.processEvents()
            timings.setdefault("logit lens, 13 readings, shown in the window", []).append(
                time.perf_counter() - start)
        for _ in range(RUNS):
            for name, item in (("model view", ModelViewItem(trace, ModelViewOptions())),
                               ("logit lens", LensItem(trace, LensOptions()))):
                start = time.perf_counter()
                frame = picture_frame(item, item.title(), SLIDE)
                write_picture(frame, SLIDE, "png", folder / "picture.png", QSize(1920, 1080))
                timings.setdefault(f"{name}, PNG export (the item made before)", []).append(
                    time.perf_counter() - start)
        window.close()
    for name, times in timings.items():
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        print(f"{name}, {TOKENS} tokens: median {statistics.median(times):.3f} s, "
              f"p95 {p95:.3f} s")


if __name__ == "__main__":
    main()
