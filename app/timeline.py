"""The step timeline: every step named, the current one marked, play/pause and a dwell time."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.state import DocumentState
from app.texts import HEADINGS, step_text, step_title

DEFAULT_DWELL_SECONDS = 2.0


class Timeline(QWidget):
    """Previous / Play-Pause / Next, a button per step, the dwell time and what the step does.

    Play advances one step per dwell time and stops by itself on the last step; pressed on the
    last step it starts again from the first. Default is still.

    Signals
    -------
    playingChanged(bool)
    """

    playingChanged = Signal(bool)

    def __init__(self, state: DocumentState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.lang = "en"
        self.setAccessibleName("Step timeline")
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._advance)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        controls = QHBoxLayout()
        self.previous_button = QPushButton("◀ Previous")
        self.play_button = QPushButton("▶ Play")
        self.next_button = QPushButton("Next ▶")
        for button, name in ((self.previous_button, "Previous step"),
                             (self.play_button, "Play or pause"),
                             (self.next_button, "Next step")):
            button.setAccessibleName(name)
            controls.addWidget(button)
        self.previous_button.clicked.connect(self.previous)
        self.next_button.clicked.connect(self.next)
        self.play_button.clicked.connect(self.toggle_play)
        self.dwell_box = QDoubleSpinBox()
        self.dwell_box.setRange(0.1, 30.0)
        self.dwell_box.setSingleStep(0.5)
        self.dwell_box.setSuffix(" s")
        self.dwell_box.setValue(DEFAULT_DWELL_SECONDS)
        self.dwell_box.setAccessibleName("Dwell time per step")
        self.dwell_box.setToolTip("How long Play stays on each step")
        dwell_label = QLabel("Dwell")
        dwell_label.setBuddy(self.dwell_box)
        controls.addWidget(dwell_label)
        controls.addWidget(self.dwell_box)
        self.position_label = QLabel()
        self.position_label.setAccessibleName("Current step")
        controls.addWidget(self.position_label, 1)
        layout.addLayout(controls)
        self.step_bar = QScrollArea()
        self.step_bar.setWidgetResizable(True)
        self.step_bar.setFixedHeight(QPushButton("1").sizeHint().height()
                                     + self.step_bar.horizontalScrollBar().sizeHint().height()
                                     + 2 * self.step_bar.frameWidth() + 4)
        self.step_bar.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.step_group = QButtonGroup(self)
        self.step_group.setExclusive(True)
        self.step_group.idClicked.connect(self.state.set_step)
        layout.addWidget(self.step_bar)
        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.summary_label.setAccessibleName("What this step does")
        layout.addWidget(self.summary_label)
        self.check_label = QLabel()
        self.check_label.setWordWrap(True)
        self.check_label.setAccessibleName("How to check this step")
        layout.addWidget(self.check_label)
        self._step_ids: list[str] = []
        self._rebuild_steps()
        state.traceChanged.connect(self._on_trace)
        state.stepChanged.connect(lambda _k: self._show_current())

    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    def dwell_ms(self) -> int:
        return round(self.dwell_box.value() * 1000)

    def _rebuild_steps(self) -> None:
        for button in self.step_group.buttons():
            self.step_group.removeButton(button)
        row = QWidget()
        buttons = QHBoxLayout(row)
        buttons.setContentsMargins(0, 0, 0, 0)
        steps = self.state.trace.steps
        for k, step in enumerate(steps):
            title = self.title_for(k)
            button = QPushButton(f"{k + 1} {step.id.replace('_', ' ')}")
            button.setCheckable(True)
            button.setToolTip(title)
            button.setAccessibleName(f"Step {k + 1}: {title}")
            self.step_group.addButton(button, k)
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.step_bar.setWidget(row)
        self._step_ids = [s.id for s in steps]
        self._show_current()

    def _on_trace(self) -> None:
        if [s.id for s in self.state.trace.steps] != self._step_ids:
            self._rebuild_steps()
        else:
            self._show_current()

    def _show_current(self) -> None:
        steps = self.state.trace.steps
        k = self.state.step
        button = self.step_group.button(k)
        if button is not None:
            button.setChecked(True)
            self.step_bar.ensureWidgetVisible(button)
        text = step_text(steps[k].explain_key, self.lang)
        self.position_label.setText(f"Step {k + 1} of {len(steps)} · {self.title_for(k)}")
        self.summary_label.setText(text.summary)
        self.check_label.setText(f"✓ {HEADINGS[self.lang][3]}: {text.check}")
        self.previous_button.setEnabled(k > 0)
        self.next_button.setEnabled(k < len(steps) - 1)

    def title_for(self, index: int) -> str:
        """The step's title in the interface language."""
        return step_title(self.state.trace.steps[index], self.state.scenario, self.lang)

    # -- actions ---------------------------------------------------------------------------
    def previous(self) -> None:
        self.state.set_step(self.state.step - 1)

    def next(self) -> None:
        self.state.set_step(self.state.step + 1)

    def first(self) -> None:
        self.state.set_step(0)

    def last(self) -> None:
        self.state.set_step(len(self.state.trace.steps) - 1)

    def toggle_play(self) -> None:
        if self.playing:
            self.pause()
        else:
            self.play()

    def play(self) -> None:
        if self.state.step >= len(self.state.trace.steps) - 1:
            self.state.set_step(0)
        self.timer.start(self.dwell_ms())
        self.play_button.setText("⏸ Pause")
        self.playingChanged.emit(True)

    def pause(self) -> None:
        self.timer.stop()
        self.play_button.setText("▶ Play")
        self.playingChanged.emit(False)

    def _advance(self) -> None:
        self.timer.setInterval(self.dwell_ms())
        self.next()
        if self.state.step >= len(self.state.trace.steps) - 1:
            self.pause()
