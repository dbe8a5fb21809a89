"""The embedding steps (token rows × scale, + positions + type rows, the norm → X) are titled,
labelled, mapped and told in both languages, with the document's own numbers."""

from __future__ import annotations

from app.canvas.route_map import step_label as map_label
from app.texts import step_text
from app.texts.step_labels import step_label
from app.texts.titles import step_title
from engine import Trace, compute, parse_scenario
from tests.engine.test_engine_embedding_constructs import bert


def _trace() -> Trace:
    doc = bert()
    doc["embedding_scale"] = 2
    return compute(parse_scenario(doc))


def test_titles_labels_and_the_map_name_each_embedding_step() -> None:
    trace = _trace()
    embed, summed, norm = trace.steps[:3]
    s = trace.scenario
    assert step_title(embed, s, "en") == "Token ids look up rows of the embedding table, times 2"
    assert step_title(embed, s, "zh") == "用 Token 编号查嵌入表中的行，再乘以 2"
    assert step_title(summed, s, "zh") == "嵌入相加：词元行 + 位置行 + 类型行"
    assert step_title(norm, s, "en") == "Embedding norm (LayerNorm): its output is X"
    assert step_title(norm, s, "zh") == "嵌入规范化（LayerNorm）：输出就是 X"
    assert [step_label(step, "zh") for step in (embed, summed, norm)] == ["嵌入", "加类型",
                                                                          "嵌入规范化"]
    assert map_label(trace, summed, "en") == "+ positions + types"
    assert map_label(trace, norm, "en") == "embedding LayerNorm"
    assert map_label(trace, norm, "zh") == "嵌入 LayerNorm"


def test_the_texts_quote_the_documents_rows() -> None:
    trace = _trace()
    a = trace.arrays
    embed = step_text(trace, 0, "en")
    assert "multiplied by embedding_scale = 2" in embed.how
    assert embed.check.startswith("Divide “狗”'s row [")
    summed_en, summed_zh = step_text(trace, 1, "en"), step_text(trace, 1, "zh")
    assert summed_en.summary.endswith("embed_sum = token rows + P + T.")
    assert "(position 3, type 1)" in summed_en.how
    last = ", ".join(f"{v:.3f}".rstrip("0").rstrip(".").replace("-", "−")
                     for v in a["embed_sum"][3])
    assert summed_en.how.endswith(f"= [{last}].")
    assert "对“狗”（位置 3，类型 1）" in summed_zh.how
    norm_en, norm_zh = step_text(trace, 2, "en"), step_text(trace, 2, "zh")
    assert norm_en.summary.startswith("The summed rows embed_sum are normed row by row")
    assert "ε = 1×10⁻¹²" in norm_en.how
    assert norm_zh.summary.startswith("把相加后的行 embed_sum 逐行做 LayerNorm")
