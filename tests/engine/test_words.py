"""The catalogue of words (engine.words): every language has every id with the same fields."""

from __future__ import annotations

import string

import pytest

from engine.words import CATALOGUES, LANGUAGES, REFUSAL_IDS, en, say

OMITTED: dict[tuple[str, str], set[str]] = {
    ("zh", "overflow"): {"error"},
    ("zh", "step_overflow"): {"error"},
}
"""Fields a language leaves out on purpose: numpy's own message is English."""


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_language_has_every_id_with_the_same_fields() -> None:
    english = CATALOGUES["en"]
    assert len(english) > 250
    for lang in LANGUAGES:
        words = CATALOGUES[lang]
        assert set(words) == set(english), (lang, set(english) ^ set(words))
        for word_id, template in english.items():
            expected = fields(template) - OMITTED.get((lang, word_id), set())
            assert fields(words[word_id]) == expected, (lang, word_id)


def test_the_sections_do_not_share_an_id() -> None:
    sections = [en.REFUSALS]
    assert sum(map(len, sections)) == len(CATALOGUES["en"])
    assert set(en.REFUSALS) == REFUSAL_IDS


def test_say_fills_a_template_in_each_language() -> None:
    assert say("heads_split", "en", columns=2, heads="3 heads") \
        == "2 columns do not split into 3 heads"
    assert say("heads_split", "zh", columns=2, heads="3 个头") == "2 列无法平均分给 3 个头"


def test_an_unknown_id_or_language_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        say("heads_splits", "en", columns=2)
    with pytest.raises(KeyError):
        say("heads_split", "fr", columns=2, heads=3)
