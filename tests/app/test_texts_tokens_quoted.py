"""Token names in the step texts are quoted (issue 23): a token never reads as a word of the
sentence ("With the mask on, The sees only itself" became "… “The” sees only itself")."""

from __future__ import annotations

import json
import re

import pytest

from app.texts import step_text
from engine import compute, parse_scenario
from tests.examples import EXAMPLES, trace_of

ODD = ("Zqa", "Zqb", "Zqc", "Zqd", "Zqe", "Zqf", "Zqg", "Zqh", "Zqi", "Zqj")
"""Token names no sentence has as a word of its own."""


def texts_with_odd_tokens(name: str, lang: str) -> list[str]:
    """Every part of every step text of example ``name`` with its tokens renamed to ``ODD``."""
    doc = json.loads((EXAMPLES / f"{name}.qkv.json").read_text(encoding="utf-8"))
    doc["tokens"] = list(ODD[:len(doc["tokens"])])
    trace = compute(parse_scenario(doc))
    return [part for k in range(len(trace.steps))
            for part in vars(step_text(trace, k, lang)).values()]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", ["single-key", "pronoun", "f11", "g01", "order"])
def test_every_token_a_text_names_is_quoted(name: str, lang: str) -> None:
    texts = texts_with_odd_tokens(name, lang)
    named = [token for token in ODD if any(token in text for text in texts)]
    assert len(named) >= 2
    for text in texts:
        bare = re.sub(r"“Zq[a-j]”", "", re.sub(r"\[[^\]]*\]", "", text))  # an index: Q[Zqc, 0]
        assert not re.search(r"Zq[a-j]", bare), text


def test_the_sentences_of_the_issue_read_with_quotes() -> None:
    single = trace_of("single-key")
    weights = single.step_index("weights")
    assert "With the mask on, “A” sees only itself" in step_text(single, weights, "en").check
    assert "“A”" in step_text(single, weights, "zh").check
    pronoun = trace_of("pronoun")
    how = step_text(pronoun, pronoun.step_index("weights"), "en").how
    assert "For “tired”, the exps 1, 0.493 and 1" in how
