"""The student's side of an exercise: a blank to type into for each hidden cell (Tab moves
between them, Enter checks), Check, Reveal, and the verdicts in words; questions about change
as choices. The predictions live here only: they are never part of the document (File → Save
answers as… writes them into a copy)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import LiveTexts, current_language
from app.model.ablation_words import ablation_words
from app.model.exercise_edits import array_words, cell_words
from app.plain_text import PlainLabel
from app.texts.problems import problem_words
from app.texts.words import joined, say
from engine import ScenarioError, Trace, format_number
from engine.arithmetic.printed import printed_places
from engine.exercises.answers import DIRECTIONS, Verdict, answer, check
from engine.exercises.document import WAY_KINDS, Edit, Exercise, Index, Typed
from engine.exercises.fit import hidden_cells
from engine.exercises.wording import prompt_text
from engine.format.numbers import NumberTextError, format_exact, parse_number
from engine.scenario.names import short_name

CHOOSER_CHARACTERS = 12
"""The chooser is as wide as this many characters (a long title is elided, not the panel
widened)."""


def shown(trace: Trace, value: float) -> str:
    """A value as the frames of ``trace`` print it."""
    return format_number(value, printed_places(trace))


def _word(key: str, **fields: object) -> Callable[[], str]:
    return lambda: say(f"exercise.{key}", current_language(), **fields)


class Blank:
    """One hidden cell: its words, the line the student types into and its verdict."""

    def __init__(self, trace: Trace, cell: tuple[str, Index], lang: str) -> None:
        self.cell = cell
        self.what = cell_words(trace, cell[0], cell[1], lang)
        self.label = PlainLabel(self.what)
        self.entry = QLineEdit()
        self.entry.setAccessibleName(say("exercise.blank_name", lang, what=self.what))
        self.entry.setToolTip(say("exercise.blank_tip", lang, what=self.what))
        self.label.setBuddy(self.entry)
        self.verdict = PlainLabel()
        self.verdict.setWordWrap(True)
        self.right: bool | None = None
        """The last Check's verdict, until Try again or an edit of the answer (the canvas
        marks the blank ✓ or ✗ meanwhile)."""

    def prediction(self) -> float | None:
        """The number typed (None: nothing, or not a number)."""
        text = self.entry.text().strip()
        if not text:
            return None
        try:
            return parse_number(text)
        except NumberTextError:
            return None

    def say(self, verdict: str, lang: str) -> None:
        self.verdict.setText(verdict)
        spoken = say("exercise.verdict_name", lang, what=self.what, verdict=verdict)
        self.verdict.setAccessibleName(spoken)
        self.entry.setAccessibleDescription(spoken)


class ExercisePanel(QWidget):
    """One exercise of the document, to answer.

    Signals
    -------
    revealedChanged()
        Reveal was pressed, or the exercise starts again (the canvas shows or hides its
        blanks).
    chosen(int)
        Another exercise was chosen (its index in the document's list).
    marksChanged()
        The blanks' verdicts changed: checked, or one cleared by an edit of its answer (the
        canvas marks them ✓ or ✗).
    """

    revealedChanged = Signal()
    chosen = Signal(int)
    marksChanged = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.texts = LiveTexts()
        bind = self.texts.bind
        self.trace: Trace | None = None
        self.exercise: Exercise | None = None
        self.revealed = False
        self.checked = False
        """Check was pressed and no answer edited since (an answers copy stores it)."""
        self.blanks: list[Blank] = []
        self.choices: list[QAbstractButton] = []
        column = QVBoxLayout(self)
        row = QHBoxLayout()
        chooser_label = PlainLabel()
        bind(chooser_label.setText, _word("chooser"))
        self.chooser = QComboBox()
        self.chooser.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.chooser.setMinimumContentsLength(CHOOSER_CHARACTERS)
        bind(self.chooser.setAccessibleName, _word("chooser_name"))
        chooser_label.setBuddy(self.chooser)
        row.addWidget(chooser_label)
        row.addWidget(self.chooser, 1)
        column.addLayout(row)
        self.title = PlainLabel()
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.prompt = PlainLabel()
        self.prompt.setWordWrap(True)
        self.question = PlainLabel()
        self.question.setWordWrap(True)
        for label in (self.title, self.prompt, self.question):
            column.addWidget(label)
        self.body = QWidget()
        self.grid = QGridLayout(self.body)
        self.grid.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.body)
        buttons = QHBoxLayout()
        self.check_button = QPushButton()
        bind(self.check_button.setText, _word("check"))
        bind(self.check_button.setAccessibleName, _word("check_name"))
        self.reveal_button = QPushButton()
        bind(self.reveal_button.setText, _word("reveal"))
        bind(self.reveal_button.setAccessibleName, _word("reveal_name"))
        self.again_button = QPushButton()
        bind(self.again_button.setText, _word("again"))
        for button in (self.check_button, self.reveal_button, self.again_button):
            buttons.addWidget(button)
        column.addLayout(buttons)
        self.score = PlainLabel()
        self.score.setWordWrap(True)
        column.addWidget(self.score)
        column.addStretch(1)
        self.check_button.clicked.connect(self.check)
        self.reveal_button.clicked.connect(self.reveal)
        self.again_button.clicked.connect(self.start_again)
        self.chooser.activated.connect(self.chosen.emit)

    # -- showing ---------------------------------------------------------------------------
    def list_exercises(self, exercises: tuple[Exercise, ...], current: int) -> None:
        """Fill the chooser with the document's exercises, ``current`` chosen."""
        lang = current_language()
        self.chooser.blockSignals(True)
        self.chooser.clear()
        for exercise in exercises:
            self.chooser.addItem(exercise.title.text(lang))
        self.chooser.setCurrentIndex(current)
        self.chooser.blockSignals(False)
        self.chooser.setEnabled(bool(exercises))

    def show_exercise(self, trace: Trace, exercise: Exercise | None, keep: bool) -> None:
        """Show ``exercise`` (None: the document has none) on ``trace``; ``keep``: the same
        exercise on a new trace keeps what was typed."""
        typed = {b.cell: b.entry.text() for b in self.blanks} if keep else {}
        self.trace, self.exercise = trace, exercise
        if not keep:
            self.revealed = False
            self.checked = False
        lang = current_language()
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.blanks, self.choices = [], []
        self.score.clear()
        if exercise is None:
            self.title.setText(say("exercise.none", lang))
            self.prompt.clear()
            self.question.clear()
        else:
            self.title.setText(exercise.title.text(lang))
            self.prompt.setText(exercise.prompt.text(lang))
            try:
                self.prompt.setText(prompt_text(trace, exercise, lang))
                self._fill_body(trace, exercise, lang, typed)
            except ScenarioError as error:  # no longer fits the document (an edit shrank it)
                self.question.setText(f"⚠ {problem_words(error, lang)}")
                exercise = None
        for button in (self.check_button, self.reveal_button, self.again_button):
            button.setEnabled(exercise is not None)

    def _fill_body(self, trace: Trace, exercise: Exercise, lang: str,
                   typed: dict[tuple[str, Index], str]) -> None:
        kind = exercise.kind
        previous: QWidget = self.chooser
        if kind == "fill":
            self.question.clear()
            for k, cell in enumerate(hidden_cells(trace, exercise)):
                blank = Blank(trace, cell, lang)
                blank.entry.setText(typed.get(cell, ""))
                blank.entry.returnPressed.connect(self.check)
                blank.entry.textEdited.connect(partial(self._answer_edited, blank))
                self.grid.addWidget(blank.label, 2 * k, 0)
                self.grid.addWidget(blank.entry, 2 * k, 1)
                self.grid.addWidget(blank.verdict, 2 * k + 1, 0, 1, 2)
                QWidget.setTabOrder(previous, blank.entry)
                previous = blank.entry
                self.blanks.append(blank)
        else:
            self.question.setText(self._question(trace, exercise, lang))
            buttons: list[QAbstractButton]
            if kind in WAY_KINDS:
                group = QButtonGroup(self.body)
                buttons = [QRadioButton(say(f"exercise.{way}", lang)) for way in DIRECTIONS]
                for button in buttons:
                    group.addButton(button)
            else:
                buttons = [QCheckBox(_choice_words(choice, lang)) for choice in exercise.choices]
            for k, button in enumerate(buttons):
                self.grid.addWidget(button, k, 0, 1, 2)
                QWidget.setTabOrder(previous, button)
                previous = button
            self.choices = buttons
        QWidget.setTabOrder(previous, self.check_button)

    @staticmethod
    def _question(trace: Trace, exercise: Exercise, lang: str) -> str:
        watch, edit = exercise.watch, exercise.edit
        assert watch is not None
        if exercise.ablate is not None and watch.cell is not None:
            return say("exercise.ablation_question", lang,
                       heads=ablation_words(exercise.ablate, lang),
                       watch=cell_words(trace, watch.array, watch.cell, lang))
        if edit is not None and watch.cell is not None:
            return say("exercise.direction_question", lang, edit=_editplace_name(edit),
                       by=format_exact(edit.by),
                       watch=cell_words(trace, watch.array, watch.cell, lang))
        return say("exercise.unchanged_question", lang, watch=array_words(watch.array, lang))

    # -- answering -------------------------------------------------------------------------
    def _numbers_asked(self) -> tuple[Trace, Exercise, str] | None:
        """The trace, exercise and language when the exercise asks for numbers; a question
        about change is judged at once instead (Check and Reveal alike say its answer)."""
        trace, exercise = self.trace, self.exercise
        if trace is None or exercise is None:
            return None
        lang = current_language()
        if exercise.kind != "fill":
            self._check_change(trace, exercise, lang)
            return None
        return trace, exercise, lang

    def check(self) -> None:
        """Mark every blank (or the chosen answer) right or wrong, in words."""
        asked = self._numbers_asked()
        if asked is None:
            self.checked = self.exercise is not None  # a question, judged at once
            return
        trace, exercise, lang = asked
        predictions = {b.cell: value for b in self.blanks
                       if (value := b.prediction()) is not None}
        verdicts = {v.place: v for v in check(trace, exercise, predictions, lang)}
        right = 0
        for blank in self.blanks:
            verdict = verdicts[place_name(blank.cell)]
            right += verdict.right
            blank.right = verdict.right
            blank.say(self._verdict_words(trace, blank, verdict, lang), lang)
        self.score.setText(say("exercise.score", lang, right=right, count=len(self.blanks)))
        self.score.setAccessibleName(self.score.text())
        self.checked = True
        self.marksChanged.emit()

    def _answer_edited(self, blank: Blank, _text: str) -> None:
        """An answer typed anew: its verdict (and its mark on the canvas) goes."""
        if blank.right is None and not self.checked:
            return
        blank.right = None
        blank.say("", current_language())
        self.checked = False
        self.marksChanged.emit()

    def marks(self) -> dict[tuple[str, Index], bool]:
        """Each checked blank's verdict (right or not), by hidden cell."""
        return {b.cell: b.right for b in self.blanks if b.right is not None}

    def answers(self) -> tuple[tuple[str, Typed], ...]:
        """What the student gave, by place, as an answers copy stores it: each blank's text as
        typed (blanks left empty left out), the direction chosen, each choice ticked or not."""
        exercise = self.exercise
        if exercise is None or exercise.kind == "fill":
            return tuple((place_name(b.cell), b.entry.text()) for b in self.blanks
                         if b.entry.text())
        if exercise.kind in WAY_KINDS:
            return tuple(("direction", way) for way, button
                         in zip(DIRECTIONS, self.choices, strict=True) if button.isChecked())
        return tuple((f"choices[{k}]", b.isChecked()) for k, b in enumerate(self.choices))

    def restore(self, answers: Mapping[str, Typed], checked: bool) -> None:
        """Fill in answers given before (an answers copy, or another exercise chosen
        meanwhile), checked again if they were."""
        for blank in self.blanks:
            typed = answers.get(place_name(blank.cell))
            blank.entry.setText(typed if isinstance(typed, str) else "")
        exercise = self.exercise
        if exercise is not None and exercise.kind in WAY_KINDS:
            for way, button in zip(DIRECTIONS, self.choices, strict=True):
                button.setChecked(answers.get("direction") == way)
        else:
            for k, button in enumerate(self.choices):
                button.setChecked(answers.get(f"choices[{k}]") is True)
        if checked:
            self.check()

    @staticmethod
    def _verdict_words(trace: Trace, blank: Blank, verdict: Verdict, lang: str) -> str:
        assert isinstance(verdict.expected, float)
        value = shown(trace, verdict.expected)
        if verdict.right:
            return say("exercise.right", lang, value=value)
        typed = blank.entry.text().strip()
        if verdict.given is None:
            first = say("exercise.not_number", lang, text=typed, value=value) if typed \
                else say("exercise.missing", lang, value=value)
        else:
            first = say("exercise.wrong", lang, predicted=typed, value=value)
        lines = [first]
        if verdict.explanation is not None:
            lines.append(verdict.explanation.text())
        if verdict.first_difference is not None:
            lines.append(say("exercise.differs", lang, term=verdict.first_difference))
        return "\n".join(lines)

    def _check_change(self, trace: Trace, exercise: Exercise, lang: str) -> None:
        """A question about change: the choice made, judged on the edited documents."""
        watch = exercise.watch
        assert watch is not None
        solved = answer(trace, exercise)
        if exercise.kind in WAY_KINDS:
            assert watch.cell is not None and solved.direction is not None
            picked = [way for way, b in zip(DIRECTIONS, self.choices, strict=True)
                      if b.isChecked()]
            right = bool(picked) and check(trace, exercise, picked[0], lang)[0].right
            moved = solved.moved[0]
            text = say(f"exercise.{exercise.kind}_{'right' if right else 'wrong'}", lang,
                       watch=cell_words(trace, watch.array, watch.cell, lang),
                       way=say(f"exercise.{solved.direction}", lang),
                       before=shown(trace, moved.before), after=shown(trace, moved.after))
        else:
            ticked = [k for k, b in enumerate(self.choices) if b.isChecked()]
            right = all(v.right for v in check(trace, exercise, ticked, lang))
            names = joined((_choice_words(exercise.choices[k], lang) for k in solved.unchanged),
                           lang)
            text = say("exercise.unchanged_right" if right else "exercise.unchanged_wrong", lang,
                       watch=array_words(watch.array, lang),
                       choices=names or say("exercise.no_choice", lang))
        self.score.setText(text)
        self.score.setAccessibleName(text)

    def reveal(self) -> None:
        """Fill every blank with its answer, or say a question's (the canvas and the step's
        texts show the numbers again)."""
        if self.exercise is None:
            return
        asked = self._numbers_asked()
        if asked is not None:
            trace, exercise, lang = asked
            for blank, hidden in zip(self.blanks, answer(trace, exercise).cells, strict=True):
                value = shown(trace, hidden.value)
                blank.entry.setText(value)
                blank.say(say("exercise.revealed", lang, value=value), lang)
        self.revealed = True
        self.revealedChanged.emit()

    def start_again(self) -> None:
        """Empty the blanks and hide the answers again."""
        for blank in self.blanks:
            blank.entry.clear()
            blank.right = None
            blank.say("", current_language())
        for button in self.choices:
            group = button.group()  # an exclusive group keeps one radio button checked
            exclusive = group is not None and group.exclusive()
            if group is not None:
                group.setExclusive(False)
            button.setChecked(False)
            if group is not None:
                group.setExclusive(exclusive)
        self.score.clear()
        self.revealed = False
        self.checked = False
        self.revealedChanged.emit()
        if self.blanks:
            self.blanks[0].entry.setFocus()


def place_name(cell: tuple[str, Index]) -> str:
    """A hidden cell as the engine's verdicts and an answers copy name it: ``Q[1,0]``."""
    return f"{cell[0]}[{','.join(str(k) for k in cell[1])}]"


def _editplace_name(edit: Edit) -> str:
    """The edited cell: ``Wk[0, 1]``."""
    return f"{short_name(edit.array)}[{', '.join(str(k) for k in edit.cell)}]"


def _choice_words(choice: Edit, lang: str) -> str:
    """An edit offered by a question about change: ``Wv[0, 0] + 0.5``."""
    return say("exercise.choice", lang, name=short_name(choice.array),
               cell=", ".join(str(k) for k in choice.cell),
               by=format_exact(choice.by))
