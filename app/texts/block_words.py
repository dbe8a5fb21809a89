"""Words drawn on the decoder-block, embedding, multi-head and comparison frames. Imports no Qt.

Kept beside :mod:`app.texts.frame_words` (the attention frames' words) and used the same way:
``block_word(lang, key, **fields)``.
"""

from __future__ import annotations

from app.texts.model import fill_word

BLOCK_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "row_statistics": "per row",
        "mean": "μ",
        "variance": "σ²",
        "divisor": "√(σ²+ε)",
        "mean_square": "mean(x²)",
        "rms_divisor": "√(mean(x²)+ε)",
        "layer_formula": "LayerNorm, each row on its own: (x − μ) / √(σ² + ε) · γ + β,  "
                         "ε = {eps}",
        "rms_formula": "RMSNorm, each row on its own: x / √(mean(x²) + ε) · γ,  ε = {eps}  "
                       "(no mean subtracted, no β)",
        "layer_row": "row {token}: (x − {mean}) / {divisor} · γ + β",
        "rms_row": "row {token}: x / {divisor} · γ",
        "norm_none": "norm is “none”: {out} is a copy of {source} (choose LayerNorm or RMSNorm "
                     "in the editor to rescale each row)",
        "stat_mean": "μ of row {token} = mean of its {d} numbers = {value}",
        "stat_variance": "σ² of row {token} = mean of (x − μ)² = {value}",
        "stat_divisor": "√(σ² + ε) = √({variance} + {eps}) = {value}",
        "stat_mean_square": "mean(x²) of row {token} = {value}",
        "stat_rms_divisor": "√(mean(x²) + ε) = √({mean_square} + {eps}) = {value}",
        "residual_note": "the residual path: each position adds its own sub-layer output; "
                         "nothing moves between positions",
        "z_title": "z = {source}·W1",
        "z_bias": " + b1",
        "hidden_title": "hidden = {activation}(z)",
        "relu_marked": "▸ marked: zeroed by ReLU",
        "gelu_note": "GELU(z) = z·Φ(z)",
        "silu_note": "SiLU(z) = z·σ(z)",
        "gelu_tanh_note": "GELU(z) ≈ 0.5·z·(1 + tanh(√(2/π)·(z + 0.044715·z³)))",
        "identity_note": "identity: hidden = z",
        "ffn_out_title": "ffn_out = hidden·W2",
        "ffn_out_bias": " + b2",
        "logits_title": "logits = {source}·unembed",
        "logits_note": "one score per vocabulary entry; the next step turns each row into "
                       "probabilities",
        "softmax_rows": "→ softmax per row →",
        "probs_title": "Probabilities over the vocabulary",
        "probs_receiver": "{token} (receiver)",
        "probs_legend": "bar length = probability; each position's bars sum to 1",
        "probs_receiver_only": "{n} positions: showing the receiver; pick another in Receiver",
        "probs_top": "top {k} of {v} entries",
        "embed_ids": "token ids",
        "embed_id": "id",
        "embed_table": "embedding table",
        "embed_pick": "pick rows →",
        "embed_x": "X · the picked rows",
        "embed_row": "{token} ← {id}",
        "embed_pair": "{token} → row {id}",
        "embed_note": "each id picks one row of the table: {pairs}",
        "head_band": "head {n}",
        "concat_title": "concatenate → width {width}",
        "concat_wo": "{h} heads × {d_v} = width {width}, then · Wo ({width}×{d_out}) gives "
                     "{d_out} numbers per position",
        "concat_no_wo": "{h} heads × {d_v} = width {width}: the attention output",
        "output_width": "output · width {d_out}",
        "compare_header": "Compare · A: {a}  |  B: {b}",
        "side": "{side} · {label}: {title}",
        "differs_title": "What differs in this step (B − A)",
        "b_minus_a": "B − A · {name}",
        "max_difference": "max |B − A| = {value}",
        "identical": "identical in A and B: {names}",
        "differs_elsewhere": "differs too (its B − A is drawn at the step that writes it): "
                             "{names}",
        "only_a": "only in A: {names}",
        "only_b": "only in B: {names}",
        "reshaped": "shape differs: {name} {a} in A, {b} in B",
        "nothing_differs": "nothing this step shows differs between A and B",
    },
    "zh": {
        "row_statistics": "逐行统计",
        "mean": "μ",
        "variance": "σ²",
        "divisor": "√(σ²+ε)",
        "mean_square": "mean(x²)",
        "rms_divisor": "√(mean(x²)+ε)",
        "layer_formula": "LayerNorm，每行各自计算：(x − μ) / √(σ² + ε) · γ + β，ε = {eps}",
        "rms_formula": "RMSNorm，每行各自计算：x / √(mean(x²) + ε) · γ，ε = {eps}"
                       "（不减均值，不用 β）",
        "layer_row": "第 {token} 行：(x − {mean}) / {divisor} · γ + β",
        "rms_row": "第 {token} 行：x / {divisor} · γ",
        "norm_none": "规范化为“none”：{out} 就是 {source} 的副本（在编辑器中选 LayerNorm 或 "
                     "RMSNorm 才会逐行缩放）",
        "stat_mean": "{token} 行的 μ = 其 {d} 个数的平均 = {value}",
        "stat_variance": "{token} 行的 σ² = (x − μ)² 的平均 = {value}",
        "stat_divisor": "√(σ² + ε) = √({variance} + {eps}) = {value}",
        "stat_mean_square": "{token} 行的 mean(x²) = {value}",
        "stat_rms_divisor": "√(mean(x²) + ε) = √({mean_square} + {eps}) = {value}",
        "residual_note": "残差通路：每个位置加上自己这一行的子层输出，位置之间不交换信息",
        "z_title": "z = {source}·W1",
        "z_bias": " + b1",
        "hidden_title": "隐藏 = {activation}(z)",
        "relu_marked": "▸ 角标：被 ReLU 置零",
        "gelu_note": "GELU(z) = z·Φ(z)",
        "silu_note": "SiLU(z) = z·σ(z)",
        "gelu_tanh_note": "GELU(z) ≈ 0.5·z·(1 + tanh(√(2/π)·(z + 0.044715·z³)))",
        "identity_note": "恒等：隐藏 = z",
        "ffn_out_title": "ffn_out = 隐藏·W2",
        "ffn_out_bias": " + b2",
        "logits_title": "logits = {source}·unembed",
        "logits_note": "每个词表项一个分数；下一步把每行变成概率",
        "softmax_rows": "→ 逐行 softmax →",
        "probs_title": "词表上的概率",
        "probs_receiver": "{token}（接收者）",
        "probs_legend": "条长 = 概率；每个位置的各条之和为 1",
        "probs_receiver_only": "共 {n} 个位置：只显示接收者；可在“接收者”中换一个",
        "probs_top": "{v} 项中概率最高的 {k} 项",
        "embed_ids": "Token 编号",
        "embed_id": "编号",
        "embed_table": "嵌入表",
        "embed_pick": "取出这些行 →",
        "embed_x": "X · 取出的行",
        "embed_row": "{token} ← {id}",
        "embed_pair": "{token} → 第 {id} 行",
        "embed_note": "每个编号取出表中的一行：{pairs}",
        "head_band": "第 {n} 头",
        "concat_title": "拼接 → 宽度 {width}",
        "concat_wo": "{h} 个头 × {d_v} = 宽度 {width}，再乘 Wo（{width}×{d_out}）得每个位置 "
                     "{d_out} 个数",
        "concat_no_wo": "{h} 个头 × {d_v} = 宽度 {width}：即注意力输出",
        "output_width": "输出 · 宽度 {d_out}",
        "compare_header": "对比 · A：{a}  |  B：{b}",
        "side": "{side} · {label}：{title}",
        "differs_title": "本步中不同的数组（B − A）",
        "b_minus_a": "B − A · {name}",
        "max_difference": "最大 |B − A| = {value}",
        "identical": "A 与 B 相同：{names}",
        "differs_elsewhere": "也不同（其 B − A 画在写出它的那一步）：{names}",
        "only_a": "只在 A 中：{names}",
        "only_b": "只在 B 中：{names}",
        "reshaped": "形状不同：{name} 在 A 中为 {a}，在 B 中为 {b}",
        "nothing_differs": "本步显示的数组在 A 与 B 中完全相同",
    },
}
"""``BLOCK_WORDS[lang][key]``: a word or a ``str.format`` pattern."""


def block_word(lang: str, key: str, /, **fields: object) -> str:
    """The word ``key`` in ``lang`` with ``fields`` filled in (see :func:`fill_word`)."""
    return fill_word(BLOCK_WORDS, lang, key, **fields)
