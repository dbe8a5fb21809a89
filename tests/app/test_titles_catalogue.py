"""Step titles and timeline labels come from the catalogue in every language (ids
``title.<explain_key>``, ``label.<explain_key>``): the app's English title is the engine's own
(Step.title, filled from the same template) with its label turned into the prefix, each option a
title names reads the same in both languages, and a button's English label is the step's id."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.model.presets import PRESETS, preset
from app.texts import step_label, step_title
from app.texts.mask_plans import beyond_causal
from app.texts.scope import modules_of
from app.texts.words import CATALOGUES
from engine import Scenario, Step, compute, load_scenario, parse_scenario
from tests.app.generated_documents import EXAMPLES as SPECS
from tests.app.generated_documents import LayerSpec, Spec, build
from tests.examples import EXAMPLES


def _scenarios() -> Iterator[tuple[str, Scenario]]:
    for path in sorted(EXAMPLES.glob("*.qkv.json")):
        yield path.name, load_scenario(path)
    for name in PRESETS:
        yield name, preset(name)
    for k, spec in enumerate(SPECS):
        yield f"generated {k}", parse_scenario(build(spec))


def _engine_title(step: Step) -> str:
    """The engine's title without its label (``Layer 2: ``, ``Encoder: ``)."""
    labelled = bool(step.layer) or step.stack == "encoder"
    return step.title.partition(": ")[2] if labelled else step.title


def test_the_english_title_is_the_engines_and_every_language_has_one() -> None:
    steps, keys = 0, set()
    for name, scenario in _scenarios():
        trace = compute(scenario)
        for step in trace.steps:
            if step.explain_key.endswith("attention.weights") and \
                    beyond_causal(modules_of(scenario, step).attention):
                continue  # the app names the window and the key mask, the engine does not
            steps += 1
            keys.add(step.explain_key)
            english, chinese = (step_title(step, scenario, lang) for lang in ("en", "zh"))
            own = _engine_title(step)
            assert english == own or english.endswith(f" · {own}"), (name, step.id)
            assert chinese != english and not chinese.isascii(), (name, step.id)
    assert steps > 500
    titled = {word_id.removeprefix("title.") for word_id in CATALOGUES["en"]
              if word_id.startswith("title.") and "." in word_id.removeprefix("title.")}
    variants = {"input.summed", "attention.weights_causal", "attention.qk_norm_all",
                "block.experts_shared"}
    assert titled - keys == variants


def test_a_buttons_english_label_is_the_steps_id_and_its_chinese_label_differs() -> None:
    for name, scenario in _scenarios():
        for step in compute(scenario).steps:
            english, chinese = (step_label(step, lang) for lang in ("en", "zh"))
            own = step.id.removeprefix(step.scope).replace("_", " ")
            assert english in (own, f"cross-attention · {own}"), (name, step.id)
            assert chinese != english, (name, step.id)


def _titles(spec: Spec, step_id: str) -> tuple[str, str]:
    trace = compute(parse_scenario(build(spec)))
    step = trace.steps[trace.step_index(step_id)]
    return step_title(step, trace.scenario, "en"), step_title(step, trace.scenario, "zh")


@pytest.mark.parametrize(("spec", "step_id", "english", "chinese"), [
    (Spec(seed=5, n=3, positions="alibi", heads=2, layers=(LayerSpec(),)), "L1.scores",
     "Layer 1 · Scores q·k, divided by √dₖ, plus the position bias",
     "第 1 层 · 分数 q·k，再除以 √dₖ，再加上位置偏置"),
    (Spec(seed=1, n=3, positions="rope", layers=(LayerSpec(softcap=True, scale=False),)),
     "L1.scores", "Layer 1 · Scores q·k, then soft-capped: 0.5 · tanh(s / 0.5)",
     "第 1 层 · 分数 q·k，再软截断：0.5 · tanh(s / 0.5)"),
    (Spec(seed=3, n=3, positions="none", layers=(LayerSpec(experts=3),)), "L1.router",
     "Layer 1 · Router: each token's 2 of 3 experts",
     "第 1 层 · 路由器：每个词元从 3 个专家中选出 2 个"),
    (Spec(seed=2, n=3, positions="none", layers=(LayerSpec(activation="identity", gated=True),)),
     "L1.ffn", "Layer 1 · Feed-forward: bilinear hidden units, then back to d",
     "第 1 层 · 前馈网络：双线性隐藏单元，再回到宽度 d"),
    (Spec(seed=6, n=3, positions="rope",
          layers=(LayerSpec(norm="rmsnorm", qk_norm="rmsnorm", qk_all=True),)), "L1.qk_norm",
     "Layer 1 · QK-norm (RMSNorm) of all heads' queries and keys",
     "第 1 层 · QK 规范化（RMSNorm）：所有头的 q 一起规范化，k 也一样"),
    (Spec(seed=6, n=3, positions="rope", layers=(LayerSpec(scale_dk=True),)), "L1.scores",
     "Layer 1 · Scores q·k, divided by √3", "第 1 层 · 分数 q·k，再除以 √3"),
    (Spec(seed=6, n=3, positions="rope", layers=(LayerSpec(rope_base=True),)), "L1.rope",
     "Layer 1 · RoPE: each pair of q and k turned by p·θ, θ from this layer's base 100",
     "第 1 层 · RoPE：q 和 k 的每一对列按位置转过 p·θ，θ 取自本层的基数 100"),
    (Spec(seed=2, n=3, positions="none", layers=(LayerSpec(norm="none"),)), "L1.norm1",
     "Layer 1 · Input norm (no norm), row by row", "第 1 层 · 输入规范化（关闭），逐行进行"),
    (Spec(seed=8, n=3, source=2, positions="sinusoidal", layers=(LayerSpec(),)),
     "enc.final_norm", "Encoder · Final norm (LayerNorm)", "编码器 · 最终规范化（LayerNorm）"),
])
def test_a_titles_options_read_the_same_in_both_languages(spec: Spec, step_id: str, english: str,
                                                          chinese: str) -> None:
    assert _titles(spec, step_id) == (english, chinese)


def test_ablated_heads_are_listed_with_the_languages_separator() -> None:
    doc = build(Spec(seed=5, n=3, positions="none", heads=3, layers=(LayerSpec(),)))
    doc["layers"][0]["attention"]["ablate_heads"] = [2, 0]
    trace = compute(parse_scenario(doc))
    step = trace.steps[trace.step_index("L1.mix")]
    assert step.title == "Layer 1: Mix of V by the shares, then Wo; ablated (output 0): heads 1, 3"
    assert step_title(step, trace.scenario, "zh") == \
        "第 1 层 · 按份额混合 V，再乘 Wo；已消融（输出为 0）：第 1、3 个头"
