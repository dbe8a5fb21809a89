"""Step texts of the positional encodings (added rows P, RoPE), in English and Chinese, chosen by
the step's op. Every number comes from the open document's :class:`Facts`. Imports no Qt.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from app.texts.facts import Facts
from app.texts.model import StepText


def _length(f: Facts, name: str) -> str:
    return f.num(float(np.linalg.norm(f.array(name)[f.receiver])))


def added_en(f: Facts) -> StepText:
    tokens, table, x = f.step.reads[0], f.step.reads[1], f.step.writes[0]
    return StepText(
        summary="Each position's row of P is added to its token's row: X = token rows + P.",
        why="Attention alone does not know where a token sits: swap two tokens and every share "
            "only moves with them. Adding a row that depends on the position makes the same "
            "token at two positions two different rows.",
        how=f"Entry by entry, row p of X is the token's row plus row p of P. For {f.token} "
            f"(position {f.receiver}): {f.receiver_row(tokens)} + {f.receiver_row(table)} = "
            f"{f.receiver_row(x)}.",
        pitfalls="P depends on the position only, never on the token; the token rows keep "
                 "their meaning and P is mixed into them, so no later step sees the two apart.",
        check=f"Row {f.token} of X minus its token row gives back row {f.receiver} of P: "
              f"{f.receiver_row(table)}.",
    )


def added_zh(f: Facts) -> StepText:
    tokens, table, x = f.step.reads[0], f.step.reads[1], f.step.writes[0]
    return StepText(
        summary="每个位置的 P 行加到该位置词元的行上：X = 词元行 + P。",
        why="注意力本身不知道词元在哪个位置：交换两个词元，所有份额只是跟着换位。加上一行随位置而变"
            "的数，同一个词元在两个位置上就成了两行不同的数。",
        how=f"逐个数相加：X 的第 p 行 = 词元行 + P 的第 p 行。“{f.token}”（位置 {f.receiver}）："
            f"{f.receiver_row(tokens)} + {f.receiver_row(table)} = {f.receiver_row(x)}。",
        pitfalls="P 只取决于位置，与词元无关；它被加进词元行里，后面的步骤无法再把两者分开。",
        check=f"X 中“{f.token}”那一行减去它的词元行，得到 P 的第 {f.receiver} 行："
              f"{f.receiver_row(table)}。",
    )


def rope_en(f: Facts) -> StepText:
    q, q_rot = f.step.reads[0], f.step.writes[0]
    first = f.tokens[0]
    return StepText(
        summary="RoPE turns each pair of columns of q and k by the angle p·θᵢ of its position; "
                "each pair keeps its length, only its direction turns.",
        why="Attention alone does not know where a token sits. Turning q and k by angles that "
            "grow with the position makes q·k depend on how far apart the two positions are, "
            "not on where they are.",
        how=f"Pair i of each head turns by p·θᵢ, θᵢ = base^(−2i/r): (x, y) becomes "
            f"(x·cos − y·sin, x·sin + y·cos). For {f.token} (position {f.receiver}): q = "
            f"{f.receiver_row(q)} becomes {f.receiver_row(q_rot)}.",
        pitfalls="V is not turned and nothing is added to X. A turn by 2π is no turn at all, so "
                 "a fast pair cannot tell far positions apart; the slow pairs can.",
        check=f"Lengths stay: |q| of {f.token} is {_length(f, q)} before and "
              f"{_length(f, q_rot)} after. At position 0 nothing turns: row {first} of "
              f"{q_rot} equals row {first} of {q}.",
    )


def rope_zh(f: Facts) -> StepText:
    q, q_rot = f.step.reads[0], f.step.writes[0]
    first = f.tokens[0]
    return StepText(
        summary="RoPE 把 q 和 k 的每一对列按所在位置转过角度 p·θᵢ；每一对长度不变，只改变方向。",
        why="注意力本身不知道词元在哪个位置。让 q 和 k 转过随位置增长的角度，q·k 就取决于两个位置"
            "相距多远，而不是它们各自在哪里。",
        how=f"每个头的第 i 对转过 p·θᵢ，θᵢ = base^(−2i/r)：(x, y) 变成 (x·cos − y·sin, "
            f"x·sin + y·cos)。“{f.token}”（位置 {f.receiver}）：q = {f.receiver_row(q)} 变成 "
            f"{f.receiver_row(q_rot)}。",
        pitfalls="V 不转动，X 上也不加任何东西。转过 2π 等于没转，"
                 "所以转得快的一对分不清很远的位置，转得慢的一对才行。",
        check=f"长度不变：“{f.token}”的 |q| 转动前是 {_length(f, q)}，转动后是 "
              f"{_length(f, q_rot)}。位置 0 不转动：{q_rot} 中“{first}”那一行等于 {q} 中的同一行。",
    )


BUILDERS_BY_OP: dict[str, dict[str, Callable[[Facts], StepText]]] = {
    "en": {"positions": added_en, "rope": rope_en},
    "zh": {"positions": added_zh, "rope": rope_zh},
}
"""Language → op → the builder of the step's text."""
