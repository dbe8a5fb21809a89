"""Where one edit → repaint spends its time (not a test): the interface thread's CPU time per
piece (on the shared machine the clock time of a piece is mostly other processes' turns),
median per edit.

Run with ``.venv/bin/python tests/bench/bench_edit_split.py [n] [step] [runs]`` from the
repository root (defaults: 16 positions, the shares step, 25 edits; ``n`` = ``gpt2`` edits W1 of
a GPT-2 small layer on its FFN step, whose computation runs in a worker). Each piece below is
wrapped with a timer while Wq[0, 0] (W1[0, 0]) is typed again and again, as in
``bench_window.py``; pieces nest (the
frame build holds the composition and the layout, the canvas paint holds every item's paint),
so the lines do not add up to the total. Each line ends with how many times the piece ran per
edit (median): one paint event, one frame build and one layout search an edit, none twice.
"""

from __future__ import annotations

import functools
import importlib
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app import APP_NAME  # noqa: F401  (first: app/__init__.py sets numpy's huge pages)
from engine import parse_scenario
from tests.bench.timing import attention_scenario, gpt2_layer

PIECES = (
    ("app.model.edits", "Document", "edit", "the edit (a new document)"),
    ("app.state.session", None, "compute", "compute (engine)"),
    ("app.state.session", None, "retraced", "the trace worked again from the edit"),
    ("app.window.timeline", "Timeline", "_on_trace", "timeline: the current step's text"),
    ("app.editor.model", "MatrixModel", "_refresh", "editor grids"),
    ("app.window.studio", "StudioWindow", "refresh_canvas", "frame build (refilled or new)"),
    ("app.canvas.compose", None, "compose", "  document type scale"),
    ("app.canvas.compose", None, "legible_composition", "  document type scale, if legible"),
    ("app.canvas.compose", None, "compose_alone", "  the frame by itself"),
    ("app.canvas.compose", None, "lay_out", "  the step's picture laid out"),
    ("app.canvas.view", "CanvasView", "paintEvent", "canvas paint"),
    ("app.canvas.grid", "MatrixGrid", "paint", "  grids"),
    ("app.canvas.grid", "MatrixGrid", "_draw_shapes", "    colours, lines, masks"),
    ("app.canvas.number_layer", None, "paint_layer", "    numbers and labels (their layer)"),
    ("app.canvas.grid", "MatrixGrid", "_paint_words", "    numbers and labels painted straight"),
    ("app.canvas.grid", "MatrixGrid", "_heat_picture", "    large grids' colour images"),
    ("app.canvas.arrows", "AttentionArrows", "paint", "  arrows"),
    ("app.canvas.layout", "TextItem", "paint", "  words of the sheet"),
)
"""Module, class (None: a module function), attribute, label."""

spent: dict[str, float] = {}
calls: dict[str, int] = {}


def timed(label: str, original: Callable[..., object]) -> Callable[..., object]:
    @functools.wraps(original)
    def wrapper(*args: object, **kwargs: object) -> object:
        start = time.thread_time()
        calls[label] = calls.get(label, 0) + 1
        try:
            return original(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.thread_time() - start
    return wrapper


def wrap_pieces() -> None:
    """Time every piece, where it is looked up from (a function imported by name into another
    module is wrapped there too)."""
    for module_name, owner, attribute, label in PIECES:
        module = importlib.import_module(module_name)
        target = getattr(module, owner) if owner else module
        original = getattr(target, attribute)
        wrapped = timed(label, original)
        setattr(target, attribute, wrapped)
        if owner is None:
            for other in list(sys.modules.values()):
                if getattr(other, attribute, None) is original and other.__name__.startswith(
                        "app."):
                    setattr(other, attribute, wrapped)


def main() -> int:
    size = sys.argv[1] if len(sys.argv) > 1 else "16"
    layer = size == "gpt2"
    step = sys.argv[2] if len(sys.argv) > 2 else "ffn" if layer else "weights"
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    app = QApplication.instance() or QApplication([])
    from app.window.studio import StudioWindow

    wrap_pieces()
    n = 0 if layer else int(size)
    scenario = parse_scenario(gpt2_layer()) if layer else attention_scenario(
        n, heads=2 if n <= 256 else 1)
    path, base = ("block.ffn.W1", 0.05) if layer else ("attention.Wq", 0.25)
    window = StudioWindow(scenario)
    window.resize(1280, 800)
    window.show()
    window.state.set_step(window.state.trace.step_index(step))
    app.processEvents()
    model = window.editor.tables[path].model()
    painted = [False]
    window.canvas.repainted.connect(lambda: painted.__setitem__(0, True))
    per_edit: dict[str, list[float]] = {}
    runs_per_edit: dict[str, list[int]] = {}
    totals = []
    cpu = []
    for run in range(runs + 3):
        spent.clear()
        calls.clear()
        painted[0] = False
        start, used = time.perf_counter(), time.thread_time()
        model.setData(model.index(0, 0), f"{base + 0.01 * run:.2f}")
        while not painted[0]:
            app.processEvents()
        if run >= 3:  # the first edits warm caches
            totals.append((time.perf_counter() - start) * 1000.0)
            cpu.append((time.thread_time() - used) * 1000.0)
            for _module, _owner, _attribute, label in PIECES:
                per_edit.setdefault(label, []).append(spent.get(label, 0.0) * 1000.0)
                runs_per_edit.setdefault(label, []).append(calls.get(label, 0))
    print(f"n={size}, {step} step, {runs} edits: edit → repaint median "
          f"{statistics.median(totals):.1f} ms, its CPU time {statistics.median(cpu):.1f} ms")
    for _module, _owner, _attribute, label in PIECES:
        print(f"  {label:<40} median {statistics.median(per_edit[label]):6.2f} ms"
              f"  × {statistics.median(runs_per_edit[label]):g}")
    window.state.undo_stack.setClean()
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
