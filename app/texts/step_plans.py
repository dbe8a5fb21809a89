"""What each step's text says, decided once for every language from the open document's
:class:`Facts`: which sentences apply (no mask, one head, no scaling, no Wo, post-norm …) and with
which numbers. The words are the catalogues' (:mod:`app.texts.sentences`). Imports no Qt.
"""

from __future__ import annotations

from collections.abc import Callable

from app.texts.facts import Facts, NormFacts
from app.texts.mask_plans import beyond_causal, kv_sharing, mask_rule
from app.texts.next_token_plans import loss, sample
from app.texts.sentences import NOTHING, Listed, Say, Telling, Token, say, some_entries
from engine.format.numbers import format_exact
from engine.forward.masked_lm import fills, masked_positions
from engine.scenario.names import short_name


def _head(f: Facts) -> Say:
    return say("head_of", head=f.head + 1, heads=f.heads) if f.heads > 1 else NOTHING


def _token(f: Facts) -> Token:
    return Token(f.token)


def embed(f: Facts) -> Telling:
    ids = f.token_ids
    unused = f.unused_id
    out = f.step.writes[0]
    check = (say("embed.check_unused", row=unused, out=short_name(out)) if unused is not None
             else say("embed.check_used", row=ids[0], out=short_name(out)))
    owner = f.scenario.encoder if f.step.stack == "encoder" else f.scenario
    scale = owner.embedding_scale if owner is not None else None
    scaled = (say("embed.scaled", scale=format_exact(scale)) if scale is not None
              else NOTHING)
    looked = (say("embed.check_scaled", token=_token(f), id=ids[f.receiver],
                  row=f.receiver_row(out), scale=format_exact(scale)) if scale is not None
              else say("embed.check", token=_token(f), id=ids[f.receiver],
                       row=f.receiver_row(out), out=short_name(out)))
    return Telling(
        summary=say("embed.summary", n=f.n),
        why=say("embed.why", last=ids[-1]),
        how=say("embed.how", ids=Listed([str(i) for i in ids]), rows=f.table_rows, n=f.n,
                d=f.d, scaled=scaled),
        pitfalls=say("embed.pitfalls", high=max(ids), low=min(ids),
                     tokens=Listed([Token(t) for t in f.tokens])),
        check=say("embed.check_then", looked=looked, then=check),
    )


def inputs(f: Facts) -> Telling:
    first = say("inputs.first", token=Token(f.tokens[0]), row=f.row(f.array("X")[0]))
    receiver = (say("inputs.receiver", token=_token(f), row=f.receiver_row("X"))
                if f.receiver != 0 else NOTHING)
    heads = say("inputs.heads", heads=f.heads) if f.heads > 1 else NOTHING
    return Telling(
        summary=say("inputs.summary", n=f.n, d=f.d),
        why=say("inputs.why"),
        how=say("inputs.how", first=first, receiver=receiver, d=f.d),
        pitfalls=say("inputs.pitfalls", heads=heads),
        check=say("inputs.check", n=f.n, d=f.d, qk=f.heads * f.d_k, v=f.heads * f.d_v),
    )


def _kv_shared(f: Facts) -> Say:
    reads = kv_sharing(f.attention)
    if reads is None:
        return NOTHING
    g = f.attention.groups
    return say("projections.kv_shared_one" if g == 1 else "projections.kv_shared", g=g,
               h=f.heads, reads=reads)


def projections(f: Facts) -> Telling:
    src, mem = f.source, f.memory
    bias = say("projections.bias") if f.has_bias else NOTHING
    rows = dict(token=_token(f), row=f.receiver_row(src), q=f.scoped_row("Q"),
                k=f.kv_row_text("K"), v=f.kv_row_text("V"), src=src, bias=bias)
    how = (say("projections.how_cross", mem=mem, key=Token(f.keys[f.kv_row]), **rows) if mem
           else say("projections.how", **rows))
    return Telling(
        summary=(say("projections.summary_cross", src=src, mem=mem, groups=_kv_shared(f))
                 if mem else say("projections.summary", src=src, groups=_kv_shared(f))),
        why=say("projections.why"),
        how=how,
        pitfalls=say("projections.pitfalls", token=_token(f), src=src),
        check=say("projections.check", token=f.token, terms=f.q0_terms,
                  value=f.num(f.scoped("Q")[f.receiver, 0])),
    )


def scores(f: Facts) -> Telling:
    keys = f.example_keys
    j = keys[0]
    met = Listed([say("scores.key", token=Token(f.keys[k]), row=f.row(f.k(k))) for k in keys])
    raws = Listed([f.num(f.raw_score(k)) for k in keys])
    cell = dict(token=_token(f), key=Token(f.keys[j]), terms=f.score_terms(j),
                raw=f.num(f.raw_score(j)), score=f.num(f.scaled_score(j)), d_k=f.d_k,
                root=f.scale_root, number=f.scale_number)
    query = dict(head=_head(f), token=_token(f), query=f.row(f.q(f.receiver)), met=met,
                 raws=raws, d_k=f.d_k, number=f.scale_number)
    scaled = ("unscaled" if not f.scaled else "scaled" if f.attention.scale_dk is None
              else "rescaled")  # rescaled: ÷ √scale_dk (Gemma 2's query_pre_attn_scalar)
    how = say(f"scores.how_{scaled}",
              scaled_scores=Listed([f.num(f.scaled_score(k)) for k in keys]), **query)
    check = say(f"scores.check_{scaled}", **cell)
    cap = f.attention.softcap
    if cap is not None:  # Gemma 2: the scores the mask and softmax read are capped
        c = format_exact(cap)
        how = say("scores.how_capped", before=how, cap=c,
                  capped=Listed([f.num(f.score(k)) for k in keys]))
        check = say("scores.check_capped", before=check, cap=c, score=cell["score"],
                    capped=f.num(f.score(j)))
    rule = mask_rule(f.attention, f.keys)
    later = ("scores.later_rule" if beyond_causal(f.attention) else
             "scores.later_masked" if f.causal and f.n > 1 else
             "scores.later_open" if not f.causal else "scores.later_single")
    return Telling(
        summary=say(f"scores.summary_{scaled}", d_k=f.d_k, number=f.scale_number),
        why=say("scores.why", then=say(f"scores.why_{scaled}", d_k=f.d_k,
                                       number=f.scale_number)),
        how=how,
        pitfalls=say("scores.pitfalls", then=say(later, rule=rule)),
        check=check,
    )


def weights(f: Facts) -> Telling:
    visible = f.shown_visible
    more = " …" if len(visible) < len(f.visible) else ""
    rule = mask_rule(f.attention, f.keys)
    masked = "rule" if beyond_causal(f.attention) else "masked" if f.causal else "open"
    single = ("weights.single_one" if len(f.keys) == 1 else
              "weights.single_first" if f.causal else "weights.single_none")
    first = (say("weights.first_alone", first=Token(f.tokens[0])) if f.causal and f.n > 1
             else NOTHING)
    if len(f.visible) == 1:
        how = say("weights.how_alone", token=_token(f))
        check = say("weights.check_alone", token=_token(f))
    else:
        how = say("weights.how", drop=say(f"weights.drop_{masked}"), token=_token(f),
                  head=_head(f), exps=Listed([f.num(e) for e in f.exps[:len(visible)]]),
                  more=more, total=f.num(sum(f.exps)),
                  shares=Listed([f.num(f.share(j)) for j in visible]))
        check = say("weights.check", token=_token(f), sum=f.share_sum, first=first)
    return Telling(
        summary=say(f"weights.summary_{masked}", keys=len(f.keys), rule=rule),
        why=say("weights.why", then=say(f"weights.why_{masked}", rule=rule)),
        how=how,
        pitfalls=say("weights.pitfalls", single=say(single, first=Token(f.tokens[0]))),
        check=check,
    )


def mix(f: Facts) -> Telling:
    visible = f.shown_visible
    terms = " + ".join(f"{f.num(f.share(j))}·{f.row(f.v(j))}" for j in visible)
    if len(visible) < len(f.visible):
        terms += " + …"
    shape = ("wo_" if f.has_wo else "") + ("heads" if f.heads > 1 else "one")
    sizes = dict(heads=f.heads, d_v=f.d_v, d_out=f.d_out, width=f.heads * f.d_v,
                 out=f.scoped_row("attn_out"), mixed=f.scoped_row("mixed"))
    lo, mid, hi = f.mix_bounds
    wo = "wo" if f.has_wo else "no_wo"
    return Telling(
        summary=say(f"mix.summary_{wo}"),
        why=say("mix.why", then=say(f"mix.why_{shape}", **sizes)),
        how=say("mix.how", token=_token(f), head=_head(f), terms=terms,
                row=f.row(f.mixed_head()), after=say(f"mix.after_{shape}", **sizes)),
        pitfalls=say(f"mix.pitfalls_{wo}"),
        check=say(f"mix.check_{wo}", token=_token(f), lo=lo, mid=mid, hi=hi),
    )


def _norm_name(f: Facts) -> Say:
    return say(f"norm.{f.norm}")


def _norm_how(f: Facts, m: NormFacts) -> Say:
    return say(f"norm.how_{f.norm}", suffix=m.suffix, token=_token(f),
               row=f.receiver_row(m.source), out=f.receiver_row(m.name), eps=f.eps,
               mean=f.num(f.mean(m.source)), variance=f.num(f.variance(m.source)),
               square=f.num(f.mean_square(m.source)))


def _norm_stat(f: Facts, m: NormFacts) -> Say:
    """A sentence a student can check on the normed row."""
    if f.norm == "none":
        sid = "norm.stat_none"
    else:
        sid = f"norm.stat_{'plain' if m.plain else 'undo'}_{f.norm}"
    return say(sid, out=m.name, source=m.source, suffix=m.suffix, token=_token(f),
               row=f.receiver_row(m.name), square=f.num(f.mean_square(m.name)))


def _norm_check(f: Facts, m: NormFacts) -> Say:
    flip = say("norm.flip_on" if f.norm == "none" else "norm.flip_off", out=m.name,
               source=m.source)
    return say("norm.check", stat=_norm_stat(f, m), then=flip)


def _norm(f: Facts, name: str, summary: Say) -> Telling:
    m = f.norm_facts
    return Telling(summary=summary, why=say(f"{name}.why"), how=_norm_how(f, m),
                   pitfalls=say(f"{name}.pitfalls"), check=_norm_check(f, m))


def embedding_norm(f: Facts) -> Telling:
    """The norm of the summed input rows (``embedding_norm``): its output is X."""
    m = f.norm_facts
    return Telling(summary=say("embedding_norm.summary", norm=_norm_name(f),
                               source=short_name(m.source)),
                   why=say("embedding_norm.why"), how=_norm_how(f, m),
                   pitfalls=say("embedding_norm.pitfalls"), check=_norm_stat(f, m))


def norm1(f: Facts) -> Telling:
    summary = (say("norm1.summary", norm=_norm_name(f)) if f.norm != "none" else
               say("norm1.summary_none"))
    return _norm(f, "norm1", summary)


def norm1_post(f: Facts) -> Telling:
    return _norm(f, "norm1_post", say("norm1_post.summary", norm=_norm_name(f)))


def norm2(f: Facts) -> Telling:
    return _norm(f, "norm2", say("norm2.summary", norm=_norm_name(f)))


def norm2_parallel(f: Facts) -> Telling:
    """A parallel block's second norm: the layer's input again, beside attention."""
    m = f.norm_facts
    shared = say("norm2_parallel.shared" if f.norm2_is_norm1 else "norm2_parallel.own")
    return Telling(summary=say("norm2_parallel.summary", source=m.source, norm=_norm_name(f)),
                   why=say("norm2_parallel.why"), how=_norm_how(f, m),
                   pitfalls=say("norm2_parallel.pitfalls", source=m.source, shared=shared),
                   check=_norm_check(f, m))


def output_norm(name: str) -> Callable[[Facts], Telling]:
    """The plan of the norm of the attention's (``norm3``) or feed-forward's (``norm4``) output
    before its residual; in a block without pre-norms (OLMo 2) its why and pitfalls say that
    the sub-layer read the stream itself."""
    return lambda f: _norm(f, name if f.pre_norms else f"{name}_stream",
                           say(f"{name}.summary", norm=_norm_name(f)))


def norm2_post(f: Facts) -> Telling:
    follows = say("norm2_post.final" if f.has_final_norm else "norm2_post.no_final")
    return _norm(f, "norm2_post", say("norm2_post.summary", norm=_norm_name(f), then=follows))


def final_norm(f: Facts) -> Telling:
    m = f.norm_facts
    why = (say("final_norm.why_pre", token=_token(f), largest=f.num(f.largest(m.source)))
           if f.pre else say("final_norm.why_post"))
    if f.vocab:
        (before, was), (after, now) = (f.largest_logit(),
                                       f.largest_logit(f.logits_without_final_norm))
        off = say("final_norm.off_logits", token=_token(f), before=f.num(before), was=was,
                  after=f.num(after), now=now)
    else:
        off = say("final_norm.off")
    return Telling(
        summary=say("final_norm.summary_head" if f.vocab else "final_norm.summary"),
        why=say("final_norm.why", then=why),
        how=_norm_how(f, m),
        pitfalls=say("final_norm.pitfalls"),
        check=say("final_norm.check", stat=_norm_stat(f, m), then=off),
    )


def _normed(f: Facts, which: str) -> str:
    """``"_normed"`` when the block norms the output the residual adds (``gamma3``: the
    attention's, ``gamma4``: the feed-forward's), else ``""``: the sentence ids' suffix."""
    block = f.modules.block
    return "_normed" if block is not None and getattr(block, f"gamma{which}") is not None else ""


def resid1(f: Facts) -> Telling:
    bias = say("resid1.biases") if f.has_value_bias else NOTHING
    normed = _normed(f, "3")
    check = say("resid1.check_normed") if normed else say("resid1.check", biases=bias)
    return Telling(
        summary=say(f"resid1.summary{normed}"),
        why=say("resid1.why"),
        how=say(f"resid1.how{normed}", d=f.d, token=_token(f), sum=f.residual_sum),
        pitfalls=say("resid1.pitfalls", read=say(("resid1.read_pre" if f.pre_norms else
                                                  "resid1.read_stream") if f.pre else
                                                 "resid1.read_post")),
        check=check,
    )


def ffn(f: Facts) -> Telling:
    if f.block is not None and f.block.feed_forwards[0].Wg is not None:
        return gated_ffn(f)
    src = f.ffn_source
    kind = f.activation if f.activation in ("relu", "identity") else "smooth"
    act = say(f"activation.{f.activation}")
    z, hidden = f.row(f.pre_activation), f.scoped_row("ffn_hidden")
    return Telling(
        summary=say("ffn.summary", width=f.hidden_width, act=act, d=f.d),
        why=say("ffn.why"),
        how=say("ffn.how", token=_token(f), src=src, row=f.receiver_row(src), hidden=hidden,
                out=f.scoped_row("ffn_out")),
        pitfalls=say("ffn.pitfalls", linear=say("ffn.linear_here" if f.activation == "identity"
                                                 else "ffn.linear_would")),
        check=say(f"ffn.check_{kind}", act=act, token=_token(f), z=z, hidden=hidden),
    )


def gated_ffn(f: Facts) -> Telling:
    """A gated feed-forward (SwiGLU, GeGLU): act(x·Wg + bg) gates x·W1 + b1 cell by cell."""
    act = say(f"activation.{f.activation}")
    gate, up, hidden = (f.scoped_row(key) for key in ("ffn_gate", "ffn_up", "ffn_hidden"))
    return Telling(
        summary=say("ffn.summary_gated", width=f.hidden_width, act=act, d=f.d),
        why=say("ffn.why"),
        how=say("ffn.how_gated", token=_token(f), src=f.ffn_source,
                row=f.receiver_row(f.ffn_source), gate=gate, up=up, hidden=hidden,
                out=f.scoped_row("ffn_out")),
        pitfalls=say("ffn.pitfalls", linear=say("ffn.not_linear_gated")),
        check=say("ffn.check_gated", token=_token(f), gate=gate, up=up, hidden=hidden),
    )


def resid2(f: Facts) -> Telling:
    final = ("resid2.final" if f.has_final_norm else
             "resid2.next_layer" if not f.modules.last_layer else "resid2.no_final")
    normed = _normed(f, "4")
    return Telling(
        summary=say(f"resid2.summary{normed}"),
        why=say("resid2.why"),
        how=say(f"resid2.how{normed}", token=_token(f), sum=f.residual_sum),
        pitfalls=say("resid2.pitfalls" if f.pre_norms else "resid2.pitfalls_stream",
                     then=say(final)),
        check=say(f"resid2.check{normed}"),
    )


def resid_parallel(f: Facts) -> Telling:
    """A parallel block's one residual: the input plus both sub-layers' outputs."""
    source, out = f.step.reads[0], f.step.writes[0]
    final = ("resid2.final" if f.has_final_norm else
             "resid2.next_layer" if not f.modules.last_layer else "resid2.no_final")
    return Telling(
        summary=say("resid_parallel.summary", source=source),
        why=say("resid_parallel.why"),
        how=say("resid_parallel.how", out=out, source=source, token=_token(f),
                sum=f.residual_sum),
        pitfalls=say("resid_parallel.pitfalls", source=source, then=say(final)),
        check=say("resid_parallel.check", out=out, source=source),
    )


def resid2_post(f: Facts) -> Telling:
    return Telling(
        summary=say("resid2_post.summary"),
        why=say("resid2_post.why"),
        how=say("resid2_post.how", token=_token(f), sum=f.residual_sum),
        pitfalls=say("resid2_post.pitfalls"),
        check=say("resid2_post.check"),
    )


def transform(f: Facts) -> Telling:
    """A masked-language-model head's transform: dense, activation, LayerNorm."""
    t = f.scenario.module(f.step.module)
    source = f.step.reads[0]
    act = say(f"activation.{t.activation}")
    z = f.array("transform_pre")[f.receiver, 0]
    return Telling(
        summary=say("transform.summary", d=f.d, act=act),
        why=say("transform.why"),
        how=say("transform.how", token=_token(f), act=act, row=f.receiver_row(source),
                z=f.receiver_row("transform_pre"), hidden=f.receiver_row("transform_hidden"),
                out=f.receiver_row("transform")),
        pitfalls=say("transform.pitfalls"),
        check=say("transform.check", terms=f.dot_terms(f.array(source)[f.receiver], t.W[:, 0]),
                  bias=f.factor(float(t.b[0])), value=f.num(float(z))),
    )


def logits(f: Facts) -> Telling:
    top = f.top_entry()
    size = len(f.vocab)
    return Telling(
        summary=say("logits.summary", size=size),
        why=say("logits.why_mlm" if f.step.reads[0] == "transform" else "logits.why", d=f.d,
                size=size),
        how=say("logits.how", d=f.d, size=size, vocab=Listed(some_entries(f.vocab)),
                token=_token(f),
                row=f.receiver_row(f.head_source), logits=f.receiver_row(f.raw_logits)),
        pitfalls=say("logits.pitfalls"),
        check=say("logits.check", entry=f.vocab[top], terms=f.logit_terms(top),
                  value=f.num(f.array(f.raw_logits)[f.receiver, top])),
    )


def softcap(f: Facts) -> Telling:
    """Gemma 2's soft cap of the logits: c · tanh(logits / c)."""
    head = f.scenario.head
    assert head is not None and head.softcap is not None
    cap = format_exact(head.softcap)
    raw = f.array(f.step.reads[0])[f.receiver]
    top = f.top_entry()  # the largest logit: the one the cap bends most
    capped = f.array(f.step.writes[0])[f.receiver, top]
    return Telling(
        summary=say("softcap.summary", cap=cap),
        why=say("softcap.why", cap=cap),
        how=say("softcap.how", cap=cap, token=_token(f), raw=f.receiver_row(f.step.reads[0]),
                capped=f.receiver_row(f.step.writes[0])),
        pitfalls=say("softcap.pitfalls"),
        check=say("softcap.check", cap=cap, entry=f.vocab[top], raw=f.num(float(raw[top])),
                  value=f.num(float(capped))),
    )


def probs(f: Facts) -> Telling:
    top = f.top_entry(f.head_output)
    blanks = masked_positions(f.scenario)
    probabilities = f.array("probs")
    filled = [say("probs.fill", position=p, entry=f.vocab[v], p=f.num(q))
              for p in blanks for v, q in fills(probabilities, p)[:1]]
    return Telling(
        summary=say("probs.fill_summary", fills=Listed(filled)) if filled
        else say("probs.summary"),
        why=say("probs.fill_why") if filled else say("probs.why"),
        how=say("probs.how", token=_token(f), logits=f.receiver_row(f.head_output),
                probs=f.receiver_row("probs")),
        pitfalls=say("probs.pitfalls"),
        check=say("probs.check", token=_token(f), sum=f.prob_sum,
                  logit=f.num(f.array(f.head_output)[f.receiver, top]), entry=f.vocab[top],
                  prob=f.num(f.array("probs")[f.receiver, top])),
    )


def cross_norm(f: Facts) -> Telling:
    m = f.norm_facts
    return Telling(summary=say("cross_norm.summary", source=m.source, norm=_norm_name(f)),
                   why=say("cross_norm.why", source=m.source), how=_norm_how(f, m),
                   pitfalls=say("norm1.pitfalls"), check=_norm_check(f, m))


def cross_norm_post(f: Facts) -> Telling:
    m = f.norm_facts
    return Telling(summary=say("cross_norm_post.summary", norm=_norm_name(f)),
                   why=say("cross_norm_post.why"), how=_norm_how(f, m),
                   pitfalls=say("norm1.pitfalls"), check=_norm_check(f, m))


def cross_resid(f: Facts) -> Telling:
    source, out = f.step.reads[0], f.step.writes[0]
    return Telling(
        summary=say("cross_resid.summary", source=source),
        why=say("resid1.why"),
        how=say("cross_resid.how", out=out, source=source, attn=f.step.reads[1],
                token=_token(f), sum=f.residual_sum),
        pitfalls=say("cross_resid.pitfalls"),
        check=say("cross_resid.check", out=out, source=source),
    )


CROSS_PLANS: dict[str, Callable[[Facts], Telling]] = {
    "block.cross_norm": cross_norm,
    "block.cross_norm_post": cross_norm_post,
    "block.cross_resid": cross_resid,
}
"""``explain_key`` → what its text says, for the steps around a decoder's cross-attention."""

PARALLEL_PLANS: dict[str, Callable[[Facts], Telling]] = {
    "block.norm2_parallel": norm2_parallel,
    "block.resid_parallel": resid_parallel,
}
"""``explain_key`` → what its text says, for a parallel block's own steps."""


PLANS: dict[str, Callable[[Facts], Telling]] = {
    "input.embed": embed,
    "attention.inputs": inputs,
    "attention.projections": projections,
    "attention.scores": scores,
    "attention.weights": weights,
    "attention.mix": mix,
    "block.norm1": norm1,
    "block.norm1_post": norm1_post,
    "block.norm2": norm2,
    "block.norm2_post": norm2_post,
    "block.norm3": output_norm("norm3"),
    "block.norm4": output_norm("norm4"),
    "block.resid1": resid1,
    "block.ffn": ffn,
    "block.resid2": resid2,
    "block.resid2_post": resid2_post,
    "block.final_norm": final_norm,
    "block.logits": logits,
    "block.probs": probs,
    "block.loss": loss,
    "block.sample": sample,
}
"""``explain_key`` → what its text says."""
