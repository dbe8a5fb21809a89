"""The teacher's side of exercise mode: what a new exercise hides (a step's outputs, a row of
shares, the cells clicked, or cells the app chooses at a difficulty), its title and prompt in
both languages, and the questions about change. Every choice is an edit of the document."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.i18n import LiveTexts, current_language
from app.model.exercise_edits import HIDE_CHOICES
from app.plain_text import PlainLabel
from app.texts.words import say
from engine.exercises.document import Exercise

LANGS = ("en", "zh")
MOST_DIFFICULT = 5
CHOICE_CHARACTERS = 12
"""The chooser of what to hide is as wide as this many characters (longer choices elided)."""


def _word(key: str) -> Callable[[], str]:
    return lambda: say(f"exercise.{key}", current_language())


class TeacherBox(QGroupBox):
    """Makes, words and removes the document's exercises.

    Signals
    -------
    newFill(str, int)
        A new ``fill`` exercise at this step: what it hides (:data:`HIDE_CHOICES`) and the
        difficulty.
    newQuestion(str)
        A new question about change at this step: ``"direction"``, ``"unchanged"`` or
        ``"ablation"``.
    wordsSet(dict, dict)
        The title and the prompt, each ``{"en": …, "zh": …}``.
    removed()
        Remove the current exercise.
    """

    newFill = Signal(str, int)
    newQuestion = Signal(str)
    wordsSet = Signal(dict, dict)
    removed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.texts = LiveTexts()
        bind = self.texts.bind
        bind(self.setTitle, _word("teacher"))
        column = QVBoxLayout(self)
        form = QFormLayout()
        self.hide_box = QComboBox()
        self.hide_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.hide_box.setMinimumContentsLength(CHOICE_CHARACTERS)
        for k, how in enumerate(HIDE_CHOICES):
            self.hide_box.addItem("", how)
            bind(partial(self.hide_box.setItemText, k), _word(f"hide_{how}"))
        self.difficulty = QSpinBox()
        self.difficulty.setRange(1, MOST_DIFFICULT)
        self.difficulty.setValue(2)
        bind(self.difficulty.setAccessibleName, _word("difficulty_name"))
        for key, widget in (("hide", self.hide_box), ("difficulty", self.difficulty)):
            self._add_row(form, key, widget)
        column.addLayout(form)
        self.add_button = QPushButton()
        bind(self.add_button.setText, _word("add"))
        column.addWidget(self.add_button)
        self.hint = PlainLabel()
        self.hint.setWordWrap(True)
        bind(self.hint.setText, _word("click_hint"))
        column.addWidget(self.hint)
        words = QFormLayout()
        self.titles = {lang: QLineEdit() for lang in LANGS}
        self.prompts = {lang: QLineEdit() for lang in LANGS}
        for key, edit in (("title_en", self.titles["en"]), ("title_zh", self.titles["zh"]),
                          ("prompt_en", self.prompts["en"]), ("prompt_zh", self.prompts["zh"])):
            self._add_row(words, key, edit)
            bind(edit.setAccessibleName, _word(key))
        column.addLayout(words)
        self.words_button = QPushButton()
        bind(self.words_button.setText, _word("apply_texts"))
        column.addWidget(self.words_button)
        self.direction_button = QPushButton()
        bind(self.direction_button.setText, _word("ask_direction"))
        self.unchanged_button = QPushButton()
        bind(self.unchanged_button.setText, _word("ask_unchanged"))
        self.ablation_button = QPushButton()
        bind(self.ablation_button.setText, _word("ask_ablation"))
        column.addWidget(self.direction_button)
        column.addWidget(self.unchanged_button)
        column.addWidget(self.ablation_button)
        self.remove_button = QPushButton()
        bind(self.remove_button.setText, _word("remove"))
        column.addWidget(self.remove_button)
        self.hide_box.currentIndexChanged.connect(self._follow_choice)
        self._follow_choice()
        self.add_button.clicked.connect(
            lambda: self.newFill.emit(self.hiding(), self.difficulty.value()))
        self.direction_button.clicked.connect(lambda: self.newQuestion.emit("direction"))
        self.unchanged_button.clicked.connect(lambda: self.newQuestion.emit("unchanged"))
        self.ablation_button.clicked.connect(lambda: self.newQuestion.emit("ablation"))
        self.words_button.clicked.connect(self._set_words)
        self.remove_button.clicked.connect(self.removed.emit)

    def _add_row(self, form: QFormLayout, key: str, widget: QWidget) -> None:
        """A row of ``form``: the word ``key`` as the label (the buddy of ``widget``)."""
        label = PlainLabel()
        self.texts.bind(label.setText, _word(key))
        label.setBuddy(widget)
        form.addRow(label, widget)

    def hiding(self) -> str:
        """What a new exercise hides (:data:`HIDE_CHOICES`)."""
        return str(self.hide_box.currentData())

    def _follow_choice(self) -> None:
        self.difficulty.setEnabled(self.hiding() == "auto")
        self.hint.setVisible(self.hiding() == "cells")

    def show_exercise(self, exercise: Exercise | None) -> None:
        """Show the current exercise's words for editing."""
        for lang in LANGS:
            self.titles[lang].setText(exercise.title.text(lang) if exercise else "")
            self.prompts[lang].setText(exercise.prompt.text(lang) if exercise else "")
        for widget in (self.words_button, self.remove_button, *self.titles.values(),
                       *self.prompts.values()):
            widget.setEnabled(exercise is not None)

    def _set_words(self) -> None:
        self.wordsSet.emit({lang: self.titles[lang].text().strip() for lang in LANGS},
                           {lang: self.prompts[lang].text().strip() for lang in LANGS})
