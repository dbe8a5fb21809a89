"""Words of the model view (every layer × head's shares) and of its attention-sink frame."""

from __future__ import annotations

MODEL_VIEW_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Model view: {layers} × {heads} heads, receiver “{token}” (position {position})",
        "head": "{layer} h{head}",
        "legend": "▸ marks the receiver's row; the figure beside each head is its mean share "
                  "on the first key “{first}”. Hover a cell for its share; click a head to open "
                  "it.",
        "sink_title": "Attention sinks",
        "sink_what": "Softmax must give a whole share away, so a head with nothing useful to "
                     "look at parks it on the first key: an attention sink. Its mean share on "
                     "“{first}” is the figure beside it.",
        "sink_strongest": "Strongest here: {label}, mean share {mean} on “{first}”.",
        "sink_removed": "Remove position 0 from {label}: the receiver “{token}” row's other "
                        "shares are divided by 1 − {first_share} = {rest} and sum to 1 again.",
        "sink_before": "with key 0:  {shares}",
        "sink_after": "without it:  {shares}",
        "sink_none": "One position: no key is left when position 0 is removed.",
        "no_attention": "This document has no attention: no head to show.",
        "hover": "{label}: “{query}” ({row}) → “{key}” ({col}): share {share}",
        "hover_masked": "{label}: “{query}” ({row}) → “{key}” ({col}): masked",
    },
    "zh": {
        "title": "模型总览：{layers} × {heads} 个头，接收者“{token}”（位置 {position}）",
        "head": "{layer} h{head}",
        "legend": "▸ 标出接收者所在的行；每个头旁的数是它在第一个键“{first}”上的平均份额。"
                  "悬停查看单元格的份额；点击一个头打开它。",
        "sink_title": "注意力汇聚（attention sink）",
        "sink_what": "softmax 必须把一整份份额分出去，没有值得看的位置时，头就把份额停放在"
                     "第一个键上：这就是注意力汇聚。每个头旁的数就是它在“{first}”上的"
                     "平均份额。",
        "sink_strongest": "这里最强的是 {label}，在“{first}”上的平均份额为 {mean}。",
        "sink_removed": "在 {label} 中去掉位置 0：接收者“{token}”这一行其余的份额都除以 "
                        "1 − {first_share} = {rest}，和重新为 1。",
        "sink_before": "含键 0：  {shares}",
        "sink_after": "去掉后：  {shares}",
        "sink_none": "只有一个位置：去掉位置 0 后没有键可看。",
        "no_attention": "这个文档没有注意力：没有可显示的头。",
        "hover": "{label}：“{query}”（{row}）→“{key}”（{col}）：份额 {share}",
        "hover_masked": "{label}：“{query}”（{row}）→“{key}”（{col}）：被遮蔽",
    },
}
"""The model view's words by language: ``str.format`` patterns for
:func:`~app.texts.model.fill_word`."""
