"""The one place the application's remembered choices are stored."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSettings

from app import APP_NAME


def app_settings() -> QSettings:
    """The application's settings; QKV Studio's own names if the application set none."""
    if QCoreApplication.organizationName() and QCoreApplication.applicationName():
        return QSettings()
    return QSettings(APP_NAME, APP_NAME)
