"""Step titles in every language, built from the step and the scenario's options.

English titles are the engine's own (``engine/forward/trace.py`` names every step); other languages
are built here from the same options (norm kind, causal or not, scaled or not, Wo present,
activation), so all languages carry the same information.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.texts.mask_plans import beyond_causal, shares_title
from app.texts.model import check_language
from app.texts.scope import modules_of
from app.texts.step_labels import layer_name
from engine.format.numbers import format_exact
from engine.scenario.modules import Mixture
from engine.scenario.names import NORM_NAMES

if TYPE_CHECKING:
    from engine import Scenario, Step

_NORM_NAMES = {"en": NORM_NAMES, "zh": {**NORM_NAMES, "none": "关闭"}}
_ZH_ACTIVATIONS = {"relu": "ReLU ", "gelu": "GELU ", "silu": "SiLU ", "identity": "恒等",
                   "gelu_tanh": "GELU（tanh 形式）"}
_ZH_GATED = {"silu": "SwiGLU ", "gelu": "GeGLU ", "gelu_tanh": "GeGLU（tanh 形式）",
             "relu": "ReGLU ", "identity": "双线性"}
"""A gated feed-forward's name by its gate's activation, as in
:data:`engine.scenario.names.GATED_NAMES`."""


def norm_name(norm: str, lang: str) -> str:
    """The display name of a ``block.norm`` option in ``lang`` (``"none"`` → ``"no norm"``)."""
    return _NORM_NAMES[check_language(lang)].get(norm, norm)


@dataclass(frozen=True)
class _Options:
    """What a title may depend on, taken from the scenario."""

    causal: bool
    scale: bool
    wo: bool
    norm: str
    activation: str
    embedding_scale: str
    """The stack's ``embedding_scale`` as written (empty without one)."""
    adds_positions: bool
    """Whether the step reads position rows (the sum of an embedding's rows)."""
    ablated: str = ""
    """The ablated heads, 1-based and joined (empty when none is)."""
    softcap: str = ""
    """The head's soft cap c as written (empty without one)."""
    score_cap: str = ""
    """The attention's soft cap of its scores as written (empty without one)."""
    qk_all: bool = False
    """Whether the attention's QK-norm spans all heads' columns together (OLMo 2)."""
    shared: bool = False
    """Whether the block's mixture of experts has a shared expert."""
    scale_dk: str = ""
    """The attention's number under the scores' root as written (empty: d_k)."""
    rope_base: str = ""
    """The attention's own RoPE base as written (empty: the stack's)."""


def _options(scenario: Scenario, step: Step, lang: str) -> _Options:
    """The options of the step's own modules (its layer's, its cross-attention's …)."""
    modules = modules_of(scenario, step)
    a, block = modules.attention, modules.block
    norm = norm_name(modules.norm, lang) if block is not None or modules.norm != "none" else ""
    activation = ""
    if block is not None:
        ffn = block.feed_forwards[0]
        names = _ZH_GATED if ffn.Wg is not None else _ZH_ACTIVATIONS
        activation = names.get(ffn.activation, ffn.activation + " ")
    owner = scenario.encoder if step.stack == "encoder" else scenario
    scale = owner.embedding_scale if owner is not None else None
    return _Options(causal=a.causal, scale=a.scale, wo=a.Wo is not None, norm=norm,
                    activation=activation,
                    embedding_scale=format_exact(scale) if scale is not None else "",
                    adds_positions=any(name.endswith("positions") for name in step.reads),
                    ablated="、".join(str(head + 1) for head in sorted(a.ablate_heads)),
                    softcap=format_exact(cap) if (cap := _cap(scenario)) is not None else "",
                    score_cap=format_exact(a.softcap) if a.softcap is not None else "",
                    qk_all=a.qk_norm_over == "all_heads",
                    shared=block is not None and isinstance(block.ffn, Mixture)
                    and block.ffn.shared is not None,
                    scale_dk=format_exact(a.scale_dk) if a.scale_dk is not None else "",
                    rope_base=format_exact(a.rope_base) if a.rope_base is not None else "")


def _cap(scenario: Scenario) -> float | None:
    """The head's soft cap of the logits, if it has one."""
    return scenario.head.softcap if scenario.head is not None else None


_Builder = Callable[[_Options], str]

_ZH: dict[str, _Builder] = {
    "input.embed": lambda o: "用 Token 编号查嵌入表中的行" + (
        f"，再乘以 {o.embedding_scale}" if o.embedding_scale else ""),
    "input.types": lambda o: ("嵌入相加：词元行 + 位置行 + 类型行" if o.adds_positions
                              else "词元类型：每个词元的类型行加上去"),
    "input.embedding_norm": lambda o: f"嵌入规范化（{o.norm}）：输出就是 X",
    "attention.inputs": lambda o: "一份输入，三张参数表",
    "attention.projections": lambda o: "Q、K、V：每个位置各得一行投影",
    "attention.qk_norm": lambda o: f"QK 规范化（{o.norm}）：" + (
        "所有头的 q 一起规范化，k 也一样" if o.qk_all else "每个头的 q 和 k 各自规范化"),
    "attention.scores": lambda o: "分数 q·k" + (
        "" if not o.scale else f"，再除以 √{o.scale_dk}" if o.scale_dk else "，再除以 √dₖ") + (
        f"，再软截断：{o.score_cap} · tanh(s / {o.score_cap})" if o.score_cap else ""),
    "attention.weights": lambda o: "因果掩码与 softmax 份额" if o.causal else "softmax 份额",
    "attention.mix": lambda o: "按份额混合 V" + ("，再乘 Wo" if o.wo else "") + (
        f"；已消融（输出为 0）：第 {o.ablated} 个头" if o.ablated else ""),
    "block.norm1": lambda o: f"输入规范化（{o.norm}），逐行进行",
    "block.resid1": lambda o: "第一次残差：X 加注意力输出",
    "block.norm2": lambda o: f"前馈之前的第二次规范化（{o.norm}）",
    "block.ffn": lambda o: f"前馈网络：{o.activation}隐藏单元，再回到宽度 d",
    "block.resid2": lambda o: "第二次残差：主干加前馈输出",
    "block.router": lambda o: "路由器：每个词元选出的专家",
    "block.experts": lambda o: ("专家：选中的前馈网络与带门控的共享专家，相加" if o.shared
                                else "专家：选中的前馈网络，加权求和"),
    "block.norm2_parallel": lambda o: f"第二次规范化（{o.norm}）：与注意力并列，对本层的输入做，"
                                      "供前馈读取",
    "block.resid_parallel": lambda o: "并行残差：本层的输入加注意力输出和前馈输出",
    "block.norm1_post": lambda o: f"后置规范化（{o.norm}）：作用于第一次残差",
    "block.resid2_post": lambda o: "第二次残差：规范化后的主干加前馈输出",
    "block.norm2_post": lambda o: f"后置规范化（{o.norm}）：作用于第二次残差",
    "block.norm3": lambda o: f"注意力输出的规范化（{o.norm}），在残差之前",
    "block.norm4": lambda o: f"前馈输出的规范化（{o.norm}），在残差之前",
    "positions.rope": lambda o: "RoPE：q 和 k 的每一对列按位置转过 p·θ" + (
        f"，θ 取自本层的基数 {o.rope_base}" if o.rope_base else ""),
    "block.final_norm": lambda o: f"词表头之前的最终规范化（{o.norm}）",
    "head.transform": lambda o: "掩码语言模型的变换：全连接、激活，再 LayerNorm",
    "block.logits": lambda o: "词表分数（logits）：每个词表项一个分数",
    "block.softcap": lambda o: f"软截断：{o.softcap} · tanh(logits / {o.softcap})",
    "block.probs": lambda o: "概率：对 logits 做 softmax",
    "block.loss": lambda o: "损失：每个位置同时算 −ln p(目标)",
    "block.sample": lambda o: "下一个 Token：温度、top-k、top-p 与抽取",
    "block.cross_norm": lambda o: f"交叉注意力之前的规范化（{o.norm}）",
    "block.cross_resid": lambda o: "交叉残差：主干加交叉注意力输出",
    "block.cross_norm_post": lambda o: f"后置规范化（{o.norm}）：作用于交叉残差",
    "cross_attention.projections": lambda o: "Q 来自解码器的行，K 和 V 来自编码器的记忆",
    "encoder.final_norm": lambda o: f"编码器的最终规范化（{o.norm}）",
}
_ZH_BY_OP: dict[str, str] = {
    "positions": "位置：每个位置的行加到词元行上",
}
"""Titles of steps whose ``explain_key`` has none above, by op."""


def step_title(step: Step, scenario: Scenario, lang: str) -> str:
    """The title of ``step`` in ``lang``, reflecting the scenario's options.

    A step inside a layer starts with the layer (``Layer 2 · Scores q·k …``, ``第 2 层 · …``),
    in place of the engine's ``Layer 2: `` label.
    The title is chosen by the step's ``explain_key`` (which tells pre-norm from post-norm
    steps) and completed from the scenario: norm kind, causal mask, √d_k scaling, Wo, and the
    feed-forward activation. The shares step names a window and a key mask besides the causal
    mask. A step the texts do not know keeps the engine's English title.

    Raises
    ------
    ValueError
        If ``lang`` is not supported.
    """
    layer = layer_name(step, lang)
    prefix = f"{layer} · " if layer else ""
    title = step.title.partition(": ")[2] if layer and ": " in step.title else step.title
    key = step.explain_key
    if key.endswith("attention.weights"):
        attention = modules_of(scenario, step).attention
        if beyond_causal(attention):
            named = shares_title(attention).words(lang)
            return prefix + named[:1].upper() + named[1:]
    if check_language(lang) == "en":
        return prefix + title
    builder = _ZH.get(key) or _ZH.get(key.replace("cross_attention.", "attention.", 1))
    if builder is None:
        return prefix + _ZH_BY_OP.get(step.op, title)
    return prefix + builder(_options(scenario, step, lang))
