"""Step titles in every language, built from the step and the scenario's options.

The English titles are the ones the engine sets in ``engine/trace.py``; each language is built
from the same options (norm kind, causal or not, scaled or not, Wo present, activation), so all
languages carry the same information.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.texts.model import check_language

if TYPE_CHECKING:
    from engine import Scenario, Step

_NORM_NAMES = {
    "en": {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm", "none": "no norm"},
    "zh": {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm", "none": "关闭"},
}
_ACTIVATIONS = {
    "en": {},  # the engine's title uses the option as written: relu, gelu, silu, identity
    "zh": {"relu": "ReLU ", "gelu": "GELU ", "silu": "SiLU ", "identity": "恒等"},
}


@dataclass(frozen=True)
class _Options:
    """What a title may depend on, taken from the scenario."""

    causal: bool
    scale: bool
    wo: bool
    norm: str
    activation: str


def _options(scenario: Scenario, lang: str) -> _Options:
    a = scenario.attention
    block = scenario.block
    norm = activation = ""
    if block is not None:
        norm = _NORM_NAMES[lang].get(block.norm, block.norm)
        act = block.ffn.activation
        activation = _ACTIVATIONS[lang].get(act, act + (" " if lang == "zh" else ""))
    return _Options(causal=a.causal, scale=a.scale, wo=a.Wo is not None, norm=norm,
                    activation=activation)


_Builder = Callable[[_Options], str]

_EN: dict[str, _Builder] = {
    "input.embed": lambda o: "Token ids look up rows of the embedding table",
    "attention.inputs": lambda o: "One input, three parameter paths",
    "attention.projections": lambda o: "Q, K and V: one projection row per position",
    "attention.scores": lambda o: "Scores q·k" + (", divided by √dₖ" if o.scale else ""),
    "attention.weights": lambda o: "Causal mask and softmax shares" if o.causal
    else "Softmax shares",
    "attention.mix": lambda o: "Mix of V by the shares" + (", then Wo" if o.wo else ""),
    "block.norm1": lambda o: f"Input norm ({o.norm}), row by row",
    "block.resid1": lambda o: "First residual: X plus the attention output",
    "block.norm2": lambda o: f"Second norm ({o.norm}) before the feed-forward",
    "block.ffn": lambda o: f"Feed-forward: {o.activation} hidden units, then back to d",
    "block.resid2": lambda o: "Second residual: the stream plus the feed-forward output",
    "block.norm1_post": lambda o: f"Post-norm ({o.norm}) of the first residual",
    "block.resid2_post": lambda o: "Second residual: the normed stream plus the feed-forward "
                                   "output",
    "block.norm2_post": lambda o: f"Post-norm ({o.norm}) of the second residual",
    "block.final_norm": lambda o: f"Final norm ({o.norm}) before the vocabulary head",
    "block.logits": lambda o: "Logits: one score per vocabulary entry",
    "block.probs": lambda o: "Probabilities: softmax of the logits",
}

_ZH: dict[str, _Builder] = {
    "input.embed": lambda o: "用 Token 编号查嵌入表中的行",
    "attention.inputs": lambda o: "一份输入，三张参数表",
    "attention.projections": lambda o: "Q、K、V：每个位置各得一行投影",
    "attention.scores": lambda o: "分数 q·k" + ("，再除以 √dₖ" if o.scale else ""),
    "attention.weights": lambda o: "因果掩码与 softmax 份额" if o.causal else "softmax 份额",
    "attention.mix": lambda o: "按份额混合 V" + ("，再乘 Wo" if o.wo else ""),
    "block.norm1": lambda o: f"输入规范化（{o.norm}），逐行进行",
    "block.resid1": lambda o: "第一次残差：X 加注意力输出",
    "block.norm2": lambda o: f"前馈之前的第二次规范化（{o.norm}）",
    "block.ffn": lambda o: f"前馈网络：{o.activation}隐藏单元，再回到宽度 d",
    "block.resid2": lambda o: "第二次残差：主干加前馈输出",
    "block.norm1_post": lambda o: f"后置规范化（{o.norm}）：作用于第一次残差",
    "block.resid2_post": lambda o: "第二次残差：规范化后的主干加前馈输出",
    "block.norm2_post": lambda o: f"后置规范化（{o.norm}）：作用于第二次残差",
    "block.final_norm": lambda o: f"词表头之前的最终规范化（{o.norm}）",
    "block.logits": lambda o: "Logits：每个词表项一个分数",
    "block.probs": lambda o: "概率：对 logits 做 softmax",
}

_BUILDERS: dict[str, dict[str, _Builder]] = {"en": _EN, "zh": _ZH}


def step_title(step: Step, scenario: Scenario, lang: str) -> str:
    """The title of ``step`` in ``lang``, reflecting the scenario's options.

    The title is chosen by the step's ``explain_key`` (which tells pre-norm from post-norm
    steps) and completed from the scenario: norm kind, causal mask, √d_k scaling, Wo, and the
    feed-forward activation. A step the texts do not know keeps the engine's English title.

    Raises
    ------
    ValueError
        If ``lang`` is not supported.
    """
    builder = _BUILDERS[check_language(lang)].get(step.explain_key)
    if builder is None:
        return step.title
    return builder(_options(scenario, lang))
