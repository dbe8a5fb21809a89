"""The names of the document's edits (undo steps, status lines), in every language. Imports no Qt.

Used by :mod:`app.model.edits`'s operations as ``edit_word(lang, key, **fields)``, the way
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
        "head.vocab": "vocabulary {col} = {text}",
        "encoder.tokens": "source token {col} = {text}",
        "block_on": "add decoder block",
        "block_off": "remove decoder block",
        "head_on": "add vocabulary head",
        "head_off": "remove vocabulary head",
        "layer_name": "layer {n}",
        "encoder_layer_name": "encoder layer {n}",
        "layer_add": "add {layer}",
        "layer_remove": "remove {layer}",
        "layer_duplicate": "duplicate {layer}",
        "layer_up": "move {layer} up",
        "layer_down": "move {layer} down",
        "swap": "swap tokens {i} “{a}” and {j} “{b}”",
        "positions": "positions: {kind}",
        "positions_none": "none",
        "positions_sinusoidal": "sinusoidal",
        "positions_learned": "learned",
        "positions_rope": "RoPE",
        "positions_alibi": "ALiBi",
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
        "block.placement": "规范化顺序改为 {value}-norm",
        "block.ffn.activation": "激活函数改为 {value}",
        "block.eps": "ε 改为 {value}",
        "display.decimals": "小数位数 = {value}",
        "option": "{name} 改为 {value}",
        "option_on": "开启 {name}",
        "option_off": "关闭 {name}",
        "tokens": "Token {col} = {text}",
        "block.vocab": "词表 {col} = {text}",
        "head.vocab": "词表 {col} = {text}",
        "encoder.tokens": "源 Token {col} = {text}",
        "block_on": "添加解码块",
        "block_off": "移除解码块",
        "head_on": "添加词表头",
        "head_off": "移除词表头",
        "layer_name": "第 {n} 层",
        "encoder_layer_name": "编码器第 {n} 层",
        "layer_add": "添加{layer}",
        "layer_remove": "删除{layer}",
        "layer_duplicate": "复制{layer}",
        "layer_up": "{layer}上移",
        "layer_down": "{layer}下移",
        "swap": "交换 Token {i}“{a}”与 {j}“{b}”",
        "positions": "位置编码：{kind}",
        "positions_none": "无",
        "positions_sinusoidal": "正弦",
        "positions_learned": "可学习",
        "positions_rope": "RoPE",
        "positions_alibi": "ALiBi",
    },
}
"""``EDIT_WORDS[lang][key]``: an edit's name or a ``str.format`` pattern."""


def edit_word(lang: str, key: str, /, **fields: object) -> str:
    """The edit name ``key`` in ``lang`` with ``fields`` filled in."""
    return fill_word(EDIT_WORDS, lang, key, **fields)
