"""QKV Studio's desktop application (Qt). Importing this package loads no Qt module."""

__version__ = "0.1.0"

APP_NAME = "QKV Studio"
"""The application and organisation name: settings, recovery copies, file metadata."""
