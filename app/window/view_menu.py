"""The View menu's help and access items: glossary, step explanation, language, high contrast,
reduce motion."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu

from app.canvas.worked_row import WORKED_ROW_POSITIONS
from app.i18n import LiveTexts, current_language, set_language, switcher
from app.model.cancel import CancelledError
from app.texts import LANGUAGE_NAMES, LANGUAGES
from app.texts.problems import problem_words
from app.window.appearance import appearance
from app.window.lens_window import LensWindow
from app.window.model_view_window import ModelViewWindow
from engine import ScenarioError

if TYPE_CHECKING:
    from app.state.shell import Shell


class ViewMenu(QObject):
    """Adds its actions to ``menu`` and keeps them in step with the language and the appearance.

    Attributes
    ----------
    glossary_action
        View → Glossary (F1): shows or hides the glossary dock.
    explain_action
        View → Explain this step (Shift+F1): folds the step explanation out or in.
    language_actions
        One checkable action per language, named in its own language.
    worked_row_action
        Draw the worked row on the frame (on when a document of at most four positions
        opens).
    model_view_action
        View → Model view (Ctrl+Shift+M): every layer × head's shares in a window of its own.
    focus_action
        View → Focus on the frame (Ctrl+Shift+F): folds the editor away so the canvas, and the
        frame's numbers, grow; again brings it back.
    high_contrast_action, reduce_motion_action
        Checkable preferences, remembered between sessions.
    """

    def __init__(self, shell: Shell, menu: QMenu, texts: LiveTexts) -> None:
        super().__init__(shell.widget())
        look = appearance()
        menu.addSeparator()
        self.glossary_action = shell.glossary_action()
        self.glossary_action.setShortcut(QKeySequence(QKeySequence.StandardKey.HelpContents))
        menu.addAction(self.glossary_action)
        self.explain_action = QAction(self)
        self.explain_action.setCheckable(True)
        self.explain_action.setShortcut(QKeySequence("Shift+F1"))
        shell.bind_explanation(self.explain_action)
        texts.bind(self.explain_action.setText, lambda: self.tr("E&xplain this step"))
        menu.addAction(self.explain_action)
        self.worked_row_action = QAction(self)
        self.worked_row_action.setCheckable(True)
        self.worked_row_action.setChecked(shell.state.scenario.n <= WORKED_ROW_POSITIONS)
        self.worked_row_action.toggled.connect(lambda _on: shell.refresh_canvas(fit=False))
        texts.bind(self.worked_row_action.setText, lambda: self.tr("&Worked row"))
        texts.bind(self.worked_row_action.setToolTip, lambda: self.tr(
            "Show the receiver's arithmetic at the scores, shares and mix steps"))
        menu.addAction(self.worked_row_action)
        self.focus_action = QAction(self)
        self.focus_action.setCheckable(True)
        self.focus_action.setShortcut(QKeySequence("Ctrl+Shift+F"))
        self.focus_action.toggled.connect(shell.set_editor_folded)
        texts.bind(self.focus_action.setText, lambda: self.tr("&Focus on the frame"))
        texts.bind(self.focus_action.setToolTip, lambda: self.tr(
            "Fold the editor away so the frame and its numbers are drawn larger"))
        menu.addAction(self.focus_action)
        self.model_view_action = QAction(self)
        self.model_view_action.setShortcut(QKeySequence("Ctrl+Shift+M"))
        self.model_view_action.triggered.connect(lambda: self.show_model_view(shell))
        texts.bind(self.model_view_action.setText, lambda: self.tr("&Model view"))
        texts.bind(self.model_view_action.setToolTip, lambda: self.tr(
            "Every layer × head's shares at once, with each head's share on the first key"))
        menu.addAction(self.model_view_action)
        self.model_view: ModelViewWindow | None = None
        self.lens_action = QAction(self)
        self.lens_action.setShortcut(QKeySequence("Ctrl+Shift+L"))
        self.lens_action.triggered.connect(lambda: self.show_lens(shell))
        texts.bind(self.lens_action.setText, lambda: self.tr("&Logit lens"))
        texts.bind(self.lens_action.setToolTip, lambda: self.tr(
            "What the model would predict at each position if it stopped after each layer"))
        menu.addAction(self.lens_action)
        self.lens: LensWindow | None = None
        menu.addSeparator()
        self.language_menu = menu.addMenu("")
        texts.bind(self.language_menu.setTitle, lambda: self.tr("&Language"))
        group = QActionGroup(self)
        group.setExclusive(True)
        self.language_actions: dict[str, QAction] = {}
        for lang in LANGUAGES:
            action = QAction(LANGUAGE_NAMES[lang], self)
            action.setCheckable(True)
            action.setData(lang)
            action.triggered.connect(lambda _on=False, lang=lang: set_language(lang,
                                                                               remember=True))
            group.addAction(action)
            self.language_menu.addAction(action)
            self.language_actions[lang] = action
        switcher().languageChanged.connect(self._show_language)
        self._show_language(current_language())
        menu.addSeparator()
        self.high_contrast_action = QAction(self)
        self.high_contrast_action.setCheckable(True)
        self.high_contrast_action.setChecked(look.high_contrast)
        self.high_contrast_action.toggled.connect(look.set_high_contrast)
        texts.bind(self.high_contrast_action.setText, lambda: self.tr("&High contrast"))
        menu.addAction(self.high_contrast_action)
        self.reduce_motion_action = QAction(self)
        self.reduce_motion_action.setCheckable(True)
        self.reduce_motion_action.setChecked(look.reduce_motion)
        self.reduce_motion_action.toggled.connect(look.set_reduce_motion)
        texts.bind(self.reduce_motion_action.setText, lambda: self.tr("Reduce &motion"))
        texts.bind(self.reduce_motion_action.setToolTip, lambda: self.tr(
            "Play stays at least 5 s on each step"))
        menu.addAction(self.reduce_motion_action)
        for action in (self.glossary_action, self.explain_action, self.focus_action,
                       self.model_view_action, self.lens_action,
                       self.high_contrast_action, self.reduce_motion_action):
            shell.add_action(action)

    def show_model_view(self, shell: Shell) -> ModelViewWindow:
        """Open the model view of the document as it is now (a new one replaces the last)."""
        if self.model_view is not None:
            self.model_view.close()
        self.model_view = ModelViewWindow(shell, shell.widget())
        self.model_view.show()
        return self.model_view

    def show_lens(self, shell: Shell) -> LensWindow | None:
        """Open the logit lens of the document as it is now (a new one replaces the last); a
        document without a vocabulary head says why on the status line instead."""
        if self.lens is not None:
            self.lens.close()
            self.lens = None
        try:
            self.lens = LensWindow(shell, shell.widget())
        except ScenarioError as error:
            shell.show_message(problem_words(error, current_language()))
            return None
        except CancelledError:
            return None
        self.lens.show()
        return self.lens

    def _show_language(self, lang: str) -> None:
        for code, action in self.language_actions.items():
            action.setChecked(code == lang)
