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
    "scores.summary_unscaled": "每个查询行与每个键行做点积；本文档关闭了缩放，点积本身就是分数。",
    "scores.why": "一个位置要先知道自己与每个候选匹配得多好，才能决定各读多少。点积 q·k 给出这个"
                  "数；{then}",
    "scores.why_scaled": "除以 √dₖ 则让分数的典型大小不随 q、k 的宽度一起膨胀。",
    "scores.why_unscaled": "缩放关闭时，分数的大小会随 q、k 的宽度增长（这里 dₖ = {d_k}）。",
    "scores.how_scaled": "scores[i, j] = q_i · k_j ÷ √dₖ。这里{head} dₖ = {d_k}，{token}的查询 "
                         "{query} 对上{met}：原始值 {raws}，缩放后 {scaled_scores}。",
    "scores.how_unscaled": "scores[i, j] = q_i · k_j，不做除法。这里{head}{token}的查询 {query} "
                           "对上{met}：{raws}。",
    "scores.pitfalls": "分数不是概率：它可以为负，也可以大于 1，要到下一步才变成份额。{then}",
    "scores.later_masked": "指向后面位置的分数也出现在表中，但因果掩码会让下一步把它排除。",
    "scores.later_open": "掩码关闭，表中每个分数（包括指向后面位置的）都参与下一步。",
    "scores.later_single": "只有一个位置时，表中只有一个分数。",
    "scores.check_scaled": "核对一格：{token}对{key}是 {terms} = {raw}，{raw} ÷ √{d_k} = "
                           "{score}。关掉缩放：每个分数都乘上 √dₖ（此处为 {root}），每行内部的"
                           "大小顺序不变。",
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
    "resid1.read_post": "这里加回的是原始 X，Norm 在下一步。",
    "resid1.check": "做减法：resid1 − X 的每一格都等于注意力输出。把 Wv 全改成 0{biases}：注意力"
                    "输出变为 0，resid1 与 X 相同。",
    "resid1.biases": "并去掉偏置",
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
    "router.pitfalls": "份额中选中的用 ▲ 标出：未选中专家的份额照样算出，但它们不会为这个词元"
                       "运行。两个相等的份额按 torch.topk 的次序选取，不一定是编号小的在前。",
    "router.check": "重算第一个权重：专家 {e} 的份额 {share} 除以选中份额之和 {total}，得 "
                    "{weight}。",
    "router.check_raw": "第一个权重就是专家 {e} 的份额本身：{share}。",
    "experts.summary": "每个词元选中的 {k} 个专家各自对它的行做前馈；输出乘以路由权重后求和。",
    "experts.why": "{experts} 个专家中每个词元只运行 {k} 个：这个和就是本层的前馈输出，像普通"
                   "前馈一样加回主干。",
    "experts.how": "输出 = Σ 权重ₖ · 专家ₖ(x)。这里{token}运行专家 {chosen}，加权和为 {out}。",
    "experts.pitfalls": "expert_out 按选择排列，不按专家排列：一个词元的第 1 个选择与另一个词元"
                        "的第 1 个选择可能是不同的专家（见 router_chosen）。",
    "experts.check": "重算第一列：{terms} = {value}。",
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
                "x·sin + y·cos)。{token}（位置 {position}）：q = {q} 变成 {turned}。",
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
