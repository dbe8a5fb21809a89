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
        "row_max": "s = {scores}[{h},{i},·], max over the visible keys = {top}",
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
        "router_max": "r = {logits}[{i},·], max over the experts = {top}",
        "expert_chosen": "one of the row's {k} largest shares: this expert is chosen",
        "expert_not_chosen": "not among the row's {k} largest shares: this expert does not run "
                             "for this token",
        "expert_rank": "choice {rank} of {k}, by share, largest first (equal shares in "
                       "torch.topk's order)",
        "expert_unnormalised": "normalize is false: the weight is the share itself",
        "expert_renormalised": "the {k} chosen shares divided by their sum: the weights sum to 1",
        "expert_output": "choice {rank} of this token: expert {e}'s feed-forward of its row",
        "experts_sum": "each chosen expert's output times its router weight, summed",
        "vocab_entry": "vocabulary entry “{entry}”",
        "prob_row": "l = logits[{i},·], max = {top}; entry “{entry}” for position “{token}”",
        "loss_row": "position {i} (“{token}”) should predict id {target} (“{entry}”): the "
                    "smaller its probability, the larger the loss",
        "loss_mean": "the mean over all {n} positions, computed at once in training",
        "draw_logit": "the logit of entry “{entry}” at the last position {i} (“{token}”), "
                      "the only row the next token is drawn from",
        "draw_tempered": "each logit divided by the temperature T = {t} (max = {top}) before "
                         "the softmax: T below 1 sharpens, above 1 flattens; entry “{entry}”",
        "draw_greedy": "temperature 0 is greedy: all the mass on the largest logit (“{entry}” "
                       "gets 1 if it is that one, else 0)",
        "draw_kept": "kept entry {rank} of {kept}, most probable first, after top-k and top-p: "
                     "“{entry}”, tempered probability {p}",
        "draw_cut": "“{entry}” was cut by top-k or top-p: it cannot be drawn",
        "draw_share": "“{entry}”'s tempered probability divided by the mass of the {kept} kept "
                      "entries: the kept shares sum to 1",
        "draw_chosen": "“{entry}”: the first kept entry whose running share passes one uniform "
                       "number of draw t = {t} with seed {seed}",
        "terms": "… ({count} terms)",
        "learned_row": "learned table: position {p} reads row offset + p = {offset} + {p} = {row}",
        "sinusoidal_column": "column {c} is pair i = {i}: even columns take the sine, odd the "
                             "cosine ({fn} here), of position {p}",
        "plus_position": "the row of “{token}” plus the row of position {p}",
        "plus_type": "the row of “{token}” plus the row of its type {t}",
        "plus_position_type": "the row of “{token}” plus the row of position {p} and the row of "
                              "its type {t}",
        "scaled_row": "token “{token}” has id {tid}: row {tid} of the table times "
                      "embedding_scale = {scale}",
        "type_row": "“{token}” at position {p} has type {t} (token_types[{p}]): row {t} of "
                    "type_table",
        "sinusoidal_halves": "column {c} is pair i = {i}: the first {sines} columns take the "
                             "sine, the rest the cosine ({fn} here), of position {p}",
        "alibi_default_mixed": "the paper's default for h = {h}, not a power of two: the slopes "
                               "of {m} heads 2^(−8k/{m}), then every other slope of {m2} heads",
        "rope_angle_cell": "position {p} times the frequency of pair {i}; later pairs turn "
                           "more slowly (r = {r})",
        "rope_kept": "column {local} of head {head} is past rotary_dims = {r}: not turned",
        "rope_pair": "pair {i}: columns {first} and {second} turn together in their plane "
                     "(head {head}, {pairing})",
        "pairing_half": "half pairing: i with i + r/2",
        "pairing_interleaved": "interleaved pairing: 2i with 2i + 1",
        "rope_turn": "angle p·{theta} = {angle} rad at position {p}; cos = {cos}, sin = {sin}",
        "alibi_default": "the default 2^(−8k/h) with k = {k}, h = {h}",
        "alibi_given": "given in the document",
        "alibi_slope": "head {head}'s slope is {slope} ({source}); farther keys lose more",
        "alibi_added": "the scaled q·k plus the distance bias of query {i} and key {j}",
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
        "row_max": "s = {scores}[{h},{i},·]，可见键中的最大值 = {top}",
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
        "router_max": "r = {logits}[{i},·]，各专家中的最大值 = {top}",
        "expert_chosen": "是这一行最大的 {k} 个份额之一：选中这个专家",
        "expert_not_chosen": "不在这一行最大的 {k} 个份额之中：这个词元不运行这个专家",
        "expert_rank": "第 {rank} 个选择（共 {k} 个）：这一行第 {rank} 大份额的专家（份额相等时按 "
                       "torch.topk 的次序）",
        "expert_unnormalised": "normalize 为 false：权重就是份额本身",
        "expert_renormalised": "选中的 {k} 个份额除以它们的和：权重之和为 1",
        "expert_output": "这个词元的第 {rank} 个选择：专家 {e} 的前馈网络作用于它这一行",
        "experts_sum": "每个被选中专家的输出乘以它的路由权重，再求和",
        "vocab_entry": "词表条目“{entry}”",
        "prob_row": "l = logits[{i},·]，最大值 = {top}；位置“{token}”的条目“{entry}”",
        "loss_row": "位置 {i}（“{token}”）应预测编号 {target}（“{entry}”）：它的概率越小，损失越大",
        "loss_mean": "全部 {n} 个位置的平均，训练时一次并行算出",
        "draw_logit": "条目“{entry}”在最后一个位置 {i}（“{token}”）的 logit：下一个 Token 只从"
                      "这一行抽取",
        "draw_tempered": "softmax 之前每个 logit 先除以温度 T = {t}（最大值 = {top}）：T 小于 1 "
                         "更尖锐，大于 1 更平坦；条目“{entry}”",
        "draw_greedy": "温度 0 即贪心：全部概率给最大的 logit（若“{entry}”就是它则为 1，否则为 0）",
        "draw_kept": "top-k 与 top-p 之后保留的 {kept} 个条目中按概率排第 {rank} 的：“{entry}”，"
                     "调温后的概率 {p}",
        "draw_cut": "“{entry}”被 top-k 或 top-p 截掉：不可能被抽中",
        "draw_share": "“{entry}”调温后的概率除以保留的 {kept} 个条目的总概率：保留的份额之和为 1",
        "draw_chosen": "“{entry}”：累计份额第一个超过第 t = {t} 次抽取（种子 {seed}）的均匀随机数"
                       "的保留条目",
        "terms": "…（共 {count} 项）",
        "learned_row": "可学位置表：位置 {p} 读第 偏移 + p = {offset} + {p} = {row} 行",
        "sinusoidal_column": "第 {c} 列属于第 i = {i} 对：偶数列取正弦，奇数列取余弦（这里是 "
                             "{fn}），自变量随位置 {p} 变化",
        "plus_position": "“{token}”的行加上位置 {p} 的行",
        "plus_type": "“{token}”的行加上它的类型 {t} 的行",
        "plus_position_type": "“{token}”的行加上位置 {p} 的行和它的类型 {t} 的行",
        "scaled_row": "Token“{token}”的编号是 {tid}：表中第 {tid} 行乘以 embedding_scale = {scale}",
        "type_row": "位置 {p} 的“{token}”类型是 {t}（token_types[{p}]）：type_table 的第 {t} 行",
        "sinusoidal_halves": "第 {c} 列属于第 i = {i} 对：前 {sines} 列取正弦，其余取余弦（这里是 "
                             "{fn}），自变量随位置 {p} 变化",
        "alibi_default_mixed": "论文对 h = {h}（不是 2 的幂）的默认值：先取 {m} 个头的斜率 "
                               "2^(−8k/{m})，再隔一个取 {m2} 个头的斜率",
        "rope_angle_cell": "位置 {p} 乘第 {i} 对的频率；越靠后的对转得越慢（r = {r}）",
        "rope_kept": "第 {head} 个头的第 {local} 列超出 rotary_dims = {r}：不旋转",
        "rope_pair": "第 {i} 对：第 {first} 列和第 {second} 列在同一平面里一起旋转"
                     "（第 {head} 个头，{pairing}）",
        "pairing_half": "前后半配对：i 与 i + r/2",
        "pairing_interleaved": "相邻配对：2i 与 2i + 1",
        "rope_turn": "位置 {p} 的角度 p·{theta} = {angle} 弧度；cos = {cos}，sin = {sin}",
        "alibi_default": "默认值 2^(−8k/h)，k = {k}，h = {h}",
        "alibi_given": "文档中给出",
        "alibi_slope": "第 {head} 个头的斜率是 {slope}（{source}）；键离得越远，扣得越多",
        "alibi_added": "缩放后的 q·k 加上查询 {i} 与键 {j} 之间的距离偏置",
    },
}


def phrase(lang: str, key: str, /, **fields: object) -> str:
    """The phrase ``key`` in ``lang`` (English when ``lang`` is not known), fields filled in."""
    table = PHRASES.get(lang, PHRASES["en"])
    return table[key].format(**fields)
