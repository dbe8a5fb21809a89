"""Step texts of the QK-norm (the norm of each head's q and k before the scores), in English and
Chinese. Every number comes from the open document's :class:`Facts`. Imports no Qt.
"""

from __future__ import annotations

from collections.abc import Callable

from app.texts.facts import Facts
from app.texts.model import StepText
from engine.names import NORM_NAMES


def _head(f: Facts, lang: str) -> str:
    if f.heads == 1:
        return ""
    return f" in head {f.head + 1}" if lang == "en" else f"（第 {f.head + 1} 个头）"


def qk_norm_en(f: Facts) -> StepText:
    m = f.norm_facts
    kind = NORM_NAMES[f.norm]
    return StepText(
        summary=f"Each head's q and k are normed on their own ({kind}) before they are dotted.",
        why="Large q or k rows make scores so large that softmax hands nearly the whole share "
            "to one key. Norming each head's q and k keeps the scores in a workable range.",
        how=f"{kind} of each head's {f.d_k} columns of q (ε = {f.eps}), times γ{m.suffix}; k "
            f"likewise with γ_k. Here{_head(f, 'en')}, {f.token}'s q {f.row(f.head_row(m.source))} "
            f"becomes {f.row(f.head_row(m.name))}.",
        pitfalls="Only q and k are normed, not v, and the norm works inside one head's columns of "
                 "one row, never across positions. γ_q and γ_k are learned; there is no β.",
        check=f"Undo γ{m.suffix}: {f.token}'s normed q ÷ γ{m.suffix}{_head(f, 'en')} has mean "
              f"square {f.num(f.qk_unscaled_mean_square)}, close to 1.",
    )


def qk_norm_zh(f: Facts) -> StepText:
    m = f.norm_facts
    kind = NORM_NAMES[f.norm]
    return StepText(
        summary=f"每个头的 q 和 k 在做点积之前各自做 {kind}。",
        why="q 或 k 的行太大时，分数会大到 softmax 几乎把全部份额交给一个键。对每个头的 q、k 做"
            "规范化，分数才不会失控。",
        how=f"对每个头的 {f.d_k} 列 q 做 {kind}（ε = {f.eps}），再乘 γ{m.suffix}；k 同样处理，"
            f"乘 γ_k。这里{_head(f, 'zh')}“{f.token}”的 q {f.row(f.head_row(m.source))} 变为 "
            f"{f.row(f.head_row(m.name))}。",
        pitfalls="只规范化 q 和 k，不动 v；规范化只在一行中一个头的几列内部进行，从不跨位置。"
                 "γ_q、γ_k 是可学习参数，没有 β。",
        check=f"去掉 γ{m.suffix} 的作用：“{f.token}”{_head(f, 'zh')}规范化后的 q ÷ γ{m.suffix} "
              f"平方的平均值为 {f.num(f.qk_unscaled_mean_square)}，接近 1。",
    )


QK_NORM_BUILDERS: dict[str, Callable[[Facts], StepText]] = {"en": qk_norm_en, "zh": qk_norm_zh}
"""Language → the builder of the QK-norm step's text."""
