"""简体中文步骤讲解的措辞：每个句子编号一个模板。

Chinese words of the step texts: one template per sentence id (see :mod:`app.texts.sentences`;
what applies is decided in :mod:`app.texts.step_plans`).
"""

from __future__ import annotations

_NORM_PITFALL = ("Norm 只在一行内部计算，从不跨位置。它也不会把数变成概率：输出可以为负，"
                 "和也不必为 1。")

WORDS: dict[str, str] = {
    "nothing": "",
    "head_of": "（第 {head} 个头，共 {heads} 个）",
    # embed
    "embed.summary": "{n} 个 Token 编号各从嵌入表中取出一行，按顺序排起来就是 X。",
    "embed.why": "编号只是标签，不是数量：拿编号 {last} 去做乘法没有意义。查出一行可学习的数，"
                 "每个 Token 才变成后续步骤能计算的数值。",
    "embed.how": "X 的第 k 行就是嵌入表中下标等于第 k 个编号的那一行。这里编号 {ids} 从 {rows} "
                 "行的表中取出对应行（从 0 数起），得到 {n}×{d} 的 X。{scaled}",
    "embed.scaled": "取出的每一行随后乘以 embedding_scale = {scale}，再加上别的行。",
    "embed.pitfalls": "编号没有大小之分，{high} 并不比 {low}“多”。把文本切成{tokens}只是一种"
                      "分词选择，别的分词器可能切在别处；表中任何一列也没有固定的含义。",
    "embed.check_then": "{looked}{then}",
    "embed.check": "拿 {out} 的每一行对照它编号所指的表行：{token}（编号 {id}）两处都是 {row}。",
    "embed.check_scaled": "把{token}的行 {row} 除以 {scale}：得到的正是表中第 {id} 行。",
    "embed.check_unused": "改动没有 Token 使用的第 {row} 行，{out} 必须保持不变。",
    "embed.check_used": "改动第 {row} 行：只有编号为 {row} 的那些 {out} 行跟着变。",
    # inputs
    "inputs.summary": "一份输入 X（{n}×{d}）遇上三张参数表 Wq、Wk、Wv；此时还没有任何打分。",
    "inputs.why": "注意力要用三种方式读同一批行：用来寻找、用来被找到、用来交出内容。三张表分开，"
                  "每种读法才能各自学习。",
    "inputs.first": "这里{token}是 {row}",
    "inputs.receiver": "，{token}是 {row}",
    "inputs.how": "X 的每一行代表一个位置：{first}{receiver}。Wq、Wk、Wv 是已给定的系数表，"
                  "各有 {d} 行，与 X 的列一一对应；下一步用 X 分别去乘这三张表。",
    "inputs.heads": "有 {heads} 个头时，每张表的列分成 {heads} 组，每个头一组。",
    "inputs.pitfalls": "Wq、Wk、Wv 是所有位置共用的参数，不是文字的另外三份拷贝；Q、K、V 才是由 "
                       "X 算出来的结果。{heads}",
    "inputs.check": "数一数形状：X 是 {n}×{d}，Wq 与 Wk 是 {d}×{qk}，Wv 是 {d}×{v}。Wq 与 Wk "
                    "的列数必须相同，因为每个 q 都要与每个 k 做点积；列数不同的 Wk 会被程序拒绝。",
    # projections
    "projections.summary": "{src} 的每一行分别乘 Wq、Wk、Wv，得到该位置的 q、k、v "
                           "三行。{groups}",
    "projections.summary_cross": "{src} 的每一行乘 Wq 得到 q；{mem} 的每一行乘 Wk、Wv，得到"
                                 "编码器各位置的 k、v。{groups}",
    "projections.why": "同一行输入身兼三职：q 决定它去读谁，k 决定别人与它匹配得多好，v 是它要"
                       "传出去的内容。分开投影，用来匹配的特征才能与被搬运的内容不同。",
    "projections.bias": "，再加上偏置",
    "projections.how": "Q = {src}·Wq，K = {src}·Wk，V = {src}·Wv，每个数都是 {src} 的一行乘 W "
                       "的一列{bias}。这里{token}的行 {row} 得到 q = {q}、k = {k}、v = {v}。",
    "projections.how_cross": "Q = {src}·Wq，而 K = {mem}·Wk、V = {mem}·Wv 读的是编码器的记忆，"
                             "每个数都是一行乘 W 的一列{bias}。这里{token}的行 {row} 得到 "
                             "q = {q}；记忆中{key}的行得到 k = {k}、v = {v}。",
    "projections.pitfalls": "这一步位置之间互不混合：Q 中{token}那一行只取决于 {src} 中同一行。"
                            "这三个名字只帮助记忆，q、k、v 都是普通的数行，不是问句、数据库的键"
                            "或答案。",
    "projections.check": "手算一个数：Q[{token}, 0] = {terms} = {value}。改动 Wv：只有 V 变化，"
                         "Q 和 K 保持原样。",
    # scores
    "scores.key": "{token}的键 {row}",
    "scores.summary_scaled": "每个查询行与每个键行做点积，每个分数再除以 √dₖ = √{d_k}。",
    "scores.summary_rescaled": "每个查询行与每个键行做点积，每个分数再除以 √{number}：这是本模型"
                               "自己放在根号下的数，章节公式里这个位置是 dₖ = {d_k}。",
    "scores.summary_unscaled": "每个查询行与每个键行做点积；本文档关闭了缩放，点积本身就是分数。",
    "scores.why": "一个位置要先知道自己与每个候选匹配得多好，才能决定各读多少。点积 q·k 给出这个"
                  "数；{then}",
    "scores.why_scaled": "除以 √dₖ 则让分数的典型大小不随 q、k 的宽度一起膨胀。",
    "scores.why_rescaled": "除以一个平方根能让分数的典型大小保持适中；本模型训练时除的是 "
                           "√{number}，而不是 √dₖ = √{d_k}。",
    "scores.why_unscaled": "缩放关闭时，分数的大小会随 q、k 的宽度增长（这里 dₖ = {d_k}）。",
    "scores.how_scaled": "scores[i, j] = q_i · k_j ÷ √dₖ。这里{head} dₖ = {d_k}，{token}的查询 "
                         "{query} 对上{met}：原始值 {raws}，缩放后 {scaled_scores}。",
    "scores.how_rescaled": "scores[i, j] = q_i · k_j ÷ √{number}，文档的 scale_dk 站在本该是 "
                           "dₖ = {d_k} 的位置。这里{head}{token}的查询 {query} 对上{met}：原始值 "
                           "{raws}，缩放后 {scaled_scores}。",
    "scores.how_unscaled": "scores[i, j] = q_i · k_j，不做除法。这里{head}{token}的查询 {query} "
                           "对上{met}：{raws}。",
    "scores.how_capped": "{before}然后像 Gemma 2 那样逐个软截断，{cap} · tanh(s / {cap})："
                         "{capped}；掩码和 softmax 读的是这些值。",
    "scores.check_capped": "{before}截断后：{cap} · tanh({score} / {cap}) = {capped}。",
    "scores.pitfalls": "分数不是概率：它可以为负，也可以大于 1，要到下一步才变成份额。{then}",
    "scores.later_masked": "指向后面位置的分数也出现在表中，但因果掩码会让下一步把它排除。",
    "scores.later_open": "掩码关闭，表中每个分数（包括指向后面位置的）都参与下一步。",
    "scores.later_single": "只有一个位置时，表中只有一个分数。",
    "scores.check_scaled": "核对一格：{token}对{key}是 {terms} = {raw}，{raw} ÷ √{d_k} = "
                           "{score}。关掉缩放：每个分数都乘上 √dₖ（此处为 {root}），每行内部的"
                           "大小顺序不变。",
    "scores.check_rescaled": "核对一格：{token}对{key}是 {terms} = {raw}，{raw} ÷ √{number} = "
                             "{raw} ÷ {root} = {score}。表中每个分数都除以同一个 {root}，所以每行"
                             "内部的大小顺序仍是 q·k 给出的顺序。",
    "scores.check_unscaled": "核对一格：{token}对{key}是 {terms} = {score}。打开缩放：每个分数"
                             "都除以 √dₖ（此处为 {root}），每行内部的大小顺序不变。",
    # weights
    "weights.summary_masked": "先去掉因果掩码挡住的键，再用 softmax 把每行分数变成非负且和为 1 "
                              "的份额。",
    "weights.summary_open": "softmax 把每行分数变成非负且和为 1 的份额；没有掩码，每个位置都读"
                            "全部 {keys} 个。",
    "weights.why": "要把 V 的各行调配到一起，每个位置需要一组非负、合起来正好一整份的比例，原始"
                   "分数两条都做不到。{then}",
    "weights.why_masked": "生成文本时，一个位置也不该读到排在它后面的 Token，这件事交给因果掩码。",
    "weights.why_open": "本文档关闭了因果掩码，每个位置都能读到所有位置，包括后面的，像编码器"
                        "那样。",
    "weights.drop_masked": "去掉被掩码挡住的键（后面的位置），",
    "weights.drop_open": "",
    "weights.how": "逐行处理：{drop}对剩下的分数取 exp(s − max)，再各自除以总和。{token}{head}"
                   "的 exp 值 {exps}{more} 合计 {total}，得到份额 {shares}{more}。",
    "weights.how_alone": "逐行处理：对可见的分数取 exp(s − max)，再各自除以总和。{token}只看得到"
                         "自己：exp(0) = 1，总和也是 1。",
    "weights.pitfalls": "份额随每次输入现算，不是参数 Wq、Wk、Wv 里的权重。份额大只说明这一步主要"
                        "从哪里取数，不能解释模型为何给出最终输出。{single}",
    "weights.single_one": "只有一个位置时，唯一的键独得份额 1，与分数高低无关。",
    "weights.single_first": "{first}只有一个可见的键，它独得份额 1，与分数高低无关。",
    "weights.single_none": "这里没有哪一行只剩一个可见的键，每个份额都来自真实的比较。",
    "weights.first_alone": "开启掩码时{first}只看得到自己，无论怎样改 Wq、Wk，它的份额始终是 1。",
    "weights.check": "每行之和为 1（{token}：{sum}）。{first}改动 Wv，份额必须纹丝不动。",
    "weights.check_alone": "{token}唯一的份额总是 1，与分数无关：改 Wq 或 Wk，它仍是 1。改动 Wv，"
                           "份额必须纹丝不动。",
    # mix
    "mix.summary_wo": "每个位置的输出，是各行 V 乘上各自份额后的和；这个和再乘 Wo。",
    "mix.summary_no_wo": "每个位置的输出，是各行 V 乘上各自份额后的和。",
    "mix.why": "这是信息在位置之间流动的唯一一步：一个位置的新行由它所读位置的内容拼成。{then}",
    "mix.why_wo_heads": "Wo 把拼接起来的 {heads} 个头变回模型其余部分使用的宽度 {d_out}。",
    "mix.why_wo_one": "Wo 再把混合结果变成模型其余部分使用的宽度 {d_out}。",
    "mix.why_heads": "没有 Wo，{heads} 个头的输出直接拼接，共 {width} 列。",
    "mix.why_one": "本文档没有 Wo，混合结果本身就是注意力输出。",
    "mix.how": "mixed_i = Σ_j 份额_ij · v_j。这里{token}{head}得到 {terms} = {row}。{after}",
    "mix.after_wo_heads": "{heads} 个头各自混合自己的 {d_v} 列 V，结果拼接后由 Wo 变成 {out}。",
    "mix.after_wo_one": "Wo 再把它变成 {out}。",
    "mix.after_heads": "{heads} 个头各自混合自己的 {d_v} 列 V，结果并排拼接：{mixed}。",
    "mix.after_one": "",
    "mix.pitfalls_no_wo": "份额只决定每行 V 取多少，从不改写 V 本身；输出是一行新的数，不是词表里"
                          "的词，也不是答案。",
    "mix.pitfalls_wo": "份额只决定每行 V 取多少，从不改写 V 本身；输出是一行新的数，不是词表里的"
                       "词，也不是答案。Wo 是参数表，不是第二组份额。",
    "mix.check_no_wo": "改动 Wv：份额不动，只有混合结果变化。每个混合数都落在同一列可见 V 的最小值"
                       "与最大值之间：{token}在第 0 列是 {lo} ≤ {mid} ≤ {hi}。",
    "mix.check_wo": "改动 Wv：份额不动，只有混合结果变化。乘 Wo 之前，每个混合数都落在同一列可见 "
                    "V 的最小值与最大值之间：{token}在第 0 列是 {lo} ≤ {mid} ≤ {hi}。",
    # norms
    "norm.layernorm": "LayerNorm",
    "norm.rmsnorm": "RMSNorm",
    "norm.none": "关闭的 Norm",
    "norm.how_layernorm": "LayerNorm 减去该行均值、除以 √(方差 + ε)，再乘 γ{suffix}、加 "
                          "β{suffix}。这里{token}的行 {row} 均值 {mean}、方差 {variance}"
                          "（ε = {eps}），变为 {out}。",
    "norm.how_rmsnorm": "RMSNorm 不减均值，只把该行除以 √(mean(x²) + ε)，再乘 γ{suffix}。这里"
                        "{token}的行 {row} 平方的平均值为 {square}（ε = {eps}），变为 {out}。",
    "norm.how_none": "Norm 设为关闭，这里什么也不算：{token}的行保持 {row}。",
    "norm.stat_none": "{out} 的每一格都等于 {source}。",
    "norm.stat_undo_layernorm": "去掉 γ{suffix} 与 β{suffix} 的作用：(行 − β{suffix}) ÷ "
                                "γ{suffix} 每行均值为 0。",
    "norm.stat_undo_rmsnorm": "去掉 γ{suffix} 的作用：行 ÷ γ{suffix} 每行平方的平均值接近 1。",
    "norm.stat_plain_layernorm": "γ{suffix} = 1、β{suffix} = 0 时，LayerNorm 每行均值为 0、"
                                 "平方的平均值接近 1：{token}这一行 {row} 平方的平均值为 "
                                 "{square}。",
    "norm.stat_plain_rmsnorm": "γ{suffix} = 1 时，RMSNorm 每行平方的平均值接近 1：{token}这一行"
                               "是 {square}。",
    "norm.flip_on": "把 Norm 改为 LayerNorm 或 RMSNorm，{out} 就不再是 {source} 的拷贝。",
    "norm.flip_off": "把 Norm 设为关闭，{out} 应与 {source} 完全相同。",
    "norm.check": "{stat}{then}",
    "embedding_norm.summary": "把相加后的行 {source} 逐行做 {norm}；输出就是 X，第一层读取的行。",
    "embedding_norm.why": "词元行、位置行和类型行来自三张大小不同的表；先把它们的和规范化，每一行"
                          "在进入第一层之前就处在同一尺度上，BERT 和 BART 都这样做。",
    "embedding_norm.pitfalls": _NORM_PITFALL + "它只在第一层之前做一次，不是每层都做；它的 γ 和 "
                                               "β 是它自己的。",
    "norm1.summary": "进入注意力之前，X 的每一行各自用本块的 {norm} 重新定标。",
    "norm1.summary_none": "本块的 Norm 已关闭，注意力直接读 X：norm1 就是 X 的拷贝。",
    "norm1.why": "各行进来时大小可能相差很远，先把每行拉到统一尺度，注意力分数才不会失控。在 "
                 "pre-norm 中，未经处理的 X 仍沿残差通路直接往后走。",
    "norm1.pitfalls": _NORM_PITFALL + "γ、β 是可学习参数，ε 则是人为设定的常数。",
    "norm1_post.summary": "post-norm 中，第一次残差的和（X 加注意力输出）逐行做 {norm}。",
    "norm1_post.why": "把注意力输出加到 X 上之后，各行的大小可能改变；post-norm 在前馈读取之前"
                      "把这个和拉回统一尺度。",
    "norm1_post.pitfalls": "pre-norm 与 post-norm 说的是一次前向计算中运算的先后，不是训练的两个"
                           "阶段。这里残差通路携带的是规范化后的和，X 不会原封不动地到达输出。",
    "norm2.summary": "第一次残差之后的主干，在前馈读取之前逐行做 {norm}。",
    "norm2_parallel.summary": "并行的层：前馈读的也是本层的输入 {source}，在这里逐行做 {norm}，"
                              "而不是注意力之后的主干。",
    "norm2_parallel.why": "两条支路互不等待：前馈看不到注意力写下的内容，所以两者可以同时计算"
                          "（GPT-NeoX、GPT-J、Phi）。它们的输出只在随后的那一次残差里汇合。",
    "norm2_parallel.pitfalls": "这个 Norm 读的是 {source}，也就是 norm1 读的那些行，而不是 "
                               "X + attn_out：并行的层里没有第一次残差。{shared}",
    "norm2_parallel.shared": "这里 γ2、β2 与 γ1、β1 相同，所以 norm2 等于 norm1（Phi 只有一个 "
                             "Norm，两条支路都读它；GPT-NeoX 的两个 Norm 训练之后可以不同）。",
    "norm2_parallel.own": "它有自己的 γ2、β2（GPT-NeoX 的第二个 LayerNorm），所以虽然读的是"
                          "同样的行，norm2 也可以与 norm1 不同。",
    "norm3.summary": "注意力的输出先逐行做 {norm}，第一次残差再把它加到 X 上。",
    "norm3.why": "Gemma 2 既规范化子层读入的行，也规范化子层写出的行：不论注意力输出有多大，"
                 "主干每次都按同一尺度增长。",
    "norm3.pitfalls": "这不是 post-norm：主干 X 本身在这里不做规范化，只规范化注意力的输出，"
                      "用它自己的 γ3。resid1 加的是 norm3，而不是 attn_out。",
    "norm4.summary": "前馈的输出先逐行做 {norm}，第二次残差再把它加到主干上。",
    "norm4.why": "与注意力之后一样，前馈的贡献以同一尺度进入主干，不论它的输出变得多大。",
    "norm3_stream.why": "这个块在子层之前不做任何规范化（OLMo 2）：注意力直接读取主干，只规范化"
                        "它写出的结果，让它按同一尺度汇入主干。",
    "norm3_stream.pitfalls": "注意力之前没有规范化，这里也不规范化主干 X：只规范化注意力的输出，"
                             "用 γ3。resid1 加的是 norm3，而不是 attn_out。",
    "norm4_stream.why": "和注意力之后一样：前馈直接读取 resid1，只有它的输出在汇入主干之前做"
                        "规范化。",
    "norm4_stream.pitfalls": "这个块没有 γ2：前馈读的就是 resid1 本身。γ4 只调整前馈写出的结果；"
                             "resid2 加的是 norm4，而不是 ffn_out。",
    "norm4.pitfalls": "用它自己的 γ4，而不是 γ2：norm2 供前馈读取，norm4 规范化前馈写出的结果。"
                      "resid2 加的是 norm4，而不是 ffn_out。",
    "norm2.why": "不论注意力往主干里加了什么，前馈都应读到尺度稳定的行。由于是 pre-norm，未规范化"
                 "的 resid1 仍会一路走到第二次残差。",
    "norm2.pitfalls": "这个 Norm 只供前馈读取：第二次残差把前馈输出加到 resid1 上，而不是 norm2 "
                      "上。它有自己的 γ2、β2，可以与 γ1、β1 不同。",
    "norm2_post.summary": "post-norm 中，第二次残差的和逐行做 {norm}{then}。",
    "norm2_post.final": "，随后还有最终 Norm",
    "norm2_post.no_final": "，结果就是本块的输出",
    "norm2_post.why": "post-norm 给每个子层都收一次尾，让本块交出去的行处在统一尺度上。",
    "norm2_post.pitfalls": "这是第二个独立的 Norm，有自己的 γ2、β2，并非把 norm1 重做一遍。"
                           "post-norm 的“post”指相加之后，不是训练之后。",
    "final_norm.summary_head": "本块输出在词表头之前再逐行做一次 Norm。",
    "final_norm.summary": "本块输出在离开本块之前再逐行做一次 Norm。",
    "final_norm.why": "{then}最终 Norm 交出尺度稳定的行。",
    "final_norm.why_pre": "pre-norm 中主干一路上从未被规范化，行会越变越大：{token}这一行已到 "
                          "{largest}。",
    "final_norm.why_post": "post-norm 中本块输出本来就规范化过，这里用自己的 γ_f、β_f 再做一次。",
    "final_norm.pitfalls": "与这里的每个 Norm 一样，它不是 softmax，结果也不是概率。它通常与 "
                           "pre-norm 搭配，因为 post-norm 的输出本来就规范化过。",
    "final_norm.check": "{stat}{then}",
    "final_norm.off": "关闭最终 Norm：这一步消失。",
    "final_norm.off_logits": "关闭最终 Norm：这一步消失，{token}最大的 logit 从 {before}"
                             "（{was}）变为约 {after}（{now}）。",
    # residuals and feed-forward
    "resid1.summary": "把注意力输出逐位置加回 X：第一次残差。",
    "resid1.why": "用相加而不是替换，原输入得以保留，注意力只贡献一份改动。这也给信号留了一条不经"
                  "变换、直接通过的路。",
    "resid1.how": "resid1 = X + attn_out，逐个数相加，所以注意力输出必须与 X 一样是 {d} 列。"
                  "{token}：{sum}。",
    "resid1.pitfalls": "{read}残差只是普通加法，没有可学习的数，既不做规范化，也不求平均。",
    "resid1.read_pre": "加回去的是原始 X，尽管注意力读的是 norm1。",
    "resid1.read_stream": "加回去的是原始 X，也正是注意力读取的那些行（这个块不规范化输入）。",
    "resid1.read_post": "这里加回的是原始 X，Norm 在下一步。",
    "resid1.check": "做减法：resid1 − X 的每一格都等于注意力输出。把 Wv 全改成 0{biases}：注意力"
                    "输出变为 0，resid1 与 X 相同。",
    "resid1.biases": "并去掉偏置",
    "resid1.summary_normed": "注意力输出先做规范化（norm3），再逐位置加回 X：第一次残差。",
    "resid1.how_normed": "resid1 = X + norm3，逐个数相加，所以规范化后的注意力输出必须与 X 一样是 "
                         "{d} 列。{token}：{sum}。",
    "resid1.check_normed": "做减法：resid1 − X 的每一格都等于 norm3，而不是 attn_out。",
    "resid2.summary_normed": "前馈输出先做规范化（norm4），再加到主干 resid1 上：第二次残差，"
                             "也是本块的输出。",
    "resid2.how_normed": "resid2 = resid1 + norm4，逐个数相加。{token}：{sum}。",
    "resid2.check_normed": "resid2 − resid1 的每一格都等于 norm4，而不是 ffn_out。",
    "activation.relu": "ReLU",
    "activation.gelu": "GELU",
    "activation.silu": "SiLU",
    "activation.identity": "恒等函数",
    "activation.gelu_tanh": "GELU（tanh 形式）",
    "ffn.summary": "每一行先乘 W1 到隐藏宽度 {width}，经过 {act}，再乘 W2 回到宽度 {d}。",
    "ffn.summary_gated": "每一行分别乘 Wg 和 W1 到隐藏宽度 {width}：x·Wg 经过 {act} 成为一道门，"
                         "逐格乘在 x·W1 上；再乘 W2 回到宽度 {d}。",
    "ffn.how_gated": "门 = 激活(x·Wg + bg)，上投影 = x·W1 + b1，隐藏 = 上投影 ⊙ 门，输出 = "
                     "隐藏·W2 + b2，逐行计算。这里 {src} 中{token}的行 {row} 得到门 {gate}、"
                     "上投影行 {up}、隐藏行 {hidden}，输出 {out}。",
    "ffn.not_linear_gated": "即使改用恒等函数，它也不是线性的：门把同一行的两个投影相乘。",
    "ffn.check_gated": "每个隐藏格都等于上投影格乘以门格：{token}的上投影行 {up} 乘以门 {gate} "
                       "得到 {hidden}。门接近 0 的地方，这个单元就关上了，不管 W1 怎么说。",
    "ffn.why": "注意力只是按和为 1 的比例调配 V 的各行，再接线性变换。前馈网络则给每个位置单独"
               "加上一次非线性变换。",
    "ffn.how": "隐藏 = 激活(x·W1 + b1)，输出 = 隐藏·W2 + b2，逐行计算。这里 {src} 中{token}"
               "的行 {row} 得到隐藏行 {hidden}，输出 {out}。",
    "ffn.pitfalls": "前馈从不查看其他位置：每行单独变换，共用同一组 W1、W2；输出必须回到 d 列，"
                    "才能加回主干。{linear}",
    "ffn.linear_here": "本文档用恒等函数，整个前馈退化为一次线性变换。",
    "ffn.linear_would": "若改用恒等函数，整个前馈会退化为一次线性变换。",
    "ffn.check_relu": "激活之前为负的地方，ReLU 给出 0：{token}的 {z} 变为 {hidden}。把激活函数"
                      "改为恒等，隐藏行应正好等于 x·W1（有 b1 时再加 b1）。",
    "ffn.check_identity": "用恒等函数时，隐藏行就是 x·W1（有 b1 时再加 b1）：{token}的是 {z}。"
                          "改用 ReLU，其中的负数会变成 0。",
    "ffn.check_smooth": "{act} 让较大的正数几乎原样通过，把负数压向 0：{token}的 {z} 变为 "
                        "{hidden}。把激活函数改为恒等，隐藏行应正好等于 x·W1（有 b1 时再加 b1）。",
    "router.summary": "路由器把每个词元与 {experts} 个专家逐一打分，把分数变成份额，保留最大的 "
                      "{k} 个：只有这些专家会运行。",
    "router.why": "专家混合有 {experts} 个前馈网络，但每个词元只运行 {k} 个，所以模型的权重远多于"
                  "任何一个词元用到的。由路由器根据词元自己的行来决定运行哪些。",
    "router.how_normalised": "logits = x · W_r，份额 = softmax(logits)，再把最大的 k 个份额除以"
                             "它们的和。这里{token}的 logits {logits} 给出份额 {shares}；选中"
                             "专家 {chosen}，权重为 {weights}。",
    "router.how_raw": "logits = x · W_r，份额 = softmax(logits)，最大的 k 个份额原样作为权重"
                      "（normalize 为 false）。这里{token}的 logits {logits} 给出份额 {shares}；"
                      "选中专家 {chosen}，权重为 {weights}。",
    "router.summary_one": "路由器把每个词元与 {experts} 个专家逐一打分，把分数变成份额，只保留"
                          "最大的那个：只有这个专家会运行。",
    "router.summary_all": "路由器把每个词元与 {experts} 个专家逐一打分，把分数变成份额；{k} 个"
                          "全部保留，所以每个专家都会运行，份额只决定各自占多少。",
    "router.why_one": "专家混合有 {experts} 个前馈网络，但每个词元只运行 1 个，所以模型的权重远多"
                      "于任何一个词元用到的。由路由器根据词元自己的行来决定运行哪一个。",
    "router.why_all": "这个专家混合有 {experts} 个前馈网络，每个词元都全部运行：没有省下计算，"
                      "路由器只根据词元自己的行决定每个专家占多少。",
    "router.how_normalised_one": "logits = x · W_r，份额 = softmax(logits)，再把最大的份额除以"
                                 "它自己。这里{token}的 logits {logits} 给出份额 {shares}；选中"
                                 "专家 {chosen}，权重为 {weights}。",
    "router.how_raw_one": "logits = x · W_r，份额 = softmax(logits)，最大的份额原样作为权重"
                          "（normalize 为 false）。这里{token}的 logits {logits} 给出份额 "
                          "{shares}；选中专家 {chosen}，权重为 {weights}。",
    "router.pitfalls_all": "这里每个专家都会运行，没有落选的份额；▲ 仍标出 torch.topk 排列它们的"
                           "次序，router_weights 和 expert_out 就按这个次序排列。",
    "router.pitfalls": "份额中选中的用 ▲ 标出：未选中专家的份额照样算出，但它们不会为这个词元"
                       "运行。两个相等的份额按 torch.topk 的次序选取，不一定是编号小的在前。",
    "router.check": "重算第一个权重：专家 {e} 的份额 {share} 除以选中份额之和 {total}，得 "
                    "{weight}。",
    "router.check_raw": "第一个权重就是专家 {e} 的份额本身：{share}。",
    "experts.summary": "每个词元选中的 {k} 个专家各自对它的行做前馈；输出乘以路由权重后求和。",
    "experts.why": "{experts} 个专家中每个词元只运行 {k} 个：这个和就是本层的前馈输出，像普通"
                   "前馈一样加回主干。",
    "experts.summary_one": "每个词元选中的那个专家对它的行做前馈；输出乘以路由权重，就是本层的"
                           "前馈输出。",
    "experts.summary_all": "每个专家都对每个词元的行做前馈；输出乘以路由权重后求和。",
    "experts.summary_shared_one": "每个词元选中的那个专家对它的行做前馈，共享专家也对每个词元都"
                                  "做一次；选中专家的输出乘以路由权重，共享专家的输出乘以它的门控，"
                                  "再相加。",
    "experts.why_one": "{experts} 个专家中每个词元只运行 1 个：它加权后的输出就是本层的前馈输出，"
                       "像普通前馈一样加回主干。",
    "experts.why_all": "全部 {experts} 个专家都为每个词元运行：加权和就是本层的前馈输出，像普通"
                       "前馈一样加回主干。",
    "experts.how_one": "输出 = 权重 · 专家(x)。这里{token}运行专家 {chosen}，加权输出为 {out}。",
    "experts.how": "输出 = Σ 权重ₖ · 专家ₖ(x)。这里{token}运行专家 {chosen}，加权和为 {out}。",
    "experts.pitfalls": "expert_out 按选择排列，不按专家排列：一个词元的第 1 个选择与另一个词元"
                        "的第 1 个选择可能是不同的专家（见 router_chosen）。",
    "experts.check": "重算第一列：{terms} = {value}。",
    "experts.summary_shared": "每个词元选中的 {k} 个专家各自对它的行做前馈，共享专家也对每个词元"
                              "都做一次；选中专家的输出乘以路由权重，共享专家的输出乘以它的门控，"
                              "再全部相加。",
    "experts.how_shared": "输出 = Σ 权重ₖ · 专家ₖ(x) + σ(x · w_g) · 共享(x)。这里{token}运行专家 "
                          "{chosen} 和共享专家；x · w_g = {z}，门控 σ({z}) = {gate} 决定保留共享"
                          "输出的多少，总和为 {out}。",
    "experts.pitfalls_shared": "共享专家的门控是它自己的 sigmoid，不是路由器份额中的一个：它不参与"
                               "挑选，路由权重与门控加起来也不必等于 1。",
    "resid2.summary": "把前馈输出加到主干 resid1 上：第二次残差，也是 pre-norm 中本块的输出。",
    "resid_parallel.summary": "注意力输出和前馈输出一次都加到本层的输入 {source} 上：并行残差，"
                              "也是本块的输出。",
    "resid_parallel.why": "一次相加代替两次：两条支路各把自己的改动加到同样的行上，输入携带的"
                          "信息不会丢失，而且哪条支路都没有读另一条的输出。",
    "resid_parallel.how": "{out} = {source} + attn_out + ffn_out，逐个数相加。{token}：{sum}。",
    "resid_parallel.pitfalls": "它和同样参数的顺序层并不相同：那里前馈读的是 {source} + "
                               "attn_out，这里读的是 {source}。本块输出就是这个未规范化的和，"
                               "{then}",
    "resid_parallel.check": "{out} − {source} − attn_out 的每一格都等于 ffn_out。把 W2 全改成 "
                            "0（有 b2 时也改成 0）：{out} 就等于 {source} + attn_out，注意力的"
                            "数一个也不变。",
    "resid2.why": "与第一次残差一样，前馈只在主干已有的内容上添加改动，前面算出的信息不会丢失。",
    "resid2.how": "resid2 = resid1 + ffn_out，逐个数相加。{token}：{sum}。",
    "resid2.pitfalls": "相加的起点是 resid1 而不是 norm2，norm2 只给前馈读。pre-norm 中本块输出"
                       "就是这个未规范化的和，{then}",
    "resid2.pitfalls_stream": "相加的起点是 resid1，也就是前馈原样读取的那些行（这个块不规范化"
                              "输入）。pre-norm 中本块输出就是这个未规范化的和，{then}",
    "resid2.final": "所以这里后面接了最终 Norm。",
    "resid2.next_layer": "下一层直接读取这个和。",
    "resid2.no_final": "本文档后面没有最终 Norm。",
    "resid2.check": "resid2 − resid1 的每一格都等于 ffn_out。把 W2 全改成 0（有 b2 时也改成 0）："
                    "resid2 就等于 resid1。",
    "resid2_post.summary": "post-norm 中，把前馈输出加到 norm1（规范化后的第一次残差）上。",
    "resid2_post.why": "残差给前馈留了一条绕过它自己的路；在 post-norm 中，这条路从已经规范化的"
                       "主干出发。",
    "resid2_post.how": "resid2 = norm1 + ffn_out，逐个数相加。{token}：{sum}；下一步再对这个和"
                       "做 Norm。",
    "resid2_post.pitfalls": "与 pre-norm 不同，起点是 norm1 而不是 resid1，X 原来的尺度到这里已"
                            "不再保留。这一步仍只是加法。",
    "resid2_post.check": "resid2 − norm1 的每一格都等于 ffn_out。把规范化顺序切换为前置（pre），"
                         "这一步就改为加到 resid1 上。",
    # the head
    "transform.summary": "掩码语言模型的头先变换每个最终行：一个全连接层（W，{d}×{d}，加 b），"
                         "{act}，再用它自己的 γ 和 β 做 LayerNorm；然后才是词表分数。",
    "transform.why": "BERT 训练时学的是根据两侧的词填出 [MASK] 位置。它的头在词表之前有这一小层"
                     "自己的参数；词表就是反过来读的嵌入表（共享权重）。",
    "transform.how": "transform = LayerNorm({act}(行 · W + b)) · γ + β。这里{token}的行 {row} "
                     "得到 z = {z}，再得到 {hidden}，最后是 {out}。",
    "transform.pitfalls": "这不是某一层的规范化，也不是最终规范化：它属于词表头，有自己的参数，"
                          "在最后一层之后运行。",
    "transform.check": "重算 z 的第一个数：{terms} + {bias} = {value}。",
    "softcap.summary": "每个 logit 经 c · tanh(logit / c) 弯折，c = {cap}：每个 logit 都落在 "
                       "−{cap} 与 {cap} 之间。",
    "softcap.why": "Gemma 2 训练时就对 logits 做了软截断，因此没有哪个词表项能独占概率：远超 "
                   "{cap} 的 logit 只比 {cap} 本身大一点点。",
    "softcap.how": "logits = {cap} · tanh(未截断值 / {cap})，逐项计算。这里{token}的未截断 "
                   "logits {raw} 得到 {capped}。",
    "softcap.pitfalls": "软截断不是硬截断：小的 logit 几乎不变，大的 logit 平滑地弯向 ±c，"
                        "logits 的大小顺序从不改变。",
    "softcap.check": "手算最大的一个，{entry}：{cap} · tanh({raw} / {cap}) = {value}。",
    "logits.summary": "每个最终行乘以词表头，为 {size} 个词表项各得到一个分数，即 logit。",
    "logits.why": "要预测下一个 Token，每个位置都需要为每个候选 Token 给出一个数。词表头把 {d} "
                  "列的行变成 {size} 列的行。",
    "logits.why_mlm": "要填出 [MASK]，每个位置都需要为每个候选 Token 给出一个数。词表头把 {d} "
                      "列的行变成 {size} 列的行。",
    "logits.how": "logits = 行 · unembed，unembed 是 {d}×{size}，每个词表项（{vocab}）一列。"
                  "这里{token}的行 {row} 得到 {logits}。",
    "logits.pitfalls": "logits 不是概率：可以为负，总和也不是 1。它们来自整条计算链的最后一行，"
                       "而不是注意力份额。",
    "logits.check": "手算一个：{entry} 是 {terms} = {value}。一行中最大的 logit 所对应的词表项，"
                    "会在下一步得到最大的概率。",
    "loss.summary": "训练：目标已知，{n} 个位置的损失 −ln p(目标) 都来自这一次前向计算；平均为 "
                    "{mean}。",
    "loss.why": "训练要求每个位置给下一个 Token 较大的概率。{n} 个位置可以同时打分，{mask}",
    "loss.masked": "因为因果掩码让每个位置看不到自己要预测的 Token。",
    "loss.unmasked": "但这个堆栈没有因果掩码：每个位置都看得到自己要预测的 Token，会抄答案的模型"
                     "损失接近 0，这个损失说明不了什么。",
    "loss.how": "loss_i = −ln probs[i, target_i]：这里是 {losses}，{n} 个位置平均 {mean}。最差的"
                "是{token} → {entry}：p = {p}，损失 {loss}。",
    "loss.pitfalls": "生成做不到这样：每个新 Token 依赖前一个已选结果，{n} 个 Token 需要 {n} 次"
                     "前向计算，而训练只要 1 次{run}。“Transformer 可以并行”说的是训练，不是回答。",
    "loss.run": "——损失旁边的一对画面展示了这一点：从{prompt}开始，贪心生成每次读入已有的 "
                "Token，依次选出{chosen}",
    "loss.check": "损失就是目标处那根条的 −ln：{token}在{entry}处的条是 {p}，−ln {p} = "
                  "{loss}。概率为 1 时损失为 0，概率越小损失越大。",
    "sample.summary": "下一个 Token 从最后一个位置的概率中以温度 {t} 抽取：{v} 项中保留 {kept} "
                      "项，选中{chosen}。",
    "sample.why": "只有{token}这一行预测的是还不存在的 Token。温度、top-k 和 top-p 决定选择"
                  "有多大胆。",
    "sample.how": "logits 除以 T = {t} 再做 softmax；{top_k}{top_p}保留的 {kept} 项重新归一化"
                  "（{shares}）；第 {step} 次抽取（种子 {seed}）选中{chosen}。",
    "sample.how_greedy": "T = 0 就是贪心解码：logits 不做除法，也不抽取；直接选概率最高的"
                         "{chosen}（并列时取 id 最小的）。",
    "sample.top_k": "top-k 保留概率最高的 {k} 项；",
    "sample.top_p": "top-p 保留按概率从大到小、累计概率达到 {p} 的最小集合（前 {kept} 项累计 "
                    "{mass}）；",
    "sample.pitfalls": "温度改变形状，不改变顺序：熵从 {model} 奈特（T = 1）变为 {tempered}，保留"
                       "项上为 {shares}。最可能的条目{greedy}并不总被抽中。",
    "sample.check": "保留的 {kept} 个份额之和为 1（{total}）。T → 0 或 top-k = 1 就是贪心：总是"
                    "选{greedy}。",
    "probs.fill_summary": "填空：softmax 把每行 logits 变成概率，每个 [MASK] 处概率最大的词表项"
                          "就是填上的词：{fills}。",
    "probs.fill": "第 {position} 个位置 → {entry}（p = {p}）",
    "probs.fill_why": "掩码语言模型训练时学的是根据两侧的词猜出每个 [MASK] 处被遮住的词；"
                      "其他位置的概率不是它要回答的。",
    "probs.summary": "softmax 把每行 logits 变成词表上的概率。",
    "probs.why": "选择下一个 Token 需要非负且和为 1 的数。softmax 给出这样的数，同时保留 logits "
                 "的大小顺序。",
    "probs.how": "p_v = exp(logit_v) / Σ_u exp(logit_u)，逐行计算。这里{token}的 logits "
                 "{logits} 得到 {probs}。",
    "probs.pitfalls": "注意力份额与这里的概率是两回事，中间还隔着残差、前馈和词表头。手工设定、"
                      "未经训练的参数给出的概率，不代表任何真实模型的判断。",
    "probs.check": "每行之和为 1（{token}：{sum}）。最大的 logit（{logit}，{entry}）得到最大的"
                   "概率（{prob}），概率的排序与 logits 一致。",
    # positions and the QK-norm
    "added.summary": "每个位置的 P 行加到该位置词元的行上：X = 词元行 + P。",
    "added.why": "注意力本身不知道词元在哪个位置：交换两个词元，所有份额只是跟着换位。加上一行随"
                 "位置而变的数，同一个词元在两个位置上就成了两行不同的数。",
    "added.how": "逐个数相加：X 的第 p 行 = 词元行 + P 的第 p 行。{token}（位置 {position}）："
                 "{tokens} + {table} = {x}。",
    "added.pitfalls": "P 只取决于位置，与词元无关；它被加进词元行里，后面的步骤无法再把两者分开。",
    "added.check": "X 中{token}那一行减去它的词元行，得到 P 的第 {position} 行：{table}。",
    "types.summary": "每个词元在类型表 T 中的行（它所在的句段）加到它的行上：{out} = 词元行 + T。",
    "types.summary_positions": "每个位置在 P 中的行和每个词元在类型表 T 中的行（它所在的句段）"
                               "都加到它的行上：{out} = 词元行 + P + T。",
    "types.why": "BERT 一次读两个句段（一个问题和它的段落，或两个句子）：每个句段一行可学习的数，"
                 "让后面每一步都能分辨一个词元来自哪个句段。",
    "types.how": "逐个元素地，{out} 的第 p 行是在 p 处加上的各行之和。对{token}（位置 {position}，"
                 "类型 {kind}）：{rows} = {x}。",
    "types.pitfalls": "类型行只取决于句段，与词元和它的位置都无关：类型全是 0 时，每个词元加上的是"
                      "同一行，只是把它们一起平移。",
    "types.check": "{out} 中{token}的行减去加上的其他各行，得到的正是类型表的第 {kind} 行："
                   "{table}。",
    "rope.summary": "RoPE 把 q 和 k 的每一对列按所在位置转过角度 p·θᵢ；每一对长度不变，只改变"
                    "方向。",
    "rope.why": "注意力本身不知道词元在哪个位置。让 q 和 k 转过随位置增长的角度，q·k 就取决于两个"
                "位置相距多远，而不是它们各自在哪里。",
    "rope.how": "每个头的第 i 对转过 p·θᵢ，θᵢ = base^(−2i/r)：(x, y) 变成 (x·cos − y·sin, "
                "x·sin + y·cos)。{token}（位置 {position}）：q = {q} 变成 {turned}。{scaled}{own}"
                "{unscaled}",
    "rope.own_base": "本层有自己的基数 {base}，而这一栈的基数是 {stack}：本层的 θᵢ 是 "
                     "{base}^(−2i/r)，各对列的转速因此与其他层不同。",
    "rope.scaled_linear": "频率经过缩放（linear）：每个 θᵢ 都除以 {factor}。",
    "rope.scaled_llama3": "频率经过缩放（llama3）：波长 2π/θᵢ 小于 {short} 的对保留 θᵢ，大于 "
                          "{long} 的对把它除以 {factor}，介于两者之间的对在两者间平滑过渡。",
    "rope.scaled_longrope": "频率经过缩放（longrope）：每一对的 θᵢ 除以它自己的短系数，cos 和 sin "
                            "乘以 {attention}。",
    "rope.scaled_yarn": "频率经过缩放（yarn）：第 {start} 对之后的对沿斜坡从 θᵢ 过渡到 "
                        "θᵢ/{factor}，到第 {end} 对完全到达；cos 和 sin 乘以 {attention}。",
    "rope.unscaled": "本层不采用这一栈的 {kind} 缩放：它的 θᵢ 就是基数给出的值，其他层的 θᵢ "
                     "则经过缩放。",
    "rope.pitfalls": "V 不转动，X 上也不加任何东西。转过 2π 等于没转，所以转得快的一对分不清很远的"
                     "位置，转得慢的一对才行。",
    "rope.check": "长度不变：{token}的 |q| 转动前是 {before}，转动后是 {after}。位置 0 不转动："
                  "{turned} 中{first}那一行等于 {q} 中的同一行。",
    "qk_norm.head": "（第 {head} 个头）",
    "qk_norm.summary": "每个头的 q 和 k 在做点积之前各自做 {norm}。",
    "qk_norm.why": "q 或 k 的行太大时，分数会大到 softmax 几乎把全部份额交给一个键。对每个头的 "
                   "q、k 做规范化，分数才不会失控。",
    "qk_norm.how": "对每个头的 {d_k} 列 q 做 {norm}（ε = {eps}），再乘 γ{suffix}；k 同样处理，"
                   "乘 γ_k。这里{head}{token}的 q {q} 变为 {normed}。",
    "qk_norm.pitfalls": "只规范化 q 和 k，不动 v；规范化只在一行中一个头的几列内部进行，从不跨"
                        "位置。γ_q、γ_k 是可学习参数，没有 β。",
    "qk_norm.pitfalls_shift": "只规范化 q 和 k，不动 v；规范化只在一行中一个头的几列内部进行，"
                              "从不跨位置。γ_q、γ_k 和这个 LayerNorm 的平移 β_q、β_k 都是可学习"
                              "参数。",
    "qk_norm.summary_all": "所有头的 q 列放在一起做 {norm}，k 列也一样，然后才分成各个头做点积。",
    "qk_norm.why_all": "q 或 k 的行太大时，分数会大到 softmax 几乎把全部份额交给一个键。把所有头的 "
                       "q 放在一起规范化，k 也一样，分数才不会失控。",
    "qk_norm.how_all": "对 q 的全部 {width} 列一起做 {norm}（ε = {eps}），再乘 γ{suffix}；k 的 "
                       "{k_width} 列同样处理，乘 γ_k。这里{token}的 q {q} 变为 {normed}。",
    "qk_norm.pitfalls_all": "只规范化 q 和 k，不动 v。规范化跨越一行中所有头的列，所以一个头的 q "
                            "很大时，其他头的 q 也会被压小；但从不跨位置。γ_q、γ_k 每列一个数，"
                            "是可学习参数，没有 β。",
    "qk_norm.pitfalls_shift_all": "只规范化 q 和 k，不动 v。规范化跨越一行中所有头的列，所以一个"
                                  "头的 q 很大时，其他头的 q 也会被压小；但从不跨位置。γ_q、γ_k "
                                  "和这个 LayerNorm 的平移 β_q、β_k 每列一个数，都是可学习参数。",
    "qk_norm.check": "去掉 γ{suffix} 的作用：{token}{head}规范化后的 q ÷ γ{suffix} 平方的平均值"
                     "为 {square}，接近 1。",
    "qk_norm.check_shift": "去掉 β{suffix} 和 γ{suffix} 的作用：({token}{head}规范化后的 q − "
                           "β{suffix}) ÷ γ{suffix} 平方的平均值为 {square}，接近 1。",
    # around the cross-attention
    "cross_norm.summary": "进入交叉注意力之前，{source} 的每一行各自用本块的 {norm} 重新定标。",
    "cross_norm.why": "交叉注意力的查询来自这条主干；先把每行拉到统一尺度，它们的分数才不会失控。"
                      "在 pre-norm 中，未经处理的 {source} 仍沿残差通路直接往后走。",
    "cross_norm_post.summary": "post-norm 中，交叉残差的和（主干加交叉注意力输出）逐行做 "
                               "{norm}。",
    "cross_norm_post.why": "把交叉注意力输出加到主干上之后，各行的大小可能改变；post-norm 在前馈"
                           "读取之前把这个和拉回统一尺度。",
    "cross_resid.summary": "把交叉注意力输出逐位置加回主干 {source}：交叉残差。",
    "cross_resid.how": "{out} = {source} + {attn}，逐个数相加。{token}：{sum}。",
    "cross_resid.pitfalls": "残差只是普通加法，没有可学习的数，既不做规范化，也不求平均。",
    "cross_resid.check": "做减法：{out} − {source} 的每一格都等于交叉注意力输出。",
    "cache.after": "{told}{cache}",
    "cache.projection": "生成第 {t} 个 Token（{token}，位置 p{p}）：前 {earlier} 个位置的 K 和 V "
                        "来自 KV 缓存{window}；只计算新的一行（1 行，而不是 {n} 行）。{groups}",
    "cache.window": "（其中 {dropped} 个已移出大小为 {w} 的窗口，不再读取）",
    "cache.groups_one": "缓存每个位置只存 g = 1 个 K/V 头，由 {h} 个 Query 头共用。",
    "cache.groups_many": "缓存每个位置存 g = {g} 个 K/V 头，由 {h} 个 Query 头共用。",
    "cache.memory": "生成第 {t} 个 Token（{token}，位置 p{p}）：编码器记忆的 K 和 V（{m} 行）在"
                    "编码器运行时只算一次，每个 Token 都复用；只计算新的 Query 一行。",
    "cache.queries": "生成第 {t} 个 Token（{token}，位置 p{p}）：现在只计算新的一行，即新的 Query "
                     "与它能看到的 {seen} 个 Key；前 {earlier} 行在之前的 Token 时已算过（1 行，"
                     "而不是 {n} 行）。",
    # 挡住键的规则、共用的 K/V 头（app.texts.mask_plans）
    "mask.causal": "因果掩码（位置 i 读键 0 … i）",
    "mask.window": "大小为 {w} 的窗口（位置 i 读键 {first} … i）",
    "mask.window_open": "大小为 {w} 的窗口（位置 i 不读 {first} 之前的键）",
    "mask.keys": "键掩码（填充键{keys}从不被读）",
    "mask.name_causal": "因果掩码",
    "mask.name_window": "大小为 {w} 的窗口",
    "mask.name_keys": "键掩码",
    "mask.name_shares": "softmax 份额",
    "kv.reads_one": "Query 头 {head} 读 K/V 头 {kv}",
    "kv.reads_many": "Query 头 {first}–{last} 读 K/V 头 {kv}",
    "projections.kv_shared_one": "K 和 V 只有 1 个头，由 {h} 个 Query 头共用：{reads}。",
    "projections.kv_shared": "K 和 V 只有 {g} 个头，由 {h} 个 Query 头共用：{reads}。",
    "scores.later_rule": "斜线格的分数仍在表中，但{rule}会让下一步把它们排除。",
    "weights.summary_rule": "先去掉被{rule}挡住的键，再用 softmax 把每行分数变成非负且和为 1 "
                            "的份额。",
    "weights.why_rule": "一个位置能读哪些键由{rule}决定；被挡住的键份额恰好为 0。",
    "weights.drop_rule": "去掉被挡住的键，",
}
"""Sentence id → Chinese template."""

BLOCK: dict[str, str] = {
    "row_statistics": "逐行统计",
    "mean": "μ",
    "variance": "σ²",
    "divisor": "√(σ²+ε)",
    "mean_square": "mean(x²)",
    "rms_divisor": "√(mean(x²)+ε)",
    "layer_formula": "LayerNorm，每行各自计算：(x − μ) / √(σ² + ε) · γ + β，ε = {eps}",
    "rms_formula": "RMSNorm，每行各自计算：x / √(mean(x²) + ε) · γ，ε = {eps}"
                   "（不减均值，不用 β）",
    "layer_row": "第 {token} 行：(x − {mean}) / {divisor} · γ + β",
    "rms_row": "第 {token} 行：x / {divisor} · γ",
    "norm_none": "不做规范化：{out} 就是 {source} 的副本（在编辑器中选 LayerNorm 或 "
                 "RMSNorm 才会逐行缩放）",
    "stat_mean": "{token} 行的 μ = 其 {d} 个数的平均 = {value}",
    "stat_variance": "{token} 行的 σ² = (x − μ)² 的平均 = {value}",
    "stat_divisor": "√(σ² + ε) = √({variance} + {eps}) = {value}",
    "stat_mean_square": "{token} 行的 mean(x²) = {value}",
    "stat_rms_divisor": "√(mean(x²) + ε) = √({mean_square} + {eps}) = {value}",
    "residual_note": "残差通路：每个位置加上自己这一行的子层输出，位置之间不交换信息",
    "parallel_note": "并行的层：注意力（经 norm1）和前馈（经 norm2）都读 {source}；"
                     "两者的输出一次加回到它上面，只有一次残差",
    "z_title": "z = {source}·W1",
    "z_bias": " + b1",
    "hidden_title": "隐藏 = {activation}(z)",
    "gate_z_title": "z = {source}·Wg",
    "gate_title": "门 = {activation}(z)",
    "up_title": "上投影 = {source}·W1",
    "times_gate": "⊙ 门 =",
    "gated_hidden_title": "隐藏 = 上投影 ⊙ 门",
    "relu_marked": "▸ 角标：被 ReLU 置零",
    "gelu_note": "GELU(z) = z·Φ(z)",
    "silu_note": "SiLU(z) = z·σ(z)",
    "gelu_tanh_note": "GELU(z) ≈ 0.5·z·(1 + tanh(√(2/π)·(z + 0.044715·z³)))",
    "identity_note": "恒等：隐藏 = z",
    "ffn_out_title": "ffn_out = 隐藏·W2",
    "transform_pre_title": "z = {source}·W + b",
    "transform_norm": "→ LayerNorm，ε = {eps}，再 ·γ + β →",
    "transform_title": "变换（送往词表）",
    "ffn_out_bias": " + b2",
    "logits_title": "logits = {source}·unembed",
    "logits_note": "每个词表项一个分数；下一步把每行变成概率",
    "softmax_rows": "→ 逐行 softmax →",
    "softcap_arrow": "→ {cap} · tanh(x / {cap}) →",
    "softcap_uncapped": "未截断的 logits",
    "softcap_capped": "logits（截断在 ±{cap}）",
    "softcap_note": "每项都弯向 ±{cap}；小的 logit 几乎不变，大小顺序从不改变",
    "probs_title": "词表上的概率",
    "fill_blank": "填空：第 {position} 个位置的 [MASK] → {entry}（{p}）；其次是 {others}",
    "fill_separator": "、",
    "probs_receiver": "{token}（接收者）",
    "probs_legend": "条长 = 概率；每个位置的各条之和为 1",
    "probs_receiver_only": "共 {n} 个位置：只显示接收者；可在“接收者”中换一个",
    "probs_top": "{v} 项中概率最高的 {k} 项",
    "probs_others": "其余 {count} 项",
    "logits_top": "{token}：概率最高的 {k} 项的分数",
    "logits_others": "其余 {count} 个分数在 {low} 到 {high} 之间",
    "embed_ids": "Token 编号",
    "embed_id": "编号",
    "embed_table": "嵌入表",
    "embed_pick": "取出这些行 →",
    "embed_x": "X · 取出的行",
    "embed_picked": "取出的行",
    "embed_picked_name": "取出的行",
    "embed_scaled": "词元行 × {scale}",
    "embed_scale_note": "取出的每一行先乘以 embedding_scale = {scale}，再加上别的行",
    "embed_row": "{token} ← {id}",
    "embed_pair": "{token} → 第 {id} 行",
    "embed_note": "每个编号取出表中的一行：{pairs}",
    "head_band": "第 {n} 头",
    "head_band_ablated": "第 {n} 头 ✕",
    "concat_ablated": "已消融、输出在 Wo 之前置为 0 的头：第 {heads} 头",
    "concat_title": "拼接 → 宽度 {width}",
    "concat_wo": "{h} 个头 × {d_v} = 宽度 {width}，再乘 Wo（{width}×{d_out}）得每个位置 "
                 "{d_out} 个数",
    "concat_no_wo": "{h} 个头 × {d_v} = 宽度 {width}：即注意力输出",
    "output_width": "输出 · 宽度 {d_out}",
    "compare_header": "对比 · A：{a}  |  B：{b}",
    "side": "{side} · {label}：{title}",
    "differs_title": "本步中不同的数组（B − A）",
    "b_minus_a": "B − A · {name}",
    "max_difference": "最大 |B − A| = {value}",
    "identical": "A 与 B 相同：{names}",
    "differs_elsewhere": "也不同（其 B − A 画在写出它的那一步）：{names}",
    "only_a": "只在 A 中：{names}",
    "only_b": "只在 B 中：{names}",
    "reshaped": "形状不同：{name} 在 A 中为 {a}，在 B 中为 {b}",
    "nothing_differs": "本步显示的数组在 A 与 B 中完全相同",
}
"""Words drawn on the decoder-block, embedding, multi-head and comparison frames.
Ids ``block.*``."""

CACHE_MARKS: dict[str, str] = {
    "heading": "KV 缓存 · 第 {t} 个生成的 Token",
    "reused": "K、V 第 {rows} 行：从缓存复用（- - - 虚线框）",
    "dropped": "K、V 第 {rows} 行：已移出大小为 {w} 的窗口，缓存中不再读取"
               "（-·- 点划线框）",
    "queries_earlier": "Q 第 {rows} 行：在之前的 Token 时已算过，不必保留"
                       "（··· 点线框）",
    "new_row": "第 {row} 行：新的一行，现在计算（━ 实线框）"
               "· 只算 1 行，而不是 {n} 行",
    "groups_one": "缓存每个位置只存 g = 1 个 K/V 头（h = {h} 个 Query 头共用）",
    "groups_many": "缓存每个位置只存 g = {g} 个 K/V 头（Query 有 h = {h} 个头）",
    "memory": "编码器记忆的 K、V（第 {rows} 行）：编码器运行时只算一次"
              "（- - - 虚线框）",
    "earlier": "第 {rows} 行：在之前的 Token 时已算过（··· 点线框）",
    "new_query": "第 {row} 行：新的 Query，现在与它能看到的 {seen} 个 Key 计算"
                 "（━ 实线框）",
    "tag_reused": "← 缓存",
    "tag_dropped": "← 已出窗口",
    "tag_earlier": "← 之前已算",
    "tag_new": "← 新",
    "tag_once": "← 只算一次",
    "range": "p{a}–p{b}",
    "single": "p{a}",
}
"""Words drawn on the KV-cache marks of a generated token's attention frames (ids
``cache_marks.*``)."""

CANVAS: dict[str, str] = {
    "worked_title": "逐项计算“{token}”这一行{head}：{stage}",
    "stage_scores": "分数",
    "stage_shares": "份额",
    "stage_mix": "混合 V",
    "score": "s",
    "worked_head": "（第 {n} 个头）",
    "key": "键",
    "dot": "q·k",
    "scaled": "÷ √{d_k} = s",
    "unscaled": "s（未缩放）",
    "capped": "c · tanh(s / c)，软截断",
    "exp": "exp(s − max)",
    "share": "份额",
    "masked": "✕ 被掩码，不读",
    "total": "合计",
    "output": "输出行",
    "map_title": "当前位置",
    "embed": "嵌入",
    "inputs": "X 与 W",
    "projections": "Q/K/V",
    "projections_heads": "Q/K/V ×{heads}",
    "scores": "分数",
    "weights": "softmax",
    "weights_masked": "掩码 + softmax",
    "mix": "混合 V",
    "mix_wo": "混合 V · Wo",
    "resid": "+ 残差",
    "resid_parallel": "+ 注意力 + 前馈",
    "norm": "{norm}",
    "norm_parallel": "输入的{norm}",
    "norm_word": "规范化",
    "no_norm": "无规范化",
    "final_norm": "最终{norm}",
    "qk_norm": "QK {norm}",
    "ffn": "前馈",
    "router": "路由器",
    "experts": "专家",
    "transform": "掩码变换",
    "positions": "+ 位置编码",
    "types": "+ 类型",
    "positions_types": "+ 位置编码 + 类型",
    "embedding_norm": "嵌入 {norm}",
    "rope": "RoPE 转动 q、k",
    "logits": "词表分数",
    "softcap": "软截断 c·tanh",
    "probs": "概率",
    "loss": "损失 −ln p",
    "sample": "抽取下一个 Token",
    "map_step": "第 {n} 步：{label}",
    "map_layer": "{layer}：那一层的同一步",
    "map_layers": "{layers}：{layer}的同一步",
}
"""The worked row and the route map drawn on a frame. (ids ``canvas.*``)."""

EDIT: dict[str, str] = {
    "cell": "{place} = {value}",
    "ablate_on": "消融第 {head} 个头（输出为 0）",
    "ablate_off": "恢复第 {head} 个头",
    "paste": "粘贴 {shape} 到 {name}",
    "import": "把 {source} 导入 {name}",
    "resize": "改变尺寸 {changes}",
    "attention.causal_on": "开启因果掩码",
    "attention.causal_off": "关闭因果掩码",
    "attention.scale_on": "开启缩放",
    "attention.scale_off": "关闭缩放",
    "block.final_norm_on": "最终 Norm 开",
    "block.final_norm_off": "最终 Norm 关",
    "block.norm": "Norm 改为 {value}",
    "block.placement": "规范化顺序改为 {value}-norm",
    "block.ffn.activation": "激活函数改为 {value}",
    "block.eps": "ε 改为 {value}",
    "block.pre_norms_on": "开启子层前的规范化",
    "block.pre_norms_off": "关闭子层前的规范化",
    "attention.scale_dk": "分数改为 ÷ √{value}",
    "attention.scale_dk_default": "分数改回 ÷ √dₖ",
    "attention.rope_base": "本层 RoPE 基数改为 {value}",
    "attention.rope_base_default": "改用这一栈的 RoPE 基数",
    "attention.rope_scaled_on": "采用这一栈的 RoPE 缩放",
    "attention.rope_scaled_off": "不用这一栈的 RoPE 缩放",
    "display.decimals": "小数位数 = {value}",
    "option": "{name} 改为 {value}",
    "option_on": "开启 {name}",
    "option_off": "关闭 {name}",
    "tokens": "Token {col} = {text}",
    "block.vocab": "词表 {col} = {text}",
    "head.vocab": "词表 {col} = {text}",
    "encoder.tokens": "源 Token {col} = {text}",
    "block_on": "添加解码块",
    "block_off": "移除解码块",
    "head_on": "添加词表头",
    "head_off": "移除词表头",
    "layer_name": "第 {n} 层",
    "encoder_layer_name": "编码器第 {n} 层",
    "layer_add": "添加{layer}",
    "layer_remove": "删除{layer}",
    "layer_duplicate": "复制{layer}",
    "layer_up": "{layer}上移",
    "layer_down": "{layer}下移",
    "swap": "交换 Token {i}“{a}”与 {j}“{b}”",
    "positions": "位置编码：{kind}",
    "positions_none": "无",
    "positions_sinusoidal": "正弦",
    "positions_learned": "可学习",
    "positions_rope": "RoPE",
    "positions_alibi": "ALiBi",
    "append_token": "追加 Token {id}“{text}”",
    "generation_greedy": "生成：贪心",
    "generation_temperature": "生成：温度 = {value}",
    "generation_top_k": "生成：top-k = {value}",
    "generation_top_k_off": "生成：关闭 top-k",
    "generation_top_p": "生成：top-p = {value}",
    "generation_seed": "生成：随机种子 = {value}",
}
"""The names of the document's edits (undo steps, status lines). (ids ``edit.*``)."""

EXERCISE: dict[str, str] = {
    "action": "练习(&X)",
    "action_tip": "遮住画面中的格子，先预测，再检查（右侧的面板）",
    "toggle": "练习",
    "toggle_name": "练习模式：预测空格",
    "close_panel": "关闭练习面板",
    "float_panel": "让练习面板浮动",
    "panel": "练习",
    "chooser": "练习(&X)：",
    "chooser_name": "要回答的练习",
    "none": "这个文档还没有练习：在“教师”下新建一个。",
    "step_of": "步骤：{title}",
    "blank_name": "{what}，空格",
    "blank": "空格",
    "blank_right": "空格，已检查 ✓ 正确",
    "blank_wrong": "空格，已检查 ✗ 错误",
    "save_answers": "把答案另存为(&N)…",
    "save_answers_tip": "把本文档连同你的答案另存一份（本文档保持不变）；"
                        "打开那份副本即可恢复答案",
    "save_answers_dialog": "把你的答案另存为副本",
    "save_answers_filter": "场景文档 (*.qkv.json)",
    "answers_saved": "答案已保存到 {path}（本文档没有改动）",
    "answers_not_over_open": "未保存：{path} 就是当前打开的文档。"
                             "答案只保存为副本：请换一个文件名。",
    "answers_not_saved": "答案未能保存到 {path}：{problem}",
    "answers_title": "答案未保存",
    "blank_tip": "你对 {what} 的预测",
    "share_cell": "{query} 给 {key} 的份额",
    "head_cell": "第 {head} 个头：",
    "array_cell": "{name} 中 {row} 一行第 {col} 列",
    "check": "检查(&C)",
    "check_name": "检查预测",
    "reveal": "揭晓(&R)",
    "reveal_name": "揭晓全部答案",
    "again": "重做(&T)",
    "right": "✓ 正确：{value}",
    "wrong": "✗ 错误：你写的是 {predicted}，答案是 {value}",
    "missing": "✗ 未填写：答案是 {value}",
    "not_number": "✗ “{text}”不是数：答案是 {value}",
    "revealed": "答案：{value}",
    "differs": "第一个不同的项：{term}",
    "score": "{count} 个中对了 {right} 个",
    "verdict_name": "{what}：{verdict}",
    "rise": "变大",
    "fall": "变小",
    "same": "不变",
    "direction_question": "如果 {edit} 增加 {by}，{watch} 会怎样？",
    "unchanged_question": "下面哪些修改不会改变 {watch}？（全部勾选）",
    "choice": "{name}[{cell}] + {by}",
    "ablation_question": "{heads}，{watch} 会怎样？",
    "ablation_one": "关闭{where}的第 {heads} 个头",
    "ablation_many": "关闭{where}的第 {heads} 个头",
    "ablation_one_only": "关闭第 {heads} 个头",
    "ablation_many_only": "关闭第 {heads} 个头",
    "layer": "第 {n} 层",
    "encoder_layer": "编码器第 {n} 层",
    "cross_layer": "第 {n} 层交叉注意力",
    "ablation_right": "✓ 正确：{watch}{way}：{before} → {after}",
    "ablation_wrong": "✗ 错误：{watch}{way}（关闭这些头后算出）：{before} → {after}",
    "direction_right": "✓ 正确：{watch}{way}",
    "direction_wrong": "✗ 错误：{watch}{way}（在修改后的文档上算出）",
    "unchanged_right": "✓ 正确：恰好这些不改变 {watch}：{choices}",
    "unchanged_wrong": "✗ 错误：不改变 {watch} 的是：{choices}",
    "no_choice": "没有",
    "teacher": "教师",
    "hide": "遮住(&H)：",
    "hide_outputs": "这一步的输出",
    "hide_row": "当前查询行的份额",
    "hide_cells": "在画面上点选的格子",
    "hide_auto": "由程序选择",
    "difficulty": "难度(&D)：",
    "difficulty_name": "程序遮住几个格子",
    "title_en": "标题（English）",
    "title_zh": "标题（中文）",
    "prompt_en": "题目（English）",
    "prompt_zh": "题目（中文）",
    "add": "在这一步新建练习(&N)",
    "apply_texts": "设定标题和题目",
    "remove": "删除练习",
    "ask_direction": "提问：变大还是变小？",
    "ask_unchanged": "提问：哪个修改不改变它？",
    "ask_ablation": "提问：关闭一个头会怎样？",
    "default_title": "预测：{step}",
    "default_prompt": "用手算出被遮住的数，再按“检查”。",
    "direction_title": "变大还是变小？",
    "unchanged_title": "哪个修改什么也不改变？",
    "ablation_title": "没有这个头会怎样？",
    "click_hint": "点击画面上的格子，遮住它或重新显示。",
    "edit_add": "新建练习“{title}”",
    "edit_remove": "删除练习“{title}”",
    "edit_change": "修改练习“{title}”",
    "edit_cell": "练习“{title}”：遮住或显示 {name}[{cell}]",
    "nothing_to_hide": "当前这一步没有可遮住的数。",
}
"""Exercise mode: the panel, its blanks and verdicts, the teacher's choices.
Ids ``exercise.*``."""

FRAME: dict[str, str] = {
    "heading": "第 {n} 步（共 {count} 步）· {title}",
    "ablated_mark": " · 已消融：0",
    "part_title": "{title}（{k}/{count}）",
    "reads": "读取：",
    "writes": "写入：",
    "nothing": "—",
    "input_rows": "X · 输入行",
    "head": " · 第 {n} 头",
    "head_of": " · 第 {n} 头（共 {h} 头）",
    "scores": "分数",
    "scores_uncapped": "截断前的分数",
    "scores_capped": "分数（截断在 ±{cap}）",
    "scores_cap_arrow": "→ {cap} · tanh(s / {cap}) →",
    "shares": "份额",
    "mixed": "混合结果",
    "mixed_joined": "混合结果（各头拼接）",
    "encoder_memory": "编码器记忆",
    "memory": "记忆",
    "qk_norm_op": "→ 每个头各自 {norm} ·",
    "qk_norm_all_op": "→ 所有头一起 {norm} ·",
    "router_logits": "路由 logits",
    "router_softmax": "→ 对各专家做 softmax →",
    "router_shares": "份额（▲ 为选中）",
    "router_top": "→ 取最大的 {k} 个 →",
    "router_chosen": "选中的专家",
    "router_weights": "权重（÷ 它们的和）",
    "router_weights_raw": "权重（即份额）",
    "expert_choice": "第 {rank} 个选择：其专家的输出",
    "experts_sum": "Σ 权重 · 输出 =",
    "experts_run": "→ 选中专家的前馈 →",
    "experts_shared_sum": "Σ 权重 · 输出 + 门控 · 共享 =",
    "shared_input": "x ·",
    "shared_sigmoid": "→ σ →",
    "shared_weight": "共享专家的门控",
    "shared_run": "x → 共享专家的前馈 →",
    "shared_out": "共享专家的输出",
    "attention_output": "注意力输出",
    "softmax": "→ softmax →",
    "scaled_note": "÷ √{d_k} = {root}",
    "not_scaled_note": "未缩放",
    "mask_note": "斜线格在下一步被掩码遮住",
    "mask_note_causal": "斜线格在下一步被因果掩码遮住",
    "mask_rule": "斜线格被{rule}遮住。",
    "kv_shared_note": "共用的 K/V（g = {g}，h = {h}）：{reads}",
    "corner_note": "结果的每一格 = 左边同一行 · 上面同一列",
    "rows_sum_note": "每行之和为 1",
    "masked_zero_note": "被遮住的份额恰好为 0",
    "note_join": "；",
    "who_reads": "“{token}”读谁、读多少",
    "query": "查询 Query",
    "key": "键 Key",
    "key_encoder": "键 Key（编码器）",
    "kv_group": "（K/V 第 {n} 组）",
    "masked": "✕ 已遮住",
    "arrow_legend": "箭头粗细与不透明度 = 份额",
    "rows_sum_legend": "每行份额之和为 1",
    "legend_other": "灰色淡线：其他查询的箭头",
    "legend_heads": "淡线：其他查询的箭头；颜色：注意力头",
    "arrow_filter": "每行只画前 {top_k} 个及份额 ≥ {min_share} 的箭头",
    "large_note": "共 {cells} 格：{shown}；悬停任意格可看其数值",
    "large_highlighted": "只印出高亮行的数字",
    "large_colours": "只显示颜色",
    "heat_cell": "热图：一个方块是一格",
    "heat_block": "热图：一个方块是 {down}×{across} 格的平均值",
    "heat_hint": "热图：把指针停在一格上，显示它的数值",
    "in_view": "视野内：{title}，第 {rows} 行、第 {cols} 列",
    "parameter_tip": "{name}[{index}] = {value}：可编辑的参数",
    "share_from_to": "从 {query} 到 {key} 的份额：{share}",
    "share_masked": "{key} 对 {query} 被遮住",
    "frame_summary": "第 {n} 步（共 {count} 步）：{title}。",
    "head_prefix": "第 {n} 头：",
    "choice_prefix": "第 {n} 个选择，专家 {e}：",
    "row_values": "{name} 中“{token}”一行：{values}",
}
"""Words drawn on the canvas and in exported frames. (ids ``frame.*``)."""

NEXT_TOKEN: dict[str, str] = {
    "share_bars": "抽取所用：保留的 {kept} 项重新归一化（T = {t}）",
    "bars_of": "“{token}”（最后一个位置 {i}）",
    "shown_of": "{v} 项中概率最高的 {k} 项",
    "shown_of_chosen": "{v} 项中概率最高的 {k} 项，以及选中的一项",
    "ranked_title": "按概率从大到小：top-k 与 top-p 保留哪些",
    "col_model": "p（T=1）",
    "col_tempered": "p（T={t}）",
    "col_running": "累计概率",
    "col_running_k": "前 {k} 项内累计",
    "past_note": "“—”：在 top-{k} 截断之外，top-p 不再累计",
    "col_share": "份额",
    "kept_mark": "✓ 保留",
    "cut_mark": "✗ 截掉",
    "chosen_mark": "◆ 选中",
    "ranked_row": "{rank}. {entry} {mark}",
    "settings": "温度 T = {t} · top-k = {k} · top-p = {p}：{v} 项中保留 {kept} 项",
    "all_entries": "全部",
    "top_p_mass": "top-p：按概率从大到小、累计概率达到 {p} 的最小集合：前 {kept} 项累计 "
                  "{mass}",
    "no_top_p": "top-p = 1：不按累计概率截断",
    "entropy": "熵：模型 {model} 奈特 · 调温后 {tempered} 奈特 · 保留的份额 {shares} 奈特",
    "chosen": "选中：“{entry}”（编号 {id}），第 t = {t} 次抽取，种子 {seed}；贪心会选"
              "“{greedy}”",
    "chosen_greedy": "选中：“{entry}”（编号 {id}），概率最高的一项：贪心解码（T = 0）不抽取",
    "appended": "实际追加的是“{entry}”（编号 {id}）：手选的，或在修改模型之前抽到的；"
                "这次抽取得到“{chosen}”",
    "running_text": "前 {rank} 项的概率之和除以 top-k 保留的总概率 = {value}",
    "running_past": "第 {rank} 项在 top-{k} 截断之外：top-p 不再累计它的概率",
    "loss_title": "每个位置的损失",
    "col_p_target": "p(目标)",
    "col_loss": "−ln p",
    "loss_row": "{token} → {entry}（编号 {id}）",
    "loss_mean": "平均损失 = ({terms}) / {n} = {mean}",
    "training": "训练 · 1 次前向计算",
    "training_known": "{n} 个位置一次算出",
    "targets_known": "整行目标已知：{targets}",
    "reads_title": "每个位置读哪些位置",
    "reads_tip": "{query} 读 {other}",
    "hidden_tip": "因果掩码对 {query} 遮住 {other}",
    "answer_tip": "◣ {query} 要预测的 Token",
    "training_why": "1：读到 · “—”：被因果掩码遮住 · ◣ 位置 i + 1，即位置 i 要预测的答案："
                    "被遮住，所以 {n} 个损失可以同时、诚实地算出",
    "training_no_mask": "没有因果掩码：◣ 位置 i 读到位置 i + 1，即它要预测的答案，损失因此"
                        "偏低",
    "generation": "生成 · {n} 次前向计算",
    "generation_prompt": "每个 Token 一次，从提示“{prompt}”开始",
    "generation_reads": "每次读入已有的 Token，追加贪心选出的一个",
    "passes_title": "每一次：读入 → 选出",
    "col_p_chosen": "p(选中)",
    "pass_row": "第 {k} 次：{reads} → {chosen}",
    "generation_why": "{n} 个 Token 需 {n} 次：第 k + 1 次要等第 k 次选出的 Token",
    "passes_count": "前向计算次数：训练 1 · 生成 {n}",
    "generation_refused": "这个文档无法生成：{reason}",
    "worst": "最差：位置 {i}（“{token}” → “{entry}”），损失 {loss}",
}
"""What the pictures of the draw (``sample``) and of the training loss print.
Ids ``next_token.*``."""

POSITION: dict[str, str] = {
    "embedded": "词元行",
    "positions": "位置行 P",
    "with_positions": "X = 词元行 + P",
    "added_note": "每个位置的 P 行加到该位置词元的行上：同一个词元换个位置，得到的行就不同",
    "type_rows": "类型行 T",
    "summed": "{name} = 之和",
    "types_note": "每个词元在类型表中的行（它在 token_types 中的编号，即它所在的句段）也加"
                  "上去：同一个词元在另一个句段得到的行就不同",
    "norm_follows": "下一步对这个和做规范化；规范化的输出就是 X，第一层读取的行",
    "angles": "角度 p·θᵢ（弧度）",
    "pair": "第 {i} 对：第 {a}、{b} 列",
    "theta": "θ{i} = {theta}",
    "turn": "转过 p·θ",
    "dials_q": "{token} 的 q 各对转动后{head}",
    "dials_k": "{token} 的 k 各对转动后{head}",
    "dial_angle": "p·θ{i} = {p}·{theta} = {angle} 弧度",
    "dial_degrees": "= {degrees}°",
    "dial_pair": "({x}, {y}) → ({x2}, {y2})",
    "dial_legend": "虚线箭头：转动前的一对；实线箭头：转动后（长度不变）",
    "rope_note": "RoPE 把 q 和 k 每个头的每一对列按所在位置的角度 p·θᵢ 转动；"
                 "于是 q·k 取决于两个位置相距多远",
    "kept_columns": "每个头的第 {first}–{last} 列不转动",
    "scaled_linear": "θᵢ 经过缩放（linear）：每个都除以 {factor}",
    "unscaled_note": "θᵢ 未经缩放：本层不采用这一栈的 {kind} 缩放",
    "scaled_llama3": "θᵢ 经过缩放（llama3）：波长 2π/θᵢ 小于 {short} 的不变，大于 {long} 的"
                     "除以 {factor}，两者之间平滑过渡",
    "scaled_yarn": "θᵢ 经过缩放（yarn）：从第 {start} 对到第 {end} 对沿斜坡过渡到 "
                   "θᵢ/{factor}；cos 和 sin × {attention}",
    "scaled_longrope": "θᵢ 经过缩放（longrope）：每个都除以它那一对的短系数；cos 和 sin × "
                       "{attention}",
    "qk": "q·k",
    "alibi": "ALiBi 偏置",
    "scores_biased": "分数 = q·k + 偏置",
    "alibi_note": "偏置 = −斜率 · 距离：越靠前的键扣得越多（斜率 {slope}）",
    "head": " · 第 {n} 个头",
    "positioned": "{token} · p{p}",
    "equal_distance": "分数[{a}] = 分数[{b}] = {value}：q 行和 k 行都一样，两次都相距 {d} 个"
                      "位置。用了 RoPE，分数只取决于两个位置之间的距离，与它们在哪里无关",
}
"""Words drawn on the positional-encoding pictures (added rows, RoPE, ALiBi).
Ids ``position.*``."""

WORKSHEET_DIALOG: dict[str, str] = {
    "action": "导出练习单(&W)…",
    "action_tip": "把文档中的练习打印成 A4 练习单，可同时生成参考答案和可编辑的幻灯片",
    "no_exercises": "这个文档没有练习：请先在“视图 → 练习”中创建一个",
    "title": "导出练习单",
    "exercise": "练习(&X)：",
    "exercise_name": "要打印哪个练习",
    "all": "全部 {count} 个练习",
    "one": "{number} · {title}",
    "lang": "语言(&L)：",
    "lang_name": "练习单、参考答案和图中文字的语言",
    "variants": "变式(&V)：",
    "variants_name": "换成便于手算的数的练习单",
    "own_numbers": "文档自己的数",
    "variants_tip": "K 份练习单，数换成整数和半数，并保证份额仍有差别；"
                    "每份练习单和参考答案都印有变式编号",
    "seed": "种子(&E)：",
    "seed_name": "变式取数的种子",
    "seed_tip": "相同的种子得到相同的变式",
    "key": "同时写出参考答案（PDF）(&A)",
    "key_name": "参考答案",
    "deck": "同时写出可编辑的幻灯片（PowerPoint）(&S)",
    "deck_name": "可编辑的幻灯片",
    "save_to": "保存到(&T)：",
    "save_to_name": "练习单文件",
    "browse": "浏览(&B)…",
    "browse_name": "选择练习单的保存位置",
    "key_to": "参考答案：",
    "key_to_name": "参考答案文件",
    "deck_to": "幻灯片：",
    "deck_to_name": "幻灯片文件",
    "export": "导出",
    "cancel": "取消",
    "save_as": "练习单另存为",
    "pdf_files": "PDF 文档 (*.pdf)",
    "planning": "正在计算练习单…",
    "painting": "正在绘制练习单的页面…",
    "writing": "正在写出练习单…",
    "failed": "练习单没有写出",
    "no_destination": "请选择练习单的保存位置。",
    "same_file": "练习单、参考答案和幻灯片必须是不同的文件：{path} 被用了两次。",
    "written": "已写出练习单：{files}",
    "cancelled": "练习单没有写出：已取消",
}
"""File → Export worksheet…: the menu entry, its dialog, progress, messages.
Ids ``worksheet_dialog.*``."""

WORKSHEET: dict[str, str] = {
    "sheet": "练习单 · {title}",
    "key": "参考答案 · {title}",
    "variant": "第 {number} 份",
    "name_line": "姓名：____________________",
    "exercise": "练习 {number} · {title}",
    "continued": "练习 {number} · {title}（续）",
    "working": "演算",
    "how_to_check": "如何判断是否做对：{sentence}",
    "check_projection": "Q、K、V 的每一行都是一行输入乘以一张参数表——"
                        "用表中对应的列把每张表各重算一列来核对。",
    "check_scores": "每个分数是查询行与键行的点积再除以 √dₖ（或步骤标题写出的那个平方根；"
                    "步骤标题写有软截断时，再取 c · tanh(s / c)）；被掩码的格子不参与。",
    "check_weights": "把你算出的每一行份额加起来，和 softmax 对每一行的保证比一比；"
                     "被掩码的键不分得份额。",
    "check_mix": "每个输出数都落在这一列可见值的最小值和最大值之间，并且更靠近份额大的那些值。",
    "check_other": "根据这一步图中给出的数重算每个空格；参考答案写出了每个值的算式。",
    "check_question": "算出改动后的数，或者从被改的数进入计算的位置推理。",
    "check_ablation": "把这个头的那一段置零，重算注意力之后的各步；"
                      "或者从这个头给残差流加了什么来推理。",
    "given": "{arrays} 中的空格是练习 {exercises} 要填的：请用你在那里的答案。",
    "given_many": "{arrays} 中的空格是练习 {exercises} 要填的：请用你在那里的答案。",
    "frames_of": "图与练习 {number} 的相同。",
    "and": "{first} 和 {last}",
    "comma": "、",
    "parameter_cell": "{name} 第 {row} 行第 {col} 列",
    "parameter_item": "{name} 第 {row} 个数",
    "edit": "修改：{cell} 加 {by}（从 {before} 变为 {after}）。",
    "ablate": "改动：{heads}（被关闭的头在拼接结果中的那一段在 Wo 之前置为 0）。",
    "watch": "观察 {cell}。",
    "watch_array": "观察“{array}”的每一个数。",
    "rise": "变大",
    "fall": "变小",
    "same": "不变",
    "choice": "{letter}. {cell} 加 {by}",
    "tick": "☐",
    "fill_answer": "{cell} = {value}",
    "direction_answer": "{cell} {direction}：{before} → {after}。",
    "unchanged_yes": "{letter}. {cell} + {by}：不变（应勾选）。",
    "unchanged_no": "{letter}. {cell} + {by}：会变，变化最大处是 {where}"
                    "（{before} → {after}）。",
    "tolerance": "误差在 ±{tolerance} 以内算对。",
    "page": "第 {number} 页",
}
"""A printed worksheet and its answer key. (ids ``worksheet.*``)."""

MATRIX: dict[str, str] = {
    "too_long": "文本有 {chars} 个字符；作为矩阵最多读取 {limit} 个",
    "no_numbers": "没有可读的数",
    "at_cell": "第 {row} 行第 {col} 列：{number}",
    "at_item": "第 {col} 项：{number}",
    "brackets": "方括号或逗号对不上（应为 [[1, 2], [3, 4]] 这样的行）",
    "empty_brackets": "方括号里没有数",
    "single_among_rows": "第 {row} 行是单个数，而其他行是一行行的数",
    "nested": "第 {row} 行里还套着列表：只能读取一维或二维矩阵",
    "split": "第 {line} 行：无法拆分单元格（{detail}）",
    "cell_empty": "第 {line} 行第 {col} 格是空的",
    "cell_number": "第 {line} 行第 {col} 格：{number}",
    "ragged": "第 {row} 行有 {count} 个数，而第 1 行有 {width} 个；每行的个数必须相同",
    "ragged_one": "第 {row} 行只有 1 个数，而第 1 行有 {width} 个；每行的个数必须相同",
    "too_large": "{shape} 的矩阵超过了 {limit} 行或 {limit} 列的上限",
    "unreadable": "无法读取（{detail}）",
    "folder": "是文件夹，不是矩阵文件",
    "not_regular": "不是普通文件（是设备还是管道？）",
    "file_too_big": "文件有 {size} 字节；矩阵文件最多 {limit} 字节",
    "not_npy": "不是 NumPy 的 .npy 数组文件",
    "cut_short": "不是 NumPy 的 .npy 数组文件（文件不完整）",
    "pickle": "其中存有 Python 对象，出于安全从不加载",
    "npz": ".npz 压缩包里有多个数组；请用 np.save 把需要的那个另存为 .npy",
    "dtype": "存的是 {dtype} 类型的值，不是普通的数",
    "ndim": "是 {ndim} 维数组；只能导入一维或二维矩阵",
    "empty_array": "数组是空的",
    "nan": "第 {row} 行第 {col} 列是 NaN；只能导入有限的数",
    "infinity": "第 {row} 行第 {col} 列是无穷大；只能导入有限的数",
    "binary": "是二进制文件，不是文本形式的数",
    "text_too_big": "文件有 {size} 字节；作为矩阵读取的文本文件最多 {limit} 字节",
    "open_quote": "第 {line} 行：引号 \" 开了却没有关上",
    "wide_encoding": "是 {encoding} 编码的文本；请另存为 UTF-8",
    "not_utf8": "不是 UTF-8 文本（第 {byte} 字节）",
    "in_file": "{name}：{problem}",
    "fit": "{block} 的数块放不进 {grid}，它在当前尺寸下是 {shape}",
    "fit_at": "从 {place} 粘贴的 {block} 数块放不进 {grid}，它在当前尺寸下是 {shape}",
    "fill": "{block} 的数块填不满 {grid}，它在当前尺寸下是 {shape}（若只想改一部分，"
            "请粘贴到某个单元格）",
    "too_big_for_grid": "{block} 的数块放不进 {grid}，它在当前尺寸下是 {shape}"
                        "（请先改尺寸）",
    "number_empty": "是空的，请输入一个数",
    "number_not": "“{text}”不是数",
    "number_not_finite": "“{text}”不是有限的数",
}
"""Why a pasted or imported matrix was refused. (ids ``matrix.*``)."""

RUN: dict[str, str] = {
    "token": "第 {t} 个 Token“{label}”",
    "token_of": "第 {t} 个 Token（共 {count} 个）“{label}”",
}
"""How a generation run's tokens are named, on the timeline and in exported frames.
Ids ``run.*``."""

EXPORT: dict[str, str] = {
    "picture_too_large": "{size} 像素的图片需要 {asked}；最多只能用 {most}，按这个形状宽度最多 "
                         "{fits} 像素",
    "ffmpeg_missing": "导出 MP4 需要 ffmpeg，但没有找到：请安装它（Debian、Ubuntu："
                      "sudo apt install ffmpeg；Fedora：sudo dnf install ffmpeg-free；"
                      "其他系统：ffmpeg.org），或把 IMAGEIO_FFMPEG_EXE 设为它的路径；"
                      "导出 GIF 不需要 ffmpeg",
    "no_memory": "内存不足，画不出 {width} × {height} 像素的图片：请选较小的宽度或缩放",
    "not_a_folder": "无法写入 {named}：{probe} 不是文件夹",
    "ffmpeg_not_started": "无法写入 {path}：ffmpeg 无法启动（{exe}：{error}）",
    "ffmpeg_failed": "无法写入 {path}：ffmpeg 失败（{detail}）",
}
"""Why an export failed (:class:`app.export.safe.ExportError`; ids ``export.*``)."""

TEXTS: dict[str, str] = {
    "language_name": "简体中文",
    "why": "为什么需要",
    "how": "怎样实现",
    "pitfalls": "可能的代价与误解",
    "check": "如何判断是否做对",
    "check_line": "✓ {heading}：{check}",
}
"""The language's own name (for a language menu), the four headings of every step text, and
the timeline's check line (ids ``texts.*``)."""

GROUPS: dict[str, str] = {
    "embedding": "嵌入",
    "layer": "第 {n} 层",
    "encoder": "编码器",
    "encoder_layer": "编码器 · 第 {n} 层",
    "decoder_layer": "解码器 · 第 {n} 层",
    "head": "输出头",
    "cross": "交叉注意力",
    "cross_step": "交叉注意力 · {step}",
    "layers": "第 {first}–{last} 层",
    "encoder_layers": "编码器 · 第 {first}–{last} 层",
    "decoder_layers": "解码器 · 第 {first}–{last} 层",
}
"""The timeline's groups of steps and the map's runs of layers (ids ``group.*``)."""

MODEL_VIEW: dict[str, str] = {
    "title": "模型总览：{layers} × {heads} 个头，接收者“{token}”（位置 {position}）",
    "head": "{layer} h{head}",
    "legend": "▸ 标出接收者所在的行；每个头旁的数是它在第一个键“{first}”上的平均份额。"
              "悬停查看单元格的份额；点击一个头打开它。",
    "sink_title": "注意力汇聚（attention sink）",
    "sink_what": "softmax 必须把一整份份额分出去，没有值得看的位置时，头就把份额停放在"
                 "第一个键上：这就是注意力汇聚。每个头旁的数就是它在“{first}”上的"
                 "平均份额。",
    "sink_strongest": "这里最强的是 {label}，在“{first}”上的平均份额为 {mean}。",
    "sink_removed": "在 {label} 中去掉位置 0：接收者“{token}”这一行其余的份额都除以 "
                    "1 − {first_share} = {rest}，和重新为 1。",
    "sink_before": "含键 0：  {shares}",
    "sink_after": "去掉后：  {shares}",
    "sink_none": "只有一个位置：去掉位置 0 后没有键可看。",
    "no_attention": "这个文档没有注意力：没有可显示的头。",
    "hover": "{label}：“{query}”（{row}）→“{key}”（{col}）：份额 {share}",
    "hover_masked": "{label}：“{query}”（{row}）→“{key}”（{col}）：被遮蔽",
}
"""The model view of every layer × head and its attention-sink frame (ids ``model_view.*``)."""

LENS: dict[str, str] = {
    "reading": "正在用词表头逐层读出……",
    "title": "逐层读出（logit lens）：假如模型在这 {layers} 层的每一层之后就停下，它会预测什么",
    "title_one": "逐层读出（logit lens）：假如模型在它唯一的一层之前或之后就停下，它会预测什么",
    "legend": "每个单元格把该位置在残差流中的那一行，送进文档自己的最终归一化和词表头，再做 "
              "softmax：格中印出概率最大的词元及其概率。最后一行就是文档本身的概率。▸ 标出接收者"
              "所在的列。悬停单元格可看它概率最大的五个词元。",
    "row_input": "嵌入",
    "row_layer": "L{layer} 之后",
    "row_last": "L{layer} 之后 = 输出",
    "column": "{position}“{token}”",
    "top_entry": "“{label}” 概率 {p}（logit {logit}）",
    "hover": "{row}，位置 {position}“{token}”：{stream} 的第 {position} 行 → 最终归一化 → "
             "词表头 → softmax，p = e^(z − z_max) / Σ e^(z − z_max)。概率最大的：{top}",
}
"""The logit lens (ids ``lens.*``): View → Logit lens and ``export --view lens``."""


LABELS: dict[str, str] = {
    "input.embed": "嵌入",
    "positions.added": "加位置",
    "input.types": "加类型",
    "input.summed": "加类型",
    "input.embedding_norm": "嵌入规范化",
    "positions.rope": "RoPE 旋转",
    "attention.qk_norm": "QK 规范化",
    "attention.inputs": "输入",
    "attention.projections": "投影",
    "attention.scores": "分数",
    "attention.weights": "份额",
    "attention.mix": "混合",
    "block.norm1": "规范化 1",
    "block.resid1": "残差 1",
    "block.norm2": "规范化 2",
    "block.ffn": "前馈",
    "block.router": "路由器",
    "block.experts": "专家",
    "block.resid2": "残差 2",
    "block.norm2_parallel": "规范化 2",
    "block.resid_parallel": "并行残差",
    "block.norm1_post": "后置规范化 1",
    "block.resid2_post": "残差 2",
    "block.norm2_post": "后置规范化 2",
    "block.norm3": "规范化 3",
    "block.norm4": "规范化 4",
    "block.cross_norm": "交叉规范化",
    "block.cross_norm_post": "交叉后置规范化",
    "block.cross_resid": "交叉残差",
    "block.final_norm": "最终规范化",
    "encoder.final_norm": "最终规范化",
    "head.transform": "掩码变换",
    "block.logits": "词表分数",
    "block.softcap": "软截断",
    "block.probs": "概率",
    "block.loss": "损失",
    "block.sample": "抽取",
}
"""A timeline button's word or two, by the step's explain_key (a cross-attention's as a
self-attention's)."""

PRESETS: dict[str, str] = {
    "sizes": "微型、随机生成而非训练所得：d = 8，2 个宽 4 的头，2 层，前馈宽 12，词表是本章的 7 个"
             "词，参数保留 2 位小数。",
    # gpt2
    "gpt2.name": "GPT-2",
    "gpt2.menu": "可学习的位置表、前置 LayerNorm、GELU、共享权重的输出头",
    "gpt2.title": "GPT-2 · 微型预设",
    "gpt2.note": "{sizes}GPT-2（2019）给每个 Token 的嵌入加上它所在位置的一行可学习向量（这里的位"
                 "置表有 8 行），在注意力和前馈之前各做一次 LayerNorm（前置规范化），用 tanh 形式"
                 "的 GELU，处处有偏置；输出头与嵌入共享权重：反嵌入矩阵就是嵌入表的转置。",
    # llama
    "llama.name": "Llama",
    "llama.menu": "RoPE、RMSNorm、SwiGLU 门控、没有偏置",
    "llama.title": "Llama · 微型预设",
    "llama.note": "{sizes}Llama 不给嵌入加任何东西：投影之后，RoPE 把每个头的 q 和 k 转过 p·θ（全"
                  "部 4 列，2 对，base 10000），于是分数取决于距离。RMSNorm 除以均方根，没有平移项"
                  "；前馈是 SwiGLU：silu(x·Wg) 乘以 x·W1，是一道门；没有一层带偏置；输出头有自己的"
                  "参数。",
    # mistral
    "mistral.name": "Mistral",
    "mistral.menu": "Llama 加上分组共享的 K/V 头和滑动窗口",
    "mistral.title": "Mistral · 微型预设",
    "mistral.note": "{sizes}Mistral 7B 是 Llama 的层加两处改动。分组查询注意力：2 个查询头共用 1 "
                    "个 K/V 头，KV 缓存只有一半大。滑动窗口：只有当 i − j < 2 时查询 i 才看得到键 "
                    "j（真实模型是 4096），所以窗口之外的格子即使因果掩码允许也被遮住；后面的层仍"
                    "能间接读到更远的位置。",
    # mixtral
    "mixtral.name": "Mixtral",
    "mixtral.menu": "Mistral 的注意力，路由器从 4 个专家中选 2 个",
    "mixtral.title": "Mixtral · 微型预设",
    "mixtral.note": "{sizes}Mixtral 8x7B 是 Mistral 的层，只是把前馈换成专家混合：这里有 4 个 "
                    "SwiGLU 专家（真实模型有 8 个）。路由器给每个词元与每个专家打分（x · W_r），用"
                    " softmax 变成份额，保留最大的 2 个，除以它们的和，再按这个比例把两个被选中专"
                    "家的输出加起来；其他专家不为这个词元运行。RoPE base 1000000，1 个 K/V 头。",
    # qwen2_moe
    "qwen2_moe.name": "Qwen2-MoE",
    "qwen2_moe.menu": "从 4 个专家中选 2 个，另有一个经 sigmoid 门控的共享专家",
    "qwen2_moe.title": "Qwen2-MoE · 微型预设",
    "qwen2_moe.note": "{sizes}Qwen1.5-MoE 和 Qwen2-57B-A14B 保留 Qwen2 的注意力（q/k/v 偏置，这里 "
                      "1 个 K/V 头），把前馈换成专家混合：路由器为每个词元保留 4 个专家（真实模型"
                      "有 60 或 64 个）中最大的 2 个份额，原样作为权重，不除以它们的和。此外还有一"
                      "个共享专家对每个词元都运行；它的输出乘以 σ(x · w_g)——由词元自己的行算出的、"
                      "介于 0 和 1 之间的门控——再加到选中专家的加权和上。RoPE base 1000000。",
    # qwen2
    "qwen2.name": "Qwen2",
    "qwen2.menu": "Llama 式的层，加上 q/k/v 偏置和分组共享的 K/V 头",
    "qwen2.title": "Qwen2 · 微型预设",
    "qwen2.note": "{sizes}Qwen2 保留 Llama 的 RMSNorm、SwiGLU 和 RoPE（base 1000000，慢的那一对几"
                  "乎不转），但给 q、k、v 加上偏置（o 没有），2 个查询头共用 1 个 K/V 头，并像它的"
                  "小模型那样让输出头与嵌入共享权重。",
    # gpt_neox
    "gpt_neox.name": "GPT-NeoX",
    "gpt_neox.menu": "RoPE 只转每个头的一部分列，并行残差",
    "gpt_neox.title": "GPT-NeoX · 微型预设",
    "gpt_neox.note": "{sizes}GPT-NeoX（Pythia）的 RoPE 只转每个头的一部分列：这里是 4 列中的 2 列"
                     "（Pythia 是四分之一），其余列不转。它的残差是并行的：注意力和前馈都读本层的"
                     "输入，各经自己的 LayerNorm，两者的输出一起加回去：x + attn(norm₁ x) + "
                     "ffn(norm₂ x)。GELU 用 erf 形式；输出头有自己的参数。",
    # bert
    "bert.name": "BERT",
    "bert.menu": "编码器：没有因果掩码，后置规范化，GELU，填出 [MASK]",
    "bert.title": "BERT · 微型预设",
    "bert.note": "{sizes}BERT 是编码器：没有因果掩码，每个 Token 都读所有其他 Token，前面的和后面"
                 "的都读，所以它不预测下一个 Token，也不生成。后置规范化：LayerNorm 放在每次残差相"
                 "加之后，所以没有最终的 Norm。GELU 用 erf 形式，位置表可学习，处处有偏置。它读“我"
                 " [MASK] 你 。”，像 BertForMaskedLM 一样以掩码语言模型的输出头结束：一个全连接层"
                 "、GELU 和 LayerNorm，再乘以嵌入表的转置，加上它自己的偏置。最后一步是填空：从两"
                 "侧猜出 [MASK] 处最可能的词。这里缺少的：BERT 的 Token 类型（A/B 句段的行）和对嵌"
                 "入之和的 LayerNorm（bert 示例两者都有）。",
}
"""File → New from architecture: each family's name and one-line note for the menu, and its
document's title and note ({sizes}: how small every preset is)."""

EXAMPLES: dict[str, str] = {
    # bert
    "bert.menu": "BERT 的嵌入 · 两个句段",
    "bert.menu_note": "词行 × 2 + 位置行 + 句段行，再做 LayerNorm → X",
    "bert.title": "BERT 的嵌入：词行 + 位置行 + 句段行，再做 LayerNorm",
    "bert.note": "两个句段“我爱猫”和“它乖”：每个词元在表中的行乘以 2，加上它的位置行和句段行，再逐"
                 "行规范化得到 X；一个非因果、后置规范化的层读取 X。",
    # continue
    "continue.menu": "续写 我 爱 → 你 。",
    "continue.menu_note": "贪心生成：每个新 Token 一次前向计算",
    "continue.title": "续写一句话：我 爱 → 你 。",
    "continue.note": "参数是手工设定的，不是训练出来的。词表是本章的七个词；嵌入表给每个词一个自己"
                     "的特征。前馈网络记着哪个词后面跟哪个词（W2：我→爱、爱→你、你→。、。→我、检查"
                     "→路径、路径→过滤、过滤→。）；带 RoPE 的因果注意力把到目前为止的词按一半的分"
                     "量混进来，越近的越多；输出头把主干读成 logits。贪心生成先接上“你”，再接上“。"
                     "”（qkv-studio generate continue --steps 2 --temperature 0），每个新 Token 一"
                     "次前向计算，之前的键和值留在 KV 缓存里。温度 0.7 时，预定的词概率仍至少为 "
                     "0.98。把 token_ids 改成 [4]（检查），它就续写出 路径 过滤 。",
    # encoder-decoder
    "encoder-decoder.menu": "编码器–解码器 · I love you → 我 爱",
    "encoder-decoder.menu_note": "2 个目标行通过交叉注意力读取 3 个源行",
    "encoder-decoder.title": "编码器–解码器 · I love you → 我 爱",
    "encoder-decoder.note": "手工设定参数的 2017 年 Transformer 缩微版：一层编码器读源句 I love "
                            "you；解码器带因果掩码读 <s> 我，再用交叉注意力读编码器的记忆：<s> 读 "
                            "I，预测“我”；“我”读 love，预测“爱”。后置规范化（post-norm）的 "
                            "LayerNorm，ReLU 前馈，d = 4。交叉注意力的份额是 2 × 3：每个目标词元一"
                            "行，每个源词元一列。",
    # f11
    "f11.menu": "F11 · 两个位置上的 Q/K/V",
    "f11.menu_note": "本章的逐步算例：“我”只读自己，“爱”两个都读",
    "f11.title": "F11 · 两个位置上的 Q/K/V",
    "f11.note": "本章两个位置的算例：一个输入 X、三张参数表，带因果掩码并做缩放。第一个位置只看得"
                "到自己；第二个位置两个都读。",
    # g01
    "g01.menu": "G01 · 一个解码块",
    "g01.menu_note": "pre-norm，从输入行一直算到三个词的词表",
    "g01.title": "G01 · 两个位置的解码器，从输入算到词表",
    "g01.note": "本章的单层前置规范化（pre-norm）解码器：LayerNorm（ε = 1e-5，γ = 1，β = 0）、恒等"
                "投影、因果注意力、前馈 0.5·ReLU、最终 LayerNorm，以及三个词的词表头。",
    # multihead
    "multihead.menu": "两个头拼接，再乘 Wo",
    "multihead.menu_note": "每个头 2 列，拼成 4 列，Wo 4×6 变回 6 列",
    "multihead.title": "两个宽度为 2 的头，拼成 4 列，再乘 4×6 的 Wo",
    "multihead.note": "本章讲形状的算例：每个头输出 2 个数，拼接后共 4 个，形状 4×6 的 Wo 再把它变"
                      "回模型宽度 6。",
    # norms
    "norms.menu": "LayerNorm 与 RMSNorm",
    "norms.menu_note": "同一行 [1, 3] 在两种 Norm 下并排对照",
    "norms.title": "[1, 3] 上的 LayerNorm 与 RMSNorm",
    "norms.note": "本章的小算例，ε 取 0：LayerNorm 得 [−1, 1]，RMSNorm 得 [1/√5, 3/√5]。切换 "
                  "block.norm 即可对照两者。",
    # order
    "order.menu": "排除A，保留B · 次序要靠位置编码",
    "order.menu_note": "交换 A 与 B：有了 RoPE，A 读到的动词跟着变",
    "order.title": "排除A，保留B · 词序要靠位置编码",
    "order.note": "参数是手工设定的，不是训练出来的。四个特征：排除、保留、项目 A、项目 B。项目要"
                  "找动词（Wq），两个动词都来应答（Wk），所以只看内容时，A 读“排除”和“保留”一样多"
                  "。RoPE 按位置转动 q 和 k，使一个查询与它前面一个位置的键最匹配：A 读的是紧挨在"
                  "它前面的动词。值表明读到的是哪个动词：第 0 列是排除，第 1 列是保留。交换 A 与 B"
                  "，A 就改读“保留”；位置编码设为 none 时，不论次序如何，A 对两个动词读得一样多。",
    # pronoun
    "pronoun.menu": "“it”读的是哪个词？",
    "pronoun.menu_note": "手工设定的参数，让“it”把最大份额给“animal”",
    "pronoun.title": "“it”读的是哪个词？代词与它所指的词",
    "pronoun.note": "参数是手工设定的，不是训练出来的。每个词元的 4 个特征依次表示：有生命的名词、"
                    "无生命的名词、代词、其他词。Wq 把代词特征变成寻找“有生命的名词”的查询，Wk 给"
                    "“animal”这样的键（也给“street”一个较弱的），于是“it”把最大的份额给了“animal”"
                    "。在因果掩码下，“it”看不到决定词义的“tired”。",
    # rope
    "rope.menu": "RoPE · 同一个词在三个位置",
    "rope.menu_note": "q、k 按 p·θ 旋转：分数只取决于距离",
    "rope.title": "RoPE · 同一个词在三个位置",
    "rope.note": "同一行放在位置 0、1、2 上，所以 RoPE 之前 Q 和 K 各行相同。RoPE 把每一对列转过角"
                 "度 p·θ：第 0 对（第 0、2 列）每个位置转 1 弧度，第 1 对（第 1、3 列）转 0.1 弧度"
                 "（base 取 100 而不是常用的 10000，好让慢的一对也看得出转动）。转动后的 q 和 k 给"
                 "出的分数只取决于距离 i − j：scores[1,0] 等于 scores[2,1]。",
    # single-key
    "single-key.menu": "只有一个可见的键",
    "single-key.menu_note": "第一行的份额总是 1，与分数无关",
    "single-key.title": "只有一个可见的键：没有竞争，份额就是 1",
    "single-key.note": "有因果掩码时，第一个位置只看得到自己，所以不论分数多少，它的份额都恰好是 1"
                       "。改动 Wq 或 Wk 中的任何数，第一行的份额都不会变。",
    # three-layers
    "three-layers.menu": "三层堆叠（pre-norm）",
    "three-layers.menu_note": "同样的形状、三组不同的权重：份额逐层变化",
    "three-layers.title": "三层堆叠，前置规范化",
    "three-layers.note": "三个形状相同的前置规范化解码层（两个宽度为 2 的头，宽 6 的 GELU 前馈），"
                         "每层有自己的参数（随机生成，保留一位小数），之后是最终 LayerNorm 和三个"
                         "词的输出头。每一层读取前一层写下的主干：依次走过 L1、L2、L3，看最后一个"
                         "词元的份额逐层变化。",
    # training
    "training.menu": "训练损失 · 所有位置一次算出",
    "training.menu_note": "目标右移一位；去掉掩码，模型就抄答案",
    "training.title": "训练：所有位置的损失一次算出",
    "training.note": "参数是手工设定的，不是训练出来的。训练时整句话是已知的：输入是 我 爱 你 。，"
                     "目标是同样的词右移一位（爱 你 。，句子结束后仍是 。），所以一次前向计算就同"
                     "时得到全部 4 个损失 −log p(目标)。这样做之所以成立，全靠因果掩码：没有一个位"
                     "置看得到自己要预测的词。生成时没有目标：每个新 Token 都要等前一个选定，各需"
                     "一次前向计算。这个模型学会的是抄：它的查询行 [2.7, 4.2] 是键行 [5, 0] 转过 "
                     "1 弧度（RoPE 一个位置的转角），所以它找的是后一个位置的键，Wv 再把那个词交出"
                     "来。有掩码时它看不到后面，只能读自己、预测自己这个词：loss_mean 4.51。对照打"
                     "开时 B 去掉了掩码：位置 i 读到了它要预测的答案，loss_mean 0.007，分数看似完"
                     "美，可这个模型从“我”开始生成，只会重复“我”。",
    # tokenizer
    "tokenizer.menu": "Token 编号与嵌入表",
    "tokenizer.menu_note": "编号 7、12、3 从表中取出三行，组成 X",
    "tokenizer.title": "Token 编号 7、12、3 在嵌入表中查表",
    "tokenizer.note": "一个教学用的分词器把“检查路径过滤”切成三个 Token，编号为 7、12、3；每个编号"
                      "从嵌入表中取出一行，三行合起来就是 X。",
}
"""File → Examples: each built-in example's title and one-line note for the menu, and its
document's title and note (English: as its file has them)."""
