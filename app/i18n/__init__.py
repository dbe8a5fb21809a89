"""The interface language (Qt translators, switched live) and texts that follow it."""

from app.i18n.language import (
    current_language,
    preferred_language,
    set_language,
    start_language,
    switcher,
    system_language,
)
from app.i18n.live import LiveTexts
from app.i18n.marker import QT_TRANSLATE_NOOP

__all__ = ["QT_TRANSLATE_NOOP", "LiveTexts", "current_language", "preferred_language",
           "set_language", "start_language", "switcher", "system_language"]
