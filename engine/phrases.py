"""The words around per-cell arithmetic, in English and Chinese (formulas themselves are symbols).

``phrase(lang, key, **fields)`` fills a ``str.format`` pattern; English is the default and the
command line's language.
"""

from __future__ import annotations

PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "embedding_row": "token “{token}” has id {tid}, so row {i} of X is row {tid} of the table",
        "typed_input": "typed input for “{token}”, feature {j}",
        "head_column": "column {c} belongs to head {head} of {heads}",
        "query_key": "query “{query}” against key “{key}”, head {head}",
        "mask_will_hide": "the causal mask hides key {j} from query {i}: its share will be 0",
        "masked_keys": "masked keys (after position {i}): {keys}",
        "masked_keys_any": "keys hidden from query {i}: {keys}",
        "mask_will_hide_any": "the mask hides key {j} from query {i}: its share will be 0",
        "hidden_share": "= 0 exactly: key {j} (“{token}”) is hidden from query {i} by the mask",
        "none_masked": "no key is masked in this row",
        "masked_share": "= 0 exactly: key {j} (“{token}”) comes after query {i} and is masked",
        "row_max": "s = scores[{h},{i},·], max over the visible keys = {top}",
        "one_key": "only one key is visible, so its share is 1 for lack of competition",
        "mix_note": "masked keys add nothing; column {c} is head {head}'s value column {local}",
        "no_wo": "no Wo: the output is the concatenated heads",
        "norm_off": "norm is off",
        "rms_stats": "x = {source}[{i},·]; mean(x²) = {ms}; ε = {eps}; γ[{j}] = {gamma}",
        "layer_stats": "x = {source}[{i},·]; row mean μ = {mean}; population variance σ² = {var}; "
                       "ε = {eps}; γ[{j}] = {gamma}; β[{j}] = {beta}",
        "relu": "ReLU keeps positive z and zeroes the rest",
        "gelu": "GELU(z) = z·Φ(z), Φ the normal distribution function (erf form)",
        "gelu_tanh": "GELU, tanh form: 0.5·z·(1 + tanh(√(2/π)·(z + 0.044715·z³)))",
        "silu": "SiLU(z) = z·σ(z)",
        "identity": "identity: no activation",
        "zeroed": " — this unit was zeroed",
        "vocab_entry": "vocabulary entry “{entry}”",
        "prob_row": "l = logits[{i},·], max = {top}; entry “{entry}” for position “{token}”",
        "terms": "… ({count} terms)",
    },
    "zh": {
        "embedding_row": "Token“{token}”的编号是 {tid}，所以 X 的第 {i} 行就是表中的第 {tid} 行",
        "typed_input": "为“{token}”输入的数，第 {j} 个特征",
        "head_column": "第 {c} 列属于第 {head} 个头（共 {heads} 个）",
        "query_key": "查询“{query}”对键“{key}”，第 {head} 个头",
        "mask_will_hide": "因果掩码对查询 {i} 挡住键 {j}：它的份额将是 0",
        "masked_keys": "被掩码的键（位置 {i} 之后）：{keys}",
        "masked_keys_any": "对查询 {i} 被挡住的键：{keys}",
        "mask_will_hide_any": "掩码对查询 {i} 挡住键 {j}：它的份额将是 0",
        "hidden_share": "= 0（精确）：键 {j}（“{token}”）被掩码对查询 {i} 挡住",
        "none_masked": "这一行没有被掩码的键",
        "masked_share": "= 0（精确）：键 {j}（“{token}”）排在查询 {i} 之后，被掩码挡住",
        "row_max": "s = scores[{h},{i},·]，可见键中的最大值 = {top}",
        "one_key": "只有一个键可见，没有竞争，所以它的份额是 1",
        "mix_note": "被掩码的键不参与；第 {c} 列是第 {head} 个头的第 {local} 个值列",
        "no_wo": "没有 Wo：输出就是各头拼接的结果",
        "norm_off": "规范化已关闭",
        "rms_stats": "x = {source}[{i},·]；mean(x²) = {ms}；ε = {eps}；γ[{j}] = {gamma}",
        "layer_stats": "x = {source}[{i},·]；行均值 μ = {mean}；总体方差 σ² = {var}；ε = {eps}；"
                       "γ[{j}] = {gamma}；β[{j}] = {beta}",
        "relu": "ReLU 保留正的 z，其余置 0",
        "gelu": "GELU(z) = z·Φ(z)，Φ 是标准正态分布函数（erf 形式）",
        "gelu_tanh": "GELU 的 tanh 形式：0.5·z·(1 + tanh(√(2/π)·(z + 0.044715·z³)))",
        "silu": "SiLU(z) = z·σ(z)",
        "identity": "恒等：不做激活",
        "zeroed": "——这个单元被置 0",
        "vocab_entry": "词表条目“{entry}”",
        "prob_row": "l = logits[{i},·]，最大值 = {top}；位置“{token}”的条目“{entry}”",
        "terms": "…（共 {count} 项）",
    },
}


def phrase(lang: str, key: str, /, **fields: object) -> str:
    """The phrase ``key`` in ``lang`` (English when ``lang`` is not known), fields filled in."""
    table = PHRASES.get(lang, PHRASES["en"])
    return table[key].format(**fields)
