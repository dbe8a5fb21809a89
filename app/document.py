"""The document being edited and its named edits, with no Qt: the model under the window.

Every change a user makes is an :class:`Operation`, a frozen dataclass that knows what it does
to a scenario (:meth:`Operation.apply`, pure: scenarios are immutable) and what it is called
in each language (:meth:`Operation.label`). :meth:`Document.edit` turns one into an
:class:`Edit`, the scenario before and after: undo shows ``before`` again, bit for bit. The Qt
side (:class:`app.state.DocumentState` and the undo commands of :mod:`app.commands`) only
wraps these.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from app.texts.edit_words import EDIT_WORDS, edit_word
from app.texts.titles import norm_name
from engine import Scenario, parse_scenario
from engine.names import short_name
from engine.numbers import format_exact
from engine.reader import FloatArray
from engine.resize import Sizes, resize


class Operation(ABC):
    """One named edit of the document."""

    @abstractmethod
    def apply(self, scenario: Scenario) -> Scenario:
        """The scenario after this edit; raises :class:`~engine.ScenarioError` if refused."""

    @abstractmethod
    def label(self, lang: str) -> str:
        """What the edit is called in ``lang`` (``"en"`` or ``"zh"``): the undo step's text."""

    def merges_with(self, later: Operation) -> bool:
        """Whether ``later``, made right after this, joins it in one undo step."""
        del later
        return False


@dataclass(frozen=True)
class SetCell(Operation):
    """Set one number: ``row``, ``col`` of the matrix at ``path`` (``col`` of a vector)."""

    path: str
    row: int
    col: int
    value: float
    vector: bool = False

    def apply(self, scenario: Scenario) -> Scenario:
        changed = scenario.parameter(self.path).copy()
        if self.vector:
            changed[self.col] = self.value
        else:
            changed[self.row, self.col] = self.value
        return scenario.with_parameter(self.path, changed)

    @property
    def place(self) -> str:
        """``Wq[1,0]``, or ``gamma1[2]`` for a vector."""
        name = short_name(self.path)
        return f"{name}[{self.col}]" if self.vector else f"{name}[{self.row},{self.col}]"

    def label(self, lang: str) -> str:
        return edit_word(lang, "cell", place=self.place, value=format_exact(self.value))

    def merges_with(self, later: Operation) -> bool:
        """Typing into one cell again and again is one undo step."""
        return isinstance(later, SetCell) and (later.path, later.row, later.col, later.vector) \
            == (self.path, self.row, self.col, self.vector)


@dataclass(frozen=True, eq=False)
class SetMatrix(Operation):
    """Replace the whole array at ``path`` (a paste, or an imported file)."""

    path: str
    values: FloatArray
    how: Literal["paste", "import"]
    source: str
    """What came in: the pasted block's shape (``2×3``), or the imported file's name."""

    def apply(self, scenario: Scenario) -> Scenario:
        return scenario.with_document_value(self.path, np.array(self.values, dtype=np.float64))

    def label(self, lang: str) -> str:
        name = short_name(self.path)
        if self.how == "paste":
            return edit_word(lang, "paste", shape=self.source, name=name)
        return edit_word(lang, "import", source=self.source, name=name)


@dataclass(frozen=True)
class Resize(Operation):
    """Change one size (``key``, from ``old`` to its value in ``sizes``); grown arrays keep
    their numbers, shrunk ones drop the cut-off part (undo brings it back)."""

    sizes: Sizes
    key: str
    old: int

    def apply(self, scenario: Scenario) -> Scenario:
        return parse_scenario(resize(scenario, self.sizes).document)

    def label(self, lang: str) -> str:
        new = getattr(self.sizes, self.key)
        return edit_word(lang, "resize", changes=f"{self.key} {self.old}→{new}")


@dataclass(frozen=True)
class SetOption(Operation):
    """Set one option of the document: a switch, a choice, ε, the decimals shown."""

    path: str
    value: bool | int | float | str

    def apply(self, scenario: Scenario) -> Scenario:
        return scenario.with_document_value(self.path, self.value)

    def label(self, lang: str) -> str:
        """The option's own words where it has them (``causal mask on``), else
        ``name = value``."""
        on_off = "on" if self.value else "off"
        if isinstance(self.value, bool):
            if f"{self.path}_{on_off}" in EDIT_WORDS["en"]:
                return edit_word(lang, f"{self.path}_{on_off}")
            return edit_word(lang, f"option_{on_off}", name=short_name(self.path))
        if self.path == "block.norm":
            return edit_word(lang, self.path, value=norm_name(str(self.value), lang))
        shown = format_exact(self.value) if isinstance(self.value, float) else self.value
        if self.path in EDIT_WORDS["en"]:
            return edit_word(lang, self.path, value=shown)
        return edit_word(lang, "option", name=short_name(self.path), value=shown)


@dataclass(frozen=True)
class SetLabel(Operation):
    """Rename one token (``tokens``) or vocabulary entry (``block.vocab``)."""

    path: str
    """``"tokens"`` or ``"block.vocab"``."""
    col: int
    text: str

    def apply(self, scenario: Scenario) -> Scenario:
        labels = list(labels_at(scenario, self.path))
        labels[self.col] = self.text
        return scenario.with_document_value(self.path, labels)

    def label(self, lang: str) -> str:
        return edit_word(lang, self.path, col=self.col, text=self.text)


def identity(d: int) -> list[list[float]]:
    return [[1.0 if r == c else 0.0 for c in range(d)] for r in range(d)]


def default_block(d: int) -> dict[str, Any]:
    """A pre-norm LayerNorm block with an identity-like ReLU feed-forward and no head."""
    return {"norm": "layernorm", "eps": 1e-5, "placement": "pre",
            "gamma1": [1.0] * d, "beta1": [0.0] * d, "gamma2": [1.0] * d, "beta2": [0.0] * d,
            "ffn": {"W1": identity(d), "activation": "relu", "W2": identity(d)},
            "final_norm": True, "gamma_f": [1.0] * d, "beta_f": [0.0] * d}


@dataclass(frozen=True)
class SetBlock(Operation):
    """Add a decoder block (:func:`default_block`) or remove it."""

    on: bool

    def apply(self, scenario: Scenario) -> Scenario:
        document = scenario.to_document()
        if self.on:
            document["block"] = default_block(scenario.d)
        else:
            document.pop("block", None)
        return parse_scenario(document)

    def label(self, lang: str) -> str:
        return edit_word(lang, "block_on" if self.on else "block_off")


@dataclass(frozen=True)
class SetHead(Operation):
    """Add a vocabulary head to the block (identity unembedding, entries v1 … vd) or remove
    it."""

    on: bool

    def apply(self, scenario: Scenario) -> Scenario:
        document = scenario.to_document()
        block = document["block"]
        if self.on:
            block["unembed"] = identity(scenario.d)
            block["vocab"] = [f"v{k + 1}" for k in range(scenario.d)]
        else:
            block.pop("unembed", None)
            block.pop("vocab", None)
        return parse_scenario(document)

    def label(self, lang: str) -> str:
        return edit_word(lang, "head_on" if self.on else "head_off")


def labels_at(scenario: Scenario, path: str) -> tuple[str, ...]:
    """The labels at ``path``: ``"tokens"``, or ``"block.vocab"`` (none without a head)."""
    if path == "tokens":
        return scenario.tokens
    if path == "block.vocab":
        return scenario.block.vocab if scenario.block is not None else ()
    raise KeyError(path)


@dataclass(frozen=True)
class Edit:
    """An operation made: the scenario before it and after it."""

    operation: Operation
    before: Scenario
    after: Scenario

    def then(self, later: Edit) -> Edit:
        """This edit and ``later`` (made right after it) as one."""
        return Edit(later.operation, self.before, later.after)


@dataclass
class Document:
    """The scenario being edited and the file it is saved in (``None``: not saved yet)."""

    scenario: Scenario
    path: Path | None = None

    def edit(self, operation: Operation) -> Edit:
        """What ``operation`` would make of the current scenario; the document is unchanged
        until the edit is shown. Raises :class:`~engine.ScenarioError` if refused."""
        return Edit(operation, self.scenario, operation.apply(self.scenario))
