"""The engine's refusals of a document, worded in the interface language. Imports no Qt.

The engine words every :class:`~engine.errors.ScenarioError` in English; an edit in the window
can run into a few of them (an overflow, a negative ε, a width that no longer splits into the
heads …). :func:`problem_words` gives those in the asked language.
"""

from __future__ import annotations

import re

from app.texts.model import check_language
from engine import ScenarioError

_ZH: list[tuple[re.Pattern[str], str]] = [(re.compile(pattern), words) for pattern, words in (
    (r"^a value overflowed or was divided by zero \(.*\); look for huge numbers, or ε = 0 with "
     r"a constant row$", "有数值溢出或被零除；请查找特别大的数，或 ε = 0 且整行相同的情况"),
    (r"^ε must not be negative, got (?P<a>\S+)$", "ε 不能为负，得到的是 {a}"),
    (r"^(?P<a>\d+) columns do not split into (?P<b>\d+) heads$", "{a} 列无法平均分给 {b} 个头"),
    (r"^(?P<a>\d+) heads × (?P<b>\d+)² positions is more than the limit of (?P<c>\d+) scores$",
     "{a} 个头 × {b}² 个位置超过了 {c} 个分数的上限"),
    (r"^the block adds the attention output to X, so (?P<a>\S+?)(?:'s columns)? must be "
     r"d=(?P<b>\d+), got (?P<c>\d+)$",
     "解码块要把注意力输出加回 X，所以 {a} 的列数必须是 d={b}，得到的是 {c}"),
    (r"^expected (?P<a>\d+) labels, got (?P<b>\d+)$", "应有 {a} 个标签，得到 {b} 个"),
    (r"^text of (?P<a>\d+) characters is longer than (?P<b>\d+)$",
     "文本有 {a} 个字符，超过了 {b} 个的上限"),
    (r"^(?P<a>.+) is not allowed: every number must be finite$", "不接受 {a}：每个数都必须有限"),
    (r"^(?P<a>.+) is too large: every number must be finite$", "{a} 太大：每个数都必须有限"),
    (r"^expected (?P<a>\d+) rows(?P<r>.*), got (?P<b>\d+)$", "应有 {a} 行，得到 {b} 行"),
    (r"^expected (?P<a>\d+) columns(?P<r>.*), got (?P<b>\d+)$", "应有 {a} 列，得到 {b} 列"),
    (r"^expected (?P<a>\d+) numbers(?P<r>.*), got (?P<b>\d+)$", "应有 {a} 个数，得到 {b} 个"),
    (r"^vocabulary labels need the head block\.unembed$", "词表标签需要词表头 block.unembed"),
    (r"^an output bias needs Wo$", "输出偏置 bo 需要 Wo"),
    (r"^(?P<a>\d+) encoder layers? and (?P<b>\d+) decoder layers? are (?P<c>\d+) layers, more "
     r"than the limit of (?P<d>\d+) for both stacks together$",
     "编码器 {a} 层加解码器 {b} 层共 {c} 层，超过了两个栈合计 {d} 层的上限"),
    (r"^an encoder layer cannot have cross-attention: only a decoder layer reads the encoder's "
     r"output$", "编码器的层不能有交叉注意力：只有解码器的层读取编码器的输出"),
)]
_ZH_OTHER = "文档不接受这个改动"


def problem_words(error: ScenarioError, lang: str) -> str:
    """``place: problem`` in ``lang``; an English problem with no Chinese wording is named
    only by its place in Chinese."""
    if check_language(lang) == "en":
        return str(error)
    for pattern, words in _ZH:
        match = pattern.match(error.problem)
        if match:
            problem = words.format(**match.groupdict())
            break
    else:
        problem = _ZH_OTHER
    return f"{error.place}：{problem}" if error.place else problem
