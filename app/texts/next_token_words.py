"""The lines the pictures of the draw (``sample``) and of the training loss (``loss``) print (the
words: ``next_token.*`` of :mod:`app.texts.words`). Imports no Qt."""

from __future__ import annotations

from app.model.next_token import DrawView, LossView
from app.model.passes import GenerationPasses
from app.texts.problems import problem_words
from app.texts.words import say
from engine import format_number


def draw_lines(view: DrawView, lang: str, places: int, appended: int | None = None) -> list[str]:
    """The draw in words: the settings, the top-p mass, the entropies and the chosen token;
    and, when the run appended another entry (``appended``, the id of the run's token this draw
    stands for), that entry."""
    def word(key: str, **fields: object) -> str:
        return say(f"next_token.{key}", lang, **fields)

    def num(value: float) -> str:
        return format_number(value, places)

    s = view.settings
    kept = len(view.kept)
    lines = [word("settings", t=format_number(s.temperature),
                 k=word("all_entries") if s.top_k is None else s.top_k,
                 p=format_number(s.top_p), kept=kept, v=len(view.vocab)),
             word("top_p_mass", p=format_number(s.top_p), kept=kept,
                 mass=num(float(view.running[kept - 1]))) if s.top_p < 1.0 else word("no_top_p"),
             word("entropy", model=num(view.entropy), tempered=num(view.tempered_entropy),
                 shares=num(view.sample_entropy)),
             word("chosen_greedy", entry=view.chosen_label, id=view.chosen)
             if s.temperature == 0 else
             word("chosen", entry=view.chosen_label, id=view.chosen, t=view.t, seed=s.seed,
                 greedy=view.vocab[view.greedy])]
    if appended is not None and appended != view.chosen:
        lines.append(word("appended", entry=view.vocab[appended], id=appended,
                         chosen=view.chosen_label))
    return lines


def training_lines(view: LossView, lang: str, places: int, causal: bool) -> list[str]:
    """Under the training pass: the mean, the worst position and what the causal mask does
    (``causal``: the main stack masks every position's future)."""
    def num(value: float) -> str:
        return format_number(value, places)

    worst = view.worst
    return [say("next_token.loss_mean", lang, terms=" + ".join(num(float(v)) for v in view.loss),
                n=view.n, mean=num(view.mean)),
            say("next_token.worst", lang, i=worst, token=view.tokens[worst],
                entry=view.vocab[view.targets[worst]],
                loss=num(float(view.loss[worst]))),
            say("next_token.training_why", lang, n=view.n) if causal
            else say("next_token.training_no_mask", lang)]


def generation_lines(passes: GenerationPasses, lang: str) -> list[str]:
    """Under the generation passes: why one pass waits for the other and the two counts, or
    why this document cannot generate."""
    if passes.refused is not None:
        return [say("next_token.generation_refused", lang,
                    reason=problem_words(passes.refused, lang))]
    n = len(passes.passes)
    return [say("next_token.generation_why", lang, n=n),
            say("next_token.passes_count", lang, n=n)]


def loss_lines(view: LossView, passes: GenerationPasses, lang: str, places: int,
               causal: bool) -> list[str]:
    """The pair in words: the training pass's lines, each generation pass, and the counts."""
    rows = [say("next_token.pass_row", lang, k=p.number, reads=" ".join(p.reads),
                chosen=p.label) + f" · p = {format_number(p.p, places)}"
            for p in passes.passes]
    return [say("next_token.training", lang, n=view.n),
            *training_lines(view, lang, places, causal),
            say("next_token.generation", lang, n=passes.count), *rows,
            *generation_lines(passes, lang)]


__all__ = ["draw_lines", "generation_lines", "loss_lines", "training_lines"]
