"""What long work raises when the user cancels it (no Qt: the reading code uses it too)."""

from __future__ import annotations


class CancelledError(Exception):
    """The user cancelled the work before it finished; nothing was changed."""
