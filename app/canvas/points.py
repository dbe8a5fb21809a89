"""Numpy coordinates handed to Qt without a Python object per point."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt
import shiboken6
from PySide6.QtCore import QPointF
from PySide6.QtGui import QPolygonF


def point_pairs(ends: npt.NDArray[np.float64]) -> Sequence[QPointF]:
    """``lines × 2 × 2`` coordinates (each line's start and end, each ``x, y``) as the point
    pairs ``QPainter.drawLines`` takes, copied straight into the polygon's memory."""
    points = QPolygonF()
    count = ends.shape[0] * 2
    points.resize(count)
    if count:
        start: Any = points.data()  # the address of the first point (PySide6's stubs say QPointF)
        void_pointer: Any = shiboken6.VoidPtr  # its stubs omit the size and writable arguments
        memory = void_pointer(start, count * 2 * 8, True)
        np.frombuffer(memory, dtype=np.float64)[:] = ends.reshape(-1)
    return cast(Sequence[QPointF], points)  # a QList<QPointF>, which the stubs do not say
