"""Numpy coordinates handed to Qt without a Python object per point."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import shiboken6
from PySide6.QtGui import QPainter, QPolygonF


class Lines:
    """Straight lines, each a start and an end, kept both as numpy coordinates (``ends``,
    ``lines × 2 × 2``) and as the point pairs Qt draws in one call."""

    def __init__(self, ends: npt.NDArray[np.float64]) -> None:
        self.ends = np.ascontiguousarray(ends, dtype=np.float64).reshape(-1, 2, 2)
        self._points = QPolygonF()
        count = len(self.ends) * 2
        self._points.resize(count)
        if count:
            start: Any = self._points.data()  # the first point's address (stubs: a QPointF)
            void_pointer: Any = shiboken6.VoidPtr  # its stubs omit the size and writable flag
            memory = void_pointer(start, count * 2 * 8, True)
            np.frombuffer(memory, dtype=np.float64)[:] = self.ends.reshape(-1)

    def __len__(self) -> int:
        return len(self.ends)

    def draw(self, painter: QPainter) -> None:
        """Every line in the painter's pen, handed over as one array of points (passing the
        polygon itself would have PySide6 convert it point by point)."""
        if len(self.ends):
            painter.drawLines(self._points.data(), len(self.ends))
