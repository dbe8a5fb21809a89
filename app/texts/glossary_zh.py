"""简体中文术语表：每个术语 id 一条，以及文本中链接到各术语的词形。"""

from __future__ import annotations

from functools import cache

from app.texts.glossary_numbers import worked
from app.texts.model import GlossaryEntry


def _entry(term_id: str, term: str, definition: str, example: str) -> tuple[str, GlossaryEntry]:
    return term_id, GlossaryEntry(term=term, definition=definition, example=example,
                                  term_id=term_id)


@cache
def entries() -> dict[str, GlossaryEntry]:
    """Every entry by term id, built when first asked for (the generation terms' worked
    examples compute their numbers with the engine: not at start-up)."""
    return dict((
    _entry("Wq", "Wq（W_Q，查询投影）",
           "把每个输入行变成查询 q 的参数表：Q = X·Wq，它有 d 行，每个头 dₖ 列。",
           "F11 中“爱”的行 [1, −1] 乘 Wq = [[1, 1], [−1, 1]] 得到 q = [2, 0]。"),
    _entry("Wk", "Wk（W_K，键投影）",
           "把每个输入行变成键 k 的参数表：K = X·Wk，列数必须与 Wq 相同，q·k 才能成立。",
           "[1, −1] 乘 Wk = [[0.5, 0.5], [0.5, −0.5]] 得到 k = [0, 1]。"),
    _entry("Wv", "Wv（W_V，值投影）",
           "把每个输入行变成它要交出的内容 v 的参数表：V = X·Wv，宽度 dᵥ 可以不同于 dₖ。",
           "[1, −1] 乘 Wv = [[5, 10], [5, −10]] 得到 v = [0, 20]。"),
    _entry("Wo", "Wo（W_O，输出投影）",
           "把各头拼接后的输出变成残差所需宽度的参数表；它既不是份额，也不是词表头。",
           "两个宽度为 2 的头拼接成 4 个数，形状 4×6 的 Wo 再把它们变成 6 个数。"),
    _entry("QKV", "Query、Key、Value（Q、K、V）",
           "每个位置由同一输入算出的三行数：q 给各个键打分，k 接受打分，v 是被份额调配的内容。",
           "F11 中“爱”的 q = [2, 0]、k = [0, 1]、v = [0, 20]；它的 q 与“我”的键 [1, 0] 点积"
           "为 2。"),
    _entry("shares", "份额（softmax 的输出）",
           "一行注意力经 softmax 得到的数，非负、和为 1、每次输入都重新计算；不同于参数 W "
           "里的权重。",
           "F11 中“爱”的份额是 0.804（我）和 0.196（爱），0.804 + 0.196 = 1。"),
    _entry("I", "I（单位矩阵）",
           "对角线为 1、其余为 0 的方阵，乘上它数值不变。",
           "[3, −2]·[[1, 0], [0, 1]] = [3, −2]。"),
    _entry("Norm", "Norm（规范化）",
           "块内对每一行单独重新定标的函数（LayerNorm、RMSNorm 或关闭）；它不是概率归一化，"
           "输出可以为负，和也不必为 1。",
           "LayerNorm([1, 3]) = [−1, 1]，和是 0 而不是 1。"),
    _entry("LayerNorm", "LayerNorm（层规范化）",
           "减去该行均值，除以 √(方差 + ε)，再乘 γ、加 β。",
           "[1, 3] 的均值为 2、方差为 1，取 ε = 0、γ = 1、β = 0 时结果为 [−1, 1]。"),
    _entry("RMSNorm", "RMSNorm（均方根规范化）",
           "把该行除以均方根 √(平方的均值 + ε)，再乘 γ；不减均值，也没有 β。",
           "[1, 3] 的平方均值为 5，结果为 [1/√5, 3/√5] ≈ [0.447, 1.342]。"),
    _entry("gamma", "γ（缩放系数）",
           "Norm 之后逐特征相乘的一排可学习系数。",
           "γ = [2, 1] 时，LayerNorm([1, 3]) 变为 [−2, 1]。"),
    _entry("beta", "β（平移系数）",
           "LayerNorm 之后逐特征相加的一排可学习系数（RMSNorm 没有 β）。",
           "β = [0, 0.5] 时，LayerNorm([1, 3]) 变为 [−1, 1.5]。"),
    _entry("epsilon", "ε（稳定常数）",
           "人为设定、加在平方根内的小正数，防止常数行除以零；它不参与学习。",
           "G01 取 ε = 1e−5，LayerNorm([0, 2]) 得到 [−0.999995, 0.999995]，而不是恰好 [−1, 1]。"),
    _entry("pre-norm", "pre-norm（前置规范化）",
           "一种运算顺序：先 Norm，再进入子层，子层输出加回未规范化的输入，即 x + F(Norm(x))。",
           "G01 是 pre-norm：resid1 = X + 注意力(Norm(X))，X 的行 [0, 2] 原样参与相加。"),
    _entry("post-norm", "post-norm（后置规范化）",
           "一种运算顺序：先算子层并相加，再对和做 Norm，即 Norm(x + F(x))；它不是训练阶段。",
           "x = [1, 3]、F = 0 时，pre-norm 得 [1, 3]，post-norm 得 [−1, 1]（LayerNorm，ε = 0）。"),
    _entry("causal-mask", "因果掩码",
           "让每个位置看不到排在它后面的位置，指向未来的份额恰好为 0。",
           "两个位置时，“我”只看“我”（份额 1），“爱”可以看“我”和“爱”。"),
    _entry("residual", "残差",
           "把子层输出加回子层输入，让子层贡献一份改动，而不是替换整行。",
           "G01 中 [0, 2] + [−0.888377, 0.888377] = [−0.888377, 2.888377]。"),
    _entry("FFN", "FFN（前馈网络）",
           "逐行计算 act(x·W1 + b1)·W2 + b2，所有位置共用 W1、W2，位置之间不混合。",
           "ReLU([−1, 1]) = [0, 1]，再乘 W2 = 0.5·I 得到 [0, 0.5]。"),
    _entry("logits", "logits（词表分数）",
           "词表头给出的原始分数，每个词表项一个，可以是任意实数，不是概率。",
           "[−1, 1]·[[1, 0, −1], [0, 1, 0.5]] = [−1, 1, 1.5]。"),
    _entry("probabilities", "概率",
           "logits 经 softmax 得到的词表分布：非负，和为 1。",
           "logits [−1, 1, 1.5] 得到约 [0.049, 0.359, 0.592]。"),
    _entry("softmax", "softmax",
           "对每个数取 exp，再除以所有 exp 之和，把任意实数行变成非负、和为 1 且大小顺序不变的数。",
           "softmax([1.414, 0]) = [0.804, 0.196]；只有一个数时，结果总是 [1]。"),
    _entry("scale", "缩放 √dₖ",
           "把分数除以键宽度 dₖ 的平方根，使分数的典型大小不随宽度增大而膨胀。",
           "dₖ = 2 时，原始分数 2 变为 2 ÷ √2 = 1.414。"),
    _entry("heads", "多头与拼接",
           "多头注意力把 Q、K、V 的列分成几组，各组分别做注意力，再把结果拼接起来。",
           "两个宽度为 2 的头每个位置共给出 2 + 2 = 4 个数，再乘形状 4×6 的 Wo 得到 6 个数。"),
    _entry("embedding", "嵌入（Embedding）",
           "每个 Token 编号对应一行的可学习表；按编号查表，取出的行组成 X。",
           "编号 7、12、3 取出表中第 7、12、3 行（从 0 数起），组成 3 行的 X。"),
    _entry("RoPE", "RoPE（旋转位置编码）",
           "把 q 和 k 的每一对列按随位置增长的角度 p·θᵢ 转动，使 q·k 只取决于两个位置相距多远。",
           "rope 示例中同一行位于位置 0、1、2；转动后 scores[1, 0] = scores[2, 1] = 0.768"
           "（相距 1），scores[2, 0] = 0.282（相距 2）。"),
    _entry("positional-encoding", "位置编码",
           "只取决于位置的一组行（正弦或可学习），加到词元行上，使同一个词元在两个位置上成为"
           "两行不同的数。",
           "正弦位置编码取 d = 2：P[1] = [sin 1, cos 1] = [0.841, 0.540]，于是位置 1 上的词元行 "
           "[1, 0] 变为 [1.841, 0.540]。"),
    _entry("ALiBi", "ALiBi（线性偏置注意力）",
           "不加位置行，而是给每个分数加上随键往前的距离增长的惩罚 −斜率 · 距离，每个头一个"
           "斜率。",
           "2 个头时斜率为 2⁻⁴ = 0.0625 和 2⁻⁸ = 0.00390625；第 1 个头中往前 3 个位置的键得到"
           "偏置 −3 · 0.0625 = −0.1875。"),
    _entry("cross-attention", "交叉注意力",
           "查询来自解码器的行、键和值来自编码器输出（记忆）的注意力，份额因此是一张目标 × 源"
           "的表。",
           "编码器–解码器示例中份额是 2 × 3：“我”给“love”0.999283，给“I”0.000474，"
           "给“you”0.000243。"),
    _entry("encoder", "编码器",
           "不带因果掩码读取源词元的一组层，每一行都读所有行，最后几行（记忆）交给解码器的"
           "交叉注意力。",
           "编码器–解码器示例中，编码器里“I”这一行读全部 3 个源词元，份额为 0.894285、"
           "0.052857 和 0.052857。"),
    _entry("grouped-query", "分组查询注意力（GQA）",
           "几个查询头共用一个键/值头，所以 K 和 V 的列比 Q 少（只有一个键/值头时就是多查询"
           "注意力）。",
           "4 个宽度为 2 的查询头配 2 个键/值头：Q 有 8 列，K 和 V 只有 4 列；查询头 1、2 读"
           "键/值头 1，查询头 3、4 读键/值头 2。"),
    _entry("sliding-window", "滑动窗口",
           "每个查询只读到自己所在位置为止的最近 w 个键（i − j < w），一行读的键永远不超过 w 个。",
           "w = 2 且有因果掩码时，位置 4 只读键 3 和键 4，它给键 0 的份额恰好为 0。"),
    _entry("key-mask", "键掩码（key_mask）",
           "每个键一个标记，标为 0 的键（例如填充）不论分数多少，对每一行都被挡住。",
           "key_mask 为 [1, 1, 0, 1] 时，键 2 在每一行的份额都恰好为 0，每行其余份额之和仍为 1。"),
    _entry("ablation", "头消融（ablate_heads）",
           "把一个头的输出——拼接结果中属于它的那几列，在乘 Wo 之前——置为 0，再重算之后的一切，"
           "看这个头贡献了什么。",
           "ablate_heads 为 [1] 时，第 2 个头的混合结果在每一行都为 0，attn_out 只剩第 1 个头的"
           "列乘以 Wo 中对应的行（再加 bo）。"),
    _entry("QK-norm", "QK-norm（q、k 的规范化）",
           "在算分数之前，对每个头的 q 行和 k 行做一次 Norm（LayerNorm 或 RMSNorm），带可学习的 "
           "γ_q、γ_k，使分数不会无限增大。",
           "q = [3, 4]、γ_q = 1 时，RMSNorm 得 [3, 4] ÷ √12.5 = [0.849, 1.131]。"),
    _entry("KV-cache", "KV 缓存",
           "生成时保存下来的、之前各位置的键和值：在因果掩码下它们不会再变，所以每个新 Token "
           "只需算自己的 q、k、v，它对目前所有键的分数、份额和混合。",
           worked("KV-cache", "续写 {prompt}（continue 示例）时，缓存里是 {n} 个位置的 K（{K}）"
                  "和 V（{V}）；对“{new}”只算它自己这一行，它的 {keys} 个份额 {shares} 与把所有"
                  "位置重算一遍得到的相同。生成 {steps} 个 Token，用缓存要算 {cached} 行 K 和 V，"
                  "不用缓存要算 {full} 行。")),
    _entry("temperature", "温度",
           "采样时在 softmax 之前用来除 logits 的数 T：T < 1 让概率更集中，T > 1 让概率更平均，"
           "T = 0 就是贪心（全部概率给最大的 logit）；概率的大小次序始终不变。",
           worked("temperature", "logits {logits} 在 T = {T_plain} 时得 {plain}，T = {T_cold} "
                  "时得 {cold}，T = {T_hot} 时得 {hot}。")),
    _entry("top-k", "top-k 采样",
           "只保留概率最大的 k 个词表项，把它们的概率按比例放大到和为 1，再从中抽取；k = 1 就是"
           "贪心。",
           worked("top-k", "logits {logits} 的概率是 {probs}；k = {k} 时保留 {kept}，按比例"
                  "放大为 {shares}。")),
    _entry("top-p", "top-p（核）采样",
           "按概率从大到小，保留累计和至少达到 p 的最少几项，把它们按比例放大到和为 1，再从中"
           "抽取；p = 1 保留全部。",
           worked("top-p", "概率 {probs}、p = {p} 时：{short} 还不够，{mass} 达到了，所以保留 "
                  "{count} 项，按比例放大为 {shares}。")),
    _entry("cross-entropy", "交叉熵损失",
           "训练中一个位置的损失：模型给目标词的概率取 −ln；模型对它越有把握，损失越接近 0，"
           "越觉得它不可能，损失越大；一句话的损失是各位置的平均。",
           worked("cross-entropy", "在 training 示例中，“{token}”应预测“{target}”，它的概率"
                  "是 {p}：−ln {p} = {loss}；{n} 个位置的平均是 ({sum}) / {n} = {mean}。")),
    _entry("teacher-forcing", "教师强制（teacher forcing）",
           "训练时喂给每个位置的是句子里真实的前文，而不是模型自己的猜测，所以在因果掩码下，"
           "所有位置的预测和损失一次前向计算就能得到。",
           worked("teacher-forcing", "在 training 示例中，位置 0（“{first}”）预测的是"
                  "“{guess}”（概率 {guess_p}），位置 1 读到的却仍是真实的“{second}”：{n} 个"
                  "损失一次算出。生成时模型把自己的选择接回输入：从“{first}”开始，它给出 "
                  "{run}。")),
    _entry("attention-sink", "注意力汇聚（attention sink）",
           "每一行都把大量份额放在第一个键上的头：softmax 必须把一整份份额分出去，没有值得看的"
           "位置时，头就把它停放在那里（模型总览在每个头旁印出它在第一个键上的平均份额）。",
           "从一行 [0.80, 0.15, 0.05] 中去掉位置 0：其余的数除以 1 − 0.80 = 0.20，"
           "得到 [0.75, 0.25]。"),
    _entry("logit-lens", "逐层读出（logit lens）",
           "把两层之间的残差流送进模型自己的最终归一化和词表头，就像模型在那里停下：得到每一层"
           "对下一个词元的猜测（视图 → 逐层读出）；最后一层读出的就是模型本身的概率。",
           "某一行经词表头得到 logits [2, 1, 0]，softmax 后是 [0.665, 0.245, 0.090]：无论这一行"
           "来自哪一层，概率最大的词元都得 0.665。"),
))

FORMS: dict[str, tuple[str, ...]] = {
    "Wq": ("Wq", "W_Q", "查询投影"),
    "Wk": ("Wk", "W_K", "键投影"),
    "Wv": ("Wv", "W_V", "值投影"),
    "Wo": ("Wo", "W_O", "输出投影"),
    "QKV": ("Q/K/V", "Q、K、V", "QKV", "Query", "Key", "Value", "查询"),
    "shares": ("份额",),
    "I": ("单位矩阵",),
    "Norm": ("Norm", "规范化", "归一化"),
    "LayerNorm": ("LayerNorm", "层规范化", "层归一化"),
    "RMSNorm": ("RMSNorm", "均方根规范化"),
    "gamma": ("γ",),
    "beta": ("β",),
    "epsilon": ("ε",),
    "pre-norm": ("pre-norm", "前置规范化"),
    "post-norm": ("post-norm", "后置规范化"),
    "causal-mask": ("因果掩码", "掩码"),
    "residual": ("残差",),
    "FFN": ("FFN", "前馈网络", "前馈"),
    "logits": ("logit", "logits"),
    "probabilities": ("概率",),
    "softmax": ("softmax",),
    "scale": ("√dₖ",),
    "heads": ("多头", "注意力头", "拼接"),
    "embedding": ("嵌入表", "嵌入", "embedding"),
    "RoPE": ("RoPE", "旋转位置编码"),
    "positional-encoding": ("位置编码",),
    "ALiBi": ("ALiBi",),
    "cross-attention": ("交叉注意力",),
    "encoder": ("编码器",),
    "grouped-query": ("分组查询注意力", "多查询注意力"),
    "sliding-window": ("滑动窗口",),
    "key-mask": ("键掩码", "key_mask"),
    "ablation": ("头消融", "ablate_heads"),
    "QK-norm": ("QK-norm",),
    "KV-cache": ("KV 缓存", "KV缓存"),
    "temperature": ("温度",),
    "top-k": ("top-k",),
    "top-p": ("top-p", "核采样"),
    "cross-entropy": ("交叉熵", "损失"),
    "teacher-forcing": ("教师强制", "teacher forcing"),
    "attention-sink": ("注意力汇聚", "attention sink"),
    "logit-lens": ("逐层读出", "logit lens"),
}
"""链接到各术语的词形。全小写的词形不区分大小写，含大写字母的词形只按原样匹配。"""

BLOCKERS: tuple[str, ...] = ("概率归一化",)
"""包含某个词形却不应链接的短语（Norm 不是概率归一化）。"""
