"""The step timeline: every step named, the current one marked, play/pause and a dwell time."""

from __future__ import annotations

import time
from itertools import pairwise

from PySide6.QtCore import QEvent, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.help.explain import ExplainPanel
from app.i18n import LiveTexts, current_language
from app.plain_text import PlainLabel
from app.state.change import Change
from app.state.document import DocumentState
from app.state.showing import step_problem
from app.texts import HEADINGS, StepText, step_label, step_text, step_title
from app.texts.step_labels import layer_name, step_groups
from app.texts.words import say
from app.widgets.elided_label import ElidedLabel
from app.window.run_level import RunLevel
from engine import Trace

DEFAULT_DWELL_SECONDS = 2.0
ROOM_DELAY_MS = 300
"""After an edit, how long the timeline waits for the next one before it measures every step's
texts again (the current step's follow at once)."""
ROOM_SLICE_MS = 25
"""How long the texts' room is measured at a turn of the event loop before the window paints
and answers again (the rest at the next turns): a Llama-3.2-1B document's ~200 steps' texts
took 0.1-0.4 s on the interface thread after each edit and at each new width."""
REDUCED_MOTION_SECONDS = 5.0
"""With reduced motion on, Play stays at least this long on each step."""


class StepButtons:
    """The timeline's step buttons, in step order (``button(k)`` is step k's)."""

    def __init__(self) -> None:
        self._buttons: list[QPushButton] = []

    def add(self, button: QPushButton) -> None:
        self._buttons.append(button)

    def clear(self) -> None:
        self._buttons = []

    def buttons(self) -> list[QPushButton]:
        return list(self._buttons)

    def button(self, index: int) -> QPushButton | None:
        return self._buttons[index] if 0 <= index < len(self._buttons) else None


class LayerGroup(QToolButton):
    """The head of one layer's steps on the timeline (``▾ Layer 2``): pressed, it collapses
    the group to its name (and the current step, if it is one of them) or opens it again.

    Attributes
    ----------
    steps
        Indices of the group's steps, in order.
    label
        The group's name in the interface language.
    """

    def __init__(self) -> None:
        super().__init__()
        self.steps: list[int] = []
        self.label = ""
        self.setCheckable(True)
        self.setChecked(True)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)


class Timeline(QWidget):
    """Previous / Play-Pause / Next, a button per step, the dwell time and what the step does.

    Play advances one step per dwell time and stops by itself on the last step; pressed on the
    last step it starts again from the first. Default is still. With :attr:`reduce_motion` on,
    Play never advances faster than one step per :data:`REDUCED_MOTION_SECONDS`.

    Every text is in the interface language and changes with it (``retranslate``).

    Signals
    -------
    playingChanged(bool)
    """

    playingChanged = Signal(bool)

    def __init__(self, state: DocumentState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.reduce_motion = False
        self.texts = LiveTexts()
        self.texts.bind(self.setAccessibleName, lambda: self.tr("Step timeline"))
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._advance)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        controls = QHBoxLayout()
        self.previous_button = QPushButton()
        self.play_button = QPushButton()
        self.next_button = QPushButton()
        self.texts.bind(self.previous_button.setText, lambda: self.tr("◀ Previous"))
        self.texts.bind(self.next_button.setText, lambda: self.tr("Next ▶"))
        self.texts.bind(self.previous_button.setAccessibleName, lambda: self.tr("Previous step"))
        self.texts.bind(self.play_button.setAccessibleName, lambda: self.tr("Play or pause"))
        self.texts.bind(self.next_button.setAccessibleName, lambda: self.tr("Next step"))
        for button in (self.previous_button, self.play_button, self.next_button):
            controls.addWidget(button)
        self.previous_button.clicked.connect(self.previous)
        self.next_button.clicked.connect(self.next)
        self.play_button.clicked.connect(self.toggle_play)
        self.dwell_box = QDoubleSpinBox()
        self.dwell_box.setRange(0.1, 30.0)
        self.dwell_box.setSingleStep(0.5)
        self.dwell_box.setValue(DEFAULT_DWELL_SECONDS)
        self.texts.bind(self.dwell_box.setSuffix, lambda: self.tr(" s"))
        self.texts.bind(self.dwell_box.setAccessibleName, lambda: self.tr("Dwell time per step"))
        dwell_label = PlainLabel()
        self.texts.bind(dwell_label.setText, lambda: self.tr("&Dwell"))
        dwell_label.setBuddy(self.dwell_box)
        controls.addWidget(dwell_label)
        controls.addWidget(self.dwell_box)
        self.position_label = ElidedLabel()
        self.texts.bind(self.position_label.setAccessibleName, lambda: self.tr("Current step"))
        controls.addWidget(self.position_label, 1)
        layout.addLayout(controls)
        self.run_level = RunLevel(state)
        layout.addWidget(self.run_level)
        self.step_bar = QScrollArea()
        self.step_bar.setWidgetResizable(True)
        self.step_bar.setFixedHeight(QPushButton("1").sizeHint().height()
                                     + self.step_bar.horizontalScrollBar().sizeHint().height()
                                     + 2 * self.step_bar.frameWidth() + 4)
        self.step_bar.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.texts.bind(self.step_bar.setAccessibleName, lambda: self.tr("Steps"))
        self.step_bar.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # its buttons take the focus
        # Not a QButtonGroup: Tab skips the other buttons of a group, and every step button
        # must be reachable by Tab. _show_current keeps exactly the current one checked.
        self.step_group = StepButtons()
        layout.addWidget(self.step_bar)
        self.summary_label = PlainLabel()
        self.summary_label.setWordWrap(True)
        self.texts.bind(self.summary_label.setAccessibleName,
                        lambda: self.tr("What this step does"))
        layout.addWidget(self.summary_label)
        self.check_label = PlainLabel()
        self.check_label.setWordWrap(True)
        self.texts.bind(self.check_label.setAccessibleName,
                        lambda: self.tr("How to check this step"))
        layout.addWidget(self.check_label)
        self.explain = ExplainPanel()
        self.explain.toggle.toggled.connect(lambda on: self.check_label.setVisible(not on))
        layout.addWidget(self.explain)
        self._show_play_state()
        self._show_dwell_tip()
        self._step_ids: list[str] = []
        self.layer_groups: list[LayerGroup] = []
        """The layers' group heads, in order (none for a document without layers)."""
        self._room_for: tuple[Trace, int | None, int | None, str, int, str] | None = None
        """The trace, receiver, head, language, width and font the texts' room was measured
        for."""
        self.room_timer = QTimer(self)
        self.room_timer.setSingleShot(True)
        self.room_timer.setInterval(ROOM_DELAY_MS)
        self.room_timer.timeout.connect(self._reserve_text_room)
        self.room_work = QTimer(self)
        """Measures the next steps' texts for their room at the next turn of the event loop
        (:data:`ROOM_SLICE_MS` a turn)."""
        self.room_work.setSingleShot(True)
        self.room_work.setInterval(0)
        self.room_work.timeout.connect(self._measure_room)
        self._measuring: tuple[int, list[int]] | None = None
        """While the room is measured a slice at a time: the next step, and the tallest of the
        summaries and of the check lines so far."""
        self._rebuild_steps()
        state.traceChanged.connect(self._on_trace)
        # the current step's texts follow its frame: a big document's edit shows it first
        state.previewChanged.connect(lambda: self._show_current(room_later=True))
        state.stepChanged.connect(lambda _k: self._show_current())
        state.viewChanged.connect(self._show_current)  # the texts follow the receiver
        state.tokenChanged.connect(self._show_current)

    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    @property
    def lang(self) -> str:
        """The interface language (``"en"`` or ``"zh"``), used for step titles and texts."""
        return current_language()

    def dwell_ms(self) -> int:
        """How long Play stays on each step: the dwell time, but never under
        :data:`REDUCED_MOTION_SECONDS` while motion is reduced."""
        seconds = self.dwell_box.value()
        if self.reduce_motion:
            seconds = max(seconds, REDUCED_MOTION_SECONDS)
        return round(seconds * 1000)

    def set_reduce_motion(self, on: bool) -> None:
        """Reduce motion: Play advances at most once every :data:`REDUCED_MOTION_SECONDS`."""
        self.reduce_motion = on
        if self.playing:
            self.timer.setInterval(self.dwell_ms())
        self._show_dwell_tip()

    def _show_dwell_tip(self) -> None:
        tip = self.tr("How long Play stays on each step")
        if self.reduce_motion:
            tip += "\n" + self.tr("Reduce motion is on: at least {seconds} s per step").format(
                seconds=f"{REDUCED_MOTION_SECONDS:g}")
        self.dwell_box.setToolTip(tip)

    def _rebuild_steps(self) -> None:
        self.step_group.clear()
        self.layer_groups = []
        row = QWidget()
        buttons = QHBoxLayout(row)
        buttons.setContentsMargins(0, 0, 0, 0)
        steps = self.state.trace.steps
        groups = step_groups(steps, self.lang)
        chain: list[QWidget] = [self.dwell_box]
        for k, _step in enumerate(steps):
            if groups[k] and (k == 0 or groups[k] != groups[k - 1]):
                group = LayerGroup()
                group.toggled.connect(lambda _on, group=group: self._on_group_toggled(group))
                self.layer_groups.append(group)
                buttons.addWidget(group)
                chain.append(group)
            button = QPushButton()
            button.setCheckable(True)
            self.step_group.add(button)
            button.clicked.connect(lambda _on=False, k=k: self._on_step_clicked(k))
            buttons.addWidget(button)
            chain.append(button)
            if groups[k]:
                self.layer_groups[-1].steps.append(k)
        self._name_step_buttons()
        buttons.addStretch(1)
        self.step_bar.setWidget(row)
        chain += [self.explain.toggle, self.explain.browser]
        for before, after in pairwise(chain):
            QWidget.setTabOrder(before, after)  # in reading order: the steps, then the texts
        self._step_ids = [s.id for s in steps]
        self._show_current()

    def _name_step_buttons(self) -> None:
        lang = self.lang
        groups = step_groups(self.state.trace.steps, lang)
        for group in self.layer_groups:
            group.label = groups[group.steps[0]]
            self._name_group(group)
        for k, step in enumerate(self.state.trace.steps):
            button = self.step_group.button(k)
            if button is None:
                continue
            title = self.title_for(k)
            button.setText(f"{k + 1} {step_label(step, lang)}")
            button.setToolTip(title)
            button.setAccessibleName(self.tr("Step {n}: {title}").format(n=k + 1, title=title))

    def _name_group(self, group: LayerGroup) -> None:
        opened = group.isChecked()
        group.setText(("▾ " if opened else "▸ ") + group.label)
        state = self.tr("open") if opened else self.tr("collapsed")
        group.setAccessibleName(self.tr("{group}: {count} steps, {state}").format(
            group=group.label, count=len(group.steps), state=state))
        group.setToolTip(self.tr("Show or hide the steps of {group}").format(group=group.label))

    def _on_group_toggled(self, group: LayerGroup) -> None:
        self._name_group(group)
        self._show_current()

    def _on_trace(self, change: Change) -> None:
        if change.steps is None and [s.id for s in self.state.trace.steps] != self._step_ids:
            self._rebuild_steps()
        else:
            self._show_current(room_later=True)

    def set_texts_hidden(self, hidden: bool) -> None:
        """Hide the step's texts (their numbers would answer an exercise's blanks) or show
        them again, the check line as the explanation's fold-out leaves it."""
        self.summary_label.setVisible(not hidden)
        self.explain.setVisible(not hidden)
        self.check_label.setVisible(not hidden and not self.explain.toggle.isChecked())

    def _show_current(self, room_later: bool = False) -> None:
        """Mark the current step and show its texts; ``room_later``: an edit, whose new numbers
        may change every step's texts, measures them for room once typing pauses."""
        steps = self.state.trace.steps
        k = self.state.step
        if not room_later:  # an edit keeps the steps and the current one: marked already
            self._mark_current(k)
        # Short of room, the title keeps its start: the step bar shows the layer already.
        title = self.title_for(k)
        layer = layer_name(steps[k], self.lang)
        place = self.run_level.place()
        run = f"{place} · " if place else ""
        self.position_label.setText(
            run + self.tr("Step {n} of {count} · {title}").format(n=k + 1, count=len(steps),
                                                                 title=title),
            f"{run}{k + 1}/{len(steps)} · "
            f"{title.removeprefix(f'{layer} · ' if layer else '')}",
            f"{run}{k + 1}/{len(steps)}")
        receiver, head = self.state.receiver, self.state.head or 0
        text = self._step_text(k)
        summary, check = self._texts_of(text)
        self.summary_label.setText(summary)
        self.check_label.setText(check)
        if room_later:
            self.room_timer.start()
        else:
            self._reserve_text_room()
        self.explain.show_step(self.state.frame_trace, k, receiver, head, text)
        self._enable_stepping(k > 0, k < len(steps) - 1)

    def _mark_current(self, k: int) -> None:
        """Check and embolden step ``k``'s button, and scroll it into view."""
        for index, each in enumerate(self.step_group.buttons()):
            each.setChecked(index == k)
            bold = each.font()
            bold.setBold(index == k)  # a cue besides the pressed look, in every palette
            each.setFont(bold)
        for group in self.layer_groups:  # a collapsed group still shows the current step
            for index in group.steps:
                shown = self.step_group.button(index)
                if shown is not None:
                    shown.setVisible(group.isChecked() or index == k)
        button = self.step_group.button(k)
        row = self.step_bar.widget()
        layout = row.layout() if row is not None else None
        if self.layer_groups and layout is not None:
            layout.activate()  # a group just collapsed: place the buttons, then scroll
        if button is not None:
            self.step_bar.ensureWidgetVisible(button)

    def _enable_stepping(self, back: bool, forward: bool) -> None:
        """Enable Previous / Next. A button about to be disabled hands its focus to the other
        (or to Play), never on to Dwell, where Left and Right would edit the seconds."""
        buttons = {self.previous_button: back, self.next_button: forward}
        for button, on in buttons.items():
            if on:
                button.setEnabled(True)
        for button, on in buttons.items():
            if not on and button.hasFocus():
                others = [b for b, other_on in buttons.items() if other_on and b is not button]
                (others[0] if others else self.play_button).setFocus(
                    Qt.FocusReason.OtherFocusReason)
            button.setEnabled(on)

    def _step_text(self, index: int) -> StepText:
        """Step ``index``'s teaching text, for the receiver and head in focus (the current
        step's from its frame's trace); a text that fails to be written says so in its summary,
        and the timeline stays usable."""
        trace = self.state.frame_trace if index == self.state.step else self.state.trace
        try:
            return step_text(trace, index, self.lang, self.state.receiver, self.state.head or 0)
        except Exception as error:  # a text's failure: said, never a broken timeline
            problem = f"⚠ {step_problem(trace, index, error)}"
            return StepText(summary=problem, why=problem, how="", pitfalls="", check="")

    def _texts_of(self, text: StepText) -> tuple[str, str]:
        """A step's summary line and its "how to check" line."""
        lang = self.lang
        return text.summary, say("texts.check_line", lang, heading=HEADINGS[lang][3],
                                 check=text.check)

    def _reserve_text_room(self) -> None:
        """Give the two step texts the height of the longest of any step at this width, so the
        buttons above them stay put from step to step; measured again only when the trace,
        receiver, head, language, width or font changed."""
        self.room_timer.stop()
        room_for = self._room_key()
        if room_for is None:
            return
        if self._same_room(room_for):
            return
        self._room_for = room_for
        self._measuring = (0, [0, 0])
        self._measure_room()

    def _room_key(self) -> tuple[Trace, int | None, int | None, str, int, str] | None:
        """What the texts' room depends on: trace, receiver, head, language, width and font
        (None: no width yet)."""
        width = self.summary_label.width()
        if width <= 0:
            return None
        return (self.state.trace, self.state.receiver, self.state.head, self.lang, width,
                self.summary_label.font().key())

    def _same_room(self, room_for: tuple[Trace, int | None, int | None, str, int, str]) -> bool:
        return self._room_for is not None and self._room_for[0] is room_for[0] \
            and self._room_for[1:] == room_for[1:]

    def _measure_room(self) -> None:
        """Measure the next steps' texts for :data:`ROOM_SLICE_MS` (at least one), then give
        the labels the tallest once every step's is measured, else go on at the next turn of
        the event loop (a trace, receiver, head, language, width or font changed meanwhile
        starts again: :meth:`_reserve_text_room`)."""
        self.room_work.stop()
        if self._measuring is None or self._room_for is None:
            return
        now = self._room_key()
        if now is None or not self._same_room(now):  # changed meanwhile: measured again
            self._measuring = self._room_for = None
            self._reserve_text_room()
            return
        start, tallest = self._measuring
        trace, width = self._room_for[0], self._room_for[4]
        labels = (self.summary_label, self.check_label)
        metrics = [label.fontMetrics() for label in labels]
        began, k = time.perf_counter(), start
        while k < len(trace.steps):
            texts = self._texts_of(self._step_text(k))
            for column, each in enumerate(texts):
                tallest[column] = max(tallest[column], metrics[column].boundingRect(
                    QRect(0, 0, width, 100_000), Qt.TextFlag.TextWordWrap, each).height())
            k += 1
            if (time.perf_counter() - began) * 1000 >= ROOM_SLICE_MS:
                break
        if k < len(trace.steps):
            self._measuring = (k, tallest)
            self.room_work.start()
            return
        self._measuring = None
        for label, height in zip(labels, tallest, strict=True):
            label.setMinimumHeight(height)
            label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A new width measures the texts' room now; a new height alone (a row above shown or
        hidden, as the run's token row on the first generated token) changes no text's room."""
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._reserve_text_room()

    def _on_step_clicked(self, index: int) -> None:
        self.state.set_step(index)
        self._show_current()  # clicking the current step leaves it checked

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
        self._show_play_state()
        self.playingChanged.emit(True)

    def pause(self) -> None:
        self.timer.stop()
        self._show_play_state()
        self.playingChanged.emit(False)

    def _show_play_state(self) -> None:
        # Themed icons, not U+23F8: no font the set-up installs has a Pause glyph (a tofu box).
        icon = (QStyle.StandardPixmap.SP_MediaPause if self.playing
                else QStyle.StandardPixmap.SP_MediaPlay)
        self.play_button.setIcon(self.style().standardIcon(icon))
        self.play_button.setText(self.tr("Pause") if self.playing else self.tr("Play"))

    # -- language --------------------------------------------------------------------------
    def retranslate(self) -> None:
        """Every text again in the interface language (step titles and texts included)."""
        self.texts.apply()
        self.run_level.retranslate()
        self._show_play_state()
        self._show_dwell_tip()
        self._name_step_buttons()
        self._show_current()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _advance(self) -> None:
        self.timer.setInterval(self.dwell_ms())
        self.next()
        if self.state.step >= len(self.state.trace.steps) - 1:
            self.pause()
