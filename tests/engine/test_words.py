"""The catalogue of words (engine.words): every language has every id with the same fields, and
every id the code asks for is in it."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from engine.words import CATALOGUES, LANGUAGES, REFUSAL_IDS, en, say

ROOT = Path(__file__).resolve().parents[2]

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
    sections = [en.REFUSALS, en.PHRASES]
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


def _asked_ids(node: ast.expr) -> list[str]:
    """The literal ids an id argument can be (a string, or a choice of two)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _asked_ids(node.body) + _asked_ids(node.orelse)
    return []


def test_every_id_the_code_asks_for_is_in_the_catalogue() -> None:
    asked = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and (
                    (isinstance(node.func, ast.Name) and node.func.id == "say")
                    or (isinstance(node.func, ast.Attribute) and node.func.attr == "say")):
                asked += [(f"{path.relative_to(ROOT)}:{node.lineno}", word_id)
                          for word_id in _asked_ids(node.args[0])]
    assert len(asked) > 40
    missing = [(where, word_id) for where, word_id in asked if word_id not in CATALOGUES["en"]]
    assert not missing
