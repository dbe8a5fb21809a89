"""Render the AppStream screenshots in packaging/screenshots/ from the F11 example.

    .venv/bin/python packaging/render_screenshots.py

They are drawn by the same frame painter as the window and the exporters (through
``app.selftest.paint_frame``), at 1.5 pixels per canvas unit, on white, with the fonts of the
machine that runs this (install fonts-noto-cjk first, or 我/爱 turn into boxes).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OUT_DIR = ROOT / "packaging" / "screenshots"
SHOTS = {"weights": "f11-weights.png", "projections": "f11-projections.png",
         "mix": "f11-mix.png"}
SCALE = 1.5


def main() -> int:
    import engine
    from app.model.examples import example_path
    from app.selftest import ensure_application, paint_frame

    app = ensure_application()
    trace = engine.compute(engine.load_scenario(example_path("f11")))
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for index, step in enumerate(trace.steps):
        if step.id in SHOTS:
            image, _scene = paint_frame(trace, index, SCALE)
            path = OUT_DIR / SHOTS[step.id]
            if not image.save(str(path), "PNG"):
                print(f"could not write {path}", file=sys.stderr)
                return 1
            print(f"{path.relative_to(ROOT)}: {image.width()}×{image.height()}")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
