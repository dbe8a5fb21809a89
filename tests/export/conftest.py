"""Fixtures and independent readers for the export tests.

Exports are written once per module where several tests read the same files. Every format is
opened by a reader other than our code: Pillow, rsvg-convert, poppler, pypdf, python-pptx, ffmpeg.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from PySide6.QtWidgets import QApplication

from app.canvas import FrameOptions
from app.export.job import run_export
from app.export.settings import ExportRequest
from app.model.examples import example_path
from engine import Trace, compute, load_scenario

CJK = re.compile(r"[\u4e00-\u9fff]")


def load_trace(name: str) -> Trace:
    return compute(load_scenario(example_path(name)))


@pytest.fixture(autouse=True)
def _application(qapp: QApplication) -> QApplication:
    """Exports draw with Qt, which needs an application: a module run on its own, before any
    test made one, crashed (a segmentation fault in the first scene built)."""
    return qapp


@pytest.fixture(scope="session")
def f11() -> Trace:
    return load_trace("f11")


@pytest.fixture(scope="session")
def g01() -> Trace:
    return load_trace("g01")


def export(trace: Trace, fmt: str, destination: Path, *, steps: tuple[int, ...] | None = None,
           options: FrameOptions | None = None, **settings: Any) -> list[Path]:
    """Run an export of ``steps`` (default: all) of ``trace``; ``settings`` go to the request."""
    chosen = steps if steps is not None else tuple(range(len(trace.steps)))
    request = ExportRequest(format=fmt, steps=chosen, destination=destination,
                            **{"name": "f11", **settings})
    return run_export(trace, request, options)


def pixels(path: Path) -> np.ndarray:
    """An image file's pixels as RGBA, read by Pillow."""
    with Image.open(path) as image:
        return np.asarray(image.convert("RGBA"))


def distinct_colours(rgba: np.ndarray) -> int:
    packed = rgba[..., :3].astype(np.uint32)
    return len(np.unique(packed[..., 0] << 16 | packed[..., 1] << 8 | packed[..., 2]))


def dark_pixels(rgba: np.ndarray, level: int = 80) -> int:
    """Opaque pixels whose every channel is below ``level`` (text and dark cells)."""
    return int(np.sum((rgba[..., :3].max(axis=2) < level) & (rgba[..., 3] > 200)))


def assert_not_blank(rgba: np.ndarray, *, colours: int = 50, dark: int = 300) -> None:
    assert distinct_colours(rgba) >= colours, "too few colours: the picture looks blank"
    assert dark_pixels(rgba) >= dark, "no dark text pixels"


def cjk_share(text: str) -> float:
    """The share of CJK characters among the letters of ``text``."""
    letters = [ch for ch in text if ch.isalpha()]
    return sum(1 for ch in letters if CJK.match(ch)) / max(1, len(letters))


def leftovers(folder: Path) -> list[str]:
    """Every entry under ``folder`` (hidden temporary files included)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def need_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (apt-get install -y librsvg2-bin poppler-utils)")
    return path
