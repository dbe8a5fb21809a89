"""The export dialog: format, steps, a generation run's choice (the document's steps, every
token's draw, or one token's steps), size, background, caption, the view (receiver, head, worked
row), language and destination.

Choices are remembered between uses with ``QSettings``. A multi-step export shows a cancellable
``QProgressDialog``; errors are shown with ``QMessageBox.critical`` and kept in
:attr:`ExportDialog.last_error`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.canvas import FrameOptions
from app.canvas.context import HEADS_AT_ONCE, LayoutContext
from app.export.run_pages import Page, run_selection
from app.export.safe import ExportCancelled, ExportError, refused_output
from app.export.settings import (
    DEFAULT_DWELL,
    FORMATS,
    ExportRequest,
    export_size,
    slug,
)
from app.export.stepwise import BackgroundExport
from app.export.words import title_for
from app.i18n import QT_TRANSLATE_NOOP, current_language
from app.model.operands import shown_token
from app.model.run import run_tokens
from app.model.sheet import ASPECTS, DEFAULT_ASPECT, sheet_size
from app.plain_text import PlainLabel, as_written
from app.preferences import app_settings
from app.texts import LANGUAGE_NAMES, LANGUAGES
from app.texts.run_words import in_run
from app.widgets.form_dialog import lay_out_with_buttons, path_field
from engine import Trace
from engine.files.outputs import Inputs, OutputRefusedError
from engine.format.numbers import DECIMAL_CHOICES

GROUP = "export"
ANIMATED = ("gif", "mp4")
DEFAULT_WIDTH = export_size()[0]
DEFAULT_SCALE = 1.0
FORMAT_LABELS = (
    QT_TRANSLATE_NOOP("ExportDialog", "PNG images (one per step)"),
    QT_TRANSLATE_NOOP("ExportDialog", "SVG vector images (one per step)"),
    QT_TRANSLATE_NOOP("ExportDialog", "PDF document (one page per step)"),
    QT_TRANSLATE_NOOP("ExportDialog", "Animated GIF"),
    QT_TRANSLATE_NOOP("ExportDialog", "MP4 video (H.264)"),
    QT_TRANSLATE_NOOP("ExportDialog", "PowerPoint slides"),
)
"""The labels of :data:`~app.export.settings.FORMATS` (a Qt-free module), for ``lupdate``."""


class ExportDialog(QDialog):
    """Export one step, all steps or a range of ``trace`` as files.

    A document with a generation run also offers every token's draw (one frame each) or one
    token's steps, chosen as ``export --run [--token T]`` chooses them
    (:func:`app.export.run_pages.run_selection`). ``trace`` may be one token's steps (``token``
    of the run; ``whole``: the whole document's trace), as the window shows them.

    Attributes
    ----------
    written
        The files the last successful export wrote.
    last_error
        The message of the last failed export, or ``None``.
    progress_dialog
        The progress dialog of the export running now (multi-step exports), else ``None``.
    """

    def __init__(self, trace: Trace, current_step: int, options: FrameOptions | None = None,
                 parent: QWidget | None = None, *, name: str | None = None,
                 whole: Trace | None = None, token: int | None = None,
                 inputs: Inputs | None = None) -> None:
        super().__init__(parent)
        self.trace = trace
        self.inputs = inputs or Inputs()
        """The open document's files: no export replaces them (:mod:`engine.files.outputs`)."""
        self.whole = whole or trace
        self.token = token
        """The token of the run whose steps ``trace`` is (None: the whole document's)."""
        self.run = run_tokens(self.whole.scenario)
        self.current_step = max(0, min(len(trace.steps) - 1, current_step))
        self.options = options or FrameOptions()
        self.name = name or slug(trace.scenario.title)
        self.written: list[Path] = []
        self.last_error: str | None = None
        self.progress_dialog: QProgressDialog | None = None
        self._pages: tuple[Page, ...] = ()
        """The pages of the export running now."""
        self.setWindowTitle(self.tr("Export"))
        self.setAccessibleName(self.tr("Export frames"))
        self._build()
        self._restore()
        self._update_enabled()

    # --- building -------------------------------------------------------------------------

    def _labelled(self, form: QFormLayout, text: str, field: QWidget,
                  accessible: str) -> QLabel:
        label = PlainLabel(text)
        label.setBuddy(field)
        field.setAccessibleName(accessible)
        form.addRow(label, field)
        return label

    def _build(self) -> None:
        form = QFormLayout()
        self.format_box = QComboBox()
        for spec in FORMATS.values():
            self.format_box.addItem(self.tr(spec.label), spec.key)
        self._labelled(form, self.tr("&Format:"), self.format_box, self.tr("Format"))
        if self.run:  # which steps first (the document's, every draw or a token's), in tab order
            self._build_run(form)

        count = len(self.trace.steps)
        self.current_radio = QRadioButton(self.tr("Current step ({n} of {count})").format(
            n=self.current_step + 1, count=count))
        self.all_radio = QRadioButton(self.tr("All {count} steps").format(count=count))
        self.range_radio = QRadioButton(self.tr("Steps"))
        self.first_spin, self.last_spin = QSpinBox(), QSpinBox()
        for spin in (self.first_spin, self.last_spin):
            spin.setRange(1, count)
        self.first_spin.setValue(1)
        self.last_spin.setValue(count)
        self.steps_group = QButtonGroup(self)
        steps = QWidget()
        steps_layout = QVBoxLayout(steps)
        steps_layout.setContentsMargins(0, 0, 0, 0)
        range_row = QHBoxLayout()
        first_label, last_label = PlainLabel(self.tr("from")), PlainLabel(self.tr("to"))
        first_label.setBuddy(self.first_spin)
        last_label.setBuddy(self.last_spin)
        range_row.addWidget(self.range_radio)
        for widget in (first_label, self.first_spin, last_label, self.last_spin):
            range_row.addWidget(widget)
        range_row.addStretch(1)
        for radio in (self.current_radio, self.all_radio, self.range_radio):
            self.steps_group.addButton(radio)
        steps_layout.addWidget(self.current_radio)
        steps_layout.addWidget(self.all_radio)
        steps_layout.addLayout(range_row)
        self.current_radio.setAccessibleName(self.tr("Export the current step"))
        self.all_radio.setAccessibleName(self.tr("Export all steps"))
        self.range_radio.setAccessibleName(self.tr("Export a range of steps"))
        self.first_spin.setAccessibleName(self.tr("First step of the range"))
        self.last_spin.setAccessibleName(self.tr("Last step of the range"))
        self._labelled(form, self.tr("Steps:"), steps, self.tr("Steps"))

        self.width_radio = QRadioButton(self.tr("By width"))
        self.scale_radio = QRadioButton(self.tr("By scale"))
        self.width_spin = QSpinBox()
        self.width_spin.setRange(16, 16384)
        self.width_spin.setSuffix(" px")
        self.width_spin.setValue(DEFAULT_WIDTH)
        self.scale_spin = QDoubleSpinBox()
        self.scale_spin.setRange(0.25, 8.0)
        self.scale_spin.setSingleStep(0.5)
        self.scale_spin.setSuffix(" ×")
        self.scale_spin.setValue(DEFAULT_SCALE)
        self.size_group = QButtonGroup(self)
        self.size_group.addButton(self.width_radio)
        self.size_group.addButton(self.scale_radio)
        size = QWidget()
        size_layout = QHBoxLayout(size)
        size_layout.setContentsMargins(0, 0, 0, 0)
        size_layout.addWidget(self.width_radio)
        size_layout.addWidget(self.scale_radio)
        size_layout.addStretch(1)
        self.width_radio.setAccessibleName(self.tr("Size by width in pixels"))
        self.scale_radio.setAccessibleName(self.tr("Size by scale factor"))
        self._labelled(form, self.tr("Size:"), size, self.tr("Size"))
        self._labelled(form, self.tr("&Width:"), self.width_spin, self.tr("Width in pixels"))
        self._labelled(form, self.tr("S&cale:"), self.scale_spin,
                       self.tr("Scale factor, pixels per canvas unit"))
        self.aspect_box = QComboBox()
        self._aspect = DEFAULT_ASPECT
        for aspect in ASPECTS:
            self.aspect_box.addItem(aspect, aspect)
        self._labelled(form, self.tr("&Aspect:"), self.aspect_box,
                       self.tr("Shape of every picture, page and slide"))
        self.size_label = PlainLabel()
        self._labelled(form, self.tr("Pixels:"), self.size_label,
                       self.tr("Size of every exported picture"))
        self.pictures_box = QCheckBox(self.tr("Slides as pictures (not editable)"))
        self._labelled(form, self.tr("PowerPoint:"), self.pictures_box,
                       self.tr("Slides as pictures (not editable)"))

        self.transparent_box = QCheckBox(self.tr("Transparent background"))
        self._labelled(form, self.tr("Background:"), self.transparent_box,
                       self.tr("Transparent background"))
        self.caption_box = QCheckBox(self.tr("Print the step's summary under the frame"))
        self._labelled(form, self.tr("Caption:"), self.caption_box,
                       self.tr("Print the step's summary under the frame"))
        self.theme_box = QComboBox()
        self.theme_box.addItem(self.tr("Slide (light)"), "slide")
        self.theme_box.addItem(self.tr("High contrast (print)"), "high-contrast")
        self._labelled(form, self.tr("T&heme:"), self.theme_box,
                       self.tr("Colour theme of the exported frames"))
        self.decimals_box = QComboBox()
        shown = LayoutContext.places_for(self.trace, self.options)
        self.decimals_box.addItem(self.tr("As the document ({places})").format(places=shown),
                                  None)
        for places in DECIMAL_CHOICES:
            self.decimals_box.addItem(str(places), places)
        self._labelled(form, self.tr("&Decimals:"), self.decimals_box,
                       self.tr("Decimals the numbers print"))
        self.lang_box = QComboBox()
        for lang in LANGUAGES:
            self.lang_box.addItem(LANGUAGE_NAMES.get(lang, lang), lang)
        self._build_view(form)
        self._labelled(form, self.tr("&Language:"), self.lang_box,
                       self.tr("Language of titles, captions and notes"))
        self.dwell_spin = QDoubleSpinBox()
        self.dwell_spin.setRange(0.1, 60.0)
        self.dwell_spin.setSingleStep(0.5)
        self.dwell_spin.setSuffix(self.tr(" s"))
        self.dwell_spin.setValue(DEFAULT_DWELL)
        self._labelled(form, self.tr("Seconds per step:"), self.dwell_spin,
                       self.tr("Seconds each step is shown in an animation"))

        self.destination_edit = QLineEdit()
        self.browse_button = QPushButton(self.tr("Browse…"))
        self.browse_button.setAccessibleName(self.tr("Choose where to save"))
        destination = path_field(self.destination_edit, self.browse_button)
        self.destination_label = self._labelled(form, self.tr("Save &to:"), destination,
                                                self.tr("Destination"))
        self.destination_label.setBuddy(self.destination_edit)
        self.destination_edit.setAccessibleName(self.tr("Destination file or folder"))

        self.buttons, self.export_button = lay_out_with_buttons(
            self, form, self.tr("Export"), self.tr("Cancel"), self.export)
        self.browse_button.clicked.connect(self.browse)
        self.format_box.currentIndexChanged.connect(self._format_changed)
        self.steps_group.buttonToggled.connect(self._update_enabled)
        self.size_group.buttonToggled.connect(self._update_enabled)
        for size_box in (self.width_spin, self.scale_spin):
            size_box.valueChanged.connect(self._show_size)
        self.aspect_box.currentIndexChanged.connect(self._aspect_changed)
        self.first_spin.valueChanged.connect(self._keep_range_ordered)
        self.last_spin.valueChanged.connect(self._keep_range_ordered)
        self._format = self.format_key()

    def _build_run(self, form: QFormLayout) -> None:
        """The run's choice: the document's steps, every token's draw, or token T's steps."""
        count = len(self.run)
        self.document_radio = QRadioButton(self.tr("The whole document's steps"))
        self.run_radio = QRadioButton(self.tr("Every token's draw, one frame each ({count})")
                                      .format(count=count))
        self.run_radio.setToolTip(self.tr("One file for the whole run: GIF, MP4, PDF or "
                                          "PowerPoint"))
        self.token_radio = QRadioButton(self.tr("The steps of token"))
        self.token_spin = QSpinBox()
        self.token_spin.setRange(1, count)
        self.token_spin.setValue(self.token or count)
        self.token_label = PlainLabel()
        self.run_group = QButtonGroup(self)
        token_row = QHBoxLayout()
        for widget in (self.token_radio, self.token_spin, self.token_label):
            token_row.addWidget(widget)
        token_row.addStretch(1)
        run = QWidget()
        run_layout = QVBoxLayout(run)
        run_layout.setContentsMargins(0, 0, 0, 0)
        for radio in (self.document_radio, self.run_radio, self.token_radio):
            self.run_group.addButton(radio)
        run_layout.addWidget(self.document_radio)
        run_layout.addWidget(self.run_radio)
        run_layout.addLayout(token_row)
        (self.document_radio if self.token is None else self.token_radio).setChecked(True)
        self.document_radio.setAccessibleName(self.tr("Export the whole document's steps"))
        self.run_radio.setAccessibleName(self.tr("Export every token's draw"))
        self.token_radio.setAccessibleName(self.tr("Export the steps of one token"))
        self.token_spin.setAccessibleName(self.tr("Token of the run, counted from 1"))
        self._labelled(form, self.tr("Generation run:"), run, self.tr("Generation run"))
        self.token_spin.valueChanged.connect(self._name_token)
        self.run_group.buttonToggled.connect(self._update_enabled)
        self._name_token()

    def _name_token(self) -> None:
        token = self.run[self.token_spin.value() - 1]
        self.token_label.setText(self.tr("of {count} “{label}”").format(count=len(self.run),
                                                                     label=token.label))

    def run_choice(self) -> tuple[bool, int | None]:
        """Whether a run's pages are exported, and then which token's steps (None: every
        token's draw)."""
        if not self.run or self.document_radio.isChecked():
            return False, None
        return True, self.token_spin.value() if self.token_radio.isChecked() else None

    def selection(self) -> tuple[Trace, tuple[int, ...], tuple[Page, ...] | None]:
        """The trace and steps the export names, and a run's pages (None: the steps of the
        document's trace); ``ValueError`` for the whole run in a format of a file per step."""
        by_run, t = self.run_choice()
        if not by_run:
            return self.whole, self.steps(), None
        if t is None and FORMATS[self.format_key()].per_step:
            raise ValueError(self.tr("Every token's draw is one file: choose GIF, MP4, PDF or "
                                     "PowerPoint, or the steps of one token."))
        chosen = run_selection(self.whole.scenario, t, lambda _token: self.steps(),
                               trace=self.trace if t == self.token else None)
        return chosen.trace, chosen.steps, chosen.pages

    def _build_view(self, form: QFormLayout) -> None:
        """Receiver, head and worked row: what the window shows, unless chosen here."""
        scenario = self.trace.scenario
        self.receiver_box = QComboBox()
        for k, token in enumerate(scenario.tokens):
            self.receiver_box.addItem(f"{k}: {shown_token(token)}", k)
        self.receiver_box.setCurrentIndex(LayoutContext(self.trace, self.options).receiver)
        self._labelled(form, self.tr("&Receiver:"), self.receiver_box,
                       self.tr("Query in focus"))
        self.head_box = QComboBox()
        if scenario.most_heads <= HEADS_AT_ONCE:  # more are drawn one at a time
            self.head_box.addItem(self.tr("All heads"), None)
        for h in range(scenario.most_heads):
            self.head_box.addItem(self.tr("Head {n}").format(n=h + 1), h)
        head = self.options.head
        self.head_box.setCurrentIndex(max(0, self.head_box.findData(
            None if head is None else min(head, scenario.most_heads - 1))))
        self.head_box.setEnabled(scenario.most_heads > 1)
        self._labelled(form, self.tr("H&ead:"), self.head_box, self.tr("Head shown"))
        self.worked_row_box = QCheckBox(self.tr("The receiver's arithmetic, step by step"))
        self.worked_row_box.setChecked(self.options.worked_row)
        self._labelled(form, self.tr("Wor&ked row:"), self.worked_row_box,
                       self.tr("Worked row: the receiver's arithmetic, step by step"))

    # --- state ----------------------------------------------------------------------------

    def frame_options(self) -> FrameOptions:
        """The window's frame options with the receiver, head and worked row chosen here (a
        run's pages say which token they are)."""
        return replace(self.options, receiver=int(self.receiver_box.currentData()),
                       head=self.head_box.currentData(),
                       worked_row=self.worked_row_box.isChecked(), run_place=None)

    def format_key(self) -> str:
        """The chosen format (``"png"`` …)."""
        return str(self.format_box.currentData())

    def steps(self) -> tuple[int, ...]:
        """The chosen steps, 0-based."""
        if self.all_radio.isChecked():
            return tuple(range(len(self.trace.steps)))
        if self.range_radio.isChecked():
            return tuple(range(self.first_spin.value() - 1, self.last_spin.value()))
        return (self.current_step,)

    def request(self, steps: tuple[int, ...] | None = None) -> ExportRequest:
        """The export the dialog describes now, of ``steps`` (by default :meth:`steps`).

        Raises
        ------
        ValueError
            If no destination is given.
        """
        text = self.destination_edit.text().strip()
        if not text:
            raise ValueError(self.tr("Choose where to save the export."))
        by_width = self.width_radio.isChecked()
        return ExportRequest(
            format=self.format_key(), steps=self.steps() if steps is None else steps,
            destination=Path(text).expanduser(),
            name=self.name, width=self.width_spin.value() if by_width else None,
            scale=None if by_width else self.scale_spin.value(),
            transparent=self.transparent_box.isChecked() and self.format_key() not in ANIMATED,
            caption=self.caption_box.isChecked(), lang=str(self.lang_box.currentData()),
            dwell=self.dwell_spin.value(), theme=str(self.theme_box.currentData()),
            aspect=self.aspect(), pptx_pictures=self.pictures_box.isChecked(),
            decimals=self.decimals_box.currentData())

    def aspect(self) -> str:
        """The chosen aspect (``"16:9"`` or ``"4:3"``)."""
        return str(self.aspect_box.currentData())

    def pixel_size(self) -> tuple[int, int]:
        """The size in pixels every picture of the export will have."""
        if self.width_radio.isChecked():
            return export_size(self.aspect(), width=self.width_spin.value())
        return export_size(self.aspect(), scale=self.scale_spin.value())

    def _default_destination(self, folder: Path, fmt: str, stem: str | None = None) -> Path:
        spec = FORMATS[fmt]
        return folder if spec.per_step else folder / f"{stem or self.name}{spec.suffix}"

    def _split_destination(self) -> tuple[Path, str | None]:
        """The folder and file stem the destination field names, for the previous format."""
        text = self.destination_edit.text().strip()
        if not text:
            return Path.home(), None
        path = Path(text).expanduser()
        if FORMATS[self._format].per_step:
            return path, None
        return path.parent, path.stem

    def _format_changed(self) -> None:
        folder, stem = self._split_destination()
        self._format = self.format_key()
        self.destination_edit.setText(str(self._default_destination(folder, self._format, stem)))
        self._update_enabled()

    def _keep_range_ordered(self) -> None:
        if self.first_spin.value() > self.last_spin.value():
            if self.sender() is self.first_spin:
                self.last_spin.setValue(self.first_spin.value())
            else:
                self.first_spin.setValue(self.last_spin.value())

    def _update_enabled(self) -> None:
        fmt = self.format_key()
        by_run, t = self.run_choice()
        every_draw = by_run and t is None  # one frame per token: no steps to choose
        for radio in (self.current_radio, self.all_radio, self.range_radio):
            radio.setEnabled(not every_draw)
        if self.run:
            self.token_spin.setEnabled(self.token_radio.isChecked())
        in_range = self.range_radio.isChecked() and not every_draw
        self.first_spin.setEnabled(in_range)
        self.last_spin.setEnabled(in_range)
        self.width_spin.setEnabled(self.width_radio.isChecked())
        self.scale_spin.setEnabled(self.scale_radio.isChecked())
        self.pictures_box.setEnabled(fmt == "pptx")
        self.transparent_box.setEnabled(fmt not in ANIMATED)
        self.dwell_spin.setEnabled(fmt in ANIMATED)
        self.destination_label.setText(self.tr("Save into &folder:") if FORMATS[fmt].per_step
                                       else self.tr("Save &to:"))
        self._show_size()

    def _aspect_changed(self) -> None:
        """A width left at one sheet's own width follows the new sheet (1920 ↔ 1440), so the
        dialog's default size is the command line's for either aspect."""
        old, new = sheet_size(self._aspect), sheet_size(self.aspect())
        self._aspect = self.aspect()
        if self.width_spin.value() == round(old[0]):
            self.width_spin.setValue(round(new[0]))
        self._show_size()

    def _show_size(self) -> None:
        width, height = self.pixel_size()
        self.size_label.setText(f"{width} × {height}")

    # --- remembered choices -----------------------------------------------------------------

    def _restore(self) -> None:
        settings = app_settings()
        settings.beginGroup(GROUP)
        fmt = str(settings.value("format", "png", type=str))
        index = self.format_box.findData(fmt)
        self.format_box.setCurrentIndex(max(0, index))
        self._format = self.format_key()
        steps = str(settings.value("steps", "current", type=str))
        {"all": self.all_radio, "range": self.range_radio}.get(steps, self.current_radio) \
            .setChecked(True)
        by_width = bool(settings.value("by_width", True, type=bool))
        (self.width_radio if by_width else self.scale_radio).setChecked(True)
        aspect = str(settings.value("aspect", DEFAULT_ASPECT, type=str))
        self.aspect_box.setCurrentIndex(max(0, self.aspect_box.findData(aspect)))
        self.width_spin.setValue(int(str(settings.value("width", DEFAULT_WIDTH, type=int))))
        self.scale_spin.setValue(float(str(settings.value("scale", DEFAULT_SCALE, type=float))))
        self.pictures_box.setChecked(bool(settings.value("pptx_pictures", False, type=bool)))
        self.transparent_box.setChecked(bool(settings.value("transparent", False, type=bool)))
        self.caption_box.setChecked(bool(settings.value("caption", False, type=bool)))
        theme = str(settings.value("theme", "slide", type=str))
        self.theme_box.setCurrentIndex(max(0, self.theme_box.findData(theme)))
        lang = str(settings.value("lang", current_language(), type=str))
        self.lang_box.setCurrentIndex(max(0, self.lang_box.findData(lang)))
        self.dwell_spin.setValue(float(str(settings.value("dwell", DEFAULT_DWELL, type=float))))
        folder = Path(str(settings.value("folder", str(Path.home()), type=str)))
        settings.endGroup()
        self.destination_edit.setText(str(self._default_destination(folder, self._format)))

    def _remember(self, request: ExportRequest) -> None:
        settings = app_settings()
        settings.beginGroup(GROUP)
        settings.setValue("format", request.format)
        steps = ("all" if self.all_radio.isChecked() else
                 "range" if self.range_radio.isChecked() else "current")
        settings.setValue("steps", steps)
        settings.setValue("by_width", self.width_radio.isChecked())
        settings.setValue("width", self.width_spin.value())
        settings.setValue("scale", self.scale_spin.value())
        settings.setValue("aspect", request.aspect)
        settings.setValue("pptx_pictures", request.pptx_pictures)
        settings.setValue("transparent", self.transparent_box.isChecked())
        settings.setValue("caption", request.caption)
        settings.setValue("lang", request.lang)
        settings.setValue("theme", request.theme)
        settings.setValue("dwell", request.dwell)
        folder = request.destination if request.spec.per_step else request.destination.parent
        settings.setValue("folder", str(folder))
        settings.endGroup()
        settings.sync()

    # --- actions --------------------------------------------------------------------------

    def browse(self) -> None:
        """Ask for the destination with a file dialog (a folder for per-step formats)."""
        fmt = self.format_key()
        spec = FORMATS[fmt]
        folder, stem = self._split_destination()
        if spec.per_step:
            chosen = QFileDialog.getExistingDirectory(self, self.tr("Export into folder"),
                                                      str(folder))
            if chosen:
                self.destination_edit.setText(chosen)
            return
        start = str(self._default_destination(folder, fmt, stem))
        chosen, _ = QFileDialog.getSaveFileName(self, self.tr("Export as"), start,
                                                f"{self.tr(spec.label)} (*{spec.suffix})")
        if chosen:
            path = Path(chosen)
            if path.suffix.lower() != spec.suffix:
                path = path.with_name(path.name + spec.suffix)
            self.destination_edit.setText(str(path))

    def export(self) -> bool:
        """Run the export; on success remember the choices and close. Returns success.

        The frames are composed a step per event-loop turn and written by a worker
        (:class:`~app.export.stepwise.BackgroundExport`): the window repaints and Cancel
        answers throughout."""
        self.last_error = None
        try:
            trace, steps, pages = self.selection()
            request = self.request(steps)
            self.inputs.refuse_outputs([request.destination])
            running = BackgroundExport(trace, request, self.frame_options(), self, pages=pages)
        except OutputRefusedError as error:  # the open document or its sidecar: nothing written
            return self._show_error(refused_output(error).words(current_language()))
        except ExportError as error:  # a size too large to draw: refused before anything
            return self._show_error(error.words(current_language()))
        except ValueError as error:
            return self._show_error(str(error))
        progress = None
        self._pages = running.plan.pages
        if len(request.steps) > 1:
            progress = self._start_progress(len(request.steps))
            progress.canceled.connect(running.cancel)
            running.progressed.connect(self._on_progress)
        try:
            self.written = running.start().wait()
        except ExportCancelled:
            return False
        except ExportError as error:
            return self._show_error(error.words(current_language()))
        except ValueError as error:
            return self._show_error(str(error))
        finally:
            if progress is not None:
                progress.close()
                progress.deleteLater()
            self.progress_dialog = None
            running.deleteLater()
        self._remember(request)
        self.accept()
        return True

    def _start_progress(self, total: int) -> QProgressDialog:
        progress = QProgressDialog(self.tr("Exporting…"), self.tr("Cancel"), 0, total, self)
        progress.setWindowTitle(self.tr("Export"))
        progress.setAccessibleName(self.tr("Export progress"))
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(0)
        progress.setAutoClose(False)
        progress.setAutoReset(False)
        progress.setValue(0)
        self.progress_dialog = progress
        return progress

    def _on_progress(self, done: int, total: int) -> None:
        progress = self.progress_dialog
        if progress is None:
            return
        if progress.wasCanceled():  # QProgressDialog.cancel() says so without a signal
            progress.canceled.emit()
            return
        if done < total:
            step = self._step_title(done)
            progress.setLabelText(self.tr("Exporting step {done} of {total}: {title}").format(
                done=done + 1, total=total, title=step))
        progress.setValue(done)

    def _step_title(self, done: int) -> str:
        """The title of the ``done``-th step being exported (for the progress label), after
        its token's place in a run."""
        page = self._pages[min(done, len(self._pages) - 1)]
        lang = str(self.lang_box.currentData())
        return in_run(page.place, title_for(page.trace, page.step, lang), lang)

    def _show_error(self, message: str) -> bool:
        self.last_error = message
        QMessageBox.critical(self, self.tr("Export failed"), as_written(message))
        return False
