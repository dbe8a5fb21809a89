"""引擎说的每句话的中文措辞：每个编号一个模板。

Chinese words of everything the engine says, keyed by the ids of :mod:`engine.words.en`, in the
same sections; each template names only fields its English one gives (numbers and names are kept
as they are).
"""

from __future__ import annotations

REFUSALS: dict[str, str] = {
    # 句中的短语：为什么要这个尺寸、一个结果是什么。
    "no_reason": "",
    "match_d": "（与 d={d} 一致）",
    "match_d_k": "（与 d_k={d_k} 一致）",
    "match_encoder_width": "（与编码器的宽度 {d} 一致）",
    "match_wq_width": "（与 Wq 一致：查询与键的宽度必须相同）",
    "key_heads_of": "（{groups} 个键头，每个 d_k={d_k}）",
    "match_columns_of": "（与 {matrix} 的列数一致）",
    "match_value_columns": "（与拼接后值的 {columns} 列一致）",
    "match_w1_columns": "（与 W1 的 {columns} 列一致）",
    "shared_gate_column": "（共享专家的门控为每个词元给出一个数）",
    "result_q": "Q",
    "result_v": "V",
    "result_mixed": "混合后的值",
    "result_output": "注意力输出",
    "result_hidden": "隐藏层",
    "result_logits": "词表分数",
    "square_positions": "{n}² 个位置",
    "grid_positions": "{n}×{keys} 个位置",
    "heads_of": "{heads} 个头",
    "kv_heads_of": "{groups} 个键/值头",
    "wo_columns": " Wo 的列数",
    "value_columns": "拼接后值的列数",
    "encoder_layers_one": "编码器 {count} 层",
    "encoder_layers_many": "编码器 {count} 层",
    "decoder_layers_one": "解码器 {count} 层",
    "decoder_layers_many": "解码器 {count} 层",
    "vocabulary_labels": "词表标签",
    "vocabulary_bias": "词表偏置",
    "vocabulary_softcap": "logits 的软截断",
    "softcap_alibi": "不计算与 ALiBi 偏置并用的分数软截断：QKV Studio 只截断不用 ALiBi 的模型"
                     "（Gemma 2）的分数",
    "vocabulary_transform": "掩码语言模型的变换",
    "rope_dims_given": "{dims}",
    "either": "{first} 或 {second}",
    "an_object": "一个对象",
    "a_list_of": "含 {count} 项的列表",
    "huge_whole": "约 {digits} 位的整数",
    "rope_dims_default": "{dims}（默认取 {path} 的 d_k）",
    # 读取 JSON 值。
    "not_object": "应为一个对象，得到的是 {got}",
    "unknown_key": "未知的键（此处允许：{allowed}）",
    "large_result": "{what}将是 {rows}×{cols} = {cells} 个数，超过了 {limit} 个的上限",
    "not_bool": "应为 true 或 false，得到的是 {got}",
    "not_text": "应为文本，得到的是 {got}",
    "text_too_long": "文本有 {length} 个字符，超过了 {limit} 个的上限",
    "unprintable": "第 {index} 个字符是 \\u{code:04x}，不是可打印的文本（图片和幻灯片都容纳"
                   "不了它）",
    "lone_surrogate": "第 {index} 个字符是 {code}，是 UTF-16 代理对中落单的一半，不是字符",
    "not_choice": "应为 {options} 之一，得到的是 {got}",
    "not_whole": "应为整数，得到的是 {got}",
    "whole_out_of_range": "应为 {low} 到 {high} 之间的整数，得到的是 {got}",
    "whole_too_long": "应为最多 {most} 位的整数，得到的是 {digits} 位的数",
    "not_number": "应为一个数，得到的是 {got}",
    "number_too_large": "{got} 太大：每个数都必须有限",
    "not_finite": "不接受 {got}：每个数都必须有限",
    "labels_list": "应为含 {count} 个标签的列表，得到的是 {got}",
    "labels_count": "应有 {count} 个标签，得到 {got} 个",
    "array_dtype": "应为数值，得到的是 {dtype} 类型的数组",
    "row_dimensions": "应为一行数，得到的是 {ndim} 维的数组",
    "not_row": "应为一行数，得到的是 {got}",
    "numbers_limit": "{count} 个数超过了 {limit} 个的上限",
    "numbers_count": "应有 {count} 个数{reason}，得到 {got} 个",
    "matrix_dimensions": "应为矩阵，得到的是 {ndim} 维的数组",
    "not_matrix": "应为矩阵（由行组成的列表），得到的是 {got}",
    "no_rows": "至少应有一行，实际一行也没有",
    "not_matrix_row": "应为一行（由数组成的列表），得到的是 {got}",
    "rows_limit": "{count} 行超过了 {limit} 行的上限",
    "columns_limit": "{count} 列超过了 {limit} 列的上限",
    "cells_limit": "{rows}×{cols} 个格超过了 {limit} 个的上限",
    "rows_count": "应有 {count} 行{reason}，得到 {got} 行",
    "no_columns": "至少应有一列，实际一列也没有",
    "ragged_row": "应与第 0 行一样有 {count} 个数，得到 {got} 个",
    "columns_count": "应有 {count} 列{reason}，得到 {got} 列",
    # 读取文件。
    "is_folder": "是文件夹，不是场景文档",
    "folder_weights": "是文件夹，而检查点在这里需要一个权重文件（safetensors）",
    "folder_checkpoint_file": "是文件夹，而检查点在这里需要一个文件",
    "not_regular_file": "不是普通文件（是设备、管道或套接字）：没有从中读取任何内容",
    "file_too_large": "文件大小为 {size}；场景文档的上限是 {limit}",
    "unreadable": "无法读取（{reason}）",
    "wide_encoding": "是 {encoding} 编码的文本；场景文档须为 UTF-8（请另存为 UTF-8）",
    "binary_file": "是二进制文件，不是场景文档（JSON 文本）",
    "not_utf8": "不是 UTF-8 文本（字节 {byte} 处）",
    "duplicate_key": "同一个对象中键 \"{key}\" 出现了两次；请只保留一个",
    "invalid_json": "JSON 有误，在第 {line} 行第 {column} 列：{reason}",
    "nested_too_deeply": "嵌套太深，不可能是场景文档",
    "too_many_digits": "含有一个位数太多、无法读取的数",
    # 整份文档。
    "wrong_format": "应为 \"{format}\"，得到的是 {got}",
    "newer_version": "这份文档是第 {version} 版，由更新的 QKV Studio 生成；本程序最多读取"
                     "第 {limit} 版",
    "x_and_token_ids": "X 与 token_ids（加 embedding）只能给出一种，不能同时给出",
    "attention_and_layers": "attention（及 block）与 layers 只能给出一种，不能同时给出",
    "token_ids_need_embedding": "token_ids 需要一张嵌入表 embedding 来查找",
    "token_ids_list": "应为 Token 编号的列表",
    "positions_limit": "{count} 个位置超过了 {limit} 个的上限",
    "x_missing": "缺少：请给出输入行 X（或 token_ids 与 embedding）",
    "stacks_layers_limit": "{encoder}加{decoder}共 {count} 层，超过了两个栈合计 {limit} 层的上限",
    "encoder_layers_missing": "缺少：编码器至少需要一层",
    "resize_memory": "新的尺寸要把它们改变的权重以 float64 保存，至少 {count:,} 个数，"
                     "约 {need} GiB 以上，超过了这台计算机的 {have} GiB 内存：请选更小的尺寸",
    "document_memory": "它的 {count:,} 个数与迹中的 {trace:,} 个数以 float64 计约需 {need} GiB，"
                       "超过了这台计算机的 {have} GiB 内存",
    "trace_numbers_limit": "计算过程将保存 {count:,} 个数，超过了 {limit:,} 个的上限：请减少层数或"
                           "位置数",
    "overflow": "有数值溢出或被零除；请查找特别大的数，或 ε = 0 且整行相同的情况",
    "no_block_to_compare": "“{kind}”比较的是解码块的设置，而这份文档没有解码块",
    # 层、注意力、解码块与词表头。
    "missing": "缺少",
    "encoder_causal": "编码器的层读取全部源 Token，不能是因果的：请删去这个键或设为 false",
    "scores_limit": "{heads} 个头 × {positions}超过了 {limit} 个分数的上限",
    "kv_heads_divide": "{heads} 个查询头不能平均分给 {groups} 个键/值头",
    "heads_split": "{columns} 列无法平均分给 {heads}",
    "bias_needs_wo": "输出偏置 bo 需要 Wo",
    "no_pre_norms_sequential": "只有顺序残差、没有交叉注意力的前置规范化块才可以不要前置规范化",
    "pre_norm_without_pre_norms": "没有前置规范化的块没有 γ1、β1、γ2 或 β2",
    "qk_span_needs_norm": "QK 规范化的范围需要 qk_norm",
    "qk_scale_needs_norm": "QK 规范化的缩放需要 qk_norm",
    "qk_shift_needs_layernorm": "QK 规范化的平移需要 qk_norm 为 \"layernorm\"（RMSNorm 没有平移）",
    "scale_not_positive": "应为大于 0 的数，实际是 {got}",
    "scale_needs_token_ids": "缩放的是 token_ids 查出的行；这份文档直接给出 X（请直接缩放这些数）",
    "types_need_table": "词元类型需要 type_table（它们选取的 T × d 行）",
    "types_list": "应为 {count} 个类型编号的列表（每个位置一个），实际是 {got}",
    "types_count": "应有 {count} 个类型编号（每个位置一个），实际有 {got} 个",
    "ablate_heads_list": "应为头编号（0 … {high}）的列表，得到的是 {got}",
    "ablate_heads_twice": "头 {head} 已经列出过：每个头只写一次",
    "key_mask_list": "应为含 {count} 个数（1 或 0）的列表，得到的是 {got}",
    "key_mask_count": "应有 {count} 个数（每个键一个），得到 {got} 个",
    "key_mask_item": "应为 1（看得见）或 0（被遮住），得到的是 {got}",
    "mask_hides_all": "对查询 {query} 遮住了所有键：每个查询至少要看到一个键",
    "gate_bias_needs_gate": "门控偏置 bg 需要门控矩阵 Wg",
    "experts_list": "应为 {count} 个前馈网络的列表（路由器每列一个），得到的是 {got}",
    "block_width": "解码块要把注意力输出加回 X，所以{source}必须是 d={d}，得到的是 {got}",
    "parallel_needs_pre": "并行残差采用前置规范化：需要 placement \"pre\"",
    "parallel_no_cross": "并行残差无处安放交叉注意力：请用 \"sequential\"",
    "cross_norm_only": "只有带 cross_attention 的层才有这个规范化",
    "rope_base_needs_rope": "层自己的 RoPE 基数要求这一栈的位置编码是 RoPE（\"kind\": \"rope\"）",
    "rope_base_scaled": "层自己的 RoPE 基数只能用于不采用缩放的层（\"rope_scaled\": false），"
                        "暂不计算它与 RoPE 缩放并用",
    "rope_unscaled_needs_scaling": "rope_scaled 为 false 表示本层不用这一栈的 RoPE 缩放；"
                                   "这里的位置编码没有缩放可以不用",
    "softcapping_unread": "transformers 的 Gemma 3 从不把这个截断值交给注意力，分数并不截断；"
                          "不接受给出它的配置",
    "rope_scaled_full": "暂不计算全注意力层的 RoPE 缩放 {kind}：QKV Studio 在那里只计算 linear "
                        "缩放",
    "rope_scaled_sliding": "暂不计算滑动窗口层的 RoPE 缩放 {kind}：QKV Studio 只缩放全注意力层",
    "rope_layer_types": "应为按层类型给出的 RoPE 设置：full_attention 和 sliding_attention",
    "scale_dk_needs_scale": "scale_dk 是分数所除的平方根下的数；scale 为 false 时分数不做除法，"
                            "它无处可用",
    "output_norm_sequential": "子层输出的规范化只用于 pre-norm、残差依次相加且没有 "
                              "cross-attention 的块",
    "ffn_missing": "缺少：解码块需要它的前馈网络",
    "eps_negative": "ε 不能为负，得到的是 {eps}",
    "needs_unembed": "{what}需要词表头 {head}",
    "tied_unembed_text": "应为矩阵，或用 \"{tied}\" 表示词嵌入表的转置（与之共享权重的词表头），"
                         "得到的是 {got}",
    "tied_unembed_table": "\"{tied}\" 读取词嵌入表，但本文档没有词嵌入表",
    "attention_missing": "缺少：至少要给出 Wq、Wk 和 Wv",
    "encoder_cross": "编码器的层不能有交叉注意力：只有解码器的层读取编码器的输出",
    "cross_no_encoder": "交叉注意力读取编码器的输出，而这份文档没有编码器",
    "cross_needs_block": "交叉注意力需要这一层的解码块（它的规范化与残差）",
    "cross_width": "解码块要把交叉注意力的输出加回数据流，所以它的宽度必须是 d={d}，得到的是 {got}",
    "layer_width": "这一层把输出交给宽度为 d={d} 的数据流，得到的是 {got}",
    "layers_list": "应为层的列表，得到的是 {got}",
    "no_layers": "至少应有一层，实际一层也没有",
    "layers_limit": "{count} 层超过了 {limit} 层的上限",
    # 位置编码。
    "base_not_positive": "应为大于 0 的数，得到的是 {got}",
    "qk_norm_per_head": "暂不计算每个头各有一组权重的 QK LayerNorm：QKV Studio 对所有头使用同一组 "
                        "γ 和 β",
    "longrope_pairs": "（每对旋转的列一个，r/2 = {pairs}）",
    "longrope_factors": "应有 {count} 个系数，每对旋转的列一个（r/2），得到的是 {got} 个",
    "dynamic_short_context": "dynamic RoPE 在 {context} 个位置之后增大基数，这在 QKV Studio 计算的 "
                             "{limit} 个位置之内：暂不计算",
    "longrope_short_context": "longrope 在 {original} 个位置之后改用长系数，这在 QKV Studio 计算的 "
                              "512 个位置之内：暂不计算",
    "rope_yarn_turns": "yarn 要计算 ln({original} / (2π·β))，β = {got} 时它不是有限的数",
    "rope_yarn_base": "yarn 要除以 ln base，而 base 为 1 时它是 0",
    "rope_llama3_equal": "low_freq_factor 与 high_freq_factor 都是 {low}：llama3 要除以两者之差",
    "rope_dims_odd": "应为偶数（列成对旋转），得到的是 {dims}",
    "alibi_slopes_count": "每个头应有一个斜率（1 到 {limit} 个），得到 {got} 个",
    "key_of_other_kind": "属于 kind {owners}，不属于 {kind}",
    "unknown_kind_key": "未知的键（kind {kind} 允许：{allowed}）",
    "learned_table_missing": "缺少：可学习的位置表每个位置需要一行",
    "learned_table_rows": "n = {n}、从偏移 {offset} 起，至少应有 {count} 行，得到 {got} 行",
    "odd_d_k": "{path} 的 d_k = {d_k} 是奇数：请给出偶数的 rotary_dims（列成对旋转）",
    "rope_dims_too_many": "{dims} 超过了 {path} 的 d_k = {d_k}",
    "alibi_slopes_heads": "应有 {heads} 个数，与 {path} 的 {heads} 个头一致，得到 {got} 个",
    # 生成、训练目标与 KV 缓存。
    "generate_needs_tokens": "生成需要 token_ids 和一张嵌入表，才能查到新 Token 的那一行",
    "generate_needs_head": "生成需要词表头（head.unembed 与 head.vocab）来给出下一个 Token 的概率",
    "generate_masked_lm": "掩码语言模型的头（head.transform）根据两侧填出 [MASK] 位置："
                          "它不续写文本，所以不生成",
    "generate_encoder": "编码器双向阅读（没有因果掩码），也没有词表头：它不预测下一个 Token，"
                        "所以不生成",
    "generate_embedding_short": "嵌入表只有 {rows} 行，词表却有 {vocab} 个条目："
                                "词表头可能抽到的每个条目都需要自己的一行",
    "generate_with_targets": "带训练目标的文档每个位置都有一个目标：生成之前请先删去它们",
    "generate_positions_limit": "已有 {n} 个位置：再加一个就超过了 {limit} 个的上限",
    "generate_past_context": "模型是为 {context} 个位置做的（其检查点的 max_position_embeddings），"
                             "已经占了 {n} 个：位置 {n} 会超出它的上下文",
    "generate_past_table": "可学习的位置表有 {rows} 行；位置 {n} 需要第 {row} 行，超出了表的末尾",
    "token_not_in_vocabulary": "编号 {token_id} 不是词表中有嵌入行的条目（编号为 0 到 {last}）",
    "steps_fit": "要求 {steps} 个 Token，只放得下 {fit} 个：{place}：{problem}",
    "whole_from_one": "应为从 1 起的整数，得到的是 {got}",
    "temperature_range": "温度应为 0（贪心）到 {limit:g} 之间的数，得到的是 {got}",
    "top_p_range": "应为大于 0 且不超过 1 的数，得到的是 {got}",
    "lens_needs_head": "逐层读出（logit lens）要用词表头（head.unembed 与 head.vocab）读每一层："
                       "这个文档没有词表头",
    "layers_form": "层应写成 A-B 或单独一层 N（从 1 数起），得到的是 {got}",
    "layers_range": "这个文档有第 1 到第 {count} 层，得到的是 {got}",
    "loss_needs_head": "损失需要词表头（head.unembed 与 head.vocab）来给出每个位置的概率",
    "targets_list": "训练目标应为含 {count} 个编号的列表，得到的是 {got}",
    "targets_count": "训练目标应有 {count} 个编号（每个位置一个），得到 {got} 个",
    "run_with_targets": "带训练目标的文档不能同时带生成记录：请删去其中之一",
    "run_needs_vocabulary": "生成记录需要 token_ids 及其嵌入表，以及词表头（head.unembed 与 "
                            "head.vocab）",
    "chosen_list": "应为编号的列表，得到的是 {got}",
    "chosen_no_prompt": "{count} 个已选编号占满了全部 {total} 个 Token 编号，没有留下提示：一次生成"
                        "至少要接在一个 Token 之后",
    "chosen_not_last": "最后 {count} 个 Token 编号应为 {expected}（即生成所追加的编号），得到的是 "
                       "{got}",
    "cache_needs_causal": "KV 缓存需要因果自注意力：没有因果遮罩，之前的每一行都会读到新 Token",
    "softcap_overflow": "软截断 {cap} 对它所截断的数来说太小：{x} / {cap} 溢出，无法计算 "
                        "c·tanh(x / c)",
    "step_overflow": "有数值溢出或被零除",
    # 打开 Hugging Face 检查点。
    "checkpoint_not_folder": "不是文件夹：请给出 Hugging Face 检查点的文件夹（config.json、"
                             "*.safetensors、tokenizer.json）",
    "checkpoint_file_missing": "缺失：Hugging Face 检查点文件夹里应有 config.json、*.safetensors "
                               "权重文件和 tokenizer.json",
    "config_not_json": "不是模型的配置（一个 JSON 对象）",
    "weights_too_short": "只有 {size} 字节，比 safetensors 文件开头 8 字节的头部长度还短",
    "weights_header_length": "不是 safetensors 权重：头部自称有 {length:,} 字节，而文件只有 "
                             "{size:,} 字节",
    "weights_header_not_json": "不是 safetensors 权重：头部不是描述张量的 JSON 对象",
    "weights_header_twice": "不是 safetensors 权重：头部两次写出 “{key}”",
    "tensor_entry": "头部中张量 {name} 的条目不是含 dtype、shape 和 data_offsets 的对象",
    "tensor_dtype": "张量 {name} 以 {dtype} 存储；导入器能读取的是 {read}",
    "tensor_dimensions": "张量 {name} 的形状是 {shape}：至多 {most} 维，每一维都必须是从 0 起、"
                         "小于 2⁶⁴ 的整数",
    "weights_header": "{problem}",
    "header_long": "的头部有 {size:,} 字节，超过了这里读取的上限 {limit:,} 字节",
    "tensor_offsets": "张量 {name} 的 data_offsets 为 {offsets}，放不下它的 {count:,} 个 "
                      "{width} 字节的数，或超出了文件 {room:,} 字节的数据区",
    "tensor_overlap": "张量 {name} 和 {other} 占用了文件中相同的字节",
    "tensor_twice": "张量 {name} 同时出现在 {first} 和 {second} 中：一个文件夹里每个张量只应出现"
                    "一次（或由 model.safetensors.index.json 指明所在文件）",
    "index_not_json": "不是 safetensors 索引（一个 JSON 对象，其 weight_map 给出每个张量所在的"
                      "文件）",
    "index_file_outside": "指向文件 {file}，它不是这个文件夹里的文件",
    "index_tensor_missing": "说张量 {name} 在 {file} 中，但该文件里没有它",
    "tensors_unused": "{family} 布局不读取其中 {count} 个张量（{names}）：这不是普通的 "
                      "{family} 模型，缺了它们，数值就不是 transformers 的数值",
    "checkpoint_limit": "{got:,} 超过了 QKV Studio 能计算的上限 {limit:,}（未读取任何权重）",
    "tensor_numbers_limit": "张量 {name} 有 {count:,} 个数，超过了单个权重的上限 {limit:,}"
                            "（未读取任何权重）",
    "checkpoint_memory": "以 float64 读入这些权重约需 {need} GiB，超过了这台计算机 {have} GiB "
                         "的内存（未读取任何权重）",
    "tensor_missing": "没有哪个权重文件含有张量 {name}",
    "checkpoint_gone": "不见了：文档的权重一直留在这个检查点文件里，而它在打开之后被移走或删除；"
                       "请把它放回原处，或重新打开检查点",
    "checkpoint_changed_since_saved": "在文档保存之后被改动过（大小或头部不同了）："
                                      "从中读出的权重已不是保存时的权重；请重新打开检查点，"
                                      "或打开一份自包含的副本",
    "checkpoint_modified_since_saved": "在文档保存之后被修改过：大小和头部与保存时相同，"
                                       "修改时间却不同。复制或恢复同一个文件会这样，"
                                       "在它上面保存微调后的权重也会这样；文档无法分辨是哪一种。"
                                       "如果确实是同一个检查点，可以仍用它打开文档",
    "checkpoint_gone_command_line": "不见了：文档的权重一直留在这个检查点文件里，而它在文档"
                                    "保存之后被移走或删除；请把它放回原处，或用 "
                                    "--checkpoint-folder DIR 给出它的文件现在所在的文件夹",
    "checkpoint_modified_command_line": "在文档保存之后被修改过：大小和头部与保存时相同，"
                                        "修改时间却不同。复制或恢复同一个文件会这样，"
                                        "在它上面保存微调后的权重也会这样；文档无法分辨是哪一种。"
                                        "如果确实是同一个检查点，请加上 --checkpoint-as-is",
    "checkpoint_folder_missing": "没有文件夹 {folder}：请给出检查点的文件现在所在的文件夹",
    "checkpoint_relative": "应为检查点权重文件的绝对路径，实际是 {got}",
    "overlay_cells": "被修改的单元格应逐行给出一个展平索引和它的数值，索引为小于 {size:,} 的"
                     "整数，且每个都比前一个大",
    "checkpoint_changed": "在文档打开之后被改动过（大小或修改时间不同了）：从中读出的权重已不再是"
                          "文档的权重；请重新打开检查点",
    "tensor_unreadable": "无法读取张量 {name}（{reason}）",
    "tensor_not_finite": "张量 {name}[{cell}] 是 {got}：每个数都必须有限",
    "tensor_shape": "张量 {name} 的形状是 {got}，而按 config.json 应为 {expected}",
    "tokenizer_unreadable": "无法作为分词器读取（{reason}）",
    "family_unknown": "{family} 不是 QKV Studio 能导入的模型家族：支持的有 {families}",
    "config_gives": "给出了文档的 {key}，而它被拒绝：{problem}",
    "config_float_whole": "应为带小数点的数（如 1.0），得到的是 {got}：transformers 的配置"
                          "在此不接受整数",
    "config_whole_float": "应为不带小数部分的整数，得到的是 {got}：transformers 的配置在此不接受"
                          "带小数点的数",
    "quantized": "权重经过量化（{method}）：QKV Studio 只读取普通的 float32、float16 和 bfloat16 "
                 "权重，而 transformers 会用量化后的权重计算",
    "rope_scaled": "暂不计算 RoPE 缩放 {kind}：QKV Studio 只计算 Llama 结构家族的 linear、"
                   "llama3、yarn 和 dynamic 缩放",
    "layer_scaled_scores": "暂不计算再除以层号的分数：QKV Studio 只除以 √d_k",
    "rope_per_layer": "暂不计算按层类型分别设置的 RoPE：QKV Studio 对每一层使用同一个基数",
    "window_of_nothing": "把某层标为 sliding_attention，而 use_sliding_window 为 false："
                         "transformers 此时的窗口只有 0 个键，会遮住所有的键",
    "layer_types": "应为 {layers} 项的列表，每项是 \"full_attention\" 或 \"sliding_attention\"，"
                   "得到的是 {got}",
    "softcapping": "用 tanh 截断分数或 logits 属于 Gemma 2（model_type gemma2）：transformers "
                   "的 Gemma 不读这个键，因此不接受给出它的 Gemma 配置",
    "bidirectional": "暂不计算这个模型家族不带因果掩码的注意力",
    "head_dim_split": "注意力的每个头宽 hidden_size / num_attention_heads = {d_k} 列，而 "
                      "transformers 的旋转位置编码会旋转 {got} 列：两者对不上",
    "added_token_moved": "为 {token} 声明了编号 {wanted}，而词表已把这个编号给了 {taken}：分词器"
                         "（transformers 的也一样）改给它编号 {got}，超出了模型嵌入的 {rows} 行",
    "tokenizer_vocabulary": "分词器有 {count} 个条目（编号 0 到 {last}），多于模型嵌入表的 {rows} "
                            "行：它属于另一个模型",
    "text_no_tokens": "这段文本没有产生任何 Token：请至少输入一个词",
    "pair_needs_types": "第二段文本只有带 Token 类型的模型（BERT）才会作为片段 B 读取；{family} "
                        "没有 Token 类型：请把它写进文本",
    "text_past_context": "这段文本有 {count} 个 Token，超过了模型 {limit} 个位置的上下文",
    "text_past_positions": "这段文本有 {count} 个 Token，超过了 QKV Studio 计算的 {limit} 个位置："
                           "请缩短它",
    "text_not_utf8": "不是 UTF-8 文本（第 {at} 个字符是无法解码的 {code}）：请以 UTF-8 给出文本",
    "tokenizer_failed": "分词器处理这段文本时失败（{reason}）",
    "layers_choice": "层应写成 1-2、3 或 1,3-4 这样，范围 1 到 {count}，得到的是“{got}”",
    # 文档的附属文件：JSON 装不下的数组（engine.format.sidecar）。
    "sidecar_name": "应为文档旁边的一个 .safetensors 文件名（不含文件夹或路径），得到的是 {got}",
    "sidecar_missing": "找不到 {file}：文档把这个数组存放在它旁边的这个文件里",
    "sidecar_unreadable": "{file} 无法作为 safetensors 读取（{reason}）",
    "sidecar_key_missing": "{file} 中没有数组 {key}",
    "sidecar_dtype": "{file} 中的数组 {key} 以 {dtype} 存储；"
                     "文档的数组只能是 F64、F32、F16 或 BF16",
    "sidecar_dimensions": "{file} 中的数组 {key} 有 {ndim} 个维度；文档的数组只有 1 或 2 个维度",
    "sidecar_mismatch": "{problem}（{file} 中的数组 {key}）",
    "sidecar_file": "{file} {problem}",
    "sidecar_tensor_large": "张量 {key} 有 {count} 个数，超过了单个数组 {limit} 的上限",
    "sidecar_total_large": "它的张量共有 {count:,} 个数，以 float64 计约需 {need} GiB，超过了"
                           "这台计算机的 {have} GiB 内存",
    "sidecar_layout": "张量 {key} 从数据的第 {start} 字节开始，而不是前一个张量结束的第 "
                      "{expected} 字节",
    "sidecar_trailing": "它的张量在数据的第 {end} 字节结束，而数据共有 {size} 字节",
    "sidecar_changed": "{file} 在文档保存之后被改动过（它的 sha256 与文档记录的不同）："
                       "它不是这个文档保存时的附属文件",
    "sidecar_digest": "应为附属文件的 sha256（64 个小写十六进制数字），得到的是 {got}",
    # 一次运行的每个输出（engine.files.outputs、engine.format.io）。
    "output_is_input": "本次运行读取这个文件（文档、它的附属文件或检查点的文件）；"
                       "写到那里会覆盖它：请换一个名称",
    "output_is_checkpoint": "这是本文档读取权重的检查点（{folder}）里的文件；"
                            "写到那里会覆盖它：请换一个名称",
    "output_twice": "本次运行的另一个输出（{first}）也写这个文件；每个输出都需要自己的文件",
    "part_over_a_file": "这一步被拆成 {count} 个文件来代替 {asked}（{parts}），而这里已有同名文件，"
                        "导出并未被要求替换它：请把它移走，或换一个名称",
    "owner_unknown": "它的文件头没有写明：是较早的附属文件，或另一个程序的文件",
    "sidecar_owned": "它旁边的 {file} 属于另一个文档（{owner}）；保存在这里会覆盖那个文档的权重："
                     "请换一个名称",
    # 命令行上给了两次的选项（app.given_once）。
    "option_twice": "{option} 给了两次（先是 {first}，又是 {then}）；只能给一次",
    "flag_twice": "{option} 给了两次；只能给一次",
    # 在窗口中编辑文档：交换 Token、添加与移动层。
    "swap_same": "请选两个不同的位置，{i} 被选了两次",
    "swap_outside": "位置 {i} 和 {j}：这份文档有 {n} 个位置，编号为 0 到 {last}",
    "no_such_stack": "文档中没有这个栈",
    "no_such_layer": "{count} 层的栈中没有第 {layer} 层",
    "new_layer_range": "新层只能放在第 1 到第 {last} 层，不能放在第 {layer} 层",
    "last_layer_kept": "一个栈至少保留一层",
    "layer_already_first": "第 {layer} 层已经是第一层",
    "layer_already_last": "第 {layer} 层已经是最后一层",
    # 文档中的练习（engine.exercises）。
    "exercise_list": "应为一个列表，实际是 {got}",
    "exercise_list_long": "共 {count} 项，超过上限 {limit}",
    "exercise_list_empty": "至少需要一项",
    "exercise_key_missing": "缺少此项：这类练习都需要它",
    "exercise_language_missing": "缺少此项：练习的文字须同时给出英文（en）和中文（zh）",
    "exercise_text_empty": "为空：请写上文字",
    "exercise_tolerance": "容差应不小于 0，实际是 {got}",
    "exercise_index": "单元格应写成 1 到 3 个整数的列表，实际是 {got}",
    "exercise_cells_and_rows": "同一数组只能隐藏单元格或整行，不能两者都写",
    "exercise_edit_zero": "改变 0 等于没改：请给这个单元格加上别的数",
    "exercise_no_step": "本文档没有步骤 {step}（现有步骤：{steps}）",
    "exercise_not_made": "步骤 {step} 及其之前的步骤都不产生 {array}（它们产生：{made}）",
    "exercise_index_rank": "{array} 需要 {rank} 个下标，实际给了 {count} 个",
    "exercise_outside": "{cell} 超出了 {shape} 的数组 {array}",
    "exercise_row_outside": "第 {row} 行超出了 {array}，它只有 {rows} 行",
    "exercise_answer_cell": "空格应写成数组名加完整下标，例如 Q[1,0] 或 weights[0,1,0]，"
                            "实际是 {got}",
    "exercise_answer_place": "这类练习只在 {places} 作答",
    "exercise_answer_unknown": "{cell} 不是这道练习的空格（它的空格：{blanks}）",
    "exercise_wording_largest": "{{largest:…}} 指一行份额或分数里最大的那个键；{array} 两者都不是",
    "exercise_wording_array": "{{value:…}} 指的 {array} 既不是追踪数组，也不是文档路径",
    "exercise_not_editable": "本文档没有可编辑的数组 {array}（可编辑：{paths}）",
    "exercise_not_attention": "本文档没有注意力 {attention}（它的注意力：{paths}）",
    "exercise_head_outside": "头 {head} 不是 {attention} 的头（0 … {high}）",
    "exercise_head_ablated": "{attention} 已经消融了头 {head}（它的 ablate_heads）："
                             "再关闭一次什么也不改变",
    "variants_not_found": "第 {number} 份变体：试了 {tries} 次，都没能让所问各行"
                          "可见分数的差距落在 {low} 到 {high} 之间；请换一个位置更少的文档，"
                          "或少问几行",
    "variants_lesson_lost": "第 {number} 份变体：试了 {tries} 次，份额有差别的那些抽取中，"
                            "没有一次保住 {exercise} 在文档原数上所讲的道理（同样的修改不动份额、"
                            "同样的数不变、关掉头后同样的走向、每个变化在印出的位数上看得见）；"
                            "请用 --exercise 把它排除",
    "variants_count": "变体份数应是 1 到 {most} 之间的整数，实际是 {got}",
}

PHRASES: dict[str, str] = {
    # 逐格算术周围的话（engine.arithmetic.cells）；公式本身是符号。
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
    "shared_output": "共享专家的前馈网络作用于这个词元的行：无论路由器选了谁，它对每个词元都运行",
    "shared_gate": "σ(z) = 1 / (1 + exp(−z))：共享专家的门控，取 0 到 1 之间的值，决定这个词元"
                   "保留它输出的多少",
    "experts_shared_sum": "再加上共享专家的输出乘以它的门控 g = {g}",
    "vocab_entry": "词表条目“{entry}”",
    "soft_capped": "软截断 c = {cap} 把每个值限制在 −{cap} 与 {cap} 之间；小的值几乎不变",
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
    "head_ablated": "第 {head} 个头已消融（ablate_heads 列出 {index}）：它的输出被置为 0",
    "rope_linear": "linear 缩放：每个频率都除以系数 {factor}（m = 1/{factor}）",
    "rope_llama3_short": "llama3：波长 2π/θ = {wavelength} 小于 {short}"
                         "（= {original}/{high}）：频率不变（m = 1）",
    "rope_llama3_long": "llama3：波长 2π/θ = {wavelength} 大于 {long}"
                        "（= {original}/{low}）：频率除以 {factor}（m = 1/{factor}）",
    "rope_llama3_smoothed": "llama3：波长 2π/θ = {wavelength} 介于 {short} 与 {long} 之间："
                            "平滑过渡，s = ({original}/{wavelength} − {low})/({high} − "
                            "{low}) = {s}，m = (1 − s)/{factor} + s = {m}",
    "rope_yarn": "yarn：第 {i} 对位于从第 {start} 对到第 {end} 对的斜坡上：ramp = {ramp}，"
                 "m = ramp/{factor} + 1 − ramp = {m}",
    "rope_longrope": "longrope：第 {i} 对的频率除以它的短系数 {short}（m = {m}）",
    "rope_turn_factor": "{kind}：cos 和 sin 乘以注意力系数 a = {factor}",
    "rope_pair": "第 {i} 对：第 {first} 列和第 {second} 列在同一平面里一起旋转"
                 "（第 {head} 个头，{pairing}）",
    "pairing_half": "前后半配对：i 与 i + r/2",
    "pairing_interleaved": "相邻配对：2i 与 2i + 1",
    "rope_turn": "位置 {p} 的角度 p·{theta} = {angle} 弧度；cos = {cos}，sin = {sin}",
    "alibi_default": "默认值 2^(−8k/h)，k = {k}，h = {h}",
    "alibi_given": "文档中给出",
    "alibi_slope": "第 {head} 个头的斜率是 {slope}（{source}）；键离得越远，扣得越多",
    "alibi_added": "缩放后的 q·k 加上查询 {i} 与键 {j} 之间的距离偏置",
}

WRITING: dict[str, str] = {
    # 文件为什么写不进去（engine.files.safe_write），以及说明它的那一行。
    "cannot_write": "无法写入 {path}：{reason}",
    "write_disk_full": "磁盘已满",
    "write_quota": "磁盘配额已用完",
    "write_permission": "没有权限",
    "write_read_only": "磁盘是只读的",
    "write_file_in_path": "文件夹路径中有一段是文件，不是文件夹",
    "write_no_folder": "文件夹不存在",
    "write_folder_named": "已有同名的文件夹",
    "write_name_too_long": "名称太长",
    "write_io_error": "磁盘报告了输入/输出错误",
    "write_link_loop": "它是符号链接构成的循环",
    "write_too_large": "文件对这个磁盘来说太大",
}

TITLES: dict[str, str] = {
    # 每一步的标题（按 explain_key），以及标题后面补上的短语。
    "title.input.embed": "用 Token 编号查嵌入表中的行{scaled}",
    "title.embed_scaled": "，再乘以 {scale}",
    "title.positions.added": "位置：每个位置的行加到词元行上",
    "title.input.types": "词元类型：每个词元的类型行加上去",
    "title.input.summed": "嵌入相加：词元行 + 位置行 + 类型行",
    "title.input.embedding_norm": "嵌入规范化（{norm}）：输出就是 X",
    "title.positions.rope": "RoPE：q 和 k 的每一对列按位置转过 p·θ{own}{unscaled}",
    "title.rope_own_base": "，θ 取自本层的基数 {base}",
    "title.rope_unscaled": "，不用这一栈的缩放",
    "title.attention.inputs": "一份输入，三张参数表",
    "title.attention.projections": "Q、K、V：每个位置各得一行投影",
    "title.cross_attention.projections": "Q 来自解码器的行，K 和 V 来自编码器的记忆",
    "title.attention.qk_norm": "QK 规范化（{norm}）：每个头的 q 和 k 各自规范化",
    "title.attention.qk_norm_all": "QK 规范化（{norm}）：所有头的 q 一起规范化，k 也一样",
    "title.attention.scores": "分数 q·k{scaled}{then}",
    "title.scores_scaled": "，再除以 √dₖ",
    "title.scores_scaled_by": "，再除以 √{dk}",
    "title.scores_capped": "，再软截断：{cap} · tanh(s / {cap})",
    "title.scores_biased": "，再加上位置偏置",
    "title.attention.weights": "softmax 份额",
    "title.attention.weights_causal": "因果掩码与 softmax 份额",
    "title.attention.mix": "按份额混合 V{wo}{ablated}",
    "title.mix_wo": "，再乘 Wo",
    "title.mix_ablated_one": "；已消融（输出为 0）：第 {heads} 个头",
    "title.mix_ablated_many": "；已消融（输出为 0）：第 {heads} 个头",
    "title.block.norm1": "输入规范化（{norm}），逐行进行",
    "title.block.resid1": "第一次残差：X 加注意力输出",
    "title.block.norm2": "前馈之前的第二次规范化（{norm}）",
    # {activation} 的中文名自带与“隐藏单元”之间的空格（拉丁字母名才有）。
    "title.block.ffn": "前馈网络：{activation}隐藏单元，再回到宽度 d",
    "title.block.resid2": "第二次残差：主干加前馈输出",
    "title.block.router": "路由器：每个词元从 {experts} 个专家中选出 {top_k} 个",
    "title.block.experts": "专家：选中的前馈网络，加权求和",
    "title.block.experts_shared": "专家：选中的前馈网络与带门控的共享专家，相加",
    "title.block.norm2_parallel": "第二次规范化（{norm}）：与注意力并列，对本层的输入做，"
                                  "供前馈读取",
    "title.block.resid_parallel": "并行残差：本层的输入加注意力输出和前馈输出",
    "title.block.norm1_post": "后置规范化（{norm}）：作用于第一次残差",
    "title.block.resid2_post": "第二次残差：规范化后的主干加前馈输出",
    "title.block.norm2_post": "后置规范化（{norm}）：作用于第二次残差",
    "title.block.norm3": "注意力输出的规范化（{norm}），在残差之前",
    "title.block.norm4": "前馈输出的规范化（{norm}），在残差之前",
    "title.block.cross_norm": "交叉注意力之前的规范化（{norm}）",
    "title.block.cross_resid": "交叉残差：主干加交叉注意力输出",
    "title.block.cross_norm_post": "后置规范化（{norm}）：作用于交叉残差",
    "title.encoder.final_norm": "最终规范化（{norm}）",
    "title.block.final_norm": "词表头之前的最终规范化（{norm}）",
    "title.head.transform": "掩码语言模型的变换：全连接、激活，再 LayerNorm",
    "title.block.logits": "词表分数（logits）：每个词表项一个分数",
    "title.block.softcap": "软截断：{cap} · tanh(logits / {cap})",
    "title.block.probs": "概率：对 logits 做 softmax",
    "title.block.loss": "损失：每个位置同时算 −ln p(目标)",
    "title.block.sample": "下一个 Token：温度、top-k、top-p 与抽取",
}

NAMES: dict[str, str] = {
    # 规范化与激活函数的名称；拉丁字母的激活名后带一个空格，好在标题里与汉字隔开。
    "name.norm.layernorm": "LayerNorm",
    "name.norm.rmsnorm": "RMSNorm",
    "name.norm.none": "关闭",
    "name.activation.relu": "ReLU ",
    "name.activation.gelu": "GELU ",
    "name.activation.gelu_tanh": "GELU（tanh 形式）",
    "name.activation.silu": "SiLU ",
    "name.activation.identity": "恒等",
    "name.gated.silu": "SwiGLU ",
    "name.gated.gelu": "GeGLU ",
    "name.gated.gelu_tanh": "GeGLU（tanh 形式）",
    "name.gated.relu": "ReGLU ",
    "name.gated.identity": "双线性",
    # 列表的写法：项与项之间的分隔符，最后一项之前的“和”。
    "list.separator": "、",
    "list.and": "和",
    # 一条拒绝的整行：文档中的位置，然后是问题。
    "refused_at": "{place}：{problem}",
}
