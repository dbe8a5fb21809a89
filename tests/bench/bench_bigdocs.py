"""Big documents in the window (not a test): how long each action takes, and how long the
interface thread is blocked meanwhile. Prints median and p95; never fails.

Run with ``.venv/bin/python tests/bench/bench_bigdocs.py`` from the repository root
(``--runs 3`` by default; ``--skip-refused`` leaves out the two documents of issue 13).

Documents:

* the two of issue 13, now over the limits of docs/limits.md: ``X 4096×4096`` (n = d = 4096,
  one head of width 4, a 50 MB file) and ``64 heads, n = 512`` (d = 64, heads of width 2).
  Only File → Open is timed: it must refuse them, with the window answering meanwhile.
* the largest accepted: ``n = d = 512 block`` (X, Wq, Wk, Wv, Wo, W1, W2 and a 512-word
  vocabulary head, each 512×512 = 2¹⁸ numbers), ``12 heads, n = 147`` (12·147² scores) and
  a GPT-2 small layer (:func:`tests.bench.timing.gpt2_layer`: d = 768, 12 heads, FFN 3072,
  n = 8; 7.1 million numbers; ``--only gpt2`` runs just this one).

Actions: open the file (File → Open), type one number into X, save (Ctrl+S), write the recovery
copy, and show each step in turn (composing its frame; the paint that follows is not counted,
as in the measurements of issue 13). For each the script reports ``done``, the time until the
result is on screen or on disk, and ``blocked``, the longest stretch in which the event loop
could not run a 5 ms timer (what the user feels as a frozen window).

Exports (``--only exports`` runs just these): every step of the 64-position document of
bench_export.py (d = 16, two heads) exported from the export dialog as GIF, MP4, PowerPoint and
PNG, with the same two figures: ``blocked`` is then the longest step the interface thread
composes, since the encoding and writing run on a worker. The 5 ms timer itself slows the
worker's pure-Python deck building (each tick takes the interpreter lock back), so the
PowerPoint ``done`` is longer here than in the window.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import QElapsedTimer, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.window.studio import StudioWindow
from engine import parse_scenario
from tests.bench.timing import gpt2_layer, report


def big_x(n: int = 4096) -> dict[str, object]:
    rng = np.random.default_rng(1)
    return {"format": "qkv-studio", "version": 1, "title": f"X {n}×{n}",
            "X": rng.integers(0, 10, (n, n)).tolist(),
            "attention": {"heads": 1, "Wq": rng.integers(-1, 2, (n, 4)).tolist(),
                          "Wk": rng.integers(-1, 2, (n, 4)).tolist(),
                          "Wv": rng.integers(-1, 2, (n, 4)).tolist()}}


def many_heads(n: int = 512, heads: int = 64, d: int = 64) -> dict[str, object]:
    rng = np.random.default_rng(2)

    def table(rows: int, cols: int) -> object:
        return np.round(rng.normal(0.0, 0.5, (rows, cols)), 2).tolist()

    return {"format": "qkv-studio", "version": 1, "title": f"{heads} heads, n = {n}",
            "X": table(n, d), "attention": {"heads": heads, "Wq": table(d, 2 * heads),
                                            "Wk": table(d, 2 * heads),
                                            "Wv": table(d, 2 * heads)}}


def largest_block(n: int = 512) -> dict[str, object]:
    rng = np.random.default_rng(3)

    def table(*shape: int) -> object:
        return np.round(rng.normal(0.0, 0.1, shape), 2).tolist()

    return {"format": "qkv-studio", "version": 1, "title": f"n = d = {n} block",
            "X": table(n, n), "attention": {"heads": 1, "Wq": table(n, n), "Wk": table(n, n),
                                            "Wv": table(n, n), "Wo": table(n, n)},
            "block": {"ffn": {"W1": table(n, n), "W2": table(n, n)}, "unembed": table(n, n)}}


class Stalls:
    """The longest gap between two ticks of a 5 ms timer while something runs."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.longest = 0.0

    def _tick(self) -> None:
        self.longest = max(self.longest, float(self.clock.restart()))

    def measure(self, app: QApplication, action: Callable[[], object],
                done: Callable[[], bool]) -> tuple[float, float]:
        """Run ``action``, let the event loop run until ``done()``; (total, longest gap) in ms."""
        self.longest = 0.0
        self.clock.start()
        self.timer.start()
        start = time.perf_counter()
        action()
        self._tick()
        while not done():
            app.processEvents()
            time.sleep(0.001)
        self._tick()
        total = (time.perf_counter() - start) * 1000.0
        self.timer.stop()
        return total, self.longest


def bench(name: str, runs: int, app: QApplication, stalls: Stalls,
          action: Callable[[int], object], done: Callable[[int], bool]) -> None:
    totals, blocked = [], []
    for run in range(runs):
        total, longest = stalls.measure(app, lambda run=run: action(run),
                                        lambda run=run: done(run))
        totals.append(total)
        blocked.append(longest)
    report(f"{name}: done", totals)
    report(f"{name}: blocked", blocked)


def settled(window: StudioWindow) -> bool:
    """The trace on screen is the trace of the document (no computation outstanding)."""
    return window.state.trace.scenario is window.state.scenario and not window.state.busy


def window_for(app: QApplication) -> StudioWindow:
    window = StudioWindow(parse_scenario({"X": [[1.0]], "attention": {
        "Wq": [[1.0]], "Wk": [[1.0]], "Wv": [[1.0]]}}))
    window.show()
    app.processEvents()
    return window


def close(window: StudioWindow, app: QApplication) -> None:
    window.state.undo_stack.setClean()
    window.close()
    window.deleteLater()
    app.processEvents()


def write(document: dict[str, object], path: Path) -> float:
    """The document as a JSON file (written directly: the refused ones cannot be parsed);
    its size in MB."""
    path.write_text(json.dumps(document), encoding="utf-8")
    return path.stat().st_size / 1e6


def run_refused(label: str, document: dict[str, object], runs: int, folder: Path,
                app: QApplication, stalls: Stalls) -> None:
    source = folder / "refused.qkv.json"
    print(f"-- {label} ({write(document, source):.1f} MB)")
    window = window_for(app)
    before = window.state.scenario
    refusals: list[str] = []
    QMessageBox.warning = lambda *args, **_kw: refusals.append(args[2])  # type: ignore
    bench("open (refused)", runs, app, stalls, lambda _r: window.open_path(source),
          lambda run: len(refusals) > run)
    assert window.state.scenario is before
    print(f"{'':<6}{refusals[-1].splitlines()[-1]}")
    close(window, app)


def run_document(label: str, document: dict[str, object], runs: int, folder: Path,
                 app: QApplication, stalls: Stalls) -> None:
    source = folder / "accepted.qkv.json"
    print(f"-- {label} ({write(document, source):.1f} MB)")
    window = window_for(app)
    bench("open", runs, app, stalls, lambda _r: window.open_path(source),
          lambda _r: window.state.scenario.title == document["title"] and settled(window))

    def edit(run: int) -> None:
        model = window.editor.tables["X"].model()
        model.setData(model.index(0, 0), f"{0.25 + run}")

    bench("edit one cell of X", runs, app, stalls, edit,
          lambda run: float(window.state.trace.scenario.X[0, 0]) == 0.25 + run and
          settled(window))
    window.state.path = folder / "saved.qkv.json"

    def save(_run: int) -> None:
        window.state.undo_stack.resetClean()
        window.save()

    bench("save", runs, app, stalls, save,
          lambda _r: window.state.undo_stack.isClean() and settled(window))
    written: list[str] = []
    window.recovery.written.connect(written.append)

    def copy(_run: int) -> None:
        window.state.undo_stack.resetClean()  # a copy is written only for unsaved work
        window.recovery.write_soon()

    bench("recovery copy", runs, app, stalls, copy, lambda run: len(written) > run)
    steps = len(window.state.trace.steps)
    window.state.set_step(steps - 1)  # so that showing step 1 is a change
    app.processEvents()
    bench(f"step change (each of {steps} steps)", steps, app, stalls,
          lambda run: window.state.set_step(run), lambda run: window.state.step == run)
    close(window, app)


def run_exports(runs: int, folder: Path, app: QApplication, stalls: Stalls) -> None:
    """Every step of the 64-position document of bench_export.py exported from the dialog."""
    from app.canvas import FrameOptions
    from app.export.dialog import ExportDialog
    from engine import compute
    from tests.bench.timing import attention_scenario

    trace = compute(attention_scenario(64))
    print(f"-- 64 positions, export all {len(trace.steps)} steps from the dialog")
    for fmt in ("gif", "mp4", "pptx", "png"):
        def export(run: int, fmt: str = fmt) -> None:
            dialog = ExportDialog(trace, 0, FrameOptions(), name="bench")
            dialog.format_box.setCurrentIndex(dialog.format_box.findData(fmt))
            dialog.all_radio.setChecked(True)
            target = folder / f"run{run}" if fmt == "png" else folder / f"run{run}.{fmt}"
            dialog.destination_edit.setText(str(target))
            dialog.show()
            assert dialog.export(), dialog.last_error
            dialog.deleteLater()

        bench(f"export {fmt}", runs, app, stalls, export, lambda _r: True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-refused", action="store_true")
    parser.add_argument("--only", choices=["documents", "exports", "gpt2"],
                        help="run only the documents, only the exports or only the GPT-2 layer")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    stalls = Stalls()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        os.environ["XDG_DATA_HOME"] = str(folder / "data")
        if args.only in (None, "exports"):
            run_exports(args.runs, folder, app, stalls)
        if args.only in (None, "documents", "gpt2"):
            run_document("GPT-2 small layer (d = 768, 12 heads, FFN 3072, n = 8)", gpt2_layer(),
                         args.runs, folder, app, stalls)
        if args.only in ("exports", "gpt2"):
            return 0
        run_document("n = d = 512 block (largest accepted)", largest_block(), args.runs, folder,
                     app, stalls)
        run_document("12 heads, n = 147 (largest accepted)", many_heads(147, 12, 64),
                     args.runs, folder, app, stalls)
        if not args.skip_refused:
            run_refused("64 heads, n = 512 (issue 13)", many_heads(), args.runs, folder, app,
                        stalls)
            run_refused("X 4096×4096 (issue 13)", big_x(), args.runs, folder, app, stalls)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
