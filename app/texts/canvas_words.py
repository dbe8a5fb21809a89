"""The words of the worked row and of the route map drawn on a frame, in every language.

Imports no Qt; frames are drawn the same way in the window and in every export.
"""

from __future__ import annotations

from app.texts.model import fill_word

CANVAS_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "worked_title": "Worked row for “{token}”{head}",
        "worked_head": ", head {n}",
        "key": "key",
        "dot": "q·k",
        "scaled": "÷ √{d_k} = s",
        "unscaled": "s (not scaled)",
        "exp": "exp(s − max)",
        "share": "share",
        "masked": "✕ masked: not read",
        "total": "Σ",
        "output": "output row",
        "map_title": "Where you are",
        "embed": "embed",
        "inputs": "X and W",
        "projections": "Q/K/V",
        "projections_heads": "Q/K/V ×{heads}",
        "scores": "scores",
        "weights": "softmax",
        "weights_masked": "mask + softmax",
        "mix": "mix V",
        "mix_wo": "mix V · Wo",
        "resid": "+ residual",
        "norm": "{norm}",
        "norm_word": "Norm",
        "no_norm": "no norm",
        "final_norm": "final {norm}",
        "qk_norm": "QK-{norm}",
        "ffn": "FFN",
        "positions": "+ positions",
        "rope": "RoPE turns q, k",
        "logits": "logits",
        "probs": "probs",
        "loss": "loss −ln p",
        "sample": "draw next token",
        "map_step": "step {n}: {label}",
        "map_layer": "{layer}: the same step there",
    },
    "zh": {
        "worked_title": "逐项计算“{token}”这一行{head}",
        "worked_head": "（第 {n} 个头）",
        "key": "键",
        "dot": "q·k",
        "scaled": "÷ √{d_k} = s",
        "unscaled": "s（未缩放）",
        "exp": "exp(s − max)",
        "share": "份额",
        "masked": "✕ 被掩码，不读",
        "total": "合计",
        "output": "输出行",
        "map_title": "当前位置",
        "embed": "嵌入",
        "inputs": "X 与 W",
        "projections": "Q/K/V",
        "projections_heads": "Q/K/V ×{heads}",
        "scores": "分数",
        "weights": "softmax",
        "weights_masked": "掩码 + softmax",
        "mix": "混合 V",
        "mix_wo": "混合 V · Wo",
        "resid": "+ 残差",
        "norm": "{norm}",
        "norm_word": "规范化",
        "no_norm": "无规范化",
        "final_norm": "最终{norm}",
        "qk_norm": "QK {norm}",
        "ffn": "前馈",
        "positions": "+ 位置编码",
        "rope": "RoPE 转动 q、k",
        "logits": "词表分数",
        "probs": "概率",
        "loss": "损失 −ln p",
        "sample": "抽取下一个 Token",
        "map_step": "第 {n} 步：{label}",
        "map_layer": "{layer}：那一层的同一步",
    },
}


def canvas_word(lang: str, key: str, /, **fields: object) -> str:
    """The canvas word ``key`` in ``lang``, filled with ``fields``."""
    return fill_word(CANVAS_WORDS, lang, key, **fields)
