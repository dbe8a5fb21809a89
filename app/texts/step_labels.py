"""Short step names for the timeline's buttons, in every language. Imports no Qt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.texts.model import check_language
from app.texts.words import say

if TYPE_CHECKING:
    from engine import Step

_ZH: dict[str, str] = {
    "input.embed": "嵌入",
    "positions.added": "加位置",
    "input.types": "加类型",
    "input.embedding_norm": "嵌入规范化",
    "encoder.positions": "加位置",
    "positions.rope": "RoPE 旋转",
    "attention.qk_norm": "QK 规范化",
    "attention.inputs": "输入",
    "attention.projections": "投影",
    "attention.scores": "分数",
    "attention.weights": "份额",
    "attention.mix": "混合",
    "block.norm1": "规范化 1",
    "block.resid1": "残差 1",
    "block.norm2": "规范化 2",
    "block.ffn": "前馈",
    "block.router": "路由器",
    "block.experts": "专家",
    "block.resid2": "残差 2",
    "block.norm2_parallel": "规范化 2",
    "block.resid_parallel": "并行残差",
    "block.norm1_post": "后置规范化 1",
    "block.resid2_post": "残差 2",
    "block.norm2_post": "后置规范化 2",
    "block.norm3": "规范化 3",
    "block.norm4": "规范化 4",
    "block.cross_norm": "交叉规范化",
    "block.cross_norm_post": "交叉后置规范化",
    "block.cross_resid": "交叉残差",
    "block.final_norm": "最终规范化",
    "encoder.final_norm": "最终规范化",
    "head.transform": "掩码变换",
    "block.logits": "词表分数",
    "block.softcap": "软截断",
    "block.probs": "概率",
    "block.loss": "损失",
    "block.sample": "抽取",
}


def _is_cross(step: Step) -> bool:
    return bool(step.keys) and step.keys != step.rows


def step_label(step: Step, lang: str) -> str:
    """A word or two naming ``step`` on its timeline button (English: the step's id without its
    scope, which the button's group names); a cross-attention's steps say so
    (``cross-attention · scores``), beside the self-attention's ``scores``."""
    key = step.explain_key.replace("cross_attention.", "attention.", 1)
    lang = check_language(lang)
    label = _ZH[key] if lang == "zh" and key in _ZH else \
        step.id.removeprefix(step.scope).replace("_", " ")
    return say("group.cross_step", lang, step=label) if _is_cross(step) else label


def layer_name(step: Step, lang: str) -> str:
    """``Layer 2`` / ``第 2 层`` (``Encoder · Layer 1``) for a step inside a layer, with
    ``· Cross-attention`` for a cross-attention step; empty outside the layers."""
    if step.layer == 0:
        check_language(lang)
        return ""
    name = say("group.encoder_layer" if step.stack == "encoder" else "group.layer", lang,
               n=step.layer)
    if _is_cross(step):
        name += " · " + say("group.cross", lang)
    return name


def step_groups(steps: Sequence[Step], lang: str) -> list[str]:
    """The group each step belongs to on the timeline: ``Embedding``, ``Encoder · Layer 1``,
    ``Layer 1``, ``Layer 2`` … (``Decoder · Layer 1`` … beside an encoder), ``Head``; all
    empty when no step is inside a layer (a version-1 document keeps one flat row)."""
    check_language(lang)
    if not any(step.layer for step in steps):
        return ["" for _ in steps]
    groups = []
    seen_layer = False
    for step in steps:
        if step.layer:
            seen_layer = seen_layer or step.stack == "decoder"
            groups.append(say(f"group.{_layer_key(steps, step.stack)}", lang, n=step.layer))
        elif step.stack == "encoder":
            groups.append(say("group.encoder", lang))
        else:
            groups.append(say("group.head" if seen_layer else "group.embedding", lang))
    return groups


def _layer_key(steps: Sequence[Step], stack: str) -> str:
    """How a layer of ``stack`` is named: ``layer``, or beside an encoder ``encoder_layer`` /
    ``decoder_layer``."""
    if stack == "encoder":
        return "encoder_layer"
    return "decoder_layer" if any(s.stack == "encoder" for s in steps) else "layer"


def layers_group(steps: Sequence[Step], stack: str, first: int, last: int, lang: str) -> str:
    """``Layers 3–12`` / ``第 3–12 层`` (``Encoder · Layers 3–12``): a run of layers of
    ``stack`` that the map of where you are folds into one box."""
    return say(f"group.{_layer_key(steps, stack)}s", lang, first=first, last=last)
