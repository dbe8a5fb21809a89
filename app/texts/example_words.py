"""Titles and one-line notes of the built-in examples, in every language. Imports no Qt.

File → Examples lists each example by its title with its note, in the interface language.
"""

from __future__ import annotations

from app.texts.model import check_language

EXAMPLE_WORDS: dict[str, dict[str, tuple[str, str]]] = {
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
