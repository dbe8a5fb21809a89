"""Generate next: the row shown with the probabilities step that appends the next token.

The button (and Edit → Generate next, Ctrl+G) draws from the last position's logits with
:func:`engine.generation.sampling.sample` — draw t of the document's run, t one more than the ids it
has chosen, so pressing it k times gives what ``qkv-studio generate --steps k`` gives with the same
settings — and makes :class:`app.model.edits.AppendToken`; clicking a bar of the probabilities
appends that entry instead (:meth:`GenerationPanel.pick`). Greedy or sampling, the temperature (a
slider with its number printed), top-k, top-p and the seed are the document's ``generation``
settings, changed by :class:`app.model.edits.SetGeneration` (a drag of the slider is one undo step).
Undo takes the token away; redo shows the document it made, never drawing again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QPushButton,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.canvas.shown import SHOWN
from app.i18n import LiveTexts, current_language
from app.model.edits import AppendToken, SetGeneration, run_of
from app.plain_text import PlainLabel
from app.texts.problems import problem_words
from engine import Scenario, ScenarioError
from engine.format.generation_keys import MAX_TEMPERATURE
from engine.format.numbers import format_exact, format_number
from engine.generation.append import check_room
from engine.generation.sampling import sample
from engine.scenario.op_kinds import head_output

if TYPE_CHECKING:
    from app.state.change import Change
    from app.state.shell import Shell

SLIDER_STEPS = 100
"""Slider positions per unit of temperature."""
SLIDER_TOP = 3.0
"""The slider's largest temperature (a document may hold a larger one; the number says it)."""
ROWS_APART = (2, 18)
"""Pixels between the two rows of controls: one under the other, and on one line."""
TOP_P_DECIMALS = 2
"""The decimals the top-p box shows a value of the box's own steps with."""
MAX_TOP_P_DECIMALS = 17
"""Enough decimals for any top-p a document holds (float64 has 17 significant digits)."""
MAX_SEED = 2**31 - 1
"""The largest seed the spin box offers (a document may hold up to 2⁶³ − 1: the box then shows
it as its special value)."""


class GenerationPanel(QWidget):
    """Generate next, the pick by a click, and the run's settings, for the window ``shell``."""

    def __init__(self, shell: Shell) -> None:
        super().__init__()
        self.state = state = shell.state
        self.texts = LiveTexts()
        bind = self.texts.bind
        column = QVBoxLayout(self)
        column.setContentsMargins(6, 0, 6, 2)
        column.setSpacing(ROWS_APART[0])
        self.action = QAction(self)
        bind(self.action.setText, lambda: self.tr("&Generate next"))
        self.action.setShortcut(QKeySequence("Ctrl+G"))
        self.action.triggered.connect(self.generate)
        shell.add_action(self.action)
        self.button = QPushButton()
        bind(self.button.setText, lambda: self.tr("Generate next"))
        self.button.clicked.connect(self.generate)
        self.mode_box = QComboBox()
        bind(self.mode_box.setAccessibleName, lambda: self.tr("Greedy or sampling"))
        self.mode_box.addItems(["", ""])
        bind(lambda text: self.mode_box.setItemText(0, text), lambda: self.tr("Greedy"))
        bind(lambda text: self.mode_box.setItemText(1, text), lambda: self.tr("Sampling"))
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(1, int(SLIDER_TOP * SLIDER_STEPS))
        self.slider.setValue(SLIDER_STEPS)
        self.slider.setMinimumWidth(90)
        bind(self.slider.setAccessibleName, lambda: self.tr("Temperature"))
        self.temperature_label = PlainLabel()
        self.top_k_box = QSpinBox()
        self.top_k_box.setRange(0, 1)
        bind(self.top_k_box.setSpecialValueText, lambda: self.tr("all"))
        self.top_p_box = QDoubleSpinBox()
        self.top_p_box.setRange(10.0 ** -TOP_P_DECIMALS, 1.0)
        self.top_p_box.setSingleStep(0.05)
        self.seed_box = QSpinBox()
        self.seed_box.setRange(0, MAX_SEED)
        self.seed_box.setMinimumWidth(90)
        for box in (self.top_k_box, self.top_p_box, self.seed_box):
            box.setKeyboardTracking(False)  # a number typed is one edit, when it is done
        self.column = column
        self.rows = rows = (QHBoxLayout(), QHBoxLayout())
        for line in rows:
            column.addLayout(line)
            line.setSpacing(line.spacing())  # its own, not the column's as that changes
        rows[0].addWidget(self.button)
        rows[0].addWidget(self.mode_box)
        for line, text, widget in ((rows[0], lambda: self.tr("&Temperature"), self.slider),
                                   (rows[1], lambda: self.tr("Top-&k"), self.top_k_box),
                                   (rows[1], lambda: self.tr("Top-&p"), self.top_p_box),
                                   (rows[1], lambda: self.tr("See&d"), self.seed_box)):
            label = PlainLabel()
            bind(label.setText, text)
            label.setBuddy(widget)
            line.addWidget(label)
            line.addWidget(widget)
            if widget is self.slider:
                line.addWidget(self.temperature_label)
        self.hint = PlainLabel()
        bind(self.hint.setText, lambda: self.tr("or click a bar to pick its token"))
        rows[1].addWidget(self.hint)
        for line in rows:
            line.addStretch(1)
        column.setStretch(1, 1)  # on one line, the room left over goes after the second row
        self.controls: tuple[QWidget, ...] = (self.button, self.mode_box, self.slider,
                                              self.top_k_box, self.top_p_box, self.seed_box)
        self.mode_box.activated.connect(self._on_mode)
        self.slider.valueChanged.connect(self._on_slider)
        self.top_k_box.valueChanged.connect(
            lambda k: self._set("top_k", None if k == 0 else int(k)))
        self.top_p_box.valueChanged.connect(lambda p: self._set("top_p", float(p)))
        self.seed_box.valueChanged.connect(lambda s: self._set("seed", int(s)))
        state.documentChanged.connect(self._on_document)
        state.busyChanged.connect(lambda _busy: self._enable())
        state.stepChanged.connect(lambda _k: self._show_with_step())
        state.traceChanged.connect(self._show_with_step)
        self._fill()
        self._show_with_step()

    # -- what the document allows ------------------------------------------------------------
    def refusal(self, scenario: Scenario) -> str | None:
        """Why ``scenario`` cannot take one more generated token, in the interface language
        (None: it can): what it lacks, or a limit it has reached (the position limit, a
        learned table's end); a size limit the longer document would pass is refused by the
        engine when the token is appended."""
        try:
            check_room(scenario)
        except ScenarioError as error:
            return problem_words(error, current_language())
        return None

    def _button_tip(self) -> str:
        return self.tr("Append the next token, drawn from the last position's probabilities "
                       "(Ctrl+G)")

    def _enable(self) -> None:
        why = self.refusal(self.state.scenario)
        able = why is None and not self.state.busy
        self.action.setEnabled(able)
        greedy = self.mode_box.currentIndex() == 0
        for widget in self.controls:
            widget.setEnabled(able and (widget in (self.button, self.mode_box) or not greedy))
            if widget is not self.button:
                widget.setToolTip(why or "")
        self.button.setToolTip(why or self._button_tip())
        self.action.setToolTip(why or self._button_tip())

    def _show_with_step(self) -> None:
        steps = self.state.trace.steps
        shown = SHOWN[steps[min(self.state.step, len(steps) - 1)].op].draw_controls
        column = self.parentWidget()
        if shown and self.isHidden() and column is not None:
            self._arrange(column.contentsRect().width())  # arranged before the canvas yields
        self.setVisible(shown)

    def _on_document(self, change: Change) -> None:
        """A new document: its settings shown, unless only numbers of its arrays changed (a
        cell edit leaves the run's settings, the vocabulary and the room to grow as they
        were)."""
        if change.paths is None:
            self._fill()

    def _fill(self) -> None:
        """The controls show the document's settings (changing them makes no edit)."""
        scenario = self.state.scenario
        settings = run_of(scenario).settings
        widgets = (self.mode_box, self.slider, self.top_k_box, self.top_p_box, self.seed_box)
        for widget in widgets:
            widget.blockSignals(True)
        self.mode_box.setCurrentIndex(0 if settings.temperature == 0 else 1)
        if settings.temperature > 0:
            self.slider.setValue(round(settings.temperature * SLIDER_STEPS))
        vocab = len(scenario.head.vocab) if scenario.head is not None else 0
        self.top_k_box.setRange(0, max(1, vocab))
        self.top_k_box.setValue(settings.top_k or 0)
        self._show_top_p(settings.top_p)
        self._show_seed(settings.seed)
        for widget in widgets:
            widget.blockSignals(False)
        self.temperature_label.setText(self._temperature_text())
        self._enable()

    def _show_top_p(self, top_p: float) -> None:
        """The run's top-p in the box with the decimals it needs (at least 2; 0.999 is not
        1.00), the box reaching down to it."""
        decimals = next((d for d in range(TOP_P_DECIMALS, MAX_TOP_P_DECIMALS)
                         if round(top_p, d) == top_p), MAX_TOP_P_DECIMALS)
        self.top_p_box.setDecimals(decimals)
        self.top_p_box.setMinimum(10.0 ** -decimals)
        self.top_p_box.setValue(top_p)

    def _show_seed(self, seed: int) -> None:
        """The run's seed in the box; one past its range stands as the box's special value
        (below 0, its text the seed), so the number shown is the one the draws use."""
        large = seed > MAX_SEED
        self.seed_box.setMinimum(-1 if large else 0)
        self.seed_box.setSpecialValueText(str(seed) if large else "")
        self.seed_box.setValue(-1 if large else seed)

    def _temperature_text(self) -> str:
        """The run's temperature (0 when greedy, whatever the greyed slider holds), with two
        decimals where they hold it exactly, else in full: 0.004 is not the slider's nearest
        step 0.01."""
        temperature = run_of(self.state.scenario).settings.temperature
        if temperature == 0:
            return "0"
        if round(temperature, 2) == temperature:
            return format_number(temperature, 2, pad=True)
        return format_exact(temperature)

    # -- edits -------------------------------------------------------------------------------
    def _set(self, key: str, value: float | int | None) -> None:
        settings = run_of(self.state.scenario).settings
        if getattr(settings, key) == value or self.refusal(self.state.scenario) is not None:
            return
        change: dict[str, Any] = {key: value}
        self.state.apply(SetGeneration(replace(settings, **change), key))

    def _on_mode(self, index: int) -> None:
        self._set("temperature", 0.0 if index == 0 else self.slider.value() / SLIDER_STEPS)

    def _on_slider(self, value: int) -> None:
        temperature = min(value / SLIDER_STEPS, MAX_TEMPERATURE)
        self.temperature_label.setText(format_number(temperature, 2, pad=True))
        if self.mode_box.currentIndex() == 1:
            self._set("temperature", temperature)

    def generate(self) -> bool:
        """Draw the next token with the run's settings and append it; False if nothing was
        appended (the document cannot generate, is still computing, or the engine refused)."""
        state = self.state
        state.view_token(None)  # a token of the run on screen: the whole document draws
        scenario, trace = state.scenario, state.trace
        if self.refusal(scenario) is not None or trace.scenario is not scenario:
            return False
        run = run_of(scenario)
        scores = trace.arrays[head_output(trace.steps)]
        draw = sample(scores[-1], run.settings, len(run.chosen) + 1)
        return self.pick(draw.chosen)

    def pick(self, token_id: int) -> bool:
        """Append the vocabulary entry ``token_id`` (a bar clicked, or the draw); False, with
        the reason on the status line, if the document cannot take it."""
        scenario = self.state.scenario
        why = self.refusal(scenario)
        if why is not None:
            self.state.refused.emit(why)
            return False
        assert scenario.head is not None
        vocab = scenario.head.vocab
        text = vocab[token_id] if 0 <= token_id < len(vocab) else ""
        return self.state.apply(AppendToken(token_id, text))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.texts.apply()
            self._enable()
            self._arrange(self.width())
        super().changeEvent(event)

    # -- one line where there is room -----------------------------------------------------------
    def one_line_width(self) -> int:
        """How wide the panel is with its two rows on one line."""
        margins = self.column.contentsMargins()
        return (sum(row.sizeHint().width() for row in self.rows) + ROWS_APART[1]
                + margins.left() + margins.right())

    def _arrange(self, width: int) -> None:
        """The two rows on one line when ``width`` holds them (the editor folded away), so
        the canvas loses one row's height at these steps, not two; else one under the other,
        which leaves the editor its width."""
        direction = (QBoxLayout.Direction.LeftToRight if width >= self.one_line_width()
                     else QBoxLayout.Direction.TopToBottom)
        if self.column.direction() != direction:
            self.column.setDirection(direction)
            self.column.setSpacing(ROWS_APART[direction == QBoxLayout.Direction.LeftToRight])

    def minimumSizeHint(self) -> QSize:
        """As narrow as the rows one under the other: one line never widens the column."""
        margins = self.column.contentsMargins()
        narrow = max(row.minimumSize().width() for row in self.rows)
        return QSize(narrow + margins.left() + margins.right(),
                     self.column.minimumSize().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange(event.size().width())
