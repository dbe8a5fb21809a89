"""Per-cell arithmetic in Chinese: the same formulas, the words around them in Chinese."""

from __future__ import annotations

import re

import pytest

from app.model.examples import example_path
from engine import compute, explain, load_scenario

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize(("example", "cell"), [
    ("f11", ("weights", (0, 0, 1))), ("f11", ("weights", (0, 1, 0))),
    ("f11", ("scores", (0, 0, 1))), ("g01", ("norm1", (1, 0))), ("g01", ("ffn_hidden", (1, 0))),
    ("g01", ("probs", (1, 2))), ("tokenizer", ("X", (0, 1))), ("multihead", ("Q", (2, 3))),
])
def test_chinese_keeps_the_formula_and_translates_the_words(example: str,
                                                            cell: tuple[str, tuple[int, ...]]
                                                            ) -> None:
    trace = compute(load_scenario(example_path(example)))
    english = explain(trace, *cell)
    chinese = explain(trace, *cell, lang="zh")
    assert chinese.value == english.value
    if not CJK.search(chinese.formula):
        assert chinese.formula == english.formula, "a formula is the same in both languages"
    assert any(CJK.search(line) for line in chinese.details)
    for zh_line, en_line in zip(chinese.details, english.details, strict=True):
        if not CJK.search(zh_line):
            assert zh_line == en_line, "symbol-only lines are not translated"


def test_the_masked_share_reads_in_chinese() -> None:
    trace = compute(load_scenario(example_path("f11")))
    text = explain(trace, "weights", (0, 0, 1), lang="zh").formula
    assert text == "weights[0,0,1] = 0（精确）：键 1（“爱”）排在查询 0 之后，被掩码挡住"
