"""What the texts of a mixture of experts say — the router's step and the experts' step —
decided once for every language from the open document's :class:`Facts`. Imports no Qt."""

from __future__ import annotations

from app.texts.facts import Facts
from app.texts.sentences import Joined, Telling, Token, say
from engine.scenario.modules import Mixture


def _mixture(f: Facts) -> Mixture:
    block = f.block
    assert block is not None and isinstance(block.ffn, Mixture)
    return block.ffn


def _counted(key: str, m: Mixture) -> str:
    """``key`` as worded for the mixture's k: ``_one`` when one expert runs a token, ``_all``
    when every expert does (the base words say "only k of E")."""
    return key + ("_one" if m.top_k == 1 else "_all" if m.top_k == len(m.experts) else "")


def _chosen(f: Facts) -> list[int]:
    return [int(e) for e in f.scoped("router_chosen")[f.receiver]]


def router(f: Facts) -> Telling:
    """Router logits, their softmax over the experts, the k chosen and their weights."""
    m, chosen = _mixture(f), _chosen(f)
    experts, k = len(m.experts), m.top_k
    shares = f.scoped("router_shares")[f.receiver]
    picked = [float(shares[e]) for e in chosen]
    first = chosen[0]
    return Telling(
        summary=say(_counted("router.summary", m), experts=experts, k=k),
        why=say(_counted("router.why", m), experts=experts, k=k),
        how=say(("router.how_normalised" if m.normalize else "router.how_raw")
                + ("_one" if k == 1 else ""),
                token=Token(f.token), logits=f.scoped_row("router_logits"),
                shares=f.scoped_row("router_shares"),
                chosen=Joined(chosen),
                weights=f.scoped_row("router_weights")),
        pitfalls=say("router.pitfalls_all" if k == experts else "router.pitfalls"),
        check=say("router.check", e=first,
                  share=f.num(picked[0]), total=" + ".join(f.num(p) for p in picked),
                  weight=f.num(float(f.scoped("router_weights")[f.receiver, 0])))
        if m.normalize else say("router.check_raw", e=first, share=f.num(picked[0])),
    )


def experts(f: Facts) -> Telling:
    """The chosen experts' feed-forwards, weighted by the router and summed (and the shared
    expert's, weighted by its sigmoid gate)."""
    m, chosen = _mixture(f), _chosen(f)
    weights = f.scoped("router_weights")[f.receiver]
    outputs = f.scoped("expert_out")[:, f.receiver, 0]
    products = [(float(w), float(o)) for w, o in zip(weights, outputs, strict=True)]
    shared = m.shared_gate is not None
    if shared:
        products.append((float(f.scoped("shared_weight")[f.receiver, 0]),
                         float(f.scoped("shared_out")[f.receiver, 0])))
    terms = " + ".join(f"{f.factor(w)}·{f.factor(o)}" for w, o in products)
    how = say("experts.how_one" if m.top_k == 1 else "experts.how", token=Token(f.token),
              chosen=Joined(chosen), out=f.scoped_row("ffn_out"))
    if m.shared_gate is not None:
        source = f.array(f.step.reads[0])[f.receiver]
        how = say("experts.how_shared", token=Token(f.token),
                  chosen=Joined(chosen),
                  z=f.num(float(source @ m.shared_gate[:, 0])), gate=f.num(products[-1][0]),
                  out=f.scoped_row("ffn_out"))
    return Telling(
        summary=say(("experts.summary_shared" + ("_one" if m.top_k == 1 else "")) if shared
                    else _counted("experts.summary", m), k=m.top_k),
        why=say(_counted("experts.why", m), experts=len(m.experts), k=m.top_k),
        how=how,
        pitfalls=say("experts.pitfalls_shared" if shared else "experts.pitfalls"),
        check=say("experts.check", terms=terms,
                  value=f.num(float(f.scoped("ffn_out")[f.receiver, 0]))),
    )


__all__ = ["experts", "router"]
