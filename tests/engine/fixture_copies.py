"""A committed checkpoint fixture copied to a test's folder with one of its JSON files changed
(config.json, tokenizer.json), as a hostile or an odd checkpoint would ship it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.engine.hf_reference import FIXTURES


def fixture_copy(tmp_path: Path, fixture: str, values: Mapping[str, Any], *,
                 file: str = "config.json", folder: str | None = None,
                 drop_nulls: bool = False) -> Path:
    """A copy of ``fixture`` in ``tmp_path / folder`` (default: the fixture's name) whose JSON
    ``file`` takes ``values`` (a None written as null, or with ``drop_nulls`` its key
    removed)."""
    copy = tmp_path / (folder or fixture)
    shutil.copytree(FIXTURES / fixture, copy)
    written = json.loads((copy / file).read_text("utf-8"))
    written.update(values)
    if drop_nulls:
        written = {key: value for key, value in written.items() if value is not None}
    (copy / file).write_text(json.dumps(written), "utf-8")
    return copy
