"""The norms of the attention's and the feed-forward's outputs (Gemma 2's ``gamma3``/``gamma4``)
have their own texts, titles and labels in both languages, not the input norm's."""

from __future__ import annotations

import pytest

from app.texts import step_text, step_title
from app.texts.step_labels import step_label
from engine import Trace, compute, parse_scenario
from tests.engine.v2_documents import document

WORDS = {("L1.norm3", "en"): ("The attention's output is normed row by row (RMSNorm) before the "
                              "first residual adds it to X.", "Norm (RMSNorm) of the attention's "
                              "output, before the residual", "norm3"),
         ("L1.norm3", "zh"): ("注意力的输出先逐行做 RMSNorm，第一次残差再把它加到 X 上。",
                              "注意力输出的规范化（RMSNorm），在残差之前", "规范化 3"),
         ("L1.norm4", "en"): ("The feed-forward's output is normed row by row (RMSNorm) before "
                              "the second residual adds it to the stream.", "Norm (RMSNorm) of "
                              "the feed-forward's output, before the residual", "norm4"),
         ("L1.norm4", "zh"): ("前馈的输出先逐行做 RMSNorm，第二次残差再把它加到主干上。",
                              "前馈输出的规范化（RMSNorm），在残差之前", "规范化 4")}


@pytest.fixture(scope="module")
def trace() -> Trace:
    return compute(parse_scenario(document(34, block_keys={"norm": "rmsnorm",
                                                           "gamma3": [1.5, 0.5, 2.0, 1.0],
                                                           "gamma4": [0.8, 1.2, 1.0, 0.4]})))


@pytest.mark.parametrize(("step_id", "lang"), WORDS)
def test_an_output_norm_says_what_it_norms(trace: Trace, step_id: str, lang: str) -> None:
    summary, title, label = WORDS[step_id, lang]
    step = trace.steps[trace.step_index(step_id)]
    text = step_text(trace, trace.step_index(step_id), lang)
    assert text.summary == summary
    assert step_title(step, trace.scenario, lang).endswith(" · " + title)
    assert step_label(step, lang) == label
    assert ("γ3" if step_id == "L1.norm3" else "γ4") in text.pitfalls


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_residuals_say_they_add_the_normed_outputs(trace: Trace, lang: str) -> None:
    first = step_text(trace, trace.step_index("L1.resid1"), lang)
    second = step_text(trace, trace.step_index("L1.resid2"), lang)
    assert first.how.startswith("resid1 = X + norm3")
    assert second.how.startswith("resid2 = resid1 + norm4")
    assert "attn_out" not in first.how and "ffn_out" not in second.how
    assert ("norm3" in first.summary and "norm4" in second.summary
            and "norm3" in first.check and "norm4" in second.check)
