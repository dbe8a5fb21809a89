"""Read-only records: every array field of a model is frozen, also after unpickling."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np


class Frozen:
    """Every array field of a model is read-only, also after unpickling: a scenario handed to a
    worker thread or process, an undo command or a trace can never change under another
    holder."""

    def __post_init__(self) -> None:
        for item in fields(self):  # type: ignore[arg-type]
            value = getattr(self, item.name)
            if isinstance(value, np.ndarray):
                value.flags.writeable = False

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.__post_init__()


__all__ = ["Frozen"]
