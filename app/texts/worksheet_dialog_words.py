"""The words of File → Export worksheet… (the menu entry, its dialog, its progress and its
messages), in every language. Imports no Qt."""

from __future__ import annotations

from app.texts.model import fill_word

WORKSHEET_DIALOG_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "action": "Export &worksheet…",
        "action_tip": "Print the document's exercises as an A4 worksheet, with its answer key "
                      "and editable slides on request",
        "no_exercises": "This document has no exercises: make one in View → Exercise first",
        "title": "Export worksheet",
        "exercise": "E&xercise:",
        "exercise_name": "Which exercise to print",
        "all": "All {count} exercises",
        "one": "{number} · {title}",
        "lang": "&Language:",
        "lang_name": "Language of the sheet, the key and the frames",
        "variants": "&Variants:",
        "variants_name": "Sheets with other, hand-friendly numbers",
        "own_numbers": "the document's own numbers",
        "variants_tip": "K sheets with whole numbers and halves chosen so the shares still "
                        "differ; each sheet and key prints its variant number",
        "seed": "S&eed:",
        "seed_name": "Seed of the variants' numbers",
        "seed_tip": "The same seed draws the same variants",
        "key": "Also write the &answer key (PDF)",
        "key_name": "Answer key",
        "deck": "Also write editable &slides (PowerPoint)",
        "deck_name": "Editable slides",
        "save_to": "Save &to:",
        "save_to_name": "Worksheet file",
        "browse": "&Browse…",
        "browse_name": "Choose where to save the worksheet",
        "key_to": "Key:",
        "key_to_name": "Answer key file",
        "deck_to": "Slides:",
        "deck_to_name": "Slides file",
        "export": "Export",
        "cancel": "Cancel",
        "save_as": "Save the worksheet as",
        "pdf_files": "PDF documents (*.pdf)",
        "planning": "Computing the worksheet…",
        "painting": "Drawing the worksheet's pages…",
        "writing": "Writing the worksheet…",
        "failed": "Worksheet not written",
        "no_destination": "Choose where to save the worksheet.",
        "same_file": "The worksheet, its key and its slides must be different files: {path} "
                     "is named twice.",
        "written": "Wrote the worksheet: {files}",
        "cancelled": "Worksheet not written: cancelled",
    },
    "zh": {
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
    },
}


def worksheet_dialog_word(lang: str, key: str, /, **fields: object) -> str:
    """The word ``key`` in ``lang`` with ``fields`` filled in."""
    return fill_word(WORKSHEET_DIALOG_WORDS, lang, key, **fields)


__all__ = ["WORKSHEET_DIALOG_WORDS", "worksheet_dialog_word"]
