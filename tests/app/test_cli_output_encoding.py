"""Standard output in another encoding than UTF-8 (a Windows redirect in cp1252,
``PYTHONIOENCODING=latin-1``): the commands write UTF-8 all the same, whole, instead of failing
with a traceback at the first Chinese label."""

from __future__ import annotations

import io
import itertools
import json

import pytest

import engine.analysis.lens
from app.cli import main
from engine import compute, load_scenario
from engine.analysis.lens import read_layers
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


class Writes(io.StringIO):
    """Standard output that notes each write in ``events``."""

    def __init__(self, events: list[str]) -> None:
        super().__init__()
        self.events = events

    def write(self, text: str) -> int:
        self.events.append("write")
        return super().write(text)


def test_lens_writes_one_position_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--top`` the whole vocabulary of a long document is millions of entries: the output is
    json.dumps' own text of the whole, each position written before the next is ranked (the
    whole was built first: gigabytes of dicts)."""
    events: list[str] = []
    out = Writes(events)
    monkeypatch.setattr("sys.stdout", out)
    ranked = engine.analysis.lens.top_tokens
    monkeypatch.setattr(engine.analysis.lens, "top_tokens",
                        lambda row, k: events.append("rank") or ranked(row, k))
    assert main(["lens", str(EXAMPLES / "three-layers.qkv.json"), "--top", "3"]) == 0
    trace = compute(load_scenario(EXAMPLES / "three-layers.qkv.json"))
    vocab = trace.tokens_of("vocab")
    whole = {"tokens": ["我", "爱", "你"], "layers": [
        {"layer": reading.layer, "positions": [
            {"position": p, "top": [{"id": int(i), "label": vocab[i], "p": float(row[i])}
                                    for i in sorted(range(3), key=lambda i: -row[i])]}
            for p, row in enumerate(reading.probs)]}
        for reading in read_layers(trace)]}
    assert out.getvalue() == json.dumps(whole, ensure_ascii=False) + "\n"
    ranks = [k for k, event in enumerate(events) if event == "rank"]
    assert len(ranks) == 4 * 3
    assert all("write" in events[a:b] for a, b in itertools.pairwise(ranks))
