"""The names of the document's edits (undo steps, status lines), in every language. Imports no Qt.

Used by :mod:`app.document`'s operations as ``edit_word(lang, key, **fields)``, the way
:mod:`app.texts.block_words` serves the frames.
"""

from __future__ import annotations

from app.texts.model import fill_word

EDIT_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "cell": "{place} = {value}",
        "paste": "paste {shape} into {name}",
        "import": "import {source} into {name}",
        "resize": "resize {changes}",
        "attention.causal_on": "causal mask on",
        "attention.causal_off": "causal mask off",
        "attention.scale_on": "scaling on",
        "attention.scale_off": "scaling off",
        "block.final_norm_on": "final norm on",
        "block.final_norm_off": "final norm off",
        "block.norm": "norm {value}",
        "block.placement": "{value}-norm",
        "block.ffn.activation": "activation {value}",
        "block.eps": "ε = {value}",
        "display.decimals": "decimals = {value}",
        "option": "{name} = {value}",
        "option_on": "{name} on",
        "option_off": "{name} off",
        "tokens": "token {col} = {text}",
        "block.vocab": "vocabulary {col} = {text}",
        "block_on": "add decoder block",
        "block_off": "remove decoder block",
        "head_on": "add vocabulary head",
        "head_off": "remove vocabulary head",
    },
    "zh": {
        "cell": "{place} = {value}",
        "paste": "粘贴 {shape} 到 {name}",
        "import": "把 {source} 导入 {name}",
        "resize": "改变尺寸 {changes}",
        "attention.causal_on": "开启因果掩码",
        "attention.causal_off": "关闭因果掩码",
        "attention.scale_on": "开启缩放",
        "attention.scale_off": "关闭缩放",
        "block.final_norm_on": "最终 Norm 开",
        "block.final_norm_off": "最终 Norm 关",
        "block.norm": "Norm 改为 {value}",
        "block.placement": "Norm 位置改为 {value}-norm",
        "block.ffn.activation": "激活函数改为 {value}",
        "block.eps": "ε 改为 {value}",
        "display.decimals": "小数位数 = {value}",
        "option": "{name} 改为 {value}",
        "option_on": "开启 {name}",
        "option_off": "关闭 {name}",
        "tokens": "Token {col} = {text}",
        "block.vocab": "词表 {col} = {text}",
        "block_on": "添加解码块",
        "block_off": "移除解码块",
        "head_on": "添加词表头",
        "head_off": "移除词表头",
    },
}
"""``EDIT_WORDS[lang][key]``: an edit's name or a ``str.format`` pattern."""


def edit_word(lang: str, key: str, /, **fields: object) -> str:
    """The edit name ``key`` in ``lang`` with ``fields`` filled in."""
    return fill_word(EDIT_WORDS, lang, key, **fields)
