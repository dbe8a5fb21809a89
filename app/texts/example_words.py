"""Titles and one-line notes of the built-in examples, in every language. Imports no Qt.

File → Examples lists each example by its title with its note, in the interface language; a
built-in example's document (whose file holds its title and note in English) has its Chinese title
and note here too, found by its English title.
"""

from __future__ import annotations

from app.texts.model import check_language
from app.texts.preset_words import PRESET_DOCUMENT_WORDS

EXAMPLE_WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "bert": {
        "en": ("BERT's embeddings · two segments",
               "word × 2 + position + segment rows, then LayerNorm → X"),
        "zh": ("BERT 的嵌入 · 两个句段", "词行 × 2 + 位置行 + 句段行，再做 LayerNorm → X"),
    },
    "continue": {
        "en": ("Continue 我 爱 → 你 。", "greedy generation, one forward pass per new token"),
        "zh": ("续写 我 爱 → 你 。", "贪心生成：每个新 Token 一次前向计算"),
    },
    "encoder-decoder": {
        "en": ("Encoder–decoder · I love you → 我 爱",
               "2 target rows read 3 source rows (cross-attention)"),
        "zh": ("编码器–解码器 · I love you → 我 爱", "2 个目标行通过交叉注意力读取 3 个源行"),
    },
    "f11": {
        "en": ("F11 · Q/K/V on two positions",
               "the chapter's walk-through: 我 reads itself, 爱 reads both"),
        "zh": ("F11 · 两个位置上的 Q/K/V", "本章的逐步算例：“我”只读自己，“爱”两个都读"),
    },
    "g01": {
        "en": ("G01 · one decoder block", "pre-norm, from input rows to a three-word vocabulary"),
        "zh": ("G01 · 一个解码块", "pre-norm，从输入行一直算到三个词的词表"),
    },
    "multihead": {
        "en": ("Two heads joined, then Wo", "each head 2 wide, joined to 4, Wo 4×6 back to 6"),
        "zh": ("两个头拼接，再乘 Wo", "每个头 2 列，拼成 4 列，Wo 4×6 变回 6 列"),
    },
    "norms": {
        "en": ("LayerNorm vs RMSNorm", "the row [1, 3] under both norms, side by side"),
        "zh": ("LayerNorm 与 RMSNorm", "同一行 [1, 3] 在两种 Norm 下并排对照"),
    },
    "order": {
        "en": ("排除A，保留B · order needs positions",
               "swap A and B: with RoPE, A reads the other verb"),
        "zh": ("排除A，保留B · 次序要靠位置编码", "交换 A 与 B：有了 RoPE，A 读到的动词跟着变"),
    },
    "pronoun": {
        "en": ("Which word does “it” read?",
               "hand-set weights: “it” gives “animal” the largest share"),
        "zh": ("“it”读的是哪个词？", "手工设定的参数，让“it”把最大份额给“animal”"),
    },
    "rope": {
        "en": ("RoPE · one word at three positions",
               "q, k turned by p·θ: scores depend on distance only"),
        "zh": ("RoPE · 同一个词在三个位置", "q、k 按 p·θ 旋转：分数只取决于距离"),
    },
    "single-key": {
        "en": ("One visible key", "the first row's share is 1 whatever its score"),
        "zh": ("只有一个可见的键", "第一行的份额总是 1，与分数无关"),
    },
    "three-layers": {
        "en": ("Three layers, pre-norm", "three sets of weights: shares change layer by layer"),
        "zh": ("三层堆叠（pre-norm）", "同样的形状、三组不同的权重：份额逐层变化"),
    },
    "training": {
        "en": ("Training loss · every position at once",
               "targets shifted by one; unmasked, it copies"),
        "zh": ("训练损失 · 所有位置一次算出", "目标右移一位；去掉掩码，模型就抄答案"),
    },
    "tokenizer": {
        "en": ("Token ids and the embedding table",
               "ids 7, 12 and 3 pick three rows of the table to form X"),
        "zh": ("Token 编号与嵌入表", "编号 7、12、3 从表中取出三行，组成 X"),
    },
}
"""Example name → language → (title, note)."""


def example_title(name: str, lang: str) -> str:
    """The example's title in ``lang`` (its file name if it has none)."""
    words = EXAMPLE_WORDS.get(name)
    return words[check_language(lang)][0] if words else name


def example_label(name: str, lang: str) -> str:
    """``title — note``: one line for a menu."""
    words = EXAMPLE_WORDS.get(name)
    if words is None:
        return name
    title, note = words[check_language(lang)]
    return f"{title} — {note}"


DOCUMENT_WORDS: dict[str, tuple[str, str]] = {
    "Continue a sentence: 我 爱 → 你 。": (  # continue
        "续写一句话：我 爱 → 你 。",
        "参数是手工设定的，不是训练出来的。词表是本章的七个词；嵌入表给每个词一个自己的特征。"
        "前馈网络记着哪个词后面跟哪个词（W2：我→爱、爱→你、你→。、。→我、检查→路径、路径→过滤、"
        "过滤→。）；带 RoPE 的因果注意力把到目前为止的词按一半的分量混进来，越近的越多；输出头把"
        "主干读成 logits。贪心生成先接上“你”，再接上“。”（qkv-studio generate continue --steps 2 "
        "--temperature 0），每个新 Token 一次前向计算，之前的键和值留在 KV 缓存里。温度 0.7 时，"
        "预定的词概率仍至少为 0.98。把 token_ids 改成 [4]（检查），它就续写出 路径 过滤 。"),
    "Encoder–decoder · I love you → 我 爱": (  # encoder-decoder
        "编码器–解码器 · I love you → 我 爱",
        "手工设定参数的 2017 年 Transformer 缩微版：一层编码器读源句 I love you；"
        "解码器带因果掩码读 <s> 我，再用交叉注意力读编码器的记忆：<s> 读 I，预测“我”；"
        "“我”读 love，预测“爱”。"
        "后置规范化（post-norm）的 LayerNorm，ReLU 前馈，d = 4。交叉注意力的份额是 2 × 3："
        "每个目标词元一行，每个源词元一列。"),
    "F11 · Q/K/V on two positions": (  # f11
        "F11 · 两个位置上的 Q/K/V",
        "本章两个位置的算例：一个输入 X、三张参数表，带因果掩码并做缩放。第一个位置只看得到"
        "自己；第二个位置两个都读。"),
    "G01 · a two-position decoder, from input to vocabulary": (  # g01
        "G01 · 两个位置的解码器，从输入算到词表",
        "本章的单层前置规范化（pre-norm）解码器：LayerNorm（ε = 1e-5，γ = 1，β = 0）、"
        "恒等投影、因果注意力、前馈 0.5·ReLU、最终 LayerNorm，以及三个词的词表头。"),
    "Two heads of width 2, concatenated to 4, Wo 4×6": (  # multihead
        "两个宽度为 2 的头，拼成 4 列，再乘 4×6 的 Wo",
        "本章讲形状的算例：每个头输出 2 个数，拼接后共 4 个，形状 4×6 的 Wo 再把它变回模型"
        "宽度 6。"),
    "LayerNorm vs RMSNorm on [1, 3]": (  # norms
        "[1, 3] 上的 LayerNorm 与 RMSNorm",
        "本章的小算例，ε 取 0：LayerNorm 得 [−1, 1]，RMSNorm 得 [1/√5, 3/√5]。切换 block.norm "
        "即可对照两者。"),
    "排除A，保留B · word order needs positions": (  # order
        "排除A，保留B · 词序要靠位置编码",
        "参数是手工设定的，不是训练出来的。四个特征：排除、保留、项目 A、项目 B。项目要找动词"
        "（Wq），两个动词都来应答（Wk），所以只看内容时，A 读“排除”和“保留”一样多。RoPE 按位置"
        "转动 q 和 k，使一个查询与它前面一个位置的键最匹配：A 读的是紧挨在它前面的动词。值表明"
        "读到的是哪个动词：第 0 列是排除，第 1 列是保留。交换 A 与 B，A 就改读“保留”；位置编码"
        "设为 none 时，不论次序如何，A 对两个动词读得一样多。"),
    "Which word does “it” read? A pronoun and its antecedent": (  # pronoun
        "“it”读的是哪个词？代词与它所指的词",
        "参数是手工设定的，不是训练出来的。每个词元的 4 个特征依次表示：有生命的名词、无生命的"
        "名词、代词、其他词。Wq 把代词特征变成寻找“有生命的名词”的查询，Wk 给“animal”这样的键"
        "（也给“street”一个较弱的），于是“it”把最大的份额给了“animal”。在因果掩码下，“it”看"
        "不到决定词义的“tired”。"),
    "RoPE · one word at three positions": (  # rope
        "RoPE · 同一个词在三个位置",
        "同一行放在位置 0、1、2 上，所以 RoPE 之前 Q 和 K 各行相同。RoPE 把每一对列转过角度 "
        "p·θ：第 0 对（第 0、2 列）每个位置转 1 弧度，第 1 对（第 1、3 列）转 0.1 弧度（base 取 "
        "100 而不是常用的 10000，好让慢的一对也看得出转动）。转动后的 q 和 k 给出的分数只取决于"
        "距离 i − j：scores[1,0] 等于 scores[2,1]。"),
    "One visible key: the share is 1 for lack of competition": (  # single-key
        "只有一个可见的键：没有竞争，份额就是 1",
        "有因果掩码时，第一个位置只看得到自己，所以不论分数多少，它的份额都恰好是 1。改动 Wq 或 "
        "Wk 中的任何数，第一行的份额都不会变。"),
    "Three layers, pre-norm": (  # three-layers
        "三层堆叠，前置规范化",
        "三个形状相同的前置规范化解码层（两个宽度为 2 的头，宽 6 的 GELU 前馈），每层有自己的"
        "参数（随机生成，保留一位小数），之后是最终 LayerNorm 和三个词的输出头。每一层读取前一"
        "层写下的主干：依次走过 L1、L2、L3，看最后一个词元的份额逐层变化。"),
    "Training: every position's loss at once": (  # training
        "训练：所有位置的损失一次算出",
        "参数是手工设定的，不是训练出来的。训练时整句话是已知的：输入是 我 爱 你 。，目标是同样的"
        "词右移一位（爱 你 。，句子结束后仍是 。），所以一次前向计算就同时得到全部 4 个损失 "
        "−log p(目标)。这样做之所以成立，全靠因果掩码：没有一个位置看得到自己要预测的词。生成时没有"
        "目标：每个新 Token 都要等前一个选定，各需一次前向计算。这个模型学会的是抄：它的查询行 "
        "[2.7, 4.2] 是键行 [5, 0] 转过 1 弧度（RoPE 一个位置的转角），所以它找的是后一个位置的键，"
        "Wv 再把那个词交出来。有掩码时它看不到后面，只能读自己、预测自己这个词：loss_mean 4.51。"
        "对照打开时 B 去掉了掩码：位置 i 读到了它要预测的答案，loss_mean 0.007，分数看似完美，"
        "可这个模型从“我”开始生成，只会重复“我”。"),
    "BERT's embeddings: word + position + segment rows, then LayerNorm": (  # bert
        "BERT 的嵌入：词行 + 位置行 + 句段行，再做 LayerNorm",
        "两个句段“我爱猫”和“它乖”：每个词元在表中的行乘以 2，加上它的位置行和句段行，再逐行规范化"
        "得到 X；一个非因果、后置规范化的层读取 X。"),
    "Token ids 7, 12, 3 looked up in an embedding table": (  # tokenizer
        "Token 编号 7、12、3 在嵌入表中查表",
        "一个教学用的分词器把“检查路径过滤”切成三个 Token，编号为 7、12、3；每个编号从嵌入表中"
        "取出一行，三行合起来就是 X。"),
}
"""A built-in example's English title (as its file has it) → its title and note in Chinese."""


def document_words(title: str, note: str, lang: str) -> tuple[str, str]:
    """A document's title and note in ``lang``: a built-in example's or a preset's in Chinese,
    found by its English ``title``; the document's own ``title`` and ``note`` otherwise."""
    if check_language(lang) == "zh":
        return DOCUMENT_WORDS.get(title) or PRESET_DOCUMENT_WORDS.get(title) or (title, note)
    return title, note
