"""Memory given back when a big document goes (not a test; never fails): a Llama-3.2-1B-shaped
checkpoint (cut to ``--layers``, 2 by default: its 2.1 GB unembedding made ready is most of it)
shown to its FFN, logits, probabilities and draw, then

- in the one window: the built-in example opened over it;
- in a second window: that window closed, the first left on the example.

Prints the process's resident memory (VmRSS) and the weights kept made ready before and after,
with Python's automatic cycle collection switched off (what a window lets go of by itself; the
collector would run some time later, or never while the program idles); ``--collector`` leaves
it on.

Run with ``OPENBLAS_NUM_THREADS=1 .venv/bin/python tests/bench/bench_let_go.py [--layers N]
[--keep FOLDER]`` (``--keep``: the checkpoint written there once and reused).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication

from app.canvas import prepared_drawing
from app.files.checkpoint import Choice, open_checkpoint
from app.window.studio import StudioWindow
from engine.checkpoint import import_checkpoint
from tests.bench.bench_open_window import shown_example_window
from tests.bench.bench_scale import SHAPES, TEXT, write_checkpoint

SHOWN = ("ffn", "logits", "probs", "sample")
"""The steps shown before the document goes (each makes weights ready or draws)."""


def resident() -> str:
    """The process's resident memory, in GB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return f"{int(line.split()[1]) / 1e6:.2f} GB"
    return "?"


def settle(application: QApplication, seconds: float) -> None:
    """Run the event loop for ``seconds``, deleting what was deleted later on the way."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        application.processEvents()


def shown(application: QApplication, window: StudioWindow) -> None:
    """Each of :data:`SHOWN` steps on screen in turn."""
    ops = [step.op for step in window.state.trace.steps]
    for op in SHOWN:
        window.state.set_step(ops.index(op))
        settle(application, 5.0)


def report(label: str) -> None:
    """The memory now, and that of the weights kept made ready."""
    kept = sum(made.values.nbytes for made in prepared_drawing._PREPARED) / 1e9
    print(f"{label:<44} VmRSS {resident():>8}   made ready {kept:.2f} GB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--collector", action="store_true")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp()) / "checkpoint"
    if not folder.exists():
        write_checkpoint(folder, {**SHAPES["llama-3.2-1b"], "num_hidden_layers": args.layers})
    application, window = shown_example_window()
    if not args.collector:
        gc.disable()
    report("the example")
    second = StudioWindow(import_checkpoint(folder, TEXT))
    second.show()
    shown(application, second)
    report("a second window shown to its draw")
    second.state.undo_stack.setClean()
    second.close()
    del second
    settle(application, 2.0)
    report("… that window closed")
    window.state.undo_stack.setClean()
    open_checkpoint(window, lambda _parent: Choice(folder, TEXT, None))
    while window.state.scenario.d <= 16 or window.state.busy:
        settle(application, 0.1)
    shown(application, window)
    report("the same checkpoint in the first window")
    window.state.undo_stack.setClean()
    window.open_example("F11")
    settle(application, 2.0)
    report("… the example opened over it")


if __name__ == "__main__":
    main()
