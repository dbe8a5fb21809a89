"""Bringing documents written by older versions of the format up to the current one.

Each entry of :data:`MIGRATIONS` takes a document of version ``k`` and returns the same document
as version ``k + 1``. :func:`migrate` applies them in turn, on a copy, before validation.

Version 0 is a document without a ``"version"`` key, typed by hand; it reads exactly like
version 1, so its migration only writes the version down. Version 2 keeps every version-1
document valid and meaning the same (its top-level ``attention``/``block`` are the shorthand for
a one-layer stack, the head keys may stay in ``block``), so 1 → 2 also only bumps the version.

A document from a newer version, or one whose version is not a whole number, is passed through
unchanged: :func:`engine.scenario.scenario.parse_scenario` refuses it with a message naming the
problem.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.format.writer import FORMAT_VERSION

Document = dict[str, Any]
Migration = Callable[[Document], Document]

UNVERSIONED = 0
"""The version of a document that has no ``"version"`` key."""


def _from_0(document: Document) -> Document:
    """Version 0 (hand-written, no version key) → 1: the same keys, version written down."""
    return {**document, "version": 1}


def _from_1(document: Document) -> Document:
    """Version 1 → 2: the same keys; version 2 reads them as the one-layer shorthand."""
    return {**document, "version": 2}


MIGRATIONS: dict[int, Migration] = {
    0: _from_0,
    1: _from_1,
}
"""Version ``k`` → the function that turns a version-``k`` document into version ``k + 1``."""


def document_version(document: Mapping[str, Any]) -> int | None:
    """The format version a document declares; :data:`UNVERSIONED` without a key.

    ``None`` when the version is not a whole number (``true``, ``"1"``, ``1.5``); validation then
    refuses it. ``1.0`` counts as ``1``, as validation reads it.
    """
    if "version" not in document:
        return UNVERSIONED
    version = document["version"]
    if isinstance(version, float) and version.is_integer() and abs(version) < 2**53:
        return int(version)
    return version if type(version) is int else None


def migrate(document: object, table: Mapping[int, Migration] | None = None) -> object:
    """The document brought up to :data:`~engine.scenario.scenario.FORMAT_VERSION`, as a new object.

    Parameters
    ----------
    document
        A JSON value read from a file. Anything but an object is returned unchanged, for
        validation to refuse.
    table
        The migrations to apply (default :data:`MIGRATIONS`); tests pass their own.

    Raises
    ------
    KeyError
        If the table has a gap between the document's version and the current one (a
        programming error, caught by the tests).
    """
    if not isinstance(document, dict):
        return document
    steps = MIGRATIONS if table is None else table
    version = document_version(document)
    if version is None or not UNVERSIONED <= version < FORMAT_VERSION:
        return document
    migrated: Document = dict(document)
    while version < FORMAT_VERSION:
        migrated = {**steps[version](migrated), "version": version + 1}
        version += 1
    return migrated


__all__ = ["MIGRATIONS", "UNVERSIONED", "document_version", "migrate"]
