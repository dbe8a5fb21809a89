"""The interface language: chosen from the system locale, switched live through Qt's translators.

English is the source language of every ``tr()`` string, so English means "no translator". Chinese
installs two ``QTranslator`` s: QKV Studio's own catalogue (``resources/i18n/qkv_studio_zh_CN.qm``,
compiled from the ``.ts`` next to it) and Qt's ``qtbase_zh_CN.qm`` for Qt's own dialogs and
buttons. Installing or removing a translator makes Qt send ``QEvent.LanguageChange`` to every
widget, whose ``changeEvent`` calls its ``retranslate()``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import (
    QCoreApplication,
    QLibraryInfo,
    QLocale,
    QObject,
    QTranslator,
    Signal,
)

from app.preferences import app_settings
from app.texts import LANGUAGES, check_language

I18N_DIR = Path(__file__).resolve().parent.parent.parent / "resources" / "i18n"
CATALOGUE = "qkv_studio"
QT_LOCALES: dict[str, str] = {"zh": "zh_CN"}
"""The Qt locale name of each translated language (English has no catalogue)."""
QT_CATALOGUES = ("qtbase",)
SETTINGS_KEY = "ui/language"


def catalogue_path(lang: str, suffix: str = ".qm") -> Path:
    """QKV Studio's catalogue for ``lang`` (``resources/i18n/qkv_studio_zh_CN.qm``)."""
    return I18N_DIR / f"{CATALOGUE}_{QT_LOCALES[lang]}{suffix}"


def system_language(locale: QLocale | None = None) -> str:
    """The language of the system locale (``"zh"`` for ``zh_CN``, ``zh_TW`` …), ``"en"`` for
    a locale of no language the program speaks."""
    name = (locale or QLocale.system()).name().lower()
    return next((lang for lang in LANGUAGES if name.startswith(lang)), "en")


def _locale(lang: str) -> QLocale:
    return QLocale(QT_LOCALES[lang]) if lang in QT_LOCALES else QLocale(QLocale.Language.English,
                                                                         QLocale.Country.UnitedStates)


class LanguageSwitcher(QObject):
    """Installs the translators of one language at a time.

    Signals
    -------
    languageChanged(str)
        The new language code, after its translators are installed (the widgets' own
        ``LanguageChange`` events are posted and arrive on the next turn of the event loop).
    """

    languageChanged = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lang = "en"
        self._translators: list[QTranslator] = []
        self.missing: list[str] = []
        """Catalogues that could not be loaded for the current language (file names)."""

    @property
    def lang(self) -> str:
        return self._lang

    def set_language(self, lang: str, *, remember: bool = False) -> bool:
        """Switch to ``lang`` now; returns False if it was already the language.

        ``remember`` stores the choice, so the next start uses it instead of the system locale.
        """
        check_language(lang)
        if remember:
            app_settings().setValue(SETTINGS_KEY, lang)
        if lang == self._lang:
            return False
        app = QCoreApplication.instance()
        self._lang = lang
        QLocale.setDefault(_locale(lang))
        for translator in self._translators:
            if app is not None:
                app.removeTranslator(translator)
        self._translators = []
        self.missing = []
        if lang in QT_LOCALES and app is not None:
            for loaded, name in self._load(lang):
                if loaded is None:
                    self.missing.append(name)
                    continue
                app.installTranslator(loaded)
                self._translators.append(loaded)
        self.languageChanged.emit(lang)
        return True

    def _load(self, lang: str) -> list[tuple[QTranslator | None, str]]:
        """Qt's catalogues first, then ours (the last installed is searched first)."""
        found: list[tuple[QTranslator | None, str]] = []
        qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        locale = QT_LOCALES[lang]
        for name in QT_CATALOGUES:
            translator = QTranslator(self)
            ok = translator.load(f"{name}_{locale}", qt_dir)
            found.append((translator if ok else None, f"{name}_{locale}.qm"))
        ours = QTranslator(self)
        path = catalogue_path(lang)
        found.append((ours if ours.load(str(path)) else None, path.name))
        return found


_SWITCHER: list[LanguageSwitcher] = []


def switcher() -> LanguageSwitcher:
    """The application's one :class:`LanguageSwitcher` (made on first use, in English)."""
    app = QCoreApplication.instance()
    if _SWITCHER and (app is None or _SWITCHER[0].parent() is app):
        return _SWITCHER[0]
    _SWITCHER[:] = [LanguageSwitcher(app)]
    return _SWITCHER[0]


def current_language() -> str:
    """The interface language now (``"en"`` before anything was switched)."""
    return switcher().lang if _SWITCHER else "en"


def set_language(lang: str, *, remember: bool = False) -> bool:
    """Switch the interface to ``lang`` (see :meth:`LanguageSwitcher.set_language`)."""
    return switcher().set_language(lang, remember=remember)


def preferred_language() -> str:
    """The language chosen last in View → Language, else the system locale's."""
    saved = app_settings().value(SETTINGS_KEY, "", type=str)
    return saved if saved in LANGUAGES else system_language()


def start_language() -> str:
    """At start-up: switch to :func:`preferred_language`; returns it."""
    lang = preferred_language()
    set_language(lang)
    return lang
