"""A JSON object that names one key twice is refused, not read with the second silently winning
(a document, a safetensors header)."""

from __future__ import annotations


class DuplicateKeyError(ValueError):
    """A JSON object names one key twice (the second would silently win)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """``json.loads``' ``object_pairs_hook``: the object, or :class:`DuplicateKeyError` naming the
    first key given twice."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _item in pairs:
            if key in seen:
                raise DuplicateKeyError(key)
            seen.add(key)
    return value


__all__ = ["DuplicateKeyError", "unique_keys"]
