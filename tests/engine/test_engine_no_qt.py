"""The engine is pure numpy: importing and running it loads no Qt module."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
{imports}
import engine
trace = engine.compute(engine.load_scenario({path!r}))
engine.explain(trace, "probs", (1, 2))
print(json.dumps(sorted(m for m in sys.modules if m.startswith(("PySide6", "pyqtgraph")))))
"""


def qt_modules_after(imports: str = "") -> list[str]:
    code = PROBE.format(imports=imports, path=str(ROOT / "resources/examples/g01.qkv.json"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    loaded: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return loaded


def test_importing_and_running_the_engine_loads_no_qt() -> None:
    assert qt_modules_after() == []


def test_the_probe_would_see_qt_if_it_were_loaded() -> None:
    # The same probe after an explicit Qt import: the check is not vacuous.
    assert "PySide6" in qt_modules_after("import PySide6")
