"""Words drawn on the positional-encoding pictures (added rows, RoPE, ALiBi). Imports no Qt.

Used like :mod:`app.texts.block_words`: ``position_word(lang, key, **fields)``.
"""

from __future__ import annotations

from app.texts.model import fill_word

POSITION_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "embedded": "token rows",
        "positions": "position rows P",
        "with_positions": "X = rows + P",
        "added_note": "each position's row of P is added to its token's row: the same token "
                      "at another position gets another row",
        "type_rows": "type rows T",
        "summed": "{name} = the sum",
        "types_note": "each token's row of the type table (its entry of token_types, its "
                      "segment) is added too: the same token in another segment gets another "
                      "row",
        "norm_follows": "the next step norms this sum; the norm's output is X, the rows the "
                        "first layer reads",
        "angles": "angles p·θᵢ (rad)",
        "pair": "pair {i}: cols {a},{b}",
        "theta": "θ{i} = {theta}",
        "turn": "turn by p·θ",
        "dials_q": "q pairs of {token} turned{head}",
        "dials_k": "k pairs of {token} turned{head}",
        "dial_angle": "p·θ{i} = {p}·{theta} = {angle} rad",
        "dial_degrees": "= {degrees}°",
        "dial_pair": "({x}, {y}) → ({x2}, {y2})",
        "dial_legend": "dashed arrow: the pair before; solid arrow: after the turn (same length)",
        "rope_note": "RoPE turns each pair of columns of q and k by the angle p·θᵢ of its "
                     "position; q·k then depends on how far apart the two positions are",
        "kept_columns": "columns {first}–{last} of each head are not turned",
        "scaled_linear": "θᵢ scaled (linear): each divided by {factor}",
        "scaled_llama3": "θᵢ scaled (llama3): kept where the wavelength 2π/θᵢ is below {short}, "
                         "divided by {factor} above {long}, blended between",
        "scaled_yarn": "θᵢ scaled (yarn): from pair {start} to pair {end} a ramp towards "
                       "θᵢ/{factor}; cos and sin × {attention}",
        "scaled_longrope": "θᵢ scaled (longrope): each divided by its pair's short factor; cos "
                           "and sin × {attention}",
        "qk": "q·k",
        "alibi": "ALiBi bias",
        "scores_biased": "scores = q·k + bias",
        "alibi_note": "bias = −slope · distance: a key further back costs more (slope {slope})",
        "head": " · head {n}",
        "positioned": "{token} · p{p}",
        "equal_distance": "scores[{a}] = scores[{b}] = {value}: the same q and k rows, {d} "
                          "apart both times. After RoPE a score depends only on the distance "
                          "between the positions, not on where they are",
    },
    "zh": {
        "embedded": "词元行",
        "positions": "位置行 P",
        "with_positions": "X = 词元行 + P",
        "added_note": "每个位置的 P 行加到该位置词元的行上：同一个词元换个位置，得到的行就不同",
        "type_rows": "类型行 T",
        "summed": "{name} = 之和",
        "types_note": "每个词元在类型表中的行（它在 token_types 中的编号，即它所在的句段）也加"
                      "上去：同一个词元在另一个句段得到的行就不同",
        "norm_follows": "下一步对这个和做规范化；规范化的输出就是 X，第一层读取的行",
        "angles": "角度 p·θᵢ（弧度）",
        "pair": "第 {i} 对：第 {a}、{b} 列",
        "theta": "θ{i} = {theta}",
        "turn": "转过 p·θ",
        "dials_q": "{token} 的 q 各对转动后{head}",
        "dials_k": "{token} 的 k 各对转动后{head}",
        "dial_angle": "p·θ{i} = {p}·{theta} = {angle} 弧度",
        "dial_degrees": "= {degrees}°",
        "dial_pair": "({x}, {y}) → ({x2}, {y2})",
        "dial_legend": "虚线箭头：转动前的一对；实线箭头：转动后（长度不变）",
        "rope_note": "RoPE 把 q 和 k 每个头的每一对列按所在位置的角度 p·θᵢ 转动；"
                     "于是 q·k 取决于两个位置相距多远",
        "kept_columns": "每个头的第 {first}–{last} 列不转动",
        "scaled_linear": "θᵢ 经过缩放（linear）：每个都除以 {factor}",
        "scaled_llama3": "θᵢ 经过缩放（llama3）：波长 2π/θᵢ 小于 {short} 的不变，大于 {long} 的"
                         "除以 {factor}，两者之间平滑过渡",
        "scaled_yarn": "θᵢ 经过缩放（yarn）：从第 {start} 对到第 {end} 对沿斜坡过渡到 "
                       "θᵢ/{factor}；cos 和 sin × {attention}",
        "scaled_longrope": "θᵢ 经过缩放（longrope）：每个都除以它那一对的短系数；cos 和 sin × "
                           "{attention}",
        "qk": "q·k",
        "alibi": "ALiBi 偏置",
        "scores_biased": "分数 = q·k + 偏置",
        "alibi_note": "偏置 = −斜率 · 距离：越靠前的键扣得越多（斜率 {slope}）",
        "head": " · 第 {n} 个头",
        "positioned": "{token} · p{p}",
        "equal_distance": "分数[{a}] = 分数[{b}] = {value}：q 行和 k 行都一样，两次都相距 {d} 个"
                          "位置。用了 RoPE，分数只取决于两个位置之间的距离，与它们在哪里无关",
    },
}
"""``POSITION_WORDS[lang][key]``: a word or a ``str.format`` pattern."""


def position_word(lang: str, key: str, /, **fields: object) -> str:
    """The word ``key`` in ``lang`` with ``fields`` filled in (see :func:`fill_word`)."""
    return fill_word(POSITION_WORDS, lang, key, **fields)
