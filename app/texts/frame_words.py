"""The words drawn on the canvas and in exported frames, in every language. Imports no Qt.

Frames are drawn the same way in the window and in every export, so their words come from this
one table rather than from Qt's translation system (exports run headless and choose their language
per request with ``--lang``).
"""

from __future__ import annotations

from app.texts.model import fill_word

FRAME_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "heading": "Step {n} of {count} · {title}",
        "part_title": "{title} ({k}/{count})",
        "reads": "reads:",
        "writes": "writes:",
        "nothing": "—",
        "input_rows": "X · input rows",
        "head": " · head {n}",
        "head_of": " · head {n} of {h}",
        "scores": "scores",
        "shares": "shares",
        "mixed": "mixed",
        "mixed_joined": "mixed (heads joined)",
        "ablated_mark": " · ablated: 0",
        "encoder_memory": "encoder memory",
        "memory": "memory",
        "qk_norm_op": "→ {norm} per head ·",
        "attention_output": "attention output",
        "softmax": "→ softmax →",
        "scaled_note": "÷ √{d_k} = {root}",
        "not_scaled_note": "not scaled",
        "mask_note": "hatched cells are hidden by the mask in the next step",
        "mask_note_causal": "hatched cells are hidden by the causal mask in the next step",
        "mask_rule": "Hatched cells are hidden by {rule}.",
        "kv_shared_note": "shared K/V (g = {g}, h = {h}): {reads}",
        "corner_note": "each cell of a result = its row on the left · its column above",
        "rows_sum_note": "each row sums to 1",
        "masked_zero_note": "masked shares are exactly 0",
        "note_join": "; ",
        "who_reads": "Who “{token}” reads, and how much",
        "query": "Query",
        "key": "Key",
        "key_encoder": "Key (encoder)",
        "kv_group": " (K/V group {n})",
        "masked": "✕ masked",
        "arrow_legend": "arrow width and opacity = share",
        "rows_sum_legend": "each row of shares sums to 1",
        "legend_other": "grey, faint: the other queries' arrows",
        "legend_heads": "faint: the other queries' arrows; colour: the head",
        "arrow_filter": "showing each row's top {top_k} and shares ≥ {min_share}",
        "large_note": "{cells} cells: {shown}; hover any cell for its value",
        "large_highlighted": "numbers of the highlighted row",
        "large_colours": "colours only",
        "heat_cell": "heat map: a square is a cell",
        "heat_block": "heat map: a square is the mean of {down}×{across} cells",
        "heat_hint": "Heat maps: hover over a cell for its value",
        "in_view": "In view: {title}, rows {rows}, columns {cols}",
        "parameter_tip": "{name}[{index}] = {value}: a parameter you can edit",
        "share_from_to": "share from {query} to {key}: {share}",
        "share_masked": "{key} is masked for {query}",
        "frame_summary": "Step {n} of {count}: {title}.",
        "head_prefix": "head {n}: ",
        "row_values": "{name}, row {token}: {values}",
    },
    "zh": {
        "heading": "第 {n} 步（共 {count} 步）· {title}",
        "part_title": "{title}（{k}/{count}）",
        "reads": "读取：",
        "writes": "写入：",
        "nothing": "—",
        "input_rows": "X · 输入行",
        "head": " · 第 {n} 头",
        "head_of": " · 第 {n} 头（共 {h} 头）",
        "scores": "分数",
        "shares": "份额",
        "mixed": "混合结果",
        "mixed_joined": "混合结果（各头拼接）",
        "ablated_mark": " · 已消融：0",
        "encoder_memory": "编码器记忆",
        "memory": "记忆",
        "qk_norm_op": "→ 每个头各自 {norm} ·",
        "attention_output": "注意力输出",
        "softmax": "→ softmax →",
        "scaled_note": "÷ √{d_k} = {root}",
        "not_scaled_note": "未缩放",
        "mask_note": "斜线格在下一步被掩码遮住",
        "mask_note_causal": "斜线格在下一步被因果掩码遮住",
        "mask_rule": "斜线格被{rule}遮住。",
        "kv_shared_note": "共用的 K/V（g = {g}，h = {h}）：{reads}",
        "corner_note": "结果的每一格 = 左边同一行 · 上面同一列",
        "rows_sum_note": "每行之和为 1",
        "masked_zero_note": "被遮住的份额恰好为 0",
        "note_join": "；",
        "who_reads": "“{token}”读谁、读多少",
        "query": "查询 Query",
        "key": "键 Key",
        "key_encoder": "键 Key（编码器）",
        "kv_group": "（K/V 第 {n} 组）",
        "masked": "✕ 已遮住",
        "arrow_legend": "箭头粗细与不透明度 = 份额",
        "rows_sum_legend": "每行份额之和为 1",
        "legend_other": "灰色淡线：其他查询的箭头",
        "legend_heads": "淡线：其他查询的箭头；颜色：注意力头",
        "arrow_filter": "每行只画前 {top_k} 个及份额 ≥ {min_share} 的箭头",
        "large_note": "共 {cells} 格：{shown}；悬停任意格可看其数值",
        "large_highlighted": "只印出高亮行的数字",
        "large_colours": "只显示颜色",
        "heat_cell": "热图：一个方块是一格",
        "heat_block": "热图：一个方块是 {down}×{across} 格的平均值",
        "heat_hint": "热图：把指针停在一格上，显示它的数值",
        "in_view": "视野内：{title}，第 {rows} 行、第 {cols} 列",
        "parameter_tip": "{name}[{index}] = {value}：可编辑的参数",
        "share_from_to": "从 {query} 到 {key} 的份额：{share}",
        "share_masked": "{key} 对 {query} 被遮住",
        "frame_summary": "第 {n} 步（共 {count} 步）：{title}。",
        "head_prefix": "第 {n} 头：",
        "row_values": "{name} 中“{token}”一行：{values}",
    },
}
"""``FRAME_WORDS[lang][key]``: a frame word or a ``str.format`` pattern."""


def frame_word(lang: str, key: str, /, **fields: object) -> str:
    """The word ``key`` in ``lang`` with ``fields`` filled in (see :func:`fill_word`)."""
    return fill_word(FRAME_WORDS, lang, key, **fields)


def join_notes(lang: str, *notes: str) -> str:
    """Notes joined with the language's separator, empty ones left out."""
    return frame_word(lang, "note_join").join(note for note in notes if note)
