"""简体中文步骤讲解：按打开文档的 :class:`Facts` 逐句生成。

Simplified Chinese step texts, one builder per ``explain_key``, saying only what is true of the
open document, with its own tokens and numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.texts.facts import Facts, NormFacts
from app.texts.model import StepText

NORMS = {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm", "none": "关闭的 Norm"}
ACTIVATIONS = {"relu": "ReLU", "gelu": "GELU", "silu": "SiLU", "identity": "恒等函数",
               "gelu_tanh": "GELU（tanh 形式）"}


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    last = items[-1]
    spaced = not ("\u4e00" <= last[0] <= "\u9fff" or last[0] in "“（")
    return "、".join(items[:-1]) + (" 和 " if spaced else "和") + last


def _t(token: str) -> str:
    return f"“{token}”"


def _head(f: Facts) -> str:
    return f"（第 {f.head + 1} 个头，共 {f.heads} 个）" if f.heads > 1 else ""


def embed(f: Facts) -> StepText:
    ids = f.token_ids
    unused = f.unused_id
    check = (f"改动没有 Token 使用的第 {unused} 行，X 必须保持不变。" if unused is not None else
             f"改动第 {ids[0]} 行：只有编号为 {ids[0]} 的那些 X 行跟着变。")
    return StepText(
        summary=f"{f.n} 个 Token 编号各从嵌入表中取出一行，按顺序排起来就是 X。",
        why=f"编号只是标签，不是数量：拿编号 {ids[-1]} 去做乘法没有意义。查出一行可学习的数，"
            "每个 Token 才变成后续步骤能计算的数值。",
        how=f"X 的第 k 行就是嵌入表中下标等于第 k 个编号的那一行。这里编号 "
            f"{_and([str(i) for i in ids])} 从 {f.table_rows} 行的表中取出对应行（从 0 数起），"
            f"得到 {f.n}×{f.d} 的 X。",
        pitfalls=f"编号没有大小之分，{max(ids)} 并不比 {min(ids)}“多”。把文本切成"
                 f"{_and([_t(t) for t in f.tokens])}只是一种分词选择，别的分词器可能切在别处；"
                 "表中任何一列也没有固定的含义。",
        check=f"拿 X 的每一行对照它编号所指的表行：{_t(f.token)}（编号 {ids[f.receiver]}）两处"
              f"都是 {f.receiver_row(f.step.writes[0])}。{check}",
    )


def inputs(f: Facts) -> StepText:
    first = f"这里{_t(f.tokens[0])}是 {f.row(f.array('X')[0])}"
    if f.receiver != 0:
        first += f"，{_t(f.token)}是 {f.receiver_row('X')}"
    heads = f"有 {f.heads} 个头时，每张表的列分成 {f.heads} 组，每个头一组。" if f.heads > 1 else ""
    return StepText(
        summary=f"一份输入 X（{f.n}×{f.d}）遇上三张参数表 Wq、Wk、Wv；此时还没有任何打分。",
        why="注意力要用三种方式读同一批行：用来寻找、用来被找到、用来交出内容。三张表分开，"
            "每种读法才能各自学习。",
        how=f"X 的每一行代表一个位置：{first}。Wq、Wk、Wv 是已给定的系数表，各有 {f.d} 行，"
            "与 X 的列一一对应；下一步用 X 分别去乘这三张表。",
        pitfalls="Wq、Wk、Wv 是所有位置共用的参数，不是文字的另外三份拷贝；Q、K、V 才是由 X "
                 "算出来的结果。" + heads,
        check=f"数一数形状：X 是 {f.n}×{f.d}，Wq 与 Wk 是 {f.d}×{f.heads * f.d_k}，Wv 是 "
              f"{f.d}×{f.heads * f.d_v}。Wq 与 Wk 的列数必须相同，因为每个 q 都要与每个 k 做"
              "点积；列数不同的 Wk 会被程序拒绝。",
    )


def projections(f: Facts) -> StepText:
    src = f.source
    kv = f.kv_source
    bias = "，再加上偏置" if f.has_bias else ""
    if kv is None:
        formula = f"Q = {src}·Wq，K = {src}·Wk，V = {src}·Wv，每个数都是 {src} 的一行"
        rows = f"q = {f.scoped_row('Q')}、k = {f.scoped_row('K')}、v = {f.scoped_row('V')}。"
    else:  # K 与 V 的行属于编码器，一个键一行
        formula = f"Q = {src}·Wq，K = {kv}·Wk、V = {kv}·Wv 取自编码器的行，每个数都是一行"
        rows = (f"q = {f.scoped_row('Q')}；编码器中{_t(f.keys[0])}的行 "
                f"{f.row(f.array(kv)[0])} 得到 k = {f.key_row('K')}、v = {f.key_row('V')}。")
    return StepText(
        summary=f"{src} 的每一行分别乘 Wq、Wk、Wv，得到该位置的 q、k、v 三行。",
        why="同一行输入身兼三职：q 决定它去读谁，k 决定别人与它匹配得多好，v 是它要传出去的"
            "内容。分开投影，用来匹配的特征才能与被搬运的内容不同。",
        how=f"{formula}乘 W 的一列{bias}。这里{_t(f.token)}的行 {f.receiver_row(src)} 得到 "
            f"{rows}",
        pitfalls=f"这一步位置之间互不混合：Q 中{_t(f.token)}那一行只取决于 {src} 中同一行。"
                 "这三个名字只帮助记忆，q、k、v 都是普通的数行，不是问句、数据库的键或答案。",
        check=f"手算一个数：Q[{f.token}, 0] = {f.q0_terms} = "
              f"{f.num(f.scoped('Q')[f.receiver, 0])}。改动 Wv：只有 V 变化，Q 和 K 保持原样。",
    )


def scores(f: Facts) -> StepText:
    i = f.receiver
    keys = f.example_keys
    met = _and([f"{_t(f.keys[j])}的键 {f.row(f.k(j))}" for j in keys])
    raws = _and([f.num(f.raw_score(j)) for j in keys])
    j = keys[0]
    if f.scaled:
        summary = f"每个查询行与每个键行做点积，每个分数再除以 √dₖ = √{f.d_k}。"
        why = "除以 √dₖ 则让分数的典型大小不随 q、k 的宽度一起膨胀。"
        how = (f"scores[i, j] = q_i · k_j ÷ √dₖ。这里{_head(f)} dₖ = {f.d_k}，{_t(f.token)}"
               f"的查询 {f.row(f.q(i))} 对上{met}：原始值 {raws}，缩放后 "
               f"{_and([f.num(f.score(j)) for j in keys])}。")
        check = (f"核对一格：{_t(f.token)}对{_t(f.keys[j])}是 {f.score_terms(j)} = "
                 f"{f.num(f.raw_score(j))}，{f.num(f.raw_score(j))} ÷ √{f.d_k} = "
                 f"{f.num(f.score(j))}。关掉缩放：每个分数都乘上 √dₖ（此处为 {f.root_d_k}），"
                 "每行内部的大小顺序不变。")
    else:
        summary = "每个查询行与每个键行做点积；本文档关闭了缩放，点积本身就是分数。"
        why = f"缩放关闭时，分数的大小会随 q、k 的宽度增长（这里 dₖ = {f.d_k}）。"
        how = (f"scores[i, j] = q_i · k_j，不做除法。这里{_head(f)}{_t(f.token)}的查询 "
               f"{f.row(f.q(i))} 对上{met}：{raws}。")
        check = (f"核对一格：{_t(f.token)}对{_t(f.keys[j])}是 {f.score_terms(j)} = "
                 f"{f.num(f.score(j))}。打开缩放：每个分数都除以 √dₖ（此处为 {f.root_d_k}），"
                 "每行内部的大小顺序不变。")
    if not f.causal:
        later = "掩码关闭，表中每个分数（包括指向后面位置的）都参与下一步。"
    elif f.n > 1:
        later = "指向后面位置的分数也出现在表中，但因果掩码会让下一步把它排除。"
    else:
        later = "只有一个位置时，表中只有一个分数。"
    return StepText(
        summary=summary,
        why="一个位置要先知道自己与每个候选匹配得多好，才能决定各读多少。点积 q·k 给出这个数；"
            + why,
        how=how,
        pitfalls="分数不是概率：它可以为负，也可以大于 1，要到下一步才变成份额。" + later,
        check=check,
    )


def weights(f: Facts) -> StepText:
    visible = f.shown_visible
    more = " …" if len(visible) < len(f.visible) else ""
    exps = _and([f.num(e) for e in f.exps[:len(visible)]])
    shares = _and([f.num(f.share(j)) for j in visible])
    if f.causal:
        summary = "先去掉因果掩码挡住的键，再用 softmax 把每行分数变成非负且和为 1 的份额。"
        why = "生成文本时，一个位置也不该读到排在它后面的 Token，这件事交给因果掩码。"
        drop = "去掉被掩码挡住的键（后面的位置），"
    else:
        summary = (f"softmax 把每行分数变成非负且和为 1 的份额；没有掩码，每个位置都读全部 "
                   f"{len(f.keys)} 个。")
        why = "本文档关闭了因果掩码，每个位置都能读到所有位置，包括后面的，像编码器那样。"
        drop = ""
    if len(f.keys) == 1:
        single = "只有一个位置时，唯一的键独得份额 1，与分数高低无关。"
    elif f.causal:
        single = f"{_t(f.tokens[0])}只有一个可见的键，它独得份额 1，与分数高低无关。"
    else:
        single = "这里没有哪一行只剩一个可见的键，每个份额都来自真实的比较。"
    first = (f"开启掩码时{_t(f.tokens[0])}只看得到自己，无论怎样改 Wq、Wk，它的份额始终是 1。"
             if f.causal and f.n > 1 else "")
    how = (f"逐行处理：{drop}对剩下的分数取 exp(s − max)，再各自除以总和。{_t(f.token)}"
           f"{_head(f)}的 exp 值 {exps}{more} 合计 {f.num(sum(f.exps))}，得到份额 "
           f"{shares}{more}。")
    check = f"每行之和为 1（{_t(f.token)}：{f.share_sum}）。{first}改动 Wv，份额必须纹丝不动。"
    if len(f.visible) == 1:
        how = (f"逐行处理：对可见的分数取 exp(s − max)，再各自除以总和。{_t(f.token)}只看得到"
               "自己：exp(0) = 1，总和也是 1。")
        check = (f"{_t(f.token)}唯一的份额总是 1，与分数无关：改 Wq 或 Wk，它仍是 1。"
                 "改动 Wv，份额必须纹丝不动。")
    return StepText(
        summary=summary,
        why="要把 V 的各行调配到一起，每个位置需要一组非负、合起来正好一整份的比例，原始分数"
            "两条都做不到。" + why,
        how=how,
        pitfalls="份额随每次输入现算，不是参数 Wq、Wk、Wv 里的权重。份额大只说明这一步主要从哪里"
                 "取数，不能解释模型为何给出最终输出。" + single,
        check=check,
    )


def mix(f: Facts) -> StepText:
    visible = f.shown_visible
    terms = " + ".join(f"{f.num(f.share(j))}·{f.row(f.v(j))}" for j in visible)
    if len(visible) < len(f.visible):
        terms += " + …"
    if f.has_wo and f.heads > 1:
        after = (f"{f.heads} 个头各自混合自己的 {f.d_v} 列 V，结果拼接后由 Wo 变成 "
                 f"{f.scoped_row('attn_out')}。")
    elif f.has_wo:
        after = f"Wo 再把它变成 {f.scoped_row('attn_out')}。"
    elif f.heads > 1:
        after = (f"{f.heads} 个头各自混合自己的 {f.d_v} 列 V，结果并排拼接："
                 f"{f.scoped_row('mixed')}。")
    else:
        after = ""
    why = {(True, True): f"Wo 把拼接起来的 {f.heads} 个头变回模型其余部分使用的宽度 {f.d_out}。",
           (True, False): f"Wo 再把混合结果变成模型其余部分使用的宽度 {f.d_out}。",
           (False, True): f"没有 Wo，{f.heads} 个头的输出直接拼接，共 {f.heads * f.d_v} 列。",
           (False, False): "本文档没有 Wo，混合结果本身就是注意力输出。"}
    lo, mid, hi = f.mix_bounds
    return StepText(
        summary="每个位置的输出，是各行 V 乘上各自份额后的和"
                + ("；这个和再乘 Wo。" if f.has_wo else "。"),
        why="这是信息在位置之间流动的唯一一步：一个位置的新行由它所读位置的内容拼成。"
            + why[(f.has_wo, f.heads > 1)],
        how=f"mixed_i = Σ_j 份额_ij · v_j。这里{_t(f.token)}{_head(f)}得到 {terms} = "
            f"{f.row(f.mixed_head())}。{after}",
        pitfalls="份额只决定每行 V 取多少，从不改写 V 本身；输出是一行新的数，不是词表里的词，"
                 "也不是答案。" + ("Wo 是参数表，不是第二组份额。" if f.has_wo else ""),
        check="改动 Wv：份额不动，只有混合结果变化。" + ("乘 Wo 之前，" if f.has_wo else "")
              + f"每个混合数都落在同一列可见 V 的最小值与最大值之间：{_t(f.token)}在第 0 列是 "
                f"{lo} ≤ {mid} ≤ {hi}。",
    )


def _norm_how(f: Facts, m: NormFacts) -> str:
    x, out = f.receiver_row(m.source), f.receiver_row(m.name)
    if f.norm == "layernorm":
        return (f"LayerNorm 减去该行均值、除以 √(方差 + ε)，再乘 γ{m.suffix}、加 β{m.suffix}。"
                f"这里{_t(f.token)}的行 {x} 均值 {f.num(f.mean(m.source))}、方差 "
                f"{f.num(f.variance(m.source))}（ε = {f.eps}），变为 {out}。")
    if f.norm == "rmsnorm":
        return (f"RMSNorm 不减均值，只把该行除以 √(mean(x²) + ε)，再乘 γ{m.suffix}。这里"
                f"{_t(f.token)}的行 {x} 平方的平均值为 {f.num(f.mean_square(m.source))}"
                f"（ε = {f.eps}），变为 {out}。")
    return f"Norm 设为关闭，这里什么也不算：{_t(f.token)}的行保持 {x}。"


def _norm_stat(f: Facts, m: NormFacts) -> str:
    out = m.name
    if f.norm == "none":
        return f"{out} 的每一格都等于 {m.source}。"
    if not m.plain:
        return (f"去掉 γ{m.suffix} 与 β{m.suffix} 的作用：(行 − β{m.suffix}) ÷ γ{m.suffix} 每行"
                "均值为 0。" if f.norm == "layernorm" else
                f"去掉 γ{m.suffix} 的作用：行 ÷ γ{m.suffix} 每行平方的平均值接近 1。")
    if f.norm == "layernorm":
        return (f"γ{m.suffix} = 1、β{m.suffix} = 0 时，LayerNorm 每行均值为 0、平方的平均值接近 "
                f"1：{_t(f.token)}这一行 {f.receiver_row(out)} 平方的平均值为 "
                f"{f.num(f.mean_square(out))}。")
    return (f"γ{m.suffix} = 1 时，RMSNorm 每行平方的平均值接近 1：{_t(f.token)}这一行是 "
            f"{f.num(f.mean_square(out))}。")


def _norm_check(f: Facts, m: NormFacts) -> str:
    flip = (f"把 Norm 改为 LayerNorm 或 RMSNorm，{m.name} 就不再是 {m.source} 的拷贝。"
            if f.norm == "none" else f"把 Norm 设为关闭，{m.name} 应与 {m.source} 完全相同。")
    return _norm_stat(f, m) + flip


_NORM_PITFALL = ("Norm 只在一行内部计算，从不跨位置。它也不会把数变成概率：输出可以为负，"
                 "和也不必为 1。")


def norm1(f: Facts) -> StepText:
    m = f.norm_facts
    summary = (f"进入注意力之前，X 的每一行各自用本块的 {NORMS[f.norm]} 重新定标。"
               if f.norm != "none" else "本块的 Norm 已关闭，注意力直接读 X：norm1 就是 X 的拷贝。")
    return StepText(
        summary=summary,
        why="各行进来时大小可能相差很远，先把每行拉到统一尺度，注意力分数才不会失控。在 "
            "pre-norm 中，未经处理的 X 仍沿残差通路直接往后走。",
        how=_norm_how(f, m),
        pitfalls=_NORM_PITFALL + "γ、β 是可学习参数，ε 则是人为设定的常数。",
        check=_norm_check(f, m),
    )


def norm1_post(f: Facts) -> StepText:
    m = f.norm_facts
    return StepText(
        summary=f"post-norm 中，第一次残差的和（X 加注意力输出）逐行做 {NORMS[f.norm]}。",
        why="把注意力输出加到 X 上之后，各行的大小可能改变；post-norm 在前馈读取之前把这个和"
            "拉回统一尺度。",
        how=_norm_how(f, m),
        pitfalls="pre-norm 与 post-norm 说的是一次前向计算中运算的先后，不是训练的两个阶段。"
                 "这里残差通路携带的是规范化后的和，X 不会原封不动地到达输出。",
        check=_norm_check(f, m),
    )


def norm2(f: Facts) -> StepText:
    m = f.norm_facts
    return StepText(
        summary=f"第一次残差之后的主干，在前馈读取之前逐行做 {NORMS[f.norm]}。",
        why="不论注意力往主干里加了什么，前馈都应读到尺度稳定的行。由于是 pre-norm，未规范化的"
            " resid1 仍会一路走到第二次残差。",
        how=_norm_how(f, m),
        pitfalls="这个 Norm 只供前馈读取：第二次残差把前馈输出加到 resid1 上，而不是 norm2 上。"
                 "它有自己的 γ2、β2，可以与 γ1、β1 不同。",
        check=_norm_check(f, m),
    )


def norm2_post(f: Facts) -> StepText:
    m = f.norm_facts
    follows = "，随后还有最终 Norm" if f.has_final_norm else "，结果就是本块的输出"
    return StepText(
        summary=f"post-norm 中，第二次残差的和逐行做 {NORMS[f.norm]}{follows}。",
        why="post-norm 给每个子层都收一次尾，让本块交出去的行处在统一尺度上。",
        how=_norm_how(f, m),
        pitfalls="这是第二个独立的 Norm，有自己的 γ2、β2，并非把 norm1 重做一遍。post-norm 的"
                 "“post”指相加之后，不是训练之后。",
        check=_norm_check(f, m),
    )


def final_norm(f: Facts) -> StepText:
    m = f.norm_facts
    why = (f"pre-norm 中主干一路上从未被规范化，行会越变越大：{_t(f.token)}这一行已到 "
           f"{f.num(f.largest(m.source))}。" if f.pre else
           "post-norm 中本块输出本来就规范化过，这里用自己的 γ_f、β_f 再做一次。")
    check = "关闭最终 Norm：这一步消失"
    if f.vocab:
        (before, was), (after, now) = (f.largest_logit(),
                                       f.largest_logit(f.logits_without_final_norm))
        check += (f"，{_t(f.token)}最大的 logit 从 {f.num(before)}（{was}）变为约 "
                  f"{f.num(after)}（{now}）。")
    else:
        check += "。"
    return StepText(
        summary="本块输出在" + ("词表头之前" if f.vocab else "离开本块之前")
                + "再逐行做一次 Norm。",
        why=why + "最终 Norm 交出尺度稳定的行。",
        how=_norm_how(f, m),
        pitfalls="与这里的每个 Norm 一样，它不是 softmax，结果也不是概率。它通常与 pre-norm 搭配，"
                 "因为 post-norm 的输出本来就规范化过。",
        check=_norm_stat(f, m) + check,
    )


def qk_norm(f: Facts) -> StepText:
    kind = NORMS[f.attention.qk_norm or "none"]
    q, k = f.step.reads[:2]
    before, after = f.qk_rows
    return StepText(
        summary=f"算分数之前，每个头的 q 行和 k 行各自做 {kind}。",
        why="q 或 k 的数一大，有些分数就会极大，softmax 几乎只剩一个键。把每个头的 q、k 行规范化，"
            "无论投影怎样增长，点积都保持在稳定的范围内。",
        how=f"{q} 与 {k} 每一行中每个头宽 d_k = {f.d_k} 的一段，各自做 {kind}，再逐个数乘 γq 或 "
            f"γk。这里{_t(f.token)}{_head(f)}的 q 从 {before} 变为 {after}。",
        pitfalls="只规范化 q 和 k：V、残差流和块里的 Norm 都不受影响，注意力搬运的内容不会被重新"
                 "定标。每个头分开规范化，而不是整行一起。",
        check=f"分数读的是 {f.step.writes[0]} 和 {f.step.writes[1]}，不是 {q} 和 {k}：用规范化后"
              f"的行重算一个分数。{_t(f.token)}规范化后的 q 段是 {after}。",
    )


def resid1(f: Facts) -> StepText:
    zero = ("把 Wv 全改成 0" + ("并去掉偏置" if f.has_value_bias else "")
            + "：注意力输出变为 0，resid1 与 X 相同。")
    read = ("加回去的是原始 X，尽管注意力读的是 norm1。" if f.pre else
            "这里加回的是原始 X，Norm 在下一步。")
    return StepText(
        summary="把注意力输出逐位置加回 X：第一次残差。",
        why="用相加而不是替换，原输入得以保留，注意力只贡献一份改动。这也给信号留了一条不经"
            "变换、直接通过的路。",
        how=f"resid1 = X + attn_out，逐个数相加，所以注意力输出必须与 X 一样是 {f.d} 列。"
            f"{_t(f.token)}：{f.residual_sum}。",
        pitfalls=read + "残差只是普通加法，没有可学习的数，既不做规范化，也不求平均。",
        check="做减法：resid1 − X 的每一格都等于注意力输出。" + zero,
    )


def ffn(f: Facts) -> StepText:
    src = f.ffn_source
    act = ACTIVATIONS[f.activation]
    z, hidden = f.row(f.pre_activation), f.scoped_row("ffn_hidden")
    if f.activation == "relu":
        check = (f"激活之前为负的地方，ReLU 给出 0：{_t(f.token)}的 {z} 变为 {hidden}。把激活函数"
                 "改为恒等，隐藏行应正好等于 x·W1（有 b1 时再加 b1）。")
    elif f.activation == "identity":
        check = (f"用恒等函数时，隐藏行就是 x·W1（有 b1 时再加 b1）：{_t(f.token)}的是 {z}。"
                 "改用 ReLU，其中的负数会变成 0。")
    else:
        check = (f"{act} 让较大的正数几乎原样通过，把负数压向 0：{_t(f.token)}的 {z} 变为 "
                 f"{hidden}。把激活函数改为恒等，隐藏行应正好等于 x·W1（有 b1 时再加 b1）。")
    linear = ("本文档用恒等函数，整个前馈退化为一次线性变换。" if f.activation == "identity"
              else "若改用恒等函数，整个前馈会退化为一次线性变换。")
    return StepText(
        summary=f"每一行先乘 W1 到隐藏宽度 {f.hidden_width}，经过 {act}，再乘 W2 回到宽度 {f.d}。",
        why="注意力只是按和为 1 的比例调配 V 的各行，再接线性变换。前馈网络则给每个位置单独"
            "加上一次非线性变换。",
        how=f"hidden = act(x·W1 + b1)，out = hidden·W2 + b2，逐行计算。这里 {src} 中"
            f"{_t(f.token)}的行 {f.receiver_row(src)} 得到隐藏行 {hidden}，输出 "
            f"{f.scoped_row('ffn_out')}。",
        pitfalls="前馈从不查看其他位置：每行单独变换，共用同一组 W1、W2；输出必须回到 d 列，"
                 "才能加回主干。" + linear,
        check=check,
    )


def resid2(f: Facts) -> StepText:
    final = "所以这里后面接了最终 Norm。" if f.has_final_norm else "本文档后面没有最终 Norm。"
    return StepText(
        summary="把前馈输出加到主干 resid1 上：第二次残差，也是 pre-norm 中本块的输出。",
        why="与第一次残差一样，前馈只在主干已有的内容上添加改动，前面算出的信息不会丢失。",
        how=f"resid2 = resid1 + ffn_out，逐个数相加。{_t(f.token)}："
            f"{f.residual_sum}。",
        pitfalls="相加的起点是 resid1 而不是 norm2，norm2 只给前馈读。pre-norm 中本块输出就是"
                 "这个未规范化的和，" + final,
        check="resid2 − resid1 的每一格都等于 ffn_out。把 W2 全改成 0（有 b2 时也改成 0）："
              "resid2 就等于 resid1。",
    )


def resid2_post(f: Facts) -> StepText:
    return StepText(
        summary="post-norm 中，把前馈输出加到 norm1（规范化后的第一次残差）上。",
        why="残差给前馈留了一条绕过它自己的路；在 post-norm 中，这条路从已经规范化的主干出发。",
        how=f"resid2 = norm1 + ffn_out，逐个数相加。{_t(f.token)}："
            f"{f.residual_sum}；下一步再对这个和做 Norm。",
        pitfalls="与 pre-norm 不同，起点是 norm1 而不是 resid1，X 原来的尺度到这里已不再保留。"
                 "这一步仍只是加法。",
        check="resid2 − norm1 的每一格都等于 ffn_out。把位置切换为 pre，这一步就改为加到 "
              "resid1 上。",
    )


def logits(f: Facts) -> StepText:
    top = f.top_entry()
    src = f.head_source
    size = len(f.vocab)
    return StepText(
        summary=f"每个最终行乘以词表头，为 {size} 个词表项各得到一个分数，即 logit。",
        why=f"要预测下一个 Token，每个位置都需要为每个候选 Token 给出一个数。词表头把 {f.d} 列"
            f"的行变成 {size} 列的行。",
        how=f"logits = 行 · unembed，unembed 是 {f.d}×{size}，每个词表项"
            f"（{_and(list(f.vocab))}）一列。这里{_t(f.token)}的行 {f.receiver_row(src)} 得到 "
            f"{f.receiver_row('logits')}。",
        pitfalls="logits 不是概率：可以为负，总和也不是 1。它们来自整条计算链的最后一行，而不是"
                 "注意力份额。",
        check=f"手算一个：{f.vocab[top]} 是 {f.logit_terms(top)} = "
              f"{f.num(f.array('logits')[f.receiver, top])}。一行中最大的 logit 所对应的词表项，"
              "会在下一步得到最大的概率。",
    )


def probs(f: Facts) -> StepText:
    top = f.top_entry()
    return StepText(
        summary="softmax 把每行 logits 变成词表上的概率。",
        why="选择下一个 Token 需要非负且和为 1 的数。softmax 给出这样的数，同时保留 logits 的"
            "大小顺序。",
        how=f"p_v = exp(logit_v) / Σ_u exp(logit_u)，逐行计算。这里{_t(f.token)}的 logits "
            f"{f.receiver_row('logits')} 得到 {f.receiver_row('probs')}。",
        pitfalls="注意力份额与这里的概率是两回事，中间还隔着残差、前馈和词表头。手工设定、未经"
                 "训练的参数给出的概率，不代表任何真实模型的判断。",
        check=f"每行之和为 1（{_t(f.token)}：{f.prob_sum}）。最大的 logit"
              f"（{f.num(f.array('logits')[f.receiver, top])}，{f.vocab[top]}）得到最大的概率"
              f"（{f.num(f.array('probs')[f.receiver, top])}），概率的排序与 logits 一致。",
    )


BUILDERS: dict[str, Callable[[Facts], StepText]] = {
    "input.embed": embed,
    "attention.inputs": inputs,
    "attention.projections": projections,
    "attention.qk_norm": qk_norm,
    "attention.scores": scores,
    "attention.weights": weights,
    "attention.mix": mix,
    "block.norm1": norm1,
    "block.norm1_post": norm1_post,
    "block.norm2": norm2,
    "block.norm2_post": norm2_post,
    "block.resid1": resid1,
    "block.ffn": ffn,
    "block.resid2": resid2,
    "block.resid2_post": resid2_post,
    "block.final_norm": final_norm,
    "block.logits": logits,
    "block.probs": probs,
}
"""``explain_key`` → the builder of its Chinese text."""
