"""What the texts of the loss and of the draw of the next token say, decided once from the
step's numbers (:mod:`app.model.next_token`). Imports no Qt."""

from __future__ import annotations

from app.model.next_token import draw_view, loss_view, stack_is_causal
from app.model.passes import passes_of
from app.texts.facts import Facts
from app.texts.sentences import NOTHING, Listed, Telling, Token, say, some_entries


def loss(f: Facts) -> Telling:
    """The mean, the worst position and −ln of the bar at its target."""
    view = loss_view(f.trace)
    worst = view.worst
    target = view.targets[worst]
    at_worst = dict(token=Token(view.tokens[worst]), entry=Token(view.vocab[target]),
                    p=f.num(float(view.p_target[worst])), loss=f.num(float(view.loss[worst])))
    mask = say("loss.masked") if stack_is_causal(f.scenario) else say("loss.unmasked")
    passes = passes_of(f.trace)
    run = NOTHING if passes.refused is not None else say(
        "loss.run", prompt=Token(passes.prompt),
        chosen=Listed([Token(p.label) for p in passes.passes]))
    return Telling(
        summary=say("loss.summary", n=view.n, mean=f.num(view.mean)),
        why=say("loss.why", n=view.n, mask=mask),
        how=say("loss.how", losses=Listed([f.num(float(v)) for v in view.loss]), n=view.n,
                mean=f.num(view.mean), **at_worst),
        pitfalls=say("loss.pitfalls", n=view.n, run=run),
        check=say("loss.check", **at_worst),
    )


def sample(f: Facts) -> Telling:
    """The settings, what was kept, the entropies and the chosen token."""
    view = draw_view(f.trace, f.step)
    s = view.settings
    kept = len(view.kept)
    cut_k = say("sample.top_k", k=s.top_k) if s.top_k is not None else NOTHING
    cut_p = (say("sample.top_p", p=f.num(s.top_p), mass=f.num(float(view.running[kept - 1])),
                 kept=kept) if s.top_p < 1.0 else NOTHING)
    chosen = Token(view.chosen_label)
    greedy = view.vocab[view.greedy]
    return Telling(
        summary=say("sample.summary", t=f.num(s.temperature), kept=kept, v=len(view.vocab),
                    chosen=chosen),
        why=say("sample.why", token=Token(f.scenario.tokens[view.position])),
        how=say("sample.how_greedy", chosen=chosen) if s.temperature == 0 else
        say("sample.how", t=f.num(s.temperature), top_k=cut_k, top_p=cut_p, kept=kept,
            shares=Listed([f"{view.vocab[k]} {f.num(float(view.shares[k]))}"
                           if isinstance(k, int) else k for k in some_entries(view.kept)]),
            seed=s.seed, step=view.t, chosen=chosen),
        pitfalls=say("sample.pitfalls", model=f.num(view.entropy),
                     tempered=f.num(view.tempered_entropy), shares=f.num(view.sample_entropy),
                     greedy=Token(greedy)),
        check=say("sample.check", kept=kept, total=f.num(float(view.shares.sum())),
                  greedy=Token(greedy)),
    )
