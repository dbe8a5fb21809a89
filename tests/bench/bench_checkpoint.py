"""A whole GPT-2 small (issue 25, "Speed and size"): import, reopen, forward, memory, size, edit.

Run with ``OPENBLAS_NUM_THREADS=1 .venv/bin/python tests/bench/bench_checkpoint.py`` (not
collected by pytest; never fails). It makes a GPT-2-small-shaped random float32 checkpoint in a
temporary folder (tests/bench/gpt2_small.py: 124 million numbers, 498 MB) and measures, in one
run:

- import + first compute (``import_checkpoint`` and ``compute`` at n = 64): target ≤ 5 s;
- saving the document and its sidecar, and opening it again (``load_scenario``): ≤ 2 s;
- the whole forward at n = 32 in float64, and torch's float32 time on the same weights where
  torch is importable (here, or by the interpreter ``QKV_TORCH_PYTHON`` names): ≤ 3×;
- peak memory (``VmHWM``, the peak resident size, of a fresh process doing import + compute +
  save, and of one doing reopen + compute; ``ru_maxrss`` would count the benchmark's own memory,
  which a child inherits across fork and exec) against the checkpoint's size: ≤ 3×;
- document + sidecar size against the checkpoint: ≤ 1.1×;
- the engine's part of a step change at d = 768 (finding the step and explaining the first cell
  it writes, ``engine.arithmetic.cells``; the canvas's part is the canvas's): ≤ 100 ms; an edit of
  one weight (``with_cell`` of W1 and the new trace): ≤ 150 ms. The new trace three ways:
  computed whole (``compute``), worked from the first step the edit feeds
  (``engine.forward.retrace``), and the window's path (``edit_cell`` in a window with the edited
  step on screen: the time until its frame is painted with the new numbers, then until the whole
  trace has come from the worker), and its undo; and a step change in that window until painted (the
  canvas's part too).

Threads are pinned to one (OpenBLAS and torch) so both sides are compared alike. ``--window``
measures the window's path alone (a quicker run to compare the canvas's variants).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from engine.scenario.edit import with_cell

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")  # as the app sets it (app/__init__.py)
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from app.window.studio import StudioWindow
from engine import Scenario, Trace, compute, explain, load_scenario, save_scenario
from engine.checkpoint import import_checkpoint
from engine.format.sidecar import sidecar_name
from engine.forward.retrace import first_reader, retraced
from tests.bench.gpt2_small import make_checkpoint, text_of
from tests.bench.timing import report, timed

ROOT = Path(__file__).resolve().parents[2]
PEAK = """
import sys
sys.path.insert(0, {root!r})
from engine import compute, explain, load_scenario, save_scenario
from engine.checkpoint import import_checkpoint
from tests.bench.gpt2_small import text_of
if {reopen!r}:
    compute(load_scenario({out!r}))
else:
    scenario = import_checkpoint({folder!r}, text_of(64))
    compute(scenario)
    save_scenario(scenario, {out!r})
with open("/proc/self/status") as status:
    print(next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:")))
"""
TORCH = """
import math, statistics, sys, time
import torch
from safetensors.torch import load_file
torch.set_num_threads(1)
w = load_file({file!r})
ids = torch.arange({n}) % 48
L, H = 12, 12
def forward():
    with torch.no_grad():
        x = w["transformer.wte.weight"][ids] + w["transformer.wpe.weight"][:len(ids)]
        n, d = x.shape
        mask = torch.full((n, n), float("-inf")).triu(1)
        for k in range(L):
            p = f"transformer.h.{{k}}."
            h = torch.nn.functional.layer_norm(x, (d,), w[p + "ln_1.weight"], w[p + "ln_1.bias"])
            q, kk, v = (h @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]).split(d, 1)
            q, kk, v = (t.view(n, H, d // H).transpose(0, 1) for t in (q, kk, v))
            a = torch.softmax(q @ kk.transpose(1, 2) / math.sqrt(d // H) + mask, -1) @ v
            x = x + a.transpose(0, 1).reshape(n, d) @ w[p + "attn.c_proj.weight"] \\
                + w[p + "attn.c_proj.bias"]
            h = torch.nn.functional.layer_norm(x, (d,), w[p + "ln_2.weight"], w[p + "ln_2.bias"])
            h = torch.nn.functional.gelu(h @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"],
                                         approximate="tanh")
            x = x + h @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
        x = torch.nn.functional.layer_norm(x, (d,), w["transformer.ln_f.weight"],
                                           w["transformer.ln_f.bias"])
        return torch.softmax(x @ w["transformer.wte.weight"].T, -1)
forward()
times = []
for _ in range({runs}):
    start = time.perf_counter(); forward(); times.append((time.perf_counter() - start) * 1000)
print(" ".join(f"{{t:.3f}}" for t in times))
"""


def torch_python() -> str | None:
    """An interpreter that can import torch: this one, or ``QKV_TORCH_PYTHON``."""
    for python in (sys.executable, os.environ.get("QKV_TORCH_PYTHON")):
        if python and subprocess.run([python, "-c", "import torch, safetensors"],
                                     capture_output=True, check=False).returncode == 0:
            return python
    return None


def child(code: str) -> str:
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env=env).stdout.strip()


def painted(window: StudioWindow, action: Callable[[], object]) -> float:
    """Milliseconds from ``action`` until the canvas has painted its new frame (at most 10 s;
    no paint is asked for besides the frame's own: it would paint the old frame first)."""
    loop = QEventLoop()
    window.canvas.repainted.connect(loop.quit)
    QTimer.singleShot(10_000, loop.quit)
    began = time.perf_counter()
    action()
    loop.exec()
    window.canvas.repainted.disconnect(loop.quit)
    return (time.perf_counter() - began) * 1000


def settled(application: QApplication, window: StudioWindow) -> float:
    """Milliseconds until the window has settled after a new trace: the frame built again from
    it and the timeline's texts measured for room (its timer waits for typing to pause, then
    works out every step's texts)."""
    began = time.perf_counter()
    while window.timeline.room_timer.isActive():
        application.processEvents()
        time.sleep(0.001)
    return (time.perf_counter() - began) * 1000


EDITS = (("layers.5.block.ffn.W1", "L6.ffn"), ("layers.0.attention.Wq", "L1.projections"),
         ("head.gamma_f", "final_norm"))
"""Cell edits timed in the window, each with the step it feeds on screen."""


def in_the_window(scenario: Scenario, trace: Trace, runs: int) -> None:
    """The window's path on the whole model: a step change (until painted), and a cell edit
    with the step it feeds on screen until the frame is painted with the new numbers, until
    the whole trace has come from the worker, and its undo until painted."""
    application = QApplication.instance() or QApplication([])
    window = StudioWindow(scenario, trace=trace)
    window.resize(1280, 800)
    window.show()
    application.processEvents()
    state = window.state
    ids = [step.id for step in trace.steps]
    shown = [ids.index(name) for name in ("L6.norm2", "L6.ffn", "L6.resid2", "logits", "probs")]
    changes = [painted(window, partial(state.set_step, index))
               for _ in range(runs + 1) for index in shown][len(shown):]  # after a warm round
    report("window: step change, painted (5 steps)", changes, 100)
    for path, step_id in EDITS:
        painted(window, partial(state.set_step, ids.index(step_id)))
        frame, whole, room, undo = [], [], [], []
        for k in range(runs * 2):
            row, col = (0, k) if state.scenario.parameter(path).ndim == 1 else (k, 7)

            def edit(path: str = path, row: int = row, col: int = col, k: int = k) -> None:
                state.edit_cell(path, row, col, 0.25 + k)

            frame.append(painted(window, edit))
            assert state.frame_trace.scenario is state.scenario, "the frame is not the edit's"
            began = time.perf_counter() - frame[-1] / 1000
            while state.busy:
                application.processEvents()
                time.sleep(0.001)
            whole.append((time.perf_counter() - began) * 1000)
            room.append(settled(application, window))
            undo.append(painted(window, state.undo_stack.undo))
            settled(application, window)
            state.undo_stack.redo()
            settled(application, window)
        report(f"window: edit {step_id}, frame painted", frame, 150)
        report(f"window: edit {step_id}, whole trace in", whole)
        report("… then settled (frame again, timeline's room)", room)
        report("window: undo it, painted", undo, 150)
    state.undo_stack.setClean()
    window.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--window", action="store_true",
                        help="only the window's path: a step change and cell edits, painted")
    arguments = parser.parse_args()
    runs = arguments.runs
    with tempfile.TemporaryDirectory() as temp:
        folder, out = Path(temp) / "gpt2-small", Path(temp) / "gpt2.qkv.json"
        size = make_checkpoint(folder)
        print(f"checkpoint: {size / 1e6:.1f} MB float32 ({size // 4:,} numbers); load "
              f"{os.getloadavg()[0]:.1f}")
        text = text_of(64)
        if arguments.window:
            scenario = import_checkpoint(folder, text)
            in_the_window(scenario, compute(scenario), runs)
            return

        def first() -> None:
            compute(import_checkpoint(folder, text))

        report("import + first compute (n = 64)", timed(first, runs), 5000)
        scenario = import_checkpoint(folder, text)
        report("save document + sidecar", timed(lambda: save_scenario(scenario, out), runs))
        sidecar = out.with_name(sidecar_name(out))
        both = out.stat().st_size + sidecar.stat().st_size
        print(f"{'document + sidecar / checkpoint':<44} {both / size:.3f}× "
              f"({out.stat().st_size / 1e6:.1f} MB + {sidecar.stat().st_size / 1e6:.1f} MB)"
              f"  {'ok' if both <= 1.1 * size else 'MISSED'} (≤ 1.1)")
        report("reopen (load_scenario)", timed(lambda: load_scenario(out), runs), 2000)
        short = import_checkpoint(folder, text_of(32))
        ours = timed(lambda: compute(short), runs)
        report("forward n = 32, float64 (engine)", ours)
        python = torch_python()
        if python is None:
            print("torch float32: not installed (set QKV_TORCH_PYTHON)")
        else:
            code = TORCH.format(file=str(folder / "model.safetensors"), n=32, runs=runs)
            env = {**os.environ, "OMP_NUM_THREADS": "1"}
            printed = subprocess.run([python, "-c", code], capture_output=True, text=True,
                                     check=True, env=env).stdout.split()
            theirs = [float(value) for value in printed]
            report("forward n = 32, torch float32 (1 thread)", theirs)
            ratio = sorted(ours)[len(ours) // 2] / sorted(theirs)[len(theirs) // 2]
            print(f"{'engine / torch (medians)':<44} {ratio:.2f}×  "
                  f"{'ok' if ratio <= 3 else 'MISSED'} (≤ 3)")
        trace = compute(scenario)
        ids = [step.id for step in trace.steps]

        def step_change() -> None:
            step = trace.steps[trace.step_index(ids[len(ids) // 2])]
            name = step.writes[0]
            explain(trace, name, (0,) * trace.arrays[name].ndim)

        report("step change, engine side (d = 768)", timed(step_change, runs * 10), 100)
        cell = iter(range(10_000))
        edits = [scenario]

        def edit() -> None:  # the last edit is kept, as the undo stack keeps newer ones
            edits[-1:] = [with_cell(scenario, "layers.5.block.ffn.W1", (next(cell), 7), 0.25)]

        report("edit one weight of W1 (with_cell)", timed(edit, runs * 10), 150)
        report("… and its new trace (compute, n = 64)", timed(lambda: compute(edits[-1]), runs),
               150)
        start = first_reader(trace, "layers.5.block.ffn.W1")
        report("… worked from L6.ffn on (engine.forward.retrace)",
               timed(lambda: retraced(trace, edits[-1], start), runs), 150)
        in_the_window(scenario, trace, runs)
        for label, reopen in (("import + compute + save", False), ("reopen + compute", True)):
            peak = int(child(PEAK.format(root=str(ROOT), reopen=reopen, out=str(out),
                                         folder=str(folder))))
            print(f"{'peak memory, ' + label:<44} {peak / 1e6:.0f} MB = {peak / size:.2f}× "
                  f"the checkpoint  {'ok' if peak <= 3 * size else 'MISSED'} (≤ 3)")


if __name__ == "__main__":
    main()
