"""Words drawn on the KV-cache marks of a generated token's attention frames. Imports no Qt.

Used like :mod:`app.texts.block_words`: ``cache_word(lang, key, **fields)``; each line names
its outline's style in words, so the marks never rest on colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.texts.model import fill_word

CACHE_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "heading": "KV cache · generated token {t}",
        "reused": "K, V {rows}: reused from the cache  (- - - dashed)",
        "dropped": "K, V {rows}: left the window of {w}, dropped from the cache's view  "
                   "(-·- dash-dot)",
        "queries_earlier": "Q {rows}: computed at earlier tokens, not kept  (··· dotted)",
        "new_row": "{row}: new, computed now  (━ solid) · 1 row instead of {n}",
        "groups_one": "the cache holds g = 1 K/V head per position (h = {h} query heads "
                      "share it)",
        "groups_many": "the cache holds g = {g} K/V heads per position (h = {h} query heads)",
        "memory": "K, V of the memory, {rows}: computed once, when the encoder ran  "
                  "(- - - dashed)",
        "earlier": "{rows}: computed at earlier tokens  (··· dotted)",
        "new_query": "{row}: the new query, computed now against {seen} keys  (━ solid)",
        "tag_reused": "← cache",
        "tag_dropped": "← out of the window",
        "tag_earlier": "← earlier",
        "tag_new": "← new",
        "tag_once": "← computed once",
        "range": "rows p{a}–p{b}",
        "single": "row p{a}",
    },
    "zh": {
        "heading": "KV 缓存 · 第 {t} 个生成的 Token",
        "reused": "K、V 第 {rows} 行：从缓存复用（- - - 虚线框）",
        "dropped": "K、V 第 {rows} 行：已移出大小为 {w} 的窗口，缓存中不再读取"
                   "（-·- 点划线框）",
        "queries_earlier": "Q 第 {rows} 行：在之前的 Token 时已算过，不必保留"
                           "（··· 点线框）",
        "new_row": "第 {row} 行：新的一行，现在计算（━ 实线框）"
                   "· 只算 1 行，而不是 {n} 行",
        "groups_one": "缓存每个位置只存 g = 1 个 K/V 头（h = {h} 个 Query 头共用）",
        "groups_many": "缓存每个位置只存 g = {g} 个 K/V 头（Query 有 h = {h} 个头）",
        "memory": "编码器记忆的 K、V（第 {rows} 行）：编码器运行时只算一次"
                  "（- - - 虚线框）",
        "earlier": "第 {rows} 行：在之前的 Token 时已算过（··· 点线框）",
        "new_query": "第 {row} 行：新的 Query，现在与它能看到的 {seen} 个 Key 计算"
                     "（━ 实线框）",
        "tag_reused": "← 缓存",
        "tag_dropped": "← 已出窗口",
        "tag_earlier": "← 之前已算",
        "tag_new": "← 新",
        "tag_once": "← 只算一次",
        "range": "p{a}–p{b}",
        "single": "p{a}",
    },
}
"""``CACHE_WORDS[lang][key]``: a ``str.format`` pattern."""


def cache_word(lang: str, key: str, /, **fields: object) -> str:
    """The word ``key`` in ``lang`` with ``fields`` filled in."""
    return fill_word(CACHE_WORDS, lang, key, **fields)


def row_span(lang: str, rows: Sequence[int]) -> str:
    """Consecutive rows as ``rows p0–p2`` (one row: ``row p3``; in Chinese ``p0–p2``, the
    sentence saying 第 … 行)."""
    if len(rows) == 1:
        return cache_word(lang, "single", a=rows[0])
    return cache_word(lang, "range", a=rows[0], b=rows[-1])


__all__ = ["CACHE_WORDS", "cache_word", "row_span"]
