"""The built-in example documents shipped in ``resources/examples``."""

from __future__ import annotations

from pathlib import Path

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "resources" / "examples"
DEFAULT_EXAMPLE = "f11"
SUFFIX = ".qkv.json"
OPENINGS: dict[str, tuple[str, str]] = {"bert": ("step", "positions"),
                                         "norms": ("compare", "norm"),
                                         "tokenizer": ("step", "embed"),
                                         "pronoun": ("reader", "it"),
                                         "order": ("reader", "A"),
                                         "rope": ("step", "rope"),
                                         "encoder-decoder": ("step", "L1.cross.weights"),
                                         "continue": ("step", "sample"),
                                         "training": ("compare", "causal")}
"""How an example opens, when not on its first frame alone: ``("compare", preset)`` shows it
side by side with one setting changed; ``("step", id)`` lands on that step; ``("reader",
token)`` lands on the shares with that token's query as the receiver."""


def example_names() -> list[str]:
    """Names of the built-in examples, F11 first."""
    names = sorted(p.name.removesuffix(SUFFIX) for p in EXAMPLES_DIR.glob(f"*{SUFFIX}"))
    return sorted(names, key=lambda name: name != DEFAULT_EXAMPLE)


def example_path(name: str) -> Path:
    """Path of the built-in example ``name`` (``KeyError`` if there is none)."""
    path = EXAMPLES_DIR / f"{name.lower()}{SUFFIX}"
    if not path.is_file():
        raise KeyError(name)
    return path


def resolve_document(argument: str) -> Path:
    """A document path from the command line: an existing path, else a built-in example's name."""
    path = Path(argument)
    if path.exists():
        return path
    try:
        return example_path(argument)
    except KeyError:
        return path


def example_name(document: Path) -> str | None:
    """The built-in example ``document`` is (``pronoun``), or None for any other file."""
    if document.resolve().parent != EXAMPLES_DIR or not document.name.endswith(SUFFIX):
        return None
    return document.name.removesuffix(SUFFIX)


def opening_receiver(document: Path) -> str | None:
    """The token a built-in example opens with as the receiver (``"it"`` for pronoun), so an
    export without ``--receiver`` shows what the window opens on; ``None`` for any other
    document."""
    kind, token = OPENINGS.get(example_name(document) or "", ("", ""))
    return token if kind == "reader" else None
