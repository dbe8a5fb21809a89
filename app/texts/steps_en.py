"""English step texts, written from the open document's :class:`Facts`.

One builder per ``explain_key``: it reads the document's tokens, sizes, options and numbers, and
says only what is true of them (no mask, one head, no scaling, no Wo, post-norm …).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.texts.facts import Facts, NormFacts
from app.texts.model import StepText

NORMS = {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm", "none": "no norm"}


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _head(f: Facts) -> str:
    return f" in head {f.head + 1} of {f.heads}" if f.heads > 1 else ""


def embed(f: Facts) -> StepText:
    ids = f.token_ids
    ids_text = _and([str(i) for i in ids])
    unused = f.unused_id
    check = (f"Edit table row {unused}, which no token uses: X must not change." if unused is
             not None else f"Edit table row {ids[0]}: only the rows of X with id {ids[0]} change.")
    return StepText(
        summary=f"Each of the {f.n} token ids picks one row of the embedding table; the picked "
                "rows, in order, form X.",
        why=f"An id is a label, not an amount: id {ids[-1]} cannot be multiplied in any useful "
            "way. Looking up a learned row turns each token into numbers the later steps can "
            "compute with.",
        how=f"Row k of X is the embedding row whose index is the k-th token id. Here the ids "
            f"{ids_text} select those rows (counting from 0) of a table with {f.table_rows} "
            f"rows, which gives a {f.n}×{f.d} X.",
        pitfalls=f"Ids have no size: id {max(ids)} is not \"more\" than id {min(ids)}. Cutting "
                 f"the text into {_and(list(f.tokens))} is one tokenizer's choice, and another "
                 "may cut it elsewhere. No column of the table has a fixed human meaning.",
        check=f"Compare each row of X with the table row its id names: for {f.token} (id "
              f"{ids[f.receiver]}) both read {f.receiver_row(f.step.writes[0])}. {check}",
    )


def inputs(f: Facts) -> StepText:
    first = f"here {f.tokens[0]} is {f.row(f.array('X')[0])}"
    if f.receiver != 0:
        first += f" and {f.token} is {f.receiver_row('X')}"
    heads = (f" With {f.heads} heads, their columns split into {f.heads} groups, one per head."
             if f.heads > 1 else "")
    return StepText(
        summary=f"One input X ({f.n}×{f.d}) meets three parameter tables, Wq, Wk and Wv; "
                "nothing is scored yet.",
        why="Attention reads the same rows in three different ways: to look for something, to be "
            "found, and to hand content over. Three separate tables let each reading be learned "
            "on its own.",
        how=f"Each row of X is one position: {first}. Wq, Wk and Wv are given tables of "
            f"coefficients with {f.d} rows, one per column of X; the next step multiplies X by "
            "each of them.",
        pitfalls="Wq, Wk and Wv are parameters, shared by every position; they are not three "
                 "more copies of the text. Keep them apart from Q, K and V, which are results "
                 "computed from X." + heads,
        check=f"Count shapes: X is {f.n}×{f.d}, Wq and Wk are {f.d}×{f.heads * f.d_k} and Wv is "
              f"{f.d}×{f.heads * f.d_v}. Wq and Wk need the same number of columns, because every "
              "q is dotted with every k; the app refuses a Wk of another width.",
    )


def projections(f: Facts) -> StepText:
    src = f.source
    kv = f.kv_source
    bias = " plus a bias" if f.has_bias else ""
    if kv is None:
        formula = f"Q = {src}·Wq, K = {src}·Wk and V = {src}·Wv, each entry a row of {src}"
        rows = f"q = {f.scoped_row('Q')}, k = {f.scoped_row('K')} and v = {f.scoped_row('V')}."
    else:  # K and V have the encoder's rows, one per key
        formula = (f"Q = {src}·Wq, while K = {kv}·Wk and V = {kv}·Wv read the encoder's rows; "
                   "each entry is a row")
        rows = (f"q = {f.scoped_row('Q')}; the encoder's {f.keys[0]}, row "
                f"{f.row(f.array(kv)[0])}, gives k = {f.key_row('K')} and "
                f"v = {f.key_row('V')}.")
    return StepText(
        summary=f"Every row of {src} is multiplied by Wq, Wk and Wv, giving that position's q, k "
                "and v rows.",
        why="One input row has three jobs: its q decides what it reads, its k decides how well "
            "others match it, and its v is the content it passes on. Separate projections let "
            "the features used for matching differ from the content that gets moved.",
        how=f"{formula} times a column of W{bias}. Here {f.token}'s row {f.receiver_row(src)} "
            f"gives {rows}",
        pitfalls=f"Positions do not mix here: row {f.token} of Q depends on row {f.token} of "
                 f"{src} alone. The names are a memory aid only; q, k and v are plain rows of "
                 "numbers, not questions, database keys or answers.",
        check=f"Redo one entry by hand: Q[{f.token}, 0] = {f.q0_terms} = "
              f"{f.num(f.scoped('Q')[f.receiver, 0])}. Edit Wv: only V changes, Q and K stay as "
              "they were.",
    )


def scores(f: Facts) -> StepText:
    i = f.receiver
    keys = f.example_keys
    met = _and([f"{f.keys[j]}'s key {f.row(f.k(j))}" for j in keys])
    raws = _and([f.num(f.raw_score(j)) for j in keys])
    j = keys[0]
    if f.scaled:
        summary = ("Every query row is dotted with every key row, and each score is divided by "
                   f"√dₖ = √{f.d_k}.")
        why = ("and dividing by √dₖ keeps their typical size from growing with the width of q "
               "and k.")
        how = (f"scores[i, j] = q_i · k_j ÷ √dₖ. Here{_head(f)}, with dₖ = {f.d_k}, {f.token}'s "
               f"query {f.row(f.q(i))} meets {met}: raw {raws}, scaled "
               f"{_and([f.num(f.score(j)) for j in keys])}.")
        check = (f"Check one cell: {f.token} against {f.keys[j]} is {f.score_terms(j)} = "
                 f"{f.num(f.raw_score(j))}, and {f.num(f.raw_score(j))} ÷ √{f.d_k} = "
                 f"{f.num(f.score(j))}. Turn scaling off: every score is multiplied by √dₖ "
                 f"(here {f.root_d_k}) and the order within each row stays the same.")
    else:
        summary = "Every query row is dotted with every key row; scaling is off, so the dot "\
                  "products are the scores."
        why = (f"and with scaling off its size grows with the width of q and k (dₖ = {f.d_k} "
               "here).")
        how = (f"scores[i, j] = q_i · k_j, with no division. Here{_head(f)}, {f.token}'s query "
               f"{f.row(f.q(i))} meets {met}: {raws}.")
        check = (f"Check one cell: {f.token} against {f.keys[j]} is {f.score_terms(j)} = "
                 f"{f.num(f.score(j))}. Turn scaling on: every score is divided by √dₖ "
                 f"(here {f.root_d_k}) and the order within each row stays the same.")
    later = ("A score toward a later position appears in the table, yet the causal mask makes "
             "the next step discard it." if f.causal and f.n > 1 else
             "The mask is off, so every score in the table, later positions included, takes "
             "part in the next step." if not f.causal else
             "With a single position, the table holds one score.")
    return StepText(
        summary=summary,
        why="Before a position can decide how much to read from each other position, it needs "
            "one number per candidate saying how well they match. The dot product q·k gives it, "
            + why,
        how=how,
        pitfalls="A score is not a probability: it may be negative or above 1, and only the next "
                 "step turns scores into shares. " + later,
        check=check,
    )


def weights(f: Facts) -> StepText:
    visible = f.shown_visible
    exps = _and([f.num(e) for e in f.exps[:len(visible)]])
    shares = _and([f.num(f.share(j)) for j in visible])
    more = " …" if len(visible) < len(f.visible) else ""
    if f.causal:
        summary = ("Keys the causal mask hides are removed, then softmax turns each row of scores "
                   "into shares that are non-negative and sum to 1.")
        why = ("When text is generated, a position must also be kept from reading tokens after "
               "it, which is the causal mask's job.")
        drop = "drop the keys the mask hides (later positions), "
    else:
        summary = (f"Softmax turns each row of scores into shares that are non-negative and sum "
                   f"to 1; with no mask, each position reads all {len(f.keys)}.")
        why = ("The causal mask is off here, so every position may read every other, later ones "
               "included, as an encoder does.")
        drop = ""
    if len(f.keys) == 1:
        single = ("With one position, its single key takes the whole share of 1 whatever its "
                  "score.")
    elif f.causal:
        single = (f"{f.tokens[0]} has a single visible key, so it takes the whole share of 1 "
                  "whatever its score.")
    else:
        single = "No row has a single visible key here, so every share comes from a contest."
    first = (f" With the mask on, {f.tokens[0]} sees only itself, so its share stays 1 however "
             "you edit Wq or Wk." if f.causal and f.n > 1 else "")
    how = (f"Row by row: {drop}take exp(s − max) of the remaining scores and divide each by "
           f"their total. For {f.token}{_head(f)}, the exps {exps}{more} add up to "
           f"{f.num(sum(f.exps))}, giving shares {shares}{more}.")
    check = f"Each row sums to 1 (for {f.token}: {f.share_sum}).{first} Edit Wv: the shares " \
            "must not move."
    if len(f.visible) == 1:
        how = (f"Row by row: take exp(s − max) of the visible scores and divide each by their "
               f"total. {f.token} sees only itself: exp(0) = 1 over a total of 1.")
        check = (f"{f.token}'s one share is 1 whatever its score: edit Wq or Wk and it stays 1. "
                 "Edit Wv: the shares must not move.")
    return StepText(
        summary=summary,
        why="To blend rows of V, each position needs amounts that are non-negative and add up "
            "to one whole, and raw scores are neither. " + why,
        how=how,
        pitfalls="Shares are computed afresh for each input; they are not the parameters' weights "
                 "in Wq, Wk or Wv. A large share tells where this step takes its numbers from, "
                 "not why the model produced its output. " + single,
        check=check,
    )


def mix(f: Facts) -> StepText:
    visible = f.shown_visible
    terms = " + ".join(f"{f.num(f.share(j))}·{f.row(f.v(j))}" for j in visible)
    if len(visible) < len(f.visible):
        terms += " + …"
    if f.has_wo and f.heads > 1:
        after = (f" Each of the {f.heads} heads mixes its own {f.d_v} columns of V; the results "
                 f"are joined and Wo turns the joined row into {f.scoped_row('attn_out')}.")
    elif f.has_wo:
        after = f" Wo then turns the mix into {f.scoped_row('attn_out')}."
    elif f.heads > 1:
        after = (f" Each of the {f.heads} heads mixes its own {f.d_v} columns of V, and the "
                 f"results are joined side by side: {f.scoped_row('mixed')}.")
    else:
        after = ""
    why = {(True, True): f"Wo brings the {f.heads} joined heads to the width {f.d_out} the rest "
                         "of the model uses.",
           (True, False): f"Wo then maps the mix to the width {f.d_out} the rest of the model "
                          "uses.",
           (False, True): f"With no Wo, the {f.heads} heads' outputs are simply joined, "
                          f"{f.heads * f.d_v} wide.",
           (False, False): "With no Wo here, the mix itself is the attention output."}
    lo, mid, hi = f.mix_bounds
    return StepText(
        summary="Each position's output is the sum of the V rows, each multiplied by its share"
                + ("; that sum is then multiplied by Wo." if f.has_wo else "."),
        why="This is the one step where information travels between positions: a position's new "
            "row is built from the content of the positions it reads. "
            + why[(f.has_wo, f.heads > 1)],
        how=f"mixed_i = Σ_j share_ij · v_j. Here {f.token}{_head(f)} gets {terms} = "
            f"{f.row(f.mixed_head())}.{after}",
        pitfalls="The shares decide how much of each V row to take; they never alter V itself, "
                 "and the output is a new row of numbers, not a vocabulary word or an answer."
                 + (" Wo is a parameter table, not a second set of shares." if f.has_wo else ""),
        check="Edit Wv: the shares stay put and only the mix changes. "
              + ("Before Wo, each" if f.has_wo else "Each")
              + f" mixed entry lies between the smallest and largest visible entry of its V "
                f"column: for {f.token}, {lo} ≤ {mid} ≤ {hi} in column 0.",
    )


def _norm_how(f: Facts, m: NormFacts) -> str:
    x, out = f.receiver_row(m.source), f.receiver_row(m.name)
    if f.norm == "layernorm":
        return (f"LayerNorm subtracts the row's mean, divides by √(variance + ε), then multiplies "
                f"by γ{m.suffix} and adds β{m.suffix}. Here {f.token}'s row {x} has mean "
                f"{f.num(f.mean(m.source))} and variance {f.num(f.variance(m.source))} "
                f"(ε = {f.eps}), and becomes {out}.")
    if f.norm == "rmsnorm":
        return (f"RMSNorm divides the row by √(mean(x²) + ε), subtracting no mean, then "
                f"multiplies by γ{m.suffix}. Here {f.token}'s row {x} has mean square "
                f"{f.num(f.mean_square(m.source))} (ε = {f.eps}), and becomes {out}.")
    return f"With the norm set to none nothing is computed: {f.token}'s row stays {x}."


def _norm_stat(f: Facts, m: NormFacts) -> str:
    """A sentence a student can check on the normed row."""
    out = m.name
    if f.norm == "none":
        return f"{out} equals {m.source} in every cell."
    if not m.plain:
        return (f"Undo γ{m.suffix} and β{m.suffix}: (row − β{m.suffix}) ÷ γ{m.suffix} has mean 0 "
                "in every row." if f.norm == "layernorm" else
                f"Undo γ{m.suffix}: row ÷ γ{m.suffix} has a mean square close to 1 in every row.")
    if f.norm == "layernorm":
        return (f"With γ{m.suffix} = 1 and β{m.suffix} = 0, each LayerNorm row has mean 0 and a "
                f"mean square close to 1: {f.token}'s row {f.receiver_row(out)} has mean square "
                f"{f.num(f.mean_square(out))}.")
    return (f"With γ{m.suffix} = 1, each RMSNorm row has a mean square close to 1: {f.token}'s "
            f"row gives {f.num(f.mean_square(out))}.")


def _norm_check(f: Facts, m: NormFacts) -> str:
    flip = (f"Switch the norm to LayerNorm or RMSNorm: {m.name} stops being a copy of "
            f"{m.source}." if f.norm == "none" else
            f"Set the norm to none: {m.name} equals {m.source}.")
    return _norm_stat(f, m) + " " + flip


_NORM_PITFALL = ("A norm works inside one row and never across positions. It does not turn "
                 "numbers into probabilities: outputs can be negative and need not sum to 1.")


def norm1(f: Facts) -> StepText:
    m = f.norm_facts
    summary = (f"Before attention, each row of X is rescaled on its own by the block's "
               f"{NORMS[f.norm]}." if f.norm != "none" else
               "The block's norm is off, so attention reads X as it is: norm1 is a copy of X.")
    return StepText(
        summary=summary,
        why="Rows can arrive at very different sizes, and bringing each to a standard scale keeps "
            "the attention scores in a workable range. In pre-norm the untouched X still flows "
            "past on the residual path.",
        how=_norm_how(f, m),
        pitfalls=_NORM_PITFALL + " γ and β are learned parameters, while ε is a constant set by "
                                 "hand.",
        check=_norm_check(f, m),
    )


def norm1_post(f: Facts) -> StepText:
    m = f.norm_facts
    return StepText(
        summary=f"In post-norm, the first residual sum, X plus the attention output, is normed "
                f"row by row ({NORMS[f.norm]}).",
        why="Adding the attention output to X can change how large each row is, so post-norm "
            "brings the sum back to a standard scale before the feed-forward reads it.",
        how=_norm_how(f, m),
        pitfalls="Pre-norm and post-norm name the order of operations inside one forward pass, "
                 "not two phases of training. Here the residual path carries the normed sum, so "
                 "X does not reach the output untouched.",
        check=_norm_check(f, m),
    )


def norm2(f: Facts) -> StepText:
    m = f.norm_facts
    return StepText(
        summary=f"The stream after the first residual is normed row by row ({NORMS[f.norm]}) "
                "before the feed-forward reads it.",
        why="Whatever the attention added, the feed-forward should see rows at a steady scale. "
            "Because this is pre-norm, the unnormed resid1 still travels on to the second "
            "residual.",
        how=_norm_how(f, m),
        pitfalls="This norm feeds only the feed-forward: the second residual adds the "
                 "feed-forward output to resid1, not to norm2. It has its own γ2 and β2, which "
                 "may differ from γ1 and β1.",
        check=_norm_check(f, m),
    )


def norm2_post(f: Facts) -> StepText:
    m = f.norm_facts
    follows = ("; the final norm then follows" if f.has_final_norm else "")
    return StepText(
        summary=f"In post-norm, the second residual sum is normed row by row ({NORMS[f.norm]})"
                f"{follows}.",
        why="Post-norm closes every sub-layer with a norm, so the block hands on rows at a "
            "standard scale.",
        how=_norm_how(f, m),
        pitfalls="This is a second, separate norm with its own γ2 and β2, not a repeat of norm1. "
                 "The \"post\" means after the addition, not after training.",
        check=_norm_check(f, m),
    )


def final_norm(f: Facts) -> StepText:
    m = f.norm_facts
    why = (f"In pre-norm the stream itself is never normed on its way through, so its rows can "
           f"grow: {f.token}'s row reaches {f.num(f.largest(m.source))}." if f.pre else
           "In post-norm the block's output is already normed; this norm is applied once more "
           "with its own γ_f and β_f.")
    check = "Turn the final norm off: the step disappears"
    if f.vocab:
        (before, was), (after, now) = (f.largest_logit(),
                                       f.largest_logit(f.logits_without_final_norm))
        check += (f", and {f.token}'s largest logit changes from {f.num(before)} ({was}) to "
                  f"about {f.num(after)} ({now}).")
    else:
        check += "."
    return StepText(
        summary="The block's output is normed once more, row by row, before "
                + ("the vocabulary head." if f.vocab else "it leaves the block."),
        why=why + " The final norm hands on rows at a steady scale.",
        how=_norm_how(f, m),
        pitfalls="Like every norm here, it is not the softmax and its rows are not "
                 "probabilities. It usually goes with pre-norm, since post-norm output is already "
                 "normed.",
        check=_norm_stat(f, m) + " " + check,
    )


def qk_norm(f: Facts) -> StepText:
    kind = NORMS[f.attention.qk_norm or "none"]
    q, k = f.step.reads[:2]
    before, after = f.qk_rows
    return StepText(
        summary=f"Each head's q and k rows are normed on their own ({kind}) before the scores "
                "are taken.",
        why="Large q or k entries make some scores huge and the softmax nearly one-hot. Norming "
            "every head's q and k rows keeps the dot products in a steady range however the "
            "projections grow.",
        how=f"Every d_k = {f.d_k} wide head slice of each row of {q} and {k} is normed by "
            f"{kind} and multiplied by γq or γk (entry by entry). Here {f.token}'s "
            f"q{_head(f)} goes from {before} to {after}.",
        pitfalls="Only q and k are normed: V, the residual stream and the block's norms are "
                 "untouched, so the content an attention moves is not rescaled. Each head is "
                 "normed separately, not the whole row at once.",
        check=f"The scores read {f.step.writes[0]} and {f.step.writes[1]}, not {q} and {k}: "
              f"recompute one score from the normed rows. {f.token}'s normed q slice is "
              f"{after}.",
    )


def resid1(f: Facts) -> StepText:
    zero = ("Set Wv to all zeros" + (" and remove the biases" if f.has_value_bias else "")
            + ": the attention output becomes 0 and resid1 equals X.")
    read = ("The raw X is added, even though attention read norm1." if f.pre else
            "The raw X is added here; the norm comes in the next step.")
    return StepText(
        summary="The attention output is added to X, position by position: the first residual.",
        why="Adding instead of replacing keeps the original input and lets the attention "
            "contribute only a change. It also gives signals a direct path that passes through "
            "unaltered.",
        how=f"resid1 = X + attn_out, entry by entry, so the attention output must be {f.d} wide "
            f"like X. For {f.token}: {f.residual_sum}.",
        pitfalls=read + " A residual is a plain sum with no learned numbers; it neither "
                        "normalises nor averages.",
        check="Subtract: resid1 − X equals the attention output in every cell. " + zero,
    )


def ffn(f: Facts) -> StepText:
    src = f.ffn_source
    act = {"relu": "ReLU", "gelu": "GELU", "silu": "SiLU", "identity": "the identity",
           "gelu_tanh": "GELU (tanh form)"}[
        f.activation]
    z, hidden = f.row(f.pre_activation), f.scoped_row("ffn_hidden")
    if f.activation == "relu":
        check = (f"Where the value before the activation is negative, ReLU shows 0: "
                 f"{f.token}'s {z} becomes {hidden}. Switch the activation to identity: the "
                 "hidden row then equals x·W1 (plus b1).")
    elif f.activation == "identity":
        check = (f"With the identity, the hidden row equals x·W1 (plus b1): {f.token}'s is {z}. "
                 "Switch to ReLU: its negative entries become 0.")
    else:
        check = (f"{act} keeps large positive values nearly as they are and pulls negative ones "
                 f"towards 0: {f.token}'s {z} becomes {hidden}. Switch the activation to identity: "
                 "the hidden row then equals x·W1 (plus b1).")
    linear = ("With the identity activation, as here, the whole feed-forward collapses into one "
              "linear map." if f.activation == "identity" else
              "With the identity activation it would collapse into one linear map.")
    return StepText(
        summary=f"Each row goes through W1 to the hidden width {f.hidden_width}, {act}, then W2 "
                f"back to width {f.d}.",
        why="Attention only blends V rows in proportions that sum to 1, then applies linear maps. "
            "The feed-forward adds a non-linear change to each position on its own.",
        how=f"hidden = act(x·W1 + b1) and out = hidden·W2 + b2, row by row. Here {f.token}'s row "
            f"of {src}, {f.receiver_row(src)}, gives the hidden row {hidden} and the output "
            f"{f.scoped_row('ffn_out')}.",
        pitfalls="The feed-forward never looks at other positions: every row is transformed "
                 "alone with the same W1 and W2. Its output must be d wide to be added back. "
                 + linear,
        check=check,
    )


def resid2(f: Facts) -> StepText:
    final = ("which is why the final norm follows here." if f.has_final_norm else
             "and this document has no final norm after it.")
    return StepText(
        summary="The feed-forward output is added to the stream resid1: the second residual, "
                "which is the block's output in pre-norm.",
        why="As with the first residual, the feed-forward adds a change on top of what the "
            "stream already carries, so nothing computed earlier is lost.",
        how=f"resid2 = resid1 + ffn_out, entry by entry. For {f.token}: "
            f"{f.residual_sum}.",
        pitfalls="The sum starts from resid1, not norm2, which only fed the feed-forward. In "
                 "pre-norm the block's output is this unnormed sum, " + final,
        check="resid2 − resid1 equals ffn_out in every cell. Set W2 to zeros (and b2, if any): "
              "resid2 then equals resid1.",
    )


def resid2_post(f: Facts) -> StepText:
    return StepText(
        summary="In post-norm, the feed-forward output is added to norm1, the normed first "
                "residual.",
        why="The residual gives the feed-forward a path around itself; in post-norm that path "
            "starts from the already normed stream.",
        how=f"resid2 = norm1 + ffn_out, entry by entry. For {f.token}: "
            f"{f.residual_sum}; the next step norms this sum again.",
        pitfalls="Unlike pre-norm, the sum starts from norm1 rather than resid1, so the original "
                 "scale of X is no longer carried along. It is still only an addition.",
        check="resid2 − norm1 equals ffn_out in every cell. Switch the placement to pre: this "
              "step then adds to resid1 instead.",
    )


def logits(f: Facts) -> StepText:
    top = f.top_entry()
    src = f.head_source
    return StepText(
        summary="Each final row is multiplied by the vocabulary head, giving one score, a logit, "
                f"for each of the {len(f.vocab)} vocabulary entries.",
        why="To predict the next token, every position needs one number per candidate token. "
            f"The head turns a row {f.d} wide into a row {len(f.vocab)} wide.",
        how=f"logits = row · unembed, where unembed is {f.d}×{len(f.vocab)}, one column per "
            f"entry ({_and(list(f.vocab))}). Here {f.token}'s row {f.receiver_row(src)} gives "
            f"{f.receiver_row('logits')}.",
        pitfalls="Logits are not probabilities: they can be negative and do not sum to 1. They "
                 "come from the last row of the whole computation, not from the attention "
                 "shares.",
        check=f"Recompute one logit: {f.vocab[top]} is {f.logit_terms(top)} = "
              f"{f.num(f.array('logits')[f.receiver, top])}. The largest logit of a row marks "
              "the entry that gets the largest probability in the next step.",
    )


def probs(f: Facts) -> StepText:
    top = f.top_entry()
    return StepText(
        summary="Softmax turns each row of logits into probabilities over the vocabulary.",
        why="Choosing a next token needs numbers that are non-negative and add up to 1. Softmax "
            "gives such numbers and keeps the order of the logits.",
        how=f"p_v = exp(logit_v) / Σ_u exp(logit_u), row by row. Here {f.token}'s logits "
            f"{f.receiver_row('logits')} give {f.receiver_row('probs')}.",
        pitfalls="The attention shares and these probabilities are different things, separated "
                 "by residuals, the feed-forward and the vocabulary head. Hand-set parameters, "
                 "not trained ones, make these probabilities say nothing about a real model.",
        check=f"Each row sums to 1 (for {f.token}: {f.prob_sum}). The largest logit "
              f"({f.num(f.array('logits')[f.receiver, top])}, {f.vocab[top]}) has the largest "
              f"probability ({f.num(f.array('probs')[f.receiver, top])}), and the probabilities "
              "rank the entries in the order of the logits.",
    )


BUILDERS: dict[str, Callable[[Facts], StepText]] = {
    "input.embed": embed,
    "attention.inputs": inputs,
    "attention.projections": projections,
    "attention.qk_norm": qk_norm,
    "attention.scores": scores,
    "attention.weights": weights,
    "attention.mix": mix,
    "block.norm1": norm1,
    "block.norm1_post": norm1_post,
    "block.norm2": norm2,
    "block.norm2_post": norm2_post,
    "block.resid1": resid1,
    "block.ffn": ffn,
    "block.resid2": resid2,
    "block.resid2_post": resid2_post,
    "block.final_norm": final_norm,
    "block.logits": logits,
    "block.probs": probs,
}
"""``explain_key`` → the builder of its English text."""
