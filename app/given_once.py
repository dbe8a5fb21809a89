"""An option given twice on the command line is refused, never read as its last value.

argparse keeps the last of ``--top 3 --top 5`` silently. :func:`refuse_repeats` makes every
option of a parser that holds one value (``store``, ``store_const``, ``store_true``,
``store_false``) note each time argparse meets it, whatever its spelling (an alias, ``--x=1``,
an abbreviation); ``append`` and ``count`` options, meant to repeat, are left as they are.
:func:`given_twice` then words the first repeat. Imports no Qt.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from engine.format.errors import ScenarioError
from engine.format.reader import describe
from engine.words.refusals import Refusal, Value

_USES = "_option_uses"
"""The namespace attribute listing each use of an option, in the command line's order."""

_Use = tuple[argparse.Action, str, Any]
"""An option met: its action, its spelling as typed (``--step``) and its value."""


class _Once(argparse.Action):
    """Notes each time argparse meets the option (not a positional argument: argparse gives each
    its own place), then acts as its base class."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        if option_string is not None:
            uses: list[_Use] = vars(namespace).setdefault(_USES, [])
            uses.append((self, option_string, values))
        super().__call__(parser, namespace, values, option_string)


class _OnceStore(_Once, argparse._StoreAction):
    pass


class _OnceStoreConst(_Once, argparse._StoreConstAction):
    pass


class _OnceStoreTrue(_Once, argparse._StoreTrueAction):
    pass


class _OnceStoreFalse(_Once, argparse._StoreFalseAction):
    pass


_ONCE: dict[str | None, type[argparse.Action]] = {
    None: _OnceStore, "store": _OnceStore, "store_const": _OnceStoreConst,
    "store_true": _OnceStoreTrue, "store_false": _OnceStoreFalse}
"""The action that notes each use, by the name ``add_argument`` is given (None: the default)."""


def refuse_repeats(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``parser``, its one-value options (added after this, its groups' too) noting each use."""
    for name, action in _ONCE.items():
        parser.register("action", name, action)
    return parser


def _shown(value: object) -> Value:
    """A value as typed: a short plain word as it is, anything else described (quoted, cut)."""
    if isinstance(value, str) and 0 < len(value) <= 20 and value.isprintable() \
            and not any(ch in value for ch in " ,()"):
        return value
    return describe(value)


def given_twice(args: argparse.Namespace) -> ScenarioError | None:
    """The first option ``args`` was given again, refused with its first value and its second
    (that one with its spelling when it differs: ``3, then --step 4``); None when each option
    was given once. The notes are taken out of ``args`` either way."""
    uses: list[_Use] = vars(args).pop(_USES, [])
    first: dict[argparse.Action, tuple[str, Any]] = {}
    for action, spelling, value in uses:
        if action not in first:
            first[action] = spelling, value
            continue
        option, earlier = first[action]
        if action.nargs == 0:
            return ScenarioError("", Refusal("flag_twice", option=option))
        then = _shown(value) if spelling == option else f"{spelling} {_shown(value)}"
        return ScenarioError("", Refusal("option_twice", option=option, first=_shown(earlier),
                                         then=then))
    return None
