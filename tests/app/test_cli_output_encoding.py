"""Standard output in another encoding than UTF-8 (a Windows redirect in cp1252,
``PYTHONIOENCODING=latin-1``): the commands write UTF-8 all the same, whole, instead of failing
with a traceback at the first Chinese label."""

from __future__ import annotations

import io
import json

import pytest

from app.cli import main
from engine import compute, load_scenario
from engine.lens import read_layers
from tests.examples import EXAMPLES


def test_lens_writes_utf8_to_a_latin1_output(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="latin-1")
    monkeypatch.setattr("sys.stdout", out)
    assert main(["lens", str(EXAMPLES / "three-layers.qkv.json"), "--top", "1"]) == 0
    out.flush()
    found = json.loads(raw.getvalue().decode("utf-8"))
    trace = compute(load_scenario(EXAMPLES / "three-layers.qkv.json"))
    assert found["tokens"] == ["我", "爱", "你"]
    last = read_layers(trace)[-1].probs
    assert [p["top"][0]["p"] for p in found["layers"][-1]["positions"]] \
        == [float(row.max()) for row in last]
    assert found["layers"][-1]["positions"][0]["top"][0]["label"] \
        == trace.tokens_of("vocab")[int(last[0].argmax())]
