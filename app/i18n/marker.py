"""``QT_TRANSLATE_NOOP`` with its real type.

``pyside6-lupdate`` finds a marked text by the call's name, so this function keeps Qt's name;
PySide6's stub declares that Qt's returns ``object``, while it returns ``source`` unchanged.
"""


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:
    """Mark ``source`` for translation in ``context``; return it untranslated."""
    del context  # read by lupdate only
    return source
