"""The step texts are decided once and worded per language (every id has every language:
tests/app/test_words_catalogue.py), and the one dispatch of the step texts covers every op."""

from __future__ import annotations

import typing

from app.texts import step_text
from app.texts.lookup import OP_PLANS
from app.texts.sentences import Listed, Token, say
from engine import compute, parse_scenario
from engine.trace_step import Op
from tests.engine.v2_documents import document


def test_one_sentence_in_both_languages() -> None:
    check = say("weights.check", token=Token("cat"), sum="0.5 + 0.5 = 1",
                first=say("nothing"))
    assert check.words("en") == "Each row sums to 1 (for “cat”: 0.5 + 0.5 = 1). Edit Wv: the " \
                                "shares must not move."
    assert check.words("zh") == "每行之和为 1（“cat”：0.5 + 0.5 = 1）。改动 Wv，份额必须纹丝不动。"
    assert Listed(["a", "b", "c"]).words("en") == "a, b and c"
    assert Listed(["a", "b", "c"]).words("zh") == "a、b 和 c"
    assert Listed([Token("猫"), Token("狗")]).words("zh") == "“猫”和“狗”"
    # a space only where Chinese meets Latin: 窗口和 softmax, K/V 头 1 和 Query
    assert Listed(["因果掩码", "窗口", "softmax 份额"]).words("zh") == \
        "因果掩码、窗口和 softmax 份额"
    assert Listed(["K/V 头 1", "Query 头 2"]).words("zh") == "K/V 头 1 和 Query 头 2"
    assert Listed(["softmax", "份额"]).words("zh") == "softmax 和份额"


def test_an_empty_or_spaced_label_is_quoted_in_english_too() -> None:
    """A label the engine accepts but a sentence would lose (empty, or a space) is quoted."""
    assert [Token(t).words("en") for t in ("", " ", " a", "cat")] == ["“”", "“ ”", "“ a”", "“cat”"]
    doc = document(26)
    doc["tokens"][-1] = ""  # the receiver
    trace = compute(parse_scenario(doc))
    text = step_text(trace, trace.step_index("final_norm"), "en")
    assert "and “”'s largest logit changes" in text.pitfalls + text.check, text
    assert "  's" not in " ".join(text.sections())


def test_the_step_texts_dispatch_on_every_op() -> None:
    assert set(OP_PLANS) == set(typing.get_args(Op))
