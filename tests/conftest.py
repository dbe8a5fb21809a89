"""Shared test set-up: Qt runs offscreen, settings and data go to a temporary home."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
