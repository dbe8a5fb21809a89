"""The words the pictures of the draw (``sample``) and of the training loss (``loss``) print, in
English and Chinese. Imports no Qt."""

from __future__ import annotations

from app.model.next_token import DrawView, LossView
from app.texts.model import fill_word
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
        "appended": "appended instead: “{entry}” (id {id}), picked or drawn before an edit; "
                    "this draw gives “{chosen}”",
        "running_text": "mass of the first {rank} entries over what top-k kept = {value}",
        "running_past": "entry {rank} is past the top-{k} cut: top-p reads no mass there",
        "loss_title": "Training: −ln p(target) at every position",
        "col_p_target": "p(target)",
        "col_loss": "−ln p",
        "loss_row": "{token} → {entry} (id {id})",
        "loss_mean": "mean loss = ({terms}) / {n} = {mean}",
        "training": "training: every position at once · 1 forward pass for {n} positions",
        "training_why": "the causal mask keeps each position from seeing its target",
        "training_no_mask": "but this stack is not causal: each position sees the token it "
                            "must predict, so the loss flatters the model",
        "generation": "generation: one token at a time · {n} passes for {n} tokens",
        "generation_why": "each new token needs the one chosen before it",
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
        "chosen": "选中：“{entry}”（id {id}），第 t = {t} 次抽取，种子 {seed}；贪心会选"
                  "“{greedy}”",
        "appended": "实际追加的是“{entry}”（id {id}）：手选的，或在修改模型之前抽到的；这次抽取得到"
                    "“{chosen}”",
        "running_text": "前 {rank} 项的概率之和除以 top-k 保留的总概率 = {value}",
        "running_past": "第 {rank} 项在 top-{k} 截断之外：top-p 不再累计它的概率",
        "loss_title": "训练：每个位置的 −ln p(目标)",
        "col_p_target": "p(目标)",
        "col_loss": "−ln p",
        "loss_row": "{token} → {entry}（id {id}）",
        "loss_mean": "平均损失 = ({terms}) / {n} = {mean}",
        "training": "训练：所有位置一次算出 · {n} 个位置只需 1 次前向计算",
        "training_why": "因果掩码让每个位置看不到自己的目标",
        "training_no_mask": "但这个堆栈没有因果掩码：每个位置都看得到自己要预测的 Token，"
                            "损失因此偏低",
        "generation": "生成：一次一个 Token · {n} 个 Token 需 {n} 次前向计算",
        "generation_why": "每个新 Token 都依赖前一个已选结果",
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
             say("chosen", entry=view.chosen_label, id=view.chosen, t=view.t, seed=s.seed,
                 greedy=view.vocab[view.greedy])]
    if appended is not None and appended != view.chosen:
        lines.append(say("appended", entry=view.vocab[appended], id=appended,
                         chosen=view.chosen_label))
    return lines


def loss_lines(view: LossView, lang: str, places: int, causal: bool,
               indent: str = "") -> list[str]:
    """The loss in words: the mean, the worst position, and the forward passes training and
    generation need (``causal``: the main stack masks every position's future), each reason
    under its line after ``indent``."""
    def num(value: float) -> str:
        return format_number(value, places)

    worst = view.worst
    return [next_token_word(lang, "loss_mean", terms=" + ".join(num(float(v)) for v in view.loss),
                            n=view.n, mean=num(view.mean)),
            next_token_word(lang, "worst", i=worst, token=view.tokens[worst],
                            entry=view.vocab[view.targets[worst]],
                            loss=num(float(view.loss[worst]))),
            next_token_word(lang, "training", n=view.n),
            indent + next_token_word(lang, "training_why" if causal else "training_no_mask"),
            next_token_word(lang, "generation", n=view.n),
            indent + next_token_word(lang, "generation_why")]


__all__ = ["NEXT_TOKEN_WORDS", "draw_lines", "loss_lines", "next_token_word"]
