"""The app's catalogue of words (app.texts.words), built on the engine's: every language has every
id with the same fields, no two sections share an id, and every id the app asks for is there
with the fields its template names."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from app.texts import words_en
from app.texts.words import CATALOGUES, HEADINGS, LANGUAGE_NAMES, say
from engine.words import CATALOGUES as ENGINE_WORDS
from tests.engine.test_words import OMITTED, asked_ids, fields, unlike

ROOT = Path(__file__).resolve().parents[2]
SECTIONS = ("BLOCK", "CACHE_MARKS", "CANVAS", "EDIT", "EXERCISE", "FRAME", "NEXT_TOKEN", "POSITION",
            "WORKSHEET_DIALOG", "WORKSHEET", "MATRIX", "RUN", "EXPORT", "TEXTS", "GROUPS",
            "MODEL_VIEW", "LENS", "LABELS", "PRESETS", "EXAMPLES")
APP_OMITTED = {**OMITTED,
               ("en", "worksheet.parameter_cell"): {"row", "col"},
               ("zh", "worksheet.parameter_cell"): {"cell"},
               ("en", "worksheet.parameter_item"): {"row"},
               ("zh", "worksheet.parameter_item"): {"cell"},
               **{("zh", f"example.{word_id}"): fields(template)
                  for word_id, template in words_en.EXAMPLES.items()
                  if template in ("{title}", "{note}")}}
"""Fields a language leaves out on purpose: a parameter's cell is ``Wq[0,1]`` in English,
``Wq 第 1 行第 2 列`` in Chinese; a built-in example's document title and note are its file's own
in English, the catalogue's in another language."""


def test_every_language_has_every_id_with_the_same_fields() -> None:
    assert set(CATALOGUES) == {"en", "zh"}
    assert unlike(CATALOGUES, APP_OMITTED) == []


def test_no_two_sections_share_an_id() -> None:
    sizes = [len(ENGINE_WORDS["en"]), len(words_en.WORDS)]
    sizes += [len(getattr(words_en, section)) for section in SECTIONS]
    assert sum(sizes) == len(CATALOGUES["en"]) > 1000


def test_say_words_an_id_in_each_language() -> None:
    assert say("run.token_of", "en", t=2, count=3, label="爱") == "Token 2 of 3 “爱”"
    assert say("run.token_of", "zh", t=2, count=3, label="爱") == "第 2 个 Token（共 3 个）“爱”"
    assert say("heads_of", "zh", heads=3) == "3 个头"  # the engine's words too
    assert [say("texts.check_line", lang, heading=HEADINGS[lang][3], check="Σ = 1")
            for lang in ("en", "zh")] == ["✓ How to check it is right: Σ = 1",
                                          "✓ 如何判断是否做对：Σ = 1"]
    assert LANGUAGE_NAMES == {"en": "English", "zh": "简体中文"}
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        say("run.token", "fr", t=1, label="a")
    with pytest.raises(KeyError):
        say("run.tokens", "en", t=1, label="a")


def test_every_id_the_app_asks_for_is_there_with_its_fields() -> None:
    """``say(id, lang, …)`` (app.texts.words) and ``say(id, …)`` (a sentence of
    app.texts.sentences): the id is in the catalogue; a call naming its fields names exactly
    the template's."""
    asked = 0
    for path in sorted((ROOT / "app").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "say(" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "say" and node.args):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            given = {keyword.arg for keyword in node.keywords}
            for word_id in asked_ids(node.args[0]):
                asked += 1
                assert word_id in CATALOGUES["en"], f"{where}: {word_id}"
                named = set().union(*(fields(words[word_id]) for words in CATALOGUES.values()))
                if None not in given and (given or len(node.args) == 1):
                    assert named <= given, f"{where}: {word_id} lacks {named - given}"
    assert asked > 300


def filled(template: str) -> str:
    """``template`` with every field filled (a number where it has a format spec)."""
    return template.format(**{name: 1234 if spec else "x" for _, name, spec, _
                              in string.Formatter().parse(template) if name})


def test_every_template_fills_without_a_brace_left() -> None:
    """A brace left after filling is a field mistyped (``{count}}``) or one ``say`` cannot
    fill; only the exercise wording's own ``{name:…}`` syntax is written with braces."""
    left = [(lang, word_id) for lang, words in CATALOGUES.items()
            for word_id, template in words.items()
            if {"{", "}"} & set(filled(template)) and not word_id.startswith("exercise_wording")]
    assert left == []
    assert filled("{count:,} of {name}") == "1,234 of x"


def test_no_chinese_sentence_is_the_english_one() -> None:
    """A Chinese template with three English words in a row is an English one not yet
    translated (formulas, names and ids such as ``ffmpeg`` or ``rope_scaling`` are not
    three words)."""
    prose = re.compile(r"[A-Za-z]+ [a-z]+ [a-z]+")
    english = [word_id for word_id, template in CATALOGUES["zh"].items()
               if prose.search(template) and template == CATALOGUES["en"][word_id]]
    assert english == []


WORDS_OF_A_LANGUAGE = {
    # the catalogues
    "engine/words/zh.py", "app/texts/words_zh.py", "app/texts/glossary_zh.py",
    # where each language is registered
    "engine/words/__init__.py", "app/texts/words.py", "app/i18n/language.py",
    # script typography: line breaks, spaces beside Latin letters, full-width punctuation
    "app/canvas/theme.py", "app/canvas/worked_row.py", "app/export/worksheet.py",
    "app/texts/sentences.py",
    # tokens such as 我 爱 in examples
    "app/model/presets.py", "app/texts/glossary_en.py", "app/texts/words_en.py",
    # the exercise format's texts in en and zh, data of the user's document
    "engine/exercises/document.py", "engine/exercises/wording.py",
    "app/model/exercise_edits.py", "app/window/exercise_teacher.py"}
"""The files whose code may hold Chinese or ``"zh"`` (docs/developing.md, "Adding a language")."""
_CHINESE = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that document a module, class, function or attribute."""
    bodies = [node.body for node in ast.walk(tree) if isinstance(getattr(node, "body", None), list)]
    return {id(statement.value) for body in bodies for statement in body
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)}


def test_only_the_catalogues_hold_a_languages_words() -> None:
    """A Chinese string or a ``"zh"`` in code outside the listed files is a side mechanism of
    words (a table by language, an ``if lang == "zh"``): its words belong in a catalogue."""
    found = set()
    for path in sorted([*(ROOT / "app").rglob("*.py"), *(ROOT / "engine").rglob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        documented = _docstrings(tree)
        if any(isinstance(node, ast.Constant) and isinstance(node.value, str)
               and id(node) not in documented
               and (node.value == "zh" or _CHINESE.search(node.value))
               for node in ast.walk(tree)):
            found.add(str(path.relative_to(ROOT)))
    assert found == WORDS_OF_A_LANGUAGE
