"""The catalogue of words (engine.words): every language has every id with the same fields, and
every id the code asks for is in it."""

from __future__ import annotations

import ast
import string
from collections.abc import Mapping
from pathlib import Path

import pytest

from engine.words import CATALOGUES, LANGUAGES, REFUSAL_IDS, en, say, sections

ROOT = Path(__file__).resolve().parents[2]

OMITTED: dict[tuple[str, str], set[str]] = {
    ("zh", "overflow"): {"error"},
    ("zh", "step_overflow"): {"error"},
}
"""Fields a language leaves out on purpose, of those its id's call gives: numpy's own message is
English."""


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def unlike(catalogues: Mapping[str, Mapping[str, str]],
           omitted: Mapping[tuple[str, str], set[str]]) -> list[tuple[str, str]]:
    """(language, id) of every template that is missing or names other fields than the id's (all
    its languages' fields, less those the language leaves out on purpose)."""
    every = set().union(*catalogues.values())
    found = []
    for word_id in sorted(every):
        given = set().union(*(fields(words.get(word_id, "")) for words in catalogues.values()))
        found += [(lang, word_id) for lang, words in catalogues.items()
                  if word_id not in words
                  or fields(words[word_id]) != given - omitted.get((lang, word_id), set())]
    return found


def test_every_language_has_every_id_with_the_same_fields() -> None:
    assert set(CATALOGUES) == set(LANGUAGES)
    assert len(CATALOGUES["en"]) > 250
    assert unlike(CATALOGUES, OMITTED) == []


def test_an_id_a_language_lacks_or_words_with_other_fields_is_named() -> None:
    zh = dict(CATALOGUES["zh"])
    del zh["heads_of"]
    zh["kv_heads_of"] = "{heads} 个键/值头"
    assert unlike({"en": CATALOGUES["en"], "zh": zh}, OMITTED) == [
        ("zh", "heads_of"), ("en", "kv_heads_of"), ("zh", "kv_heads_of")]


def test_the_sections_do_not_share_an_id() -> None:
    assert sum(map(len, sections(en))) == len(CATALOGUES["en"])
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


def asked_ids(node: ast.expr) -> list[str]:
    """The literal ids an id argument can be (a string, or a choice of two)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return asked_ids(node.body) + asked_ids(node.orelse)
    return []


def test_every_id_the_code_asks_for_is_in_the_catalogue() -> None:
    asked = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "say(" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and node.args and (
                    (isinstance(node.func, ast.Name) and node.func.id == "say")
                    or (isinstance(node.func, ast.Attribute) and node.func.attr == "say")):
                asked += [(f"{path.relative_to(ROOT)}:{node.lineno}", word_id)
                          for word_id in asked_ids(node.args[0])]
    assert len(asked) > 40
    missing = [(where, word_id) for where, word_id in asked if word_id not in CATALOGUES["en"]]
    assert not missing
