"""Short step names for the timeline's buttons, in every language. Imports no Qt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.texts.model import check_language

if TYPE_CHECKING:
    from engine import Step

_ZH: dict[str, str] = {
    "input.embed": "嵌入",
    "attention.inputs": "输入",
    "attention.projections": "投影",
    "attention.scores": "分数",
    "attention.weights": "份额",
    "attention.mix": "混合",
    "block.norm1": "规范化 1",
    "block.resid1": "残差 1",
    "block.norm2": "规范化 2",
    "block.ffn": "前馈",
    "block.resid2": "残差 2",
    "block.norm1_post": "后置规范化 1",
    "block.resid2_post": "残差 2",
    "block.norm2_post": "后置规范化 2",
    "block.final_norm": "最终规范化",
    "block.logits": "logits",
    "block.probs": "概率",
}


def step_label(step: Step, lang: str) -> str:
    """A word or two naming ``step`` on its timeline button (English: the step's id)."""
    if check_language(lang) == "zh" and step.explain_key in _ZH:
        return _ZH[step.explain_key]
    return step.id.replace("_", " ")
