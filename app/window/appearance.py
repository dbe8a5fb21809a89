"""How the window looks: the system's light or dark scheme, a high-contrast look, reduced motion.

The window follows these. Exports never take the dark theme: a file takes the theme its export
asks for (the export dialog's Theme, ``--theme``; the slide theme by default), and Copy frame takes
the window's light theme (high contrast when it is on, else the slide theme).

- **Dark or light** follows ``QStyleHints.colorScheme()`` (and a palette the platform already made
  dark). Desktops that report no scheme can be overridden with ``QKV_COLOR_SCHEME=dark|light``.
  When the scheme is dark but the platform's palette is light (Fusion on a bare X server), a dark
  palette is applied so the widgets match the dark canvas.
- **High contrast** (View → High contrast) applies a black-on-white palette with a strong blue
  selection and the canvas's :data:`~app.canvas.theme.HIGH_CONTRAST` theme. Its default is the
  system's ``QAccessibilityHints.contrastPreference()``.
- **Reduce motion** (View → Reduce motion): Qt 6.11 exposes no reduced-motion preference, so the
  default is off unless ``QKV_REDUCE_MOTION=1`` is set; the choice is remembered.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from app.canvas.theme import DARK, HIGH_CONTRAST, SLIDE, Theme
from app.preferences import app_settings

SCHEME_ENV = "QKV_COLOR_SCHEME"
REDUCE_MOTION_ENV = "QKV_REDUCE_MOTION"
HIGH_CONTRAST_KEY = "ui/high_contrast"
REDUCE_MOTION_KEY = "ui/reduce_motion"

Role = QPalette.ColorRole


def system_scheme(palette: QPalette | None = None) -> str:
    """``"dark"`` or ``"light"``: the environment's override, Qt's scheme, else the palette's.

    ``palette`` is the platform's palette (by default the application's current one; the
    :class:`Appearance` passes the one it found before changing it).
    """
    forced = os.environ.get(SCHEME_ENV, "").strip().lower()
    if forced in ("dark", "light"):
        return forced
    scheme = QGuiApplication.styleHints().colorScheme()
    if scheme == Qt.ColorScheme.Dark:
        return "dark"
    if scheme == Qt.ColorScheme.Light:
        return "light"
    window = (palette or QGuiApplication.palette()).color(Role.Window)
    return "dark" if window.lightness() < 128 else "light"


def system_prefers_high_contrast() -> bool:
    """The system asks for more contrast (``QAccessibilityHints.contrastPreference``)."""
    style_hints = QGuiApplication.styleHints()
    hints = style_hints.accessibility()
    if hints is None:
        return False
    return bool(hints.contrastPreference() == Qt.ContrastPreference.HighContrast)


def environment_reduces_motion() -> bool:
    """``QKV_REDUCE_MOTION`` is set to a true value (1, yes, true, on)."""
    return os.environ.get(REDUCE_MOTION_ENV, "").strip().lower() in ("1", "yes", "true", "on")


def _palette(colours: dict[Role, str], disabled_text: str,
             disabled_fill: str | None = None) -> QPalette:
    """A palette from ``colours``; disabled controls get ``disabled_text`` and, when given,
    ``disabled_fill`` behind it (fields and buttons), so they never look enabled."""
    palette = QPalette()
    for role, colour in colours.items():
        palette.setColor(role, QColor(colour))
    for role in (Role.Text, Role.WindowText, Role.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(disabled_text))
    if disabled_fill is not None:
        for role in (Role.Base, Role.Button):
            palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(disabled_fill))
    return palette


def dark_palette() -> QPalette:
    """A dark palette for widgets, matching the canvas's dark theme."""
    return _palette({
        Role.Window: "#2B2D31", Role.WindowText: "#ECECEC", Role.Base: "#1E1F22",
        Role.AlternateBase: "#2A2C30", Role.Text: "#ECECEC", Role.Button: "#34363B",
        Role.ButtonText: "#ECECEC", Role.Highlight: "#56B4E9", Role.HighlightedText: "#000000",
        Role.ToolTipBase: "#1E1F22", Role.ToolTipText: "#ECECEC", Role.Link: "#56B4E9",
        Role.LinkVisited: "#CC79A7", Role.PlaceholderText: "#A8ABB0", Role.BrightText: "#FFFFFF",
        Role.Light: "#4A4D52", Role.Midlight: "#3C3F44", Role.Mid: "#2A2C30",
        Role.Dark: "#141517", Role.Shadow: "#000000",
    }, "#8A8D92")


def high_contrast_palette() -> QPalette:
    """Black on white, black frames, a strong blue selection with white text."""
    return _palette({
        Role.Window: "#FFFFFF", Role.WindowText: "#000000", Role.Base: "#FFFFFF",
        Role.AlternateBase: "#F0F0F0", Role.Text: "#000000", Role.Button: "#FFFFFF",
        Role.ButtonText: "#000000", Role.Highlight: "#0000C0", Role.HighlightedText: "#FFFFFF",
        Role.ToolTipBase: "#FFFFE0", Role.ToolTipText: "#000000", Role.Link: "#0000C0",
        Role.LinkVisited: "#6A006A", Role.PlaceholderText: "#404040", Role.BrightText: "#000000",
        Role.Light: "#000000", Role.Midlight: "#000000", Role.Mid: "#000000",
        Role.Dark: "#000000", Role.Shadow: "#000000",
    }, "#595959", "#E0E0E0")


class Appearance(QObject):
    """The look of the application's windows; one per application.

    Signals
    -------
    changed
        The scheme, high contrast or reduce motion changed (read :meth:`canvas_theme`).
    """

    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._base_palette = QGuiApplication.palette()
        stored = app_settings()
        self.high_contrast = bool(stored.value(HIGH_CONTRAST_KEY,
                                               system_prefers_high_contrast(), type=bool))
        self.reduce_motion = bool(stored.value(REDUCE_MOTION_KEY, environment_reduces_motion(),
                                               type=bool))
        self.scheme = system_scheme(self._base_palette)
        hints = QGuiApplication.styleHints()
        hints.colorSchemeChanged.connect(self._on_system_scheme)
        self.apply()

    def canvas_theme(self) -> Theme:
        """The canvas's theme in the window (Copy frame keeps it unless it is dark)."""
        if self.high_contrast:
            return HIGH_CONTRAST
        return DARK if self.scheme == "dark" else SLIDE

    def set_high_contrast(self, on: bool) -> None:
        app_settings().setValue(HIGH_CONTRAST_KEY, on)
        if on != self.high_contrast:
            self.high_contrast = on
            self.apply()
            self.changed.emit()

    def set_reduce_motion(self, on: bool) -> None:
        app_settings().setValue(REDUCE_MOTION_KEY, on)
        if on != self.reduce_motion:
            self.reduce_motion = on
            self.changed.emit()

    def _on_system_scheme(self, _scheme: Qt.ColorScheme) -> None:
        self.refresh_scheme()

    def refresh_scheme(self) -> None:
        """Read the system's light or dark scheme again (Qt tells when it changes)."""
        scheme = system_scheme(self._base_palette)
        if scheme != self.scheme:
            self.scheme = scheme
            self.apply()
            self.changed.emit()

    def palette(self) -> QPalette:
        """The widgets' palette for the current choices."""
        if self.high_contrast:
            return high_contrast_palette()
        base_is_dark = self._base_palette.color(Role.Window).lightness() < 128
        if self.scheme == "dark" and not base_is_dark:
            return dark_palette()
        return QPalette(self._base_palette)

    def apply(self) -> None:
        """Give the application the palette of the current choices."""
        QApplication.setPalette(self.palette())


_APPEARANCE: list[Appearance] = []


def appearance() -> Appearance:
    """The application's one :class:`Appearance` (made on first use)."""
    app = QApplication.instance()
    if _APPEARANCE and _APPEARANCE[0].parent() is app:
        return _APPEARANCE[0]
    _APPEARANCE[:] = [Appearance(app)]
    return _APPEARANCE[0]
