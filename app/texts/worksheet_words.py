"""The words of a printed worksheet and its answer key, in every language. Imports no Qt."""

from __future__ import annotations

from app.texts.model import fill_word

WORKSHEET_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "sheet": "Worksheet · {title}",
        "key": "Answer key · {title}",
        "variant": "Variant {number}",
        "name_line": "Name: ____________________",
        "exercise": "Exercise {number} · {title}",
        "continued": "Exercise {number} · {title} (continued)",
        "working": "Working",
        "how_to_check": "How to check: {sentence}",
        "check_projection": "each row of Q, K and V is one input row times a table — redo one "
                            "column of each with the table's column and compare.",
        "check_scores": "each score is the query row's dot product with the key row, divided by "
                        "√dₖ; a masked cell is not used.",
        "check_weights": "add up each row of your shares and compare the sum with what softmax "
                         "promises of every row; a masked key takes no share.",
        "check_mix": "each output number lies between the smallest and the largest visible value "
                     "of its column, nearer to the values with the larger shares.",
        "check_other": "recompute each blank from the numbers its frame shows; the key gives "
                       "every value's arithmetic.",
        "check_question": "work out the changed numbers, or reason from where the edited number "
                          "enters the computation.",
        "given": "Blank cells of {arrays} are asked in Exercise {exercises}: use your "
                 "answers there.",
        "given_many": "Blank cells of {arrays} are asked in Exercises {exercises}: use your "
                      "answers there.",
        "frames_of": "The frame is the one of Exercise {number}.",
        "and": "{first} and {last}",
        "comma": ", ",
        "parameter_cell": "{name}[{cell}]",
        "parameter_item": "{name}[{cell}]",
        "edit": "The edit: {cell} grows by {by} (from {before} to {after}).",
        "watch": "Watch {cell}.",
        "watch_array": "Watch every number of “{array}”.",
        "rise": "rises",
        "fall": "falls",
        "same": "stays the same",
        "choice": "{letter}. {cell} grows by {by}",
        "tick": "☐",
        "fill_answer": "{cell} = {value}",
        "direction_answer": "{cell} {direction}: {before} → {after}.",
        "unchanged_yes": "{letter}. {cell} + {by}: unchanged (tick it).",
        "unchanged_no": "{letter}. {cell} + {by}: changes, most at {where} ({before} → {after}).",
        "tolerance": "Right within ±{tolerance}.",
        "page": "page {number}",
    },
    "zh": {
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
        "check_scores": "每个分数是查询行与键行的点积再除以 √dₖ；被掩码的格子不参与。",
        "check_weights": "把你算出的每一行份额加起来，和 softmax 对每一行的保证比一比；"
                         "被掩码的键不分得份额。",
        "check_mix": "每个输出数都落在这一列可见值的最小值和最大值之间，并且更靠近份额大的那些值。",
        "check_other": "根据这一步图中给出的数重算每个空格；参考答案写出了每个值的算式。",
        "check_question": "算出改动后的数，或者从被改的数进入计算的位置推理。",
        "given": "{arrays} 中的空格是练习 {exercises} 要填的：请用你在那里的答案。",
        "given_many": "{arrays} 中的空格是练习 {exercises} 要填的：请用你在那里的答案。",
        "frames_of": "图与练习 {number} 的相同。",
        "and": "{first} 和 {last}",
        "comma": "、",
        "parameter_cell": "{name} 第 {row} 行第 {col} 列",
        "parameter_item": "{name} 第 {row} 个数",
        "edit": "修改：{cell} 加 {by}（从 {before} 变为 {after}）。",
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
    },
}


def worksheet_word(lang: str, key: str, /, **fields: object) -> str:
    """The word ``key`` in ``lang`` with ``fields`` filled in."""
    return fill_word(WORKSHEET_WORDS, lang, key, **fields)


__all__ = ["WORKSHEET_WORDS", "worksheet_word"]
