"""View → Exercise: the document's exercises in a side panel, their hidden cells as blanks on
the canvas (a toggle above the canvas too). The student answers in the panel; the teacher makes
and words exercises there and clicks cells of the canvas to hide them, each an undoable edit of
the document's ``exercises``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMenu, QScrollArea, QToolButton, QVBoxLayout, QWidget

from app.i18n import LiveTexts, current_language
from app.model.exercise_adapter import Cell, hidden_cells
from app.model.exercise_edits import (
    SetExercises,
    exercises_of,
    new_direction,
    new_fill,
    new_unchanged,
    title_of,
    with_cell_toggled,
)
from app.texts.exercise_words import exercise_word
from app.window.exercise_panel import ExercisePanel
from app.window.exercise_teacher import TeacherBox
from engine import Scenario

if TYPE_CHECKING:
    from app.window.shell import Shell


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
        self._listed: tuple[Scenario | None, list[dict[str, Any]]] = (None, [])
        self._shown: dict[str, Any] | None = None
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
        scroll.setWidget(inside)
        self.dock = QDockWidget()
        self.dock.setObjectName("exercise")
        self.texts.bind(self.dock.setWindowTitle, lambda: self._word("panel"))
        self.dock.setWidget(scroll)
        self.dock.hide()
        shell.add_panel(self.dock)
        self.action.toggled.connect(self._on_toggled)
        self.dock.visibilityChanged.connect(self._on_dock_visible)
        self.panel.revealedChanged.connect(lambda: self.shell.refresh_canvas(fit=False))
        self.panel.chosen.connect(self.choose)
        self.teacher.newFill.connect(self.add_fill)
        self.teacher.newQuestion.connect(self.add_question)
        self.teacher.wordsSet.connect(self.set_words)
        self.teacher.removed.connect(self.remove)
        self.state.traceChanged.connect(self._follow_document)

    @staticmethod
    def _word(key: str, **fields: object) -> str:
        return exercise_word(current_language(), key, **fields)

    @property
    def active(self) -> bool:
        return self.action.isChecked()

    def exercises(self) -> list[dict[str, Any]]:
        """The document's exercises (read once per document)."""
        scenario = self.state.scenario
        if self._listed[0] is not scenario:
            self._listed = (scenario, exercises_of(scenario))
        return self._listed[1]

    def exercise(self) -> dict[str, Any] | None:
        """The exercise being answered, if the document has any."""
        found = self.exercises()
        return found[min(self.current, len(found) - 1)] if found else None

    def blanks(self) -> frozenset[tuple[str, Cell]]:
        """The cells the canvas leaves blank: the current exercise's, while exercise mode is
        on and its answers are not revealed."""
        if not self.active or self.panel.revealed or self.state.token is not None:
            return frozenset()
        exercise = self.exercise()
        if exercise is None or exercise["kind"] != "fill":
            return frozenset()
        return frozenset(hidden_cells(self.state.trace, exercise))

    # -- showing ---------------------------------------------------------------------------
    def retranslate(self) -> None:
        """The panel's words, and the exercise's own, in the interface language."""
        for texts in (self.texts, self.panel.texts, self.teacher.texts):
            texts.apply()
        if self.active:
            self._show(go=False)

    def _on_toggled(self, on: bool) -> None:
        self.dock.setVisible(on)
        if on:
            self._show(go=True)
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

    def _show(self, go: bool) -> None:
        exercises = self.exercises()
        self.current = max(0, min(self.current, len(exercises) - 1))
        exercise = self.exercise()
        self.panel.list_exercises(exercises, self.current)
        keep = exercise is not None and exercise == self._shown
        self.panel.show_exercise(self.state.trace, exercise, keep=keep)
        self.teacher.show_exercise(exercise)
        self._shown = exercise
        if go and exercise is not None:
            self._go_to(exercise)

    def _go_to(self, exercise: dict[str, Any]) -> None:
        ids = [s.id for s in self.state.trace.steps]
        if exercise.get("step") in ids:
            self.state.set_step(ids.index(exercise["step"]))

    def choose(self, index: int) -> None:
        """Answer the document's exercise ``index`` (its step shown)."""
        self.current = index
        self._shown = None
        self._show(go=True)
        self.shell.refresh_canvas(fit=False)

    # -- the teacher's edits ---------------------------------------------------------------
    def _store(self, exercises: list[dict[str, Any]], change: str, title: str,
               place: tuple[str, str] = ("", "")) -> bool:
        done = self.state.apply(SetExercises(tuple(exercises), change, title, place))
        if done:
            self._show(go=False)
            self.shell.refresh_canvas(fit=False)
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
        self._add(new_direction(trace, step, self.state.focused_receiver())
                  if kind == "direction" else new_unchanged(trace, step))

    def _add(self, exercise: dict[str, Any]) -> None:
        exercises = self.exercises()
        if self._store([*exercises, exercise], "edit_add", title_of(exercise,
                                                                    current_language())):
            self.choose(len(exercises))

    def set_words(self, titles: dict[str, str], prompts: dict[str, str]) -> None:
        """The current exercise's title and prompt, in both languages."""
        exercise = self.exercise()
        if exercise is None:
            return
        exercises = list(self.exercises())
        changed = {**exercise, "title": titles, "prompt": prompts}
        exercises[self.current] = changed
        self._store(exercises, "edit_change", title_of(changed, current_language()))

    def remove(self) -> None:
        exercise = self.exercise()
        if exercise is None:
            return
        exercises = [e for k, e in enumerate(self.exercises()) if k != self.current]
        self._store(exercises, "edit_remove", title_of(exercise, current_language()))

    def cell_clicked(self, name: str, cell: Cell) -> None:
        """A click on a grid cell of the canvas: while the teacher hides cells by clicking, the
        cell is hidden in (or taken out of) the current ``fill`` exercise."""
        exercise = self.exercise()
        if not self.active or exercise is None or exercise["kind"] != "fill" \
                or self.teacher.hiding() != "cells":
            return
        exercises = list(self.exercises())
        exercises[self.current] = with_cell_toggled(exercise, self.state.trace, name, cell)
        self._store(exercises, "edit_cell", title_of(exercise, current_language()),
                    (name, ", ".join(map(str, cell))))
