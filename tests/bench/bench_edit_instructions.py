"""Instructions one cell edit → repaint costs (not a test): valgrind's callgrind counts them
over ten edits of the studio window, per edit, for one tree or several side by side. The count
barely moves with the machine's load, where the clock moves by half on these shared 2-core
machines; two trees compare to within a few per cent (a run's count repeats to about 1 %:
when Python collects and which timers fire).

Run with ``.venv/bin/python tests/bench/bench_edit_instructions.py [--tree DIR ...]
[--document n16|f11]`` from the repository root (valgrind needed: ``apt-get install valgrind``;
about 20 s a tree). Each tree (default: this one; another commit: ``git worktree add --detach
DIR REV``) runs in its own process under valgrind, as ``bench_window.py`` edits it: ``n16`` the
16-position benchmark document on its shares step, a Wq cell typed (its frame is laid out by
itself and prints every number); ``f11`` the chapter's F11, a Wk cell (its one scale is
legible). The count is switched on after five warm-up edits. The two timers that fire once
typing pauses for 300 ms (the timeline measuring every step's text for room, the canvas's
description for screen readers) are held off, as they are while a user types: under valgrind an
edit takes half a second, so they would fire between edits (at n = 16, 4.6 M instructions an
edit that no typing user pays). Printed: the whole edit and Qt's paint of the canvas
(``QGraphicsView::paintEvent``), in millions of instructions per edit.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = {"n16": ("attention.Wq", "weights"), "f11": ("attention.Wk", "weights")}
"""Each document's edited array and the step shown while it is edited."""
WARM_UP, COUNTED = 5, 10
HELD_OFF = (("app.window.timeline", "ROOM_DELAY_MS"), ("app.window.studio", "DESCRIBE_AFTER_MS"),
            ("app.timeline", "ROOM_DELAY_MS"), ("app.window", "DESCRIBE_AFTER_MS"))
"""The typing-pause timers' delays, where a tree keeps them (older trees: the last two)."""


def edit_in_valgrind(document: str) -> None:
    """The child: a window on ``document``, warmed up, its count switched on for
    :data:`COUNTED` edits (this tree's modules first on ``sys.path``)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from engine import load_scenario
    from tests.bench import bench_window
    from tests.bench.timing import attention_scenario

    for module, name in HELD_OFF:
        try:
            found = importlib.import_module(module)
        except ImportError:
            continue
        if hasattr(found, name):
            setattr(found, name, 10**8)
    application = QApplication.instance() or QApplication([])
    assert isinstance(application, QApplication)
    if document == "f11":
        try:
            examples = importlib.import_module("app.model.examples")
        except ImportError:  # before app/ was grouped into packages
            examples = importlib.import_module("app.examples")
        scenario = load_scenario(examples.example_path("f11"))
    else:
        scenario = attention_scenario(16, heads=2)
    path, step = DOCUMENTS[document]
    window = bench_window.StudioWindow(scenario)
    bench_window.show(window, application, step, False)
    bench_window.edit_to_repaint(window, application, WARM_UP, path)
    control = ["callgrind_control", "-i"]
    subprocess.run([*control, "on", str(os.getpid())], check=True, capture_output=True)
    bench_window.edit_to_repaint(window, application, COUNTED - 1, path, base=0.5)
    subprocess.run([*control, "off", str(os.getpid())], check=True, capture_output=True)
    os._exit(0)  # the count is written at exit; tearing the window down is not counted


def counted(tree: Path, document: str) -> tuple[float, float]:
    """Millions of instructions an edit in ``tree``: the whole edit, and the canvas's paint."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        environment = {**os.environ, "PYTHONPATH": str(tree), "OPENBLAS_NUM_THREADS": "1",
                       "QT_NO_GUI_THREADPOOL": "1"}
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no",
             f"--callgrind-out-file={out}", sys.executable, str(Path(__file__).resolve()),
             "--child", document, "--tree", str(tree)],
            cwd=tree, env=environment, capture_output=True, text=True, check=False)
        total = re.search(r"Collected : (\d+)", run.stderr)
        if total is None:
            raise SystemExit(f"{tree}: valgrind counted nothing\n{run.stderr[-2000:]}")
        annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", str(out)],
                                   capture_output=True, text=True, check=True).stdout
        paint = re.search(r"^\s*([\d,]+) .*QGraphicsView::paintEvent", annotated, re.MULTILINE)
        painted = int(paint.group(1).replace(",", "")) if paint else 0
    return int(total.group(1)) / COUNTED / 1e6, painted / COUNTED / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append",
                        help="a checkout to count (repeat for several; default: this one)")
    parser.add_argument("--document", choices=sorted(DOCUMENTS), default="n16")
    parser.add_argument("--child", choices=sorted(DOCUMENTS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    trees = [tree.resolve() for tree in args.tree or [ROOT]]
    if args.child:
        sys.path.insert(0, str(trees[0]))
        edit_in_valgrind(args.child)
    for tree in trees:
        whole, paint = counted(tree, args.document)
        print(f"{args.document} {tree!s:<40} {whole:6.1f} M instructions an edit, "
              f"the canvas's paint {paint:5.1f} M")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
