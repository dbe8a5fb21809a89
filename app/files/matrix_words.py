"""Why a pasted or imported matrix was refused, in every language. Imports no Qt.

:class:`~app.files.matrix_text.MatrixTextError` carries a reason key and its fields; an
interface words it with :func:`matrix_words` in its own language.
"""

from __future__ import annotations

from app.texts.model import fill_word

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "too_long": "the text has {chars} characters; at most {limit} are read as a matrix",
        "no_numbers": "there are no numbers to read",
        "at_cell": "row {row}, column {col}: {number}",
        "at_item": "item {col}: {number}",
        "brackets": "the brackets or commas do not match up (expected rows like "
                    "[[1, 2], [3, 4]])",
        "empty_brackets": "the brackets hold no numbers",
        "single_among_rows": "row {row} is a single number among rows of numbers",
        "nested": "row {row} holds lists inside: only 1-D or 2-D matrices can be read",
        "split": "line {line}: the cells cannot be split ({detail})",
        "cell_empty": "line {line}, cell {col} is empty",
        "cell_number": "line {line}, cell {col}: {number}",
        "ragged": "row {row} has {count} numbers but row 1 has {width}; every row needs the "
                  "same count",
        "ragged_one": "row {row} has 1 number but row 1 has {width}; every row needs the same "
                      "count",
        "too_large": "a {shape} matrix is larger than {limit} rows or columns",
        "unreadable": "cannot be read ({detail})",
        "folder": "is a folder, not a matrix file",
        "not_regular": "is not a regular file (a device or a pipe?)",
        "file_too_big": "the file is {size} bytes; matrix files are limited to {limit} bytes",
        "not_npy": "not a NumPy .npy array file",
        "cut_short": "not a NumPy .npy array file (it is cut short)",
        "pickle": "it holds Python objects, which are never loaded",
        "npz": "an .npz archive holds several arrays; save the one you want with np.save as "
               ".npy",
        "dtype": "holds {dtype} values, not plain numbers",
        "ndim": "a {ndim}-D array; only 1-D or 2-D matrices can be imported",
        "empty_array": "the array is empty",
        "nan": "holds NaN at row {row}, column {col}; only finite numbers can be imported",
        "infinity": "holds infinity at row {row}, column {col}; only finite numbers can be "
                    "imported",
        "binary": "is a binary file, not numbers as text",
        "text_too_big": "the file is {size} bytes; text files of at most {limit} bytes are read "
                        "as a matrix",
        "open_quote": "line {line}: a quotation mark \" is opened and never closed",
        "wide_encoding": "is {encoding} text; save it as UTF-8",
        "not_utf8": "is not UTF-8 text (byte {byte})",
        "in_file": "{name}: {problem}",
        "fit": "a {block} block does not fit {grid}, which is {shape} at the current sizes",
        "fit_at": "a {block} block pasted at {place} does not fit {grid}, which is {shape} at "
                  "the current sizes",
        "fill": "a {block} block does not fill {grid}, which is {shape} at the current sizes "
                "(paste it into a cell to change part of the grid)",
        "too_big_for_grid": "a {block} block does not fit {grid}, which is {shape} at the "
                            "current sizes (change the sizes first)",
        "number_empty": "empty: type a number",
        "number_not": "“{text}” is not a number",
        "number_not_finite": "“{text}” is not a finite number",
    },
    "zh": {
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
    },
}
"""Reason key → pattern, per language."""

NUMBER_REASONS = {"empty": "number_empty", "not a number": "number_not",
                  "not finite": "number_not_finite"}
"""A :class:`~engine.numbers.NumberTextError` reason → its key in :data:`WORDS`."""


def matrix_words(lang: str, key: str, /, **fields: object) -> str:
    """The reason ``key`` in ``lang``, filled with ``fields``."""
    return fill_word(WORDS, lang, key, **fields)
