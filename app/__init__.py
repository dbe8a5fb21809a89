"""QKV Studio's desktop application (Qt). Importing this package loads no Qt module."""

__version__ = "0.1.0"
