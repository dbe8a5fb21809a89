"""View → Exercise: the document's exercises in a side panel, their hidden cells as blanks on
the canvas (a toggle above the canvas too). The student answers in the panel; the teacher makes
and words exercises there and clicks cells of the canvas to hide them, each an undoable edit of
the document's ``exercises``."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QDockWidget,
    QMenu,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.canvas import Blanks
from app.i18n import LiveTexts, current_language
from app.model.exercise_edits import (
    Document,
    SetExercises,
    documents_of,
    new_ablation,
    new_direction,
    new_fill,
    new_unchanged,
    with_cell_toggled,
)
from app.texts.problems import problem_words
from app.texts.words import say
from app.window.exercise_panel import ExercisePanel, place_name
from app.window.exercise_teacher import TeacherBox
from engine import Scenario, ScenarioError, Trace
from engine.exercises.document import Exercise, Index, Typed
from engine.exercises.fit import answered_cells, hidden_masks

if TYPE_CHECKING:
    from app.state.shell import Shell

PANEL_WIDTH = 320
"""The panel's narrowest width: its blanks, buttons and the teacher's choices fit it."""

Given = tuple[tuple[str, Typed], ...]
"""A student's answers to one exercise, by place (:attr:`Exercise.answers`)."""


def _blanks_key(exercise: Exercise, trace: Trace) -> object:
    """What an exercise's blanks depend on: the exercise, the arrays' shapes and which keys
    each attention masks (not the numbers: typing a number keeps them)."""
    return (exercise, tuple((name, values.shape) for name, values in trace.arrays.items()),
            tuple((scope, hash(seen.tobytes())) for scope, seen in trace.visibility.items()))


class ExerciseMode(QObject):
    """The Exercise toggle, its panel and the blanks it asks the canvas for.

    Attributes
    ----------
    action
        View → Exercise (Ctrl+Shift+X), checkable; :attr:`toggle` above the canvas shares it.
    panel
        The student's side (:class:`~app.window.exercise_panel.ExercisePanel`).
    teacher
        The teacher's side (:class:`~app.window.exercise_teacher.TeacherBox`).
    """

    def __init__(self, shell: Shell, menu: QMenu) -> None:
        super().__init__(shell.widget())
        self.shell = shell
        self.state = shell.state
        self.texts = LiveTexts()
        self.current = 0
        self._shown: Exercise | None = None
        self._folded = False
        """The editor was folded to make room for the panel."""
        self._blanks: tuple[object, Blanks | None] = (None, None)
        """What the blanks were worked out for (:func:`_blanks_key`), and them."""
        self._given: dict[int, tuple[Exercise, Given, bool]] = {}
        """What the student gave each exercise answered in this window (by its index, with the
        exercise it answers and whether it was checked): kept while another is chosen, and
        written by File → Save answers as…; forgotten when another document opens."""
        self.action = QAction(self)
        self.action.setCheckable(True)
        self.action.setShortcut(QKeySequence("Ctrl+Shift+X"))
        self.texts.bind(self.action.setText, lambda: self._word("action"))
        self.texts.bind(self.action.setToolTip, lambda: self._word("action_tip"))
        menu.addAction(self.action)
        shell.add_action(self.action)
        self.toggle = QToolButton()
        self.toggle.setDefaultAction(self.action)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.texts.bind(self.toggle.setText, lambda: self._word("toggle"))
        self.texts.bind(self.toggle.setAccessibleName, lambda: self._word("toggle_name"))
        shell.add_canvas_control(self.toggle)
        self.panel = ExercisePanel()
        self.teacher = TeacherBox()
        inside = QWidget()
        column = QVBoxLayout(inside)
        column.addWidget(self.panel)
        column.addWidget(self.teacher)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inside)
        self.dock = QDockWidget()
        self.dock.setObjectName("exercise")
        self.texts.bind(self.dock.setWindowTitle, lambda: self._word("panel"))
        self.dock.setWidget(scroll)
        self.dock.setMinimumWidth(PANEL_WIDTH)
        for name, key in (("qt_dockwidget_closebutton", "close_panel"),
                          ("qt_dockwidget_floatbutton", "float_panel")):
            button = self.dock.findChild(QAbstractButton, name)
            if button is not None:  # Qt names them once, in the language of the moment
                self.texts.bind(button.setAccessibleName, partial(self._word, key))
                self.texts.bind(button.setToolTip, partial(self._word, key))
        self.dock.hide()
        shell.add_panel(self.dock)
        self.action.toggled.connect(self._on_toggled)
        self.dock.visibilityChanged.connect(self._on_dock_visible)
        self.panel.revealedChanged.connect(self._redraw)
        self.panel.marksChanged.connect(self._redraw)
        self.panel.chosen.connect(self.choose)
        self.teacher.newFill.connect(self.add_fill)
        self.teacher.newQuestion.connect(self.add_question)
        self.teacher.wordsSet.connect(self.set_words)
        self.teacher.removed.connect(self.remove)
        self.state.traceChanged.connect(self._follow_document)

    @staticmethod
    def _word(key: str, **fields: object) -> str:
        return say(f"exercise.{key}", current_language(), **fields)

    @property
    def active(self) -> bool:
        return self.action.isChecked()

    def exercises(self) -> tuple[Exercise, ...]:
        """The document's exercises."""
        return self.state.scenario.exercises

    def exercise(self) -> Exercise | None:
        """The exercise being answered, if the document has any."""
        found = self.exercises()
        return found[min(self.current, len(found) - 1)] if found else None

    def asking(self) -> bool:
        """Whether an exercise is being answered (exercise mode on, answers not revealed):
        the step's texts, which quote its numbers and its checks, are hidden meanwhile."""
        return self.active and self.exercise() is not None and not self.panel.revealed \
            and self.state.token is None

    def said(self, text: str) -> str:
        """A status line as the window says it: while an exercise is answered, without the
        shares an edit or an opening ends with (``… → shares for 爱: 0.804 / 0.196``): they
        may be its blanks."""
        return text.rpartition(" → ")[0] or text if self.asking() else text

    def blanks(self) -> Blanks | None:
        """The cells the canvas leaves blank: the current exercise's, while exercise mode is
        on and its answers are not revealed, with the verdicts of the last Check (the same
        object while they stay the same, so the frame on screen is refilled, not rebuilt, as a
        number is typed)."""
        if not self.asking():
            return None
        exercise, trace = self.exercise(), self.state.trace
        if exercise is None or exercise.kind != "fill":
            return None
        made_for = _blanks_key(exercise, trace)
        if self._blanks[0] != made_for:
            try:
                masks = hidden_masks(trace, exercise)
            except ScenarioError:  # it no longer fits the document: the panel says why
                return None
            self._blanks = (made_for, Blanks(masks))
        blanks = self._blanks[1]
        marks = self.panel.marks()
        if blanks is not None and marks != blanks.marks:
            blanks = Blanks(blanks.masks, marks)
            self._blanks = (made_for, blanks)
        return blanks

    # -- showing ---------------------------------------------------------------------------
    def retranslate(self) -> None:
        """The panel's words, and the exercise's own, in the interface language."""
        for texts in (self.texts, self.panel.texts, self.teacher.texts):
            texts.apply()
        if self.active:
            self._show(go=False)

    def _on_toggled(self, on: bool) -> None:
        """The panel comes or goes; on a window too narrow for the editor, the canvas and
        the panel, the editor folds away while the panel is shown (and comes back after)."""
        window = self.shell.widget()
        size = window.size()
        if on and size.width() < window.minimumSizeHint().width() + PANEL_WIDTH:
            self._folded = True
            self.shell.set_editor_folded(True)
        elif not on and self._folded:
            self._folded = False
            self.shell.set_editor_folded(False)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # folded: narrower
        self.dock.setVisible(on)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # the panel's room
        window.resize(size.expandedTo(window.minimumSizeHint()))
        if on:
            self._show(go=True)
            self.shell.show_message("")  # the status line may quote the shares to predict
        self._redraw()

    def _redraw(self) -> None:
        """Draw the canvas with the blanks as they now are; while an exercise is answered the
        texts under the timeline (which quote the numbers) are hidden."""
        self.shell.hide_step_texts(self.asking())
        self.shell.refresh_canvas(fit=False)

    def _on_dock_visible(self, visible: bool) -> None:
        """Closing the panel leaves exercise mode (and its blanks)."""
        if not visible and self.active and not self.shell.widget().isHidden():
            self.action.setChecked(False)

    def _follow_document(self) -> None:
        """A new trace (an edit, undo or redo): the panel shows the document's exercises as
        they now are, keeping what was typed while the exercise stays the same."""
        if self.active:
            self._show(go=False)
            self.shell.hide_step_texts(self.asking())

    def _show(self, go: bool) -> None:
        exercises = self.exercises()
        self.current = max(0, min(self.current, len(exercises) - 1))
        exercise = self.exercise()
        self.panel.list_exercises(exercises, self.current)
        keep = exercise is not None and exercise == self._shown
        self.panel.show_exercise(self.state.trace, exercise, keep=keep)
        if exercise is not None and not keep:
            self._restore(exercise)
        self.teacher.show_exercise(exercise)
        self._shown = exercise
        if go and exercise is not None:
            self._go_to(exercise)

    def _go_to(self, exercise: Exercise) -> None:
        ids = [s.id for s in self.state.trace.steps]
        if exercise.step in ids:
            self.state.set_step(ids.index(exercise.step))

    def _restore(self, exercise: Exercise) -> None:
        """The answers given to ``exercise`` before: in this window, else in the answers copy
        it was opened from (checked again if they were)."""
        kept = self._given.get(self.current)
        if kept is not None and kept[0] == exercise:
            self.panel.restore(dict(kept[1]), kept[2])
            return
        if exercise.answers is None and not exercise.checked:
            return
        given: dict[str, Typed] = dict(exercise.answers or ())
        if exercise.kind == "fill":
            try:
                given = {place_name(cell): text
                         for cell, text in answered_cells(self.state.trace, exercise).items()}
            except ScenarioError as error:  # an answer outside the blanks: said, not filled
                self.panel.question.setText(f"⚠ {problem_words(error, current_language())}")
                return
        self.panel.restore(given, exercise.checked)

    def _keep_given(self) -> None:
        """Remember what was given to the exercise on show (another may be chosen)."""
        if self._shown is not None:
            self._given[self.current] = (self._shown, self.panel.answers(), self.panel.checked)

    def answered_scenario(self) -> Scenario:
        """The document with each exercise's answers as given in this window (an exercise
        not answered here keeps those it came with): what Save answers as… writes."""
        self._keep_given()
        exercises = []
        for k, exercise in enumerate(self.exercises()):
            kept = self._given.get(k)
            if kept is not None and kept[0] == exercise:
                exercise = replace(exercise, answers=kept[1] or None, checked=kept[2])
            exercises.append(exercise)
        return replace(self.state.scenario, exercises=tuple(exercises))

    def opened(self) -> None:
        """Another document is open: the answers given to the last one are forgotten; an
        answers copy opens in exercise mode, its blanks filled as typed."""
        self._given.clear()
        self._shown = None
        answered = [k for k, e in enumerate(self.exercises())
                    if e.answers is not None or e.checked]
        self.current = answered[0] if answered else 0
        copy = bool(answered)
        if copy and not self.active:
            self.action.setChecked(True)
        elif self.active:
            self._show(go=copy)
            self._redraw()

    def choose(self, index: int) -> None:
        """Answer the document's exercise ``index`` (its step shown)."""
        self._keep_given()
        self.current = index
        self._shown = None
        self._show(go=True)
        self._redraw()

    # -- the teacher's edits ---------------------------------------------------------------
    def _store(self, documents: list[Document], change: str, title: str,
               place: tuple[str, str] = ("", "")) -> bool:
        """Store ``documents`` as the document's exercises, one undo step (refused, and said,
        when one does not fit)."""
        operation = SetExercises(tuple(documents), change, title, place)
        done = self.state.apply(operation)
        if done:  # said without the shares the status line adds: they may be blanks
            self.shell.show_message(operation.label(current_language()))
            self._show(go=False)
            self._redraw()
        return done

    def add_fill(self, how: str, difficulty: int) -> None:
        """A new ``fill`` exercise at the current step, answered next."""
        made = new_fill(self.state.trace, self.state.step, how,
                        self.state.focused_receiver(), difficulty)
        if made is None:
            self.shell.show_message(self._word("nothing_to_hide"))
            return
        self._add(made)

    def add_question(self, kind: str) -> None:
        """A new question about change at the current step's attention."""
        trace, step = self.state.trace, self.state.step
        receiver = self.state.focused_receiver()
        self._add(new_direction(trace, step, receiver) if kind == "direction"
                  else new_ablation(trace, step, receiver) if kind == "ablation"
                  else new_unchanged(trace, step))

    def _add(self, exercise: Document) -> None:
        documents = documents_of(self.state.scenario)
        title = exercise["title"][current_language()]
        if self._store([*documents, exercise], "edit_add", title):
            self.choose(len(documents))

    def set_words(self, titles: dict[str, str], prompts: dict[str, str]) -> None:
        """The current exercise's title and prompt, in both languages."""
        exercise = self.exercise()
        if exercise is None:
            return
        documents = documents_of(self.state.scenario)
        documents[self.current] = {**documents[self.current], "title": titles,
                                   "prompt": prompts}
        self._store(documents, "edit_change", exercise.title.text(current_language()))

    def remove(self) -> None:
        exercise = self.exercise()
        if exercise is None:
            return
        documents = documents_of(self.state.scenario)
        del documents[self.current]
        self._store(documents, "edit_remove", exercise.title.text(current_language()))

    def cell_clicked(self, name: str, cell: Index) -> None:
        """A click on a grid cell of the canvas: while the teacher hides cells by clicking, the
        cell is hidden in (or taken out of) the current ``fill`` exercise."""
        exercise = self.exercise()
        if not self.active or exercise is None or exercise.kind != "fill" \
                or self.teacher.hiding() != "cells":
            return
        documents = documents_of(self.state.scenario)
        documents[self.current] = with_cell_toggled(documents[self.current], name, cell)
        self._store(documents, "edit_cell", exercise.title.text(current_language()),
                    (name, ", ".join(map(str, cell))))
