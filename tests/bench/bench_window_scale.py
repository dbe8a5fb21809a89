"""The window at 2026's scale (issue 37, item 4): a Llama-3.2-1B-shaped checkpoint opened, stepped,
edited and grown in the window, each action's clock time and the window's longest freeze meanwhile
(a 10-ms timer's longest gap; target: none over 100 ms, progress and Cancel on anything over
half a second; File → Open checkpoint to the first painted frame ≤ 20 s).

Run with ``OPENBLAS_NUM_THREADS=1 .venv/bin/python tests/bench/bench_window_scale.py
[--shape llama-3.2-1b] [--layers N] [--steps 20] [--edits 3] [--keep DIR] [--profile]`` (not
collected by pytest; never fails; ``--keep``: the checkpoint written in DIR once and reused,
``--profile``: where the interface thread was while frozen, by action,
:mod:`tests.bench.freeze_sampler`). It writes :mod:`tests.bench.bench_scale`'s random bfloat16
checkpoint of the shape in a temporary folder (Llama-3.2-1B: 2.5 GB on disk, 9.9 GB of memory
as a float64 document: one document at a time), and in one window that first shows the built-in
example:

- File → Open checkpoint… with bench_scale's 16-token text, until the first frame is painted,
  then until the editor's grids of the part shown are built (the window settled);
- the timeline stepped forward from the first step, each step until painted, then the head's
  steps (the unembedding and the vocabulary's 128,256 columns) chosen one by one;
- one cell of layer 1's Wq and one of the unembedding edited, each until painted and the whole
  trace is in;
- Generate next, until the longer document is painted.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication

from app.files.checkpoint import Choice, open_checkpoint
from app.window.studio import StudioWindow
from tests.bench.bench_open_window import Gaps, shown_example_window
from tests.bench.bench_scale import SHAPES, TEXT, write_checkpoint
from tests.bench.freeze_sampler import FreezeSampler
from tests.bench.timing import report

EDITS = ("layers.0.attention.Wq", "head.unembed")
"""The cells edited: a layer's query weights (d × d) and the unembedding (d × V)."""
HEAD_STEPS = ("final_norm", "logits", "probs", "sample")
"""The steps that show the unembedding and the vocabulary, gone to from the timeline."""


def until(application: QApplication, done: Callable[[], bool]) -> None:
    """Run the event loop (idle between events, as the window's own does) until ``done()``."""
    while not done():
        application.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)


SAMPLER: FreezeSampler | None = None
"""With ``--profile``: where the interface thread is while frozen, by action."""


def measured(application: QApplication, window: StudioWindow, gaps: Gaps,
             action: Callable[[], object], done: Callable[[], bool],
             label: str = "") -> tuple[float, float, float]:
    """Milliseconds from ``action`` until the canvas has painted, until ``done()`` holds with
    the window idle, and the longest freeze meanwhile."""
    painted = [False]

    def mark() -> None:
        painted[0] = True

    window.canvas.repainted.connect(mark)
    gaps.longest = 0
    if SAMPLER is not None:
        SAMPLER.label = label
    began = time.perf_counter()
    action()
    until(application, lambda: painted[0])
    first = (time.perf_counter() - began) * 1000
    until(application, lambda: done() and not window.state.busy and settled(window))
    whole = (time.perf_counter() - began) * 1000
    window.canvas.repainted.disconnect(mark)
    return first, whole, float(gaps.longest)


def settled(window: StudioWindow) -> bool:
    """Whether the window has nothing left queued: the editor's grids built, the timeline's
    room measured, no step waiting for its weights."""
    editor = window.editor
    weights = getattr(window, "step_weights", None)  # a checkout before it: none
    room_work = getattr(window.timeline, "room_work", None)  # a checkout before it: none
    return (not editor._queued and not window.timeline.room_timer.isActive()
            and (room_work is None or not room_work.isActive())
            and (weights is None or weights.waiting is None))


def line(label: str, figures: list[tuple[float, float, float]]) -> None:
    report(f"{label}: painted", [first for first, _, _ in figures])
    report("… settled", [whole for _, whole, _ in figures])
    report("… longest freeze", [gap for _, _, gap in figures], 100, on="p95")
    if 1 < len(figures) <= 5:  # a few repeats: each one (the median hides the worst)
        print("… each (painted, freeze): " + ", ".join(f"{first:.0f} ({gap:.0f})"
                                                    for first, _, gap in figures))


def bench(folder: Path, steps: int, edits: int) -> None:
    application, window = shown_example_window()
    gaps = Gaps()
    if SAMPLER is not None:
        gaps.timer.timeout.connect(SAMPLER.tick)
    gaps.start()
    choice = Choice(folder, TEXT, None)
    opened = measured(application, window, gaps,
                      lambda: open_checkpoint(window, lambda _parent: choice),
                      lambda: window.state.scenario.n > 0 and window.state.scenario.d > 16,
                      "open")
    line("File → Open checkpoint", [opened])
    state = window.state
    n = state.scenario.n
    stepped = [(state.trace.steps[state.step + 1].id,
                measured(application, window, gaps, window.timeline.next, lambda: True,
                         f"step {state.trace.steps[state.step + 1].id}"))
               for _ in range(steps)]
    line(f"step forward ({steps} steps)", [figures for _, figures in stepped])
    slowest = sorted(stepped, key=lambda pair: -pair[1][2])[:4]
    print("… the longest freezes: " + ", ".join(f"{step} {gap:.0f} ms"
                                                for step, (_, _, gap) in slowest))
    print("… each (painted, freeze): " + ", ".join(
        f"{step} {first:.0f} ({gap:.0f})" for step, (first, _, gap) in stepped))
    head = [(step, measured(application, window, gaps,
                            lambda step=step: state.set_step(state.trace.step_index(step)),
                            lambda: True, f"head {step}")) for step in HEAD_STEPS]
    line("the head's steps", [figures for _, figures in head])
    print("… each: " + ", ".join(f"{step} {first:.0f} ms (freeze {gap:.0f})"
                                 for step, (first, _, gap) in head))
    state.set_step(2)
    for path in EDITS:
        shape = state.scenario.weight(path).shape
        line(f"edit {path} {shape[0]}×{shape[1]}", [
            measured(application, window, gaps,
                     lambda k=k, path=path: state.edit_cell(path, k, 7, 0.25 + k),
                     lambda: True, f"edit {path}") for k in range(edits)])
    line(f"Generate next ({n} → {n + 1})", [
        measured(application, window, gaps, window.generation.button.click,
                 lambda: state.scenario.n == n + 1, "generate")])
    state.undo_stack.setClean()
    window.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", default="llama-3.2-1b", choices=sorted(SHAPES))
    parser.add_argument("--layers", type=int, help="the shape cut to this many layers")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--edits", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the checkpoint in this folder once and "
                        "reuse it on later runs (the same shape and layers)")
    parser.add_argument("--profile", action="store_true", help="sample the interface thread's "
                        "stack while the window is frozen and print where it was, by action")
    options = parser.parse_args()
    config = dict(SHAPES[options.shape])
    if options.layers:
        config["num_hidden_layers"] = options.layers
    if options.profile:
        global SAMPLER
        SAMPLER = FreezeSampler()
        SAMPLER.start()
    with tempfile.TemporaryDirectory(prefix="qkv-window-scale-") as work:
        name = f"{options.shape}-{config['num_hidden_layers']}"
        folder = (options.keep or Path(work)) / name
        if (folder / "model.safetensors").exists():
            size = (folder / "model.safetensors").stat().st_size
        else:
            size = write_checkpoint(folder, config)
        print(f"{options.shape}, {config['num_hidden_layers']} layers: {size / 2**30:.2f} GiB "
              f"bf16; load {os.getloadavg()[0]:.1f}", flush=True)
        bench(folder, options.steps, options.edits)
    peak = next(line for line in Path("/proc/self/status").read_text().splitlines()
                if line.startswith("VmHWM"))
    print(f"peak memory: {int(peak.split()[1]) / 2**20:.2f} GiB; load "
          f"{' '.join(f'{load:.1f}' for load in os.getloadavg())}")
    if SAMPLER is not None:
        SAMPLER.report()


if __name__ == "__main__":
    main()
