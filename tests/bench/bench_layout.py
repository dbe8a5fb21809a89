"""Layout benchmark (not a test): the CPU time of every frame of a document, and where it put
everything, to compare two checkouts.

Run from the repository root, e.g.
``.venv/bin/python tests/bench/bench_layout.py preset:gpt2 f11 --places after.json``:

- each named document (a built-in example, or ``preset:<family>``) has every step's frames
  built as a 4:3 and a 16:9 export (F5's back-row options: the slide look, the worked row for
  a few positions; each part of a split step) and as the window's frame; the CPU seconds of
  each document and aspect are printed;
- ``--places FILE`` writes, for each frame, its composition (scale, wraps, parts, heat …), its
  size and a digest of every item's type, place, extent and scale: run it in two checkouts and
  compare the files (``cmp``), the layout search changed without changing a picture.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication, QGraphicsScene

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.canvas.context import FrameOptions  # noqa: E402
from app.canvas.frame import FrameItem  # noqa: E402
from app.canvas.worked_row import WORKED_ROW_POSITIONS  # noqa: E402
from app.export.render import build_frame, split_frames  # noqa: E402
from tests.app.back_row import options_for, trace_of  # noqa: E402

ASPECTS = ("4:3", "16:9")


def digest(scene: QGraphicsScene) -> str:
    """Every item of ``scene``: its type, place, extent and scale, as one digest."""
    return hashlib.sha1(repr([
        (type(item).__name__, round(item.scenePos().x(), 4), round(item.scenePos().y(), 4),
         round(item.sceneBoundingRect().width(), 4), round(item.sceneBoundingRect().height(), 4),
         round(item.sceneTransform().m11(), 6)) for item in scene.items()]).encode()).hexdigest()


def frames_of(name: str, aspect: str, places: dict[str, object]) -> float:
    """Build every frame of document ``name`` for ``aspect`` (noting their places); the CPU
    seconds taken."""
    trace = trace_of(name)
    start = time.process_time()
    for k in range(len(trace.steps)):
        for built in split_frames(
                lambda part, k=k: build_frame(trace, k, options_for(trace, aspect), part=part)):
            (item,) = [i for i in built.scene.items() if isinstance(i, FrameItem)]
            places[f"{name}/export {aspect}/{k}/{built.part}"] = [
                repr(item.composition), built.width, built.height, digest(built.scene)]
        scene = QGraphicsScene()
        shown = FrameItem(trace, k, FrameOptions(
            aspect=aspect, worked_row=trace.scenario.n <= WORKED_ROW_POSITIONS))
        scene.addItem(shown)
        places[f"{name}/window {aspect}/{k}"] = [repr(shown.composition), digest(scene)]
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("documents", nargs="+")
    parser.add_argument("--places", type=Path)
    args = parser.parse_args()
    QApplication.instance() or QApplication([])
    places: dict[str, object] = {}
    for name in args.documents:
        for aspect in ASPECTS:
            print(f"{name} {aspect}: {frames_of(name, aspect, places):.2f} s CPU", flush=True)
    if args.places is not None:
        args.places.write_text(json.dumps(places, indent=0, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
