"""What File → New from architecture says of each preset, in every language. Imports no Qt.

Each family has its menu entry (its name and a one-line note) and its document's title and note:
what makes the family what it is, and where the preset is smaller than the real model. A
preset's document holds the English title and note; the Chinese ones are found by its title
(:func:`app.texts.example_words.document_words`).
"""

from __future__ import annotations

from app.texts.model import check_language

PRESET_MENU: dict[str, dict[str, tuple[str, str]]] = {
    "gpt2": {"en": ("GPT-2", "learned positions, pre-norm LayerNorm, GELU, tied head"),
             "zh": ("GPT-2", "可学习的位置表、前置 LayerNorm、GELU、共享权重的输出头")},
    "llama": {"en": ("Llama", "RoPE, RMSNorm, SwiGLU gate, no biases"),
              "zh": ("Llama", "RoPE、RMSNorm、SwiGLU 门控、没有偏置")},
    "mistral": {"en": ("Mistral", "Llama with grouped K/V heads and a sliding window"),
                "zh": ("Mistral", "Llama 加上分组共享的 K/V 头和滑动窗口")},
    "mixtral": {"en": ("Mixtral", "Mistral's attention, a router choosing 2 of 4 experts"),
                "zh": ("Mixtral", "Mistral 的注意力，路由器从 4 个专家中选 2 个")},
    "qwen2_moe": {"en": ("Qwen2-MoE", "2 of 4 experts and a shared one behind a sigmoid gate"),
                  "zh": ("Qwen2-MoE", "从 4 个专家中选 2 个，另有一个经 sigmoid 门控的共享专家")},
    "qwen2": {"en": ("Qwen2", "Llama's blocks with q/k/v biases and grouped K/V heads"),
              "zh": ("Qwen2", "Llama 式的层，加上 q/k/v 偏置和分组共享的 K/V 头")},
    "gpt_neox": {"en": ("GPT-NeoX", "RoPE on part of each head, parallel residual"),
                 "zh": ("GPT-NeoX", "RoPE 只转每个头的一部分列，并行残差")},
    "bert": {"en": ("BERT", "an encoder: no causal mask, post-norm, GELU, fills a [MASK]"),
             "zh": ("BERT", "编码器：没有因果掩码，后置规范化，GELU，填出 [MASK]")},
}
"""Family → language → (name, one-line note) for the menu."""

_SIZES_EN = ("Tiny and seeded, not trained: d = 8, 2 heads of 4, 2 layers, a feed-forward "
             "12 wide, the chapter's 7 words, weights rounded to 2 decimals.")
_SIZES_ZH = ("微型、随机生成而非训练所得：d = 8，2 个宽 4 的头，2 层，前馈宽 12，词表是本章的 7 个"
             "词，参数保留 2 位小数。")

PRESET_NOTES: dict[str, dict[str, tuple[str, str]]] = {
    "gpt2": {
        "en": ("GPT-2 · tiny preset", _SIZES_EN + " GPT-2 (2019) adds a learned row to each "
               "token's embedding for its position (a table of 8 rows here), normalises with "
               "LayerNorm before attention and before the feed-forward (pre-norm), uses GELU in "
               "its tanh form, biases everywhere, and a head tied to the embedding: the "
               "unembedding is the embedding table turned on its side."),
        "zh": ("GPT-2 · 微型预设", _SIZES_ZH + "GPT-2（2019）给每个 Token 的嵌入加上它所在位置的"
               "一行可学习向量（这里的位置表有 8 行），在注意力和前馈之前各做一次 LayerNorm"
               "（前置规范化），用 tanh 形式的 GELU，处处有偏置；输出头与嵌入共享权重：反嵌入"
               "矩阵就是嵌入表的转置。"),
    },
    "llama": {
        "en": ("Llama · tiny preset", _SIZES_EN + " Llama adds nothing to the embedding: RoPE "
               "turns each head's q and k by p·θ after the projection (all 4 columns, 2 pairs, "
               "base 10000), so scores depend on the distance. RMSNorm divides by the root mean "
               "square and has no shift; the feed-forward is SwiGLU, silu(x·Wg) times x·W1, "
               "a gate; no layer has a bias; the head has its own weights."),
        "zh": ("Llama · 微型预设", _SIZES_ZH + "Llama 不给嵌入加任何东西：投影之后，RoPE 把每个"
               "头的 q 和 k 转过 p·θ（全部 4 列，2 对，base 10000），于是分数取决于距离。"
               "RMSNorm 除以均方根，没有平移项；前馈是 SwiGLU：silu(x·Wg) 乘以 x·W1，是一道门；"
               "没有一层带偏置；输出头有自己的参数。"),
    },
    "mistral": {
        "en": ("Mistral · tiny preset", _SIZES_EN + " Mistral 7B is Llama's block with two "
               "changes. Grouped-query attention: 2 query heads share 1 head of K and V, so the "
               "KV cache is half as large. A sliding window: query i sees key j only when "
               "i − j < 2 here (4096 in the real model), so the cells beyond it are masked even "
               "where the causal mask would allow them; later layers still reach further."),
        "zh": ("Mistral · 微型预设", _SIZES_ZH + "Mistral 7B 是 Llama 的层加两处改动。分组查询"
               "注意力：2 个查询头共用 1 个 K/V 头，KV 缓存只有一半大。滑动窗口：只有当 "
               "i − j < 2 时查询 i 才看得到键 j（真实模型是 4096），所以窗口之外的格子即使因果"
               "掩码允许也被遮住；后面的层仍能间接读到更远的位置。"),
    },
    "mixtral": {
        "en": ("Mixtral · tiny preset", _SIZES_EN + " Mixtral 8x7B is Mistral's layer with a "
               "mixture of experts in place of the feed-forward: 4 SwiGLU experts here (8 in "
               "the real model). A router scores each token against every expert (x · W_r), "
               "turns the scores into shares with a softmax, keeps the 2 largest, divides them "
               "by their sum, and adds the 2 chosen experts' outputs in those proportions; the "
               "other experts do not run for that token. RoPE base 1000000, 1 K/V head."),
        "zh": ("Mixtral · 微型预设", _SIZES_ZH + "Mixtral 8x7B 是 Mistral 的层，只是把前馈换成"
               "专家混合：这里有 4 个 SwiGLU 专家（真实模型有 8 个）。路由器给每个词元与每个专家"
               "打分（x · W_r），用 softmax 变成份额，保留最大的 2 个，除以它们的和，再按这个比例"
               "把两个被选中专家的输出加起来；其他专家不为这个词元运行。RoPE base 1000000，"
               "1 个 K/V 头。"),
    },
    "qwen2_moe": {
        "en": ("Qwen2-MoE · tiny preset", _SIZES_EN + " Qwen1.5-MoE and Qwen2-57B-A14B keep "
               "Qwen2's attention (q/k/v biases, 1 K/V head here) and replace the feed-forward "
               "with a mixture: a router keeps each token's 2 largest shares of 4 experts (60 "
               "or 64 in the real models) as they are, without dividing by their sum. Beside "
               "them a shared expert runs for every token; its output is multiplied by "
               "σ(x · w_g), a gate between 0 and 1 computed from the token's own row, and "
               "added to the chosen experts' weighted sum. RoPE base 1000000."),
        "zh": ("Qwen2-MoE · 微型预设", _SIZES_ZH + "Qwen1.5-MoE 和 Qwen2-57B-A14B 保留 Qwen2 "
               "的注意力（q/k/v 偏置，这里 1 个 K/V 头），把前馈换成专家混合：路由器为每个词元"
               "保留 4 个专家（真实模型有 60 或 64 个）中最大的 2 个份额，原样作为权重，不除以"
               "它们的和。此外还有一个共享专家对每个词元都运行；它的输出乘以 σ(x · w_g)——由"
               "词元自己的行算出的、介于 0 和 1 之间的门控——再加到选中专家的加权和上。"
               "RoPE base 1000000。"),
    },
    "qwen2": {
        "en": ("Qwen2 · tiny preset", _SIZES_EN + " Qwen2 keeps Llama's RMSNorm, SwiGLU and "
               "RoPE (base 1000000, so the slow pair hardly turns) but gives q, k and v a bias "
               "(and o none), shares 1 head of K and V between its 2 query heads, and, as its "
               "small models do, ties the head to the embedding."),
        "zh": ("Qwen2 · 微型预设", _SIZES_ZH + "Qwen2 保留 Llama 的 RMSNorm、SwiGLU 和 RoPE"
               "（base 1000000，慢的那一对几乎不转），但给 q、k、v 加上偏置（o 没有），2 个查询头"
               "共用 1 个 K/V 头，并像它的小模型那样让输出头与嵌入共享权重。"),
    },
    "gpt_neox": {
        "en": ("GPT-NeoX · tiny preset", _SIZES_EN + " GPT-NeoX (Pythia) turns only part of "
               "each head with RoPE: here 2 of its 4 columns (a quarter in Pythia), the rest "
               "pass unturned. Its residual is parallel: attention and the feed-forward both "
               "read the layer's input, each through its own LayerNorm, and both outputs are "
               "added to it at once: x + attn(norm₁ x) + ffn(norm₂ x). GELU in its erf form; "
               "the head has its own weights."),
        "zh": ("GPT-NeoX · 微型预设", _SIZES_ZH + "GPT-NeoX（Pythia）的 RoPE 只转每个头的一部分"
               "列：这里是 4 列中的 2 列（Pythia 是四分之一），其余列不转。它的残差是并行的："
               "注意力和前馈都读本层的输入，各经自己的 LayerNorm，两者的输出一起加回去："
               "x + attn(norm₁ x) + ffn(norm₂ x)。GELU 用 erf 形式；输出头有自己的参数。"),
    },
    "bert": {
        "en": ("BERT · tiny preset", _SIZES_EN + " BERT is an encoder: no causal mask, every "
               "token reads every other, before and after, so it does not predict the next "
               "token and does not generate. Post-norm: LayerNorm comes after each residual "
               "sum, so there is no final norm. GELU in its erf form, learned positions, "
               "biases everywhere. It reads 我 [MASK] 你 。 and ends, as BertForMaskedLM does, "
               "with the masked-language-model head: a dense layer, GELU and LayerNorm, then "
               "the embedding table turned on its side plus a bias of its own. Its last step "
               "fills the blank: the most probable word at [MASK], guessed from both sides. "
               "Missing here: BERT's token types (segment A/B rows) and the LayerNorm of the "
               "embedding sum (the bert example has both)."),
        "zh": ("BERT · 微型预设", _SIZES_ZH + "BERT 是编码器：没有因果掩码，每个 Token 都读所有"
               "其他 Token，前面的和后面的都读，所以它不预测下一个 Token，也不生成。后置规范化："
               "LayerNorm 放在每次残差相加之后，所以没有最终的 Norm。GELU 用 erf 形式，位置表"
               "可学习，处处有偏置。它读“我 [MASK] 你 。”，像 BertForMaskedLM 一样以掩码语言模型的"
               "输出头结束：一个全连接层、GELU 和 LayerNorm，再乘以嵌入表的转置，加上它自己的"
               "偏置。最后一步是填空：从两侧猜出 [MASK] 处最可能的词。这里缺少的：BERT 的 "
               "Token 类型（A/B 句段的行）和对嵌入之和的 LayerNorm（bert 示例两者都有）。"),
    },
}
"""Family → language → (document title, note)."""

PRESET_DOCUMENT_WORDS: dict[str, tuple[str, str]] = {
    words["en"][0]: words["zh"] for words in PRESET_NOTES.values()}
"""A preset's English title → its title and note in Chinese."""


def preset_label(name: str, lang: str) -> str:
    """``GPT-2 — learned positions, …``: the preset's menu entry in ``lang``."""
    family, note = PRESET_MENU[name][check_language(lang)]
    return f"{family} — {note}"


def preset_note(name: str) -> str:
    """The preset's English note, as its document holds it."""
    return PRESET_NOTES[name]["en"][1]
