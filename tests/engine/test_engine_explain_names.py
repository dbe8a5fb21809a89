"""``explain`` names the arrays it reads with their scope, and a label cannot forge a line."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import Trace, compute, explain, format_number, load_scenario
from engine.scenario.edit import with_document_value
from tests.examples import EXAMPLES


def trace_of(name: str) -> Trace:
    return compute(load_scenario(EXAMPLES / f"{name}.qkv.json"))


@pytest.mark.parametrize(("example", "scope"), [
    ("f11", ""),                      # version-1 shorthand
    ("three-layers", "L2."),          # a layer of the main stack
    ("encoder-decoder", "L1.cross."),  # cross-attention
    ("encoder-decoder", "enc.L1."),   # the encoder's layer
])
def test_the_softmax_row_names_its_scores_array_with_the_scope(example: str, scope: str) -> None:
    trace = trace_of(example)
    h, i, j = 0, 1, 0
    lines = explain(trace, f"{scope}weights", (h, i, j)).details
    scores = trace.arrays[f"{scope}scores"][h, i]
    seen = trace.visible_for(scope)[i]
    top = max(float(scores[k]) for k in range(len(scores)) if seen[k])
    assert lines[0] == f"s = {scope}scores[0,1,·], max over the visible keys = " \
                       f"{format_number(top)}"
    zh = explain(trace, f"{scope}weights", (h, i, j), lang="zh").details
    assert zh[0].startswith(f"s = {scope}scores[0,1,·]，")
    # the share itself, from the named row
    shares = np.exp(scores[seen] - top) / np.exp(scores[seen] - top).sum()
    assert math.isclose(float(trace.arrays[f"{scope}weights"][h, i, j]), float(shares[0]))


@pytest.mark.parametrize("label", ["a\nb", "a\rb", "a\r\nb", "a\u2028b"])
def test_line_breaks_in_a_token_label_are_escaped_visibly(label: str) -> None:
    scenario = load_scenario(EXAMPLES / "f11.qkv.json")
    plain = explain(compute(scenario), "scores", (0, 1, 1)).text()
    hostile = with_document_value(scenario, "tokens", [scenario.tokens[0], label])
    text = explain(compute(hostile), "scores", (0, 1, 1)).text()
    assert text.count("\n") == plain.count("\n")
    assert "\r" not in text and "\u2028" not in text
    escaped = label.encode("unicode_escape").decode("ascii")
    assert f"“{escaped}”" in text
    for lang in ("en", "zh"):  # the masked share names its key
        shares = explain(compute(hostile), "weights", (0, 0, 1), lang=lang).text()
        assert escaped in shares
        assert shares.count("\n") == explain(compute(scenario), "weights", (0, 0, 1),
                                             lang=lang).text().count("\n")
