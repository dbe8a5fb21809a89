"""The words the pictures of the draw (``sample``) and of the training loss (``loss``) print, in
English and Chinese. Imports no Qt."""

from __future__ import annotations

from app.model.next_token import DrawView, LossView
from app.model.passes import GenerationPasses
from app.texts.model import fill_word
from app.texts.problems import problem_words
from engine import format_number

NEXT_TOKEN_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "share_bars": "Drawn from: the {kept} kept, renormalised (T = {t})",
        "bars_of": "“{token}” (last position {i})",
        "shown_of": "the {k} most probable of {v} entries",
        "shown_of_chosen": "the {k} most probable of {v} entries, and the chosen one",
        "ranked_title": "Most probable first: what top-k and top-p keep",
        "col_model": "p (T=1)",
        "col_tempered": "p (T={t})",
        "col_running": "mass so far",
        "col_running_k": "top-{k} mass so far",
        "past_note": "— past the top-{k} cut: top-p reads no mass there",
        "col_share": "share",
        "kept_mark": "✓ kept",
        "cut_mark": "✗ cut",
        "chosen_mark": "◆ chosen",
        "ranked_row": "{rank}. {entry} {mark}",
        "settings": "temperature T = {t} · top-k = {k} · top-p = {p}: {kept} of {v} entries kept",
        "all_entries": "all",
        "top_p_mass": "top-p: the smallest most-probable-first set whose mass reaches "
                      "{p}: {mass} after {kept} entries",
        "no_top_p": "top-p = 1: nothing cut by mass",
        "entropy": "entropy: model {model} nats · tempered {tempered} nats · kept shares "
                   "{shares} nats",
        "chosen": "chosen: “{entry}” (id {id}), draw t = {t} with seed {seed}; greedy would "
                  "take “{greedy}”",
        "chosen_greedy": "chosen: “{entry}” (id {id}), the most probable entry: greedy "
                         "decoding (T = 0) draws nothing",
        "appended": "appended instead: “{entry}” (id {id}), picked or drawn before an edit; "
                    "this draw gives “{chosen}”",
        "running_text": "mass of the first {rank} entries over what top-k kept = {value}",
        "running_past": "entry {rank} is past the top-{k} cut: top-p reads no mass there",
        "loss_title": "Each position's loss",
        "col_p_target": "p(target)",
        "col_loss": "−ln p",
        "loss_row": "{token} → {entry} (id {id})",
        "loss_mean": "mean loss = ({terms}) / {n} = {mean}",
        "training": "Training · 1 forward pass",
        "training_known": "all {n} positions at once",
        "targets_known": "the whole target row is known: {targets}",
        "reads_title": "Who each position reads",
        "reads_tip": "{query} reads {other}",
        "hidden_tip": "the causal mask hides {other} from {query}",
        "answer_tip": "◣ the token {query} must predict",
        "training_why": "1: read · —: hidden by the causal mask · ◣ position i + 1, the "
                        "answer position i must predict: hidden, so all {n} losses are honest "
                        "at once",
        "training_no_mask": "no causal mask: ◣ position i reads position i + 1, the answer it "
                            "must predict, so the loss flatters the model",
        "generation": "Generation · {n} forward passes",
        "generation_prompt": "one per token, from the prompt “{prompt}”",
        "generation_reads": "each pass reads the tokens so far and appends its greedy choice",
        "passes_title": "Each pass: reads → chooses",
        "col_p_chosen": "p(chosen)",
        "pass_row": "pass {k}: {reads} → {chosen}",
        "generation_why": "{n} passes for {n} tokens: pass k + 1 waits for the token pass k "
                          "chose",
        "passes_count": "forward passes: training 1 · generation {n}",
        "generation_refused": "this document cannot generate: {reason}",
        "worst": "worst: position {i} (“{token}” → “{entry}”), loss {loss}",
    },
    "zh": {
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
    },
}
"""``NEXT_TOKEN_WORDS[lang][key]``: a word or a ``str.format`` pattern."""


def next_token_word(lang: str, key: str, /, **fields: object) -> str:
    """The word ``key`` in ``lang`` with ``fields`` filled in."""
    return fill_word(NEXT_TOKEN_WORDS, lang, key, **fields)


def draw_lines(view: DrawView, lang: str, places: int, appended: int | None = None) -> list[str]:
    """The draw in words: the settings, the top-p mass, the entropies and the chosen token;
    and, when the run appended another entry (``appended``, the id of the run's token this draw
    stands for), that entry."""
    def say(key: str, **fields: object) -> str:
        return next_token_word(lang, key, **fields)

    def num(value: float) -> str:
        return format_number(value, places)

    s = view.settings
    kept = len(view.kept)
    lines = [say("settings", t=format_number(s.temperature),
                 k=say("all_entries") if s.top_k is None else s.top_k,
                 p=format_number(s.top_p), kept=kept, v=len(view.vocab)),
             say("top_p_mass", p=format_number(s.top_p), kept=kept,
                 mass=num(float(view.running[kept - 1]))) if s.top_p < 1.0 else say("no_top_p"),
             say("entropy", model=num(view.entropy), tempered=num(view.tempered_entropy),
                 shares=num(view.sample_entropy)),
             say("chosen_greedy", entry=view.chosen_label, id=view.chosen)
             if s.temperature == 0 else
             say("chosen", entry=view.chosen_label, id=view.chosen, t=view.t, seed=s.seed,
                 greedy=view.vocab[view.greedy])]
    if appended is not None and appended != view.chosen:
        lines.append(say("appended", entry=view.vocab[appended], id=appended,
                         chosen=view.chosen_label))
    return lines


def training_lines(view: LossView, lang: str, places: int, causal: bool) -> list[str]:
    """Under the training pass: the mean, the worst position and what the causal mask does
    (``causal``: the main stack masks every position's future)."""
    def num(value: float) -> str:
        return format_number(value, places)

    worst = view.worst
    return [next_token_word(lang, "loss_mean", terms=" + ".join(num(float(v)) for v in view.loss),
                            n=view.n, mean=num(view.mean)),
            next_token_word(lang, "worst", i=worst, token=view.tokens[worst],
                            entry=view.vocab[view.targets[worst]],
                            loss=num(float(view.loss[worst]))),
            next_token_word(lang, "training_why", n=view.n) if causal
            else next_token_word(lang, "training_no_mask")]


def generation_lines(passes: GenerationPasses, lang: str) -> list[str]:
    """Under the generation passes: why one pass waits for the other and the two counts, or
    why this document cannot generate."""
    if passes.refused is not None:
        return [next_token_word(lang, "generation_refused",
                                reason=problem_words(passes.refused, lang))]
    n = len(passes.passes)
    return [next_token_word(lang, "generation_why", n=n),
            next_token_word(lang, "passes_count", n=n)]


def loss_lines(view: LossView, passes: GenerationPasses, lang: str, places: int,
               causal: bool) -> list[str]:
    """The pair in words: the training pass's lines, each generation pass, and the counts."""
    rows = [next_token_word(lang, "pass_row", k=p.number, reads=" ".join(p.reads),
                            chosen=p.label) + f" · p = {format_number(p.p, places)}"
            for p in passes.passes]
    return [next_token_word(lang, "training", n=view.n),
            *training_lines(view, lang, places, causal),
            next_token_word(lang, "generation", n=passes.count), *rows,
            *generation_lines(passes, lang)]


__all__ = ["NEXT_TOKEN_WORDS", "draw_lines", "generation_lines", "loss_lines", "next_token_word",
           "training_lines"]
