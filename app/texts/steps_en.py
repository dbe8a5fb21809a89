"""English words of the step texts: one template per sentence id (see :mod:`app.texts.sentences`;
what applies is decided in :mod:`app.texts.step_plans`)."""

from __future__ import annotations

_NORM_PITFALL = ("A norm works inside one row and never across positions. It does not turn "
                 "numbers into probabilities: outputs can be negative and need not sum to 1.")

WORDS: dict[str, str] = {
    "nothing": "",
    "head_of": " in head {head} of {heads}",
    # embed
    "embed.summary": "Each of the {n} token ids picks one row of the embedding table; the picked "
                     "rows, in order, form X.",
    "embed.why": "An id is a label, not an amount: id {last} cannot be multiplied in any useful "
                 "way. Looking up a learned row turns each token into numbers the later steps "
                 "can compute with.",
    "embed.how": "Row k of X is the embedding row whose index is the k-th token id. Here the ids "
                 "{ids} select those rows (counting from 0) of a table with {rows} rows, which "
                 "gives a {n}×{d} X.{scaled}",
    "embed.scaled": " Every picked row is then multiplied by embedding_scale = {scale} before "
                    "anything is added to it.",
    "embed.pitfalls": "Ids have no size: id {high} is not \"more\" than id {low}. Cutting the "
                      "text into {tokens} is one tokenizer's choice, and another may cut it "
                      "elsewhere. No column of the table has a fixed human meaning.",
    "embed.check_then": "{looked} {then}",
    "embed.check": "Compare each row of {out} with the table row its id names: for {token} (id "
                   "{id}) both read {row}.",
    "embed.check_scaled": "Divide {token}'s row {row} by {scale}: it gives back table row {id}.",
    "embed.check_unused": "Edit table row {row}, which no token uses: {out} must not change.",
    "embed.check_used": "Edit table row {row}: only the rows of {out} with id {row} change.",
    # inputs
    "inputs.summary": "One input X ({n}×{d}) meets three parameter tables, Wq, Wk and Wv; "
                      "nothing is scored yet.",
    "inputs.why": "Attention reads the same rows in three different ways: to look for something, "
                  "to be found, and to hand content over. Three separate tables let each reading "
                  "be learned on its own.",
    "inputs.first": "here {token} is {row}",
    "inputs.receiver": " and {token} is {row}",
    "inputs.how": "Each row of X is one position: {first}{receiver}. Wq, Wk and Wv are given "
                  "tables of coefficients with {d} rows, one per column of X; the next step "
                  "multiplies X by each of them.",
    "inputs.heads": " With {heads} heads, their columns split into {heads} groups, one per head.",
    "inputs.pitfalls": "Wq, Wk and Wv are parameters, shared by every position; they are not "
                       "three more copies of the text. Keep them apart from Q, K and V, which "
                       "are results computed from X.{heads}",
    "inputs.check": "Count shapes: X is {n}×{d}, Wq and Wk are {d}×{qk} and Wv is {d}×{v}. Wq "
                    "and Wk need the same number of columns, because every q is dotted with "
                    "every k; the app refuses a Wk of another width.",
    # projections
    "projections.summary": "Every row of {src} is multiplied by Wq, Wk and Wv, giving that "
                           "position's q, k and v rows.{groups}",
    "projections.summary_cross": "Every row of {src} is multiplied by Wq, giving its q; every "
                                 "row of {mem} by Wk and Wv, giving the encoder positions' k "
                                 "and v.{groups}",
    "projections.why": "One input row has three jobs: its q decides what it reads, its k decides "
                       "how well others match it, and its v is the content it passes on. "
                       "Separate projections let the features used for matching differ from "
                       "the content that gets moved.",
    "projections.bias": " plus a bias",
    "projections.how": "Q = {src}·Wq, K = {src}·Wk and V = {src}·Wv, each entry a row of {src} "
                       "times a column of W{bias}. Here {token}'s row {row} gives q = {q}, "
                       "k = {k} and v = {v}.",
    "projections.how_cross": "Q = {src}·Wq, while K = {mem}·Wk and V = {mem}·Wv read the "
                             "encoder's memory, each entry a row times a column of W{bias}. "
                             "Here {token}'s row {row} gives q = {q}; the memory row of {key} "
                             "gives k = {k} and v = {v}.",
    "projections.pitfalls": "Positions do not mix here: row {token} of Q depends on row {token} "
                            "of {src} alone. The names are a memory aid only; q, k and v are "
                            "plain rows of numbers, not questions, database keys or answers.",
    "projections.check": "Redo one entry by hand: Q[{token}, 0] = {terms} = {value}. Edit Wv: "
                         "only V changes, Q and K stay as they were.",
    # scores
    "scores.key": "{token}'s key {row}",
    "scores.summary_scaled": "Every query row is dotted with every key row, and each score is "
                             "divided by √dₖ = √{d_k}.",
    "scores.summary_unscaled": "Every query row is dotted with every key row; scaling is off, "
                               "so the dot products are the scores.",
    "scores.why": "Before a position can decide how much to read from each other position, it "
                  "needs one number per candidate saying how well they match. The dot product "
                  "q·k gives it, {then}",
    "scores.why_scaled": "and dividing by √dₖ keeps their typical size from growing with the "
                         "width of q and k.",
    "scores.why_unscaled": "and with scaling off its size grows with the width of q and k "
                           "(dₖ = {d_k} here).",
    "scores.how_scaled": "scores[i, j] = q_i · k_j ÷ √dₖ. Here{head}, with dₖ = {d_k}, {token}'s "
                         "query {query} meets {met}: raw {raws}, scaled {scaled_scores}.",
    "scores.how_unscaled": "scores[i, j] = q_i · k_j, with no division. Here{head}, {token}'s "
                           "query {query} meets {met}: {raws}.",
    "scores.pitfalls": "A score is not a probability: it may be negative or above 1, and only "
                       "the next step turns scores into shares. {then}",
    "scores.later_masked": "A score toward a later position appears in the table, yet the causal "
                           "mask makes the next step discard it.",
    "scores.later_open": "The mask is off, so every score in the table, later positions "
                         "included, takes part in the next step.",
    "scores.later_single": "With a single position, the table holds one score.",
    "scores.check_scaled": "Check one cell: {token} against {key} is {terms} = {raw}, and {raw} "
                           "÷ √{d_k} = {score}. Turn scaling off: every score is multiplied by "
                           "√dₖ (here {root}) and the order within each row stays the same.",
    "scores.check_unscaled": "Check one cell: {token} against {key} is {terms} = {score}. Turn "
                             "scaling on: every score is divided by √dₖ (here {root}) and the "
                             "order within each row stays the same.",
    # weights
    "weights.summary_masked": "Keys the causal mask hides are removed, then softmax turns each "
                              "row of scores into shares that are non-negative and sum to 1.",
    "weights.summary_open": "Softmax turns each row of scores into shares that are non-negative "
                            "and sum to 1; with no mask, each position reads all {keys}.",
    "weights.why": "To blend rows of V, each position needs amounts that are non-negative and "
                   "add up to one whole, and raw scores are neither. {then}",
    "weights.why_masked": "When text is generated, a position must also be kept from reading "
                          "tokens after it, which is the causal mask's job.",
    "weights.why_open": "The causal mask is off here, so every position may read every other, "
                        "later ones included, as an encoder does.",
    "weights.drop_masked": "drop the keys the mask hides (later positions), ",
    "weights.drop_open": "",
    "weights.how": "Row by row: {drop}take exp(s − max) of the remaining scores and divide each "
                   "by their total. For {token}{head}, the exps {exps}{more} add up to {total}, "
                   "giving shares {shares}{more}.",
    "weights.how_alone": "Row by row: take exp(s − max) of the visible scores and divide each by "
                         "their total. {token} sees only itself: exp(0) = 1 over a total of 1.",
    "weights.pitfalls": "Shares are computed afresh for each input; they are not the parameters' "
                        "weights in Wq, Wk or Wv. A large share tells where this step takes its "
                        "numbers from, not why the model produced its output. {single}",
    "weights.single_one": "With one position, its single key takes the whole share of 1 "
                          "whatever its score.",
    "weights.single_first": "{first} has a single visible key, so it takes the whole share of 1 "
                            "whatever its score.",
    "weights.single_none": "No row has a single visible key here, so every share comes from a "
                           "contest.",
    "weights.first_alone": " With the mask on, {first} sees only itself, so its share stays 1 "
                           "however you edit Wq or Wk.",
    "weights.check": "Each row sums to 1 (for {token}: {sum}).{first} Edit Wv: the shares must "
                     "not move.",
    "weights.check_alone": "{token}'s one share is 1 whatever its score: edit Wq or Wk and it "
                           "stays 1. Edit Wv: the shares must not move.",
    # mix
    "mix.summary_wo": "Each position's output is the sum of the V rows, each multiplied by its "
                      "share; that sum is then multiplied by Wo.",
    "mix.summary_no_wo": "Each position's output is the sum of the V rows, each multiplied by "
                         "its share.",
    "mix.why": "This is the one step where information travels between positions: a position's "
               "new row is built from the content of the positions it reads. {then}",
    "mix.why_wo_heads": "Wo brings the {heads} joined heads to the width {d_out} the rest of the "
                        "model uses.",
    "mix.why_wo_one": "Wo then maps the mix to the width {d_out} the rest of the model uses.",
    "mix.why_heads": "With no Wo, the {heads} heads' outputs are simply joined, {width} wide.",
    "mix.why_one": "With no Wo here, the mix itself is the attention output.",
    "mix.how": "mixed_i = Σ_j share_ij · v_j. Here {token}{head} gets {terms} = {row}.{after}",
    "mix.after_wo_heads": " Each of the {heads} heads mixes its own {d_v} columns of V; the "
                          "results are joined and Wo turns the joined row into {out}.",
    "mix.after_wo_one": " Wo then turns the mix into {out}.",
    "mix.after_heads": " Each of the {heads} heads mixes its own {d_v} columns of V, and the "
                       "results are joined side by side: {mixed}.",
    "mix.after_one": "",
    "mix.pitfalls_no_wo": "The shares decide how much of each V row to take; they never alter V "
                          "itself, and the output is a new row of numbers, not a vocabulary "
                          "word or an answer.",
    "mix.pitfalls_wo": "The shares decide how much of each V row to take; they never alter V "
                       "itself, and the output is a new row of numbers, not a vocabulary word "
                       "or an answer. Wo is a parameter table, not a second set of shares.",
    "mix.check_no_wo": "Edit Wv: the shares stay put and only the mix changes. Each mixed entry "
                       "lies between the smallest and largest visible entry of its V column: "
                       "for {token}, {lo} ≤ {mid} ≤ {hi} in column 0.",
    "mix.check_wo": "Edit Wv: the shares stay put and only the mix changes. Before Wo, each "
                    "mixed entry lies between the smallest and largest visible entry of its V "
                    "column: for {token}, {lo} ≤ {mid} ≤ {hi} in column 0.",
    # norms
    "norm.layernorm": "LayerNorm",
    "norm.rmsnorm": "RMSNorm",
    "norm.none": "no norm",
    "norm.how_layernorm": "LayerNorm subtracts the row's mean, divides by √(variance + ε), then "
                          "multiplies by γ{suffix} and adds β{suffix}. Here {token}'s row {row} "
                          "has mean {mean} and variance {variance} (ε = {eps}), and becomes "
                          "{out}.",
    "norm.how_rmsnorm": "RMSNorm divides the row by √(mean(x²) + ε), subtracting no mean, then "
                        "multiplies by γ{suffix}. Here {token}'s row {row} has mean square "
                        "{square} (ε = {eps}), and becomes {out}.",
    "norm.how_none": "With the norm set to none nothing is computed: {token}'s row stays {row}.",
    "norm.stat_none": "{out} equals {source} in every cell.",
    "norm.stat_undo_layernorm": "Undo γ{suffix} and β{suffix}: (row − β{suffix}) ÷ γ{suffix} "
                                "has mean 0 in every row.",
    "norm.stat_undo_rmsnorm": "Undo γ{suffix}: row ÷ γ{suffix} has a mean square close to 1 in "
                              "every row.",
    "norm.stat_plain_layernorm": "With γ{suffix} = 1 and β{suffix} = 0, each LayerNorm row has "
                                 "mean 0 and a mean square close to 1: {token}'s row {row} has "
                                 "mean square {square}.",
    "norm.stat_plain_rmsnorm": "With γ{suffix} = 1, each RMSNorm row has a mean square close to "
                               "1: {token}'s row gives {square}.",
    "norm.flip_on": "Switch the norm to LayerNorm or RMSNorm: {out} stops being a copy of "
                    "{source}.",
    "norm.flip_off": "Set the norm to none: {out} equals {source}.",
    "norm.check": "{stat} {then}",
    "embedding_norm.summary": "The summed rows {source} are normed row by row ({norm}); what "
                              "comes out is X, the rows the first layer reads.",
    "embedding_norm.why": "Token, position and type rows come from three tables of different "
                          "sizes; norming their sum brings every row to one scale before the "
                          "first layer, as BERT and BART do.",
    "embedding_norm.pitfalls": _NORM_PITFALL + " It runs once, before the first layer, not "
                                               "in every layer; its γ and β are its own.",
    "norm1.summary": "Before attention, each row of X is rescaled on its own by the block's "
                     "{norm}.",
    "norm1.summary_none": "The block's norm is off, so attention reads X as it is: norm1 is a "
                          "copy of X.",
    "norm1.why": "Rows can arrive at very different sizes, and bringing each to a standard scale "
                 "keeps the attention scores in a workable range. In pre-norm the untouched X "
                 "still flows past on the residual path.",
    "norm1.pitfalls": _NORM_PITFALL + " γ and β are learned parameters, while ε is a constant "
                                      "set by hand.",
    "norm1_post.summary": "In post-norm, the first residual sum, X plus the attention output, is "
                          "normed row by row ({norm}).",
    "norm1_post.why": "Adding the attention output to X can change how large each row is, so "
                      "post-norm brings the sum back to a standard scale before the "
                      "feed-forward reads it.",
    "norm1_post.pitfalls": "Pre-norm and post-norm name the order of operations inside one "
                           "forward pass, not two phases of training. Here the residual path "
                           "carries the normed sum, so X does not reach the output untouched.",
    "norm2.summary": "The stream after the first residual is normed row by row ({norm}) before "
                     "the feed-forward reads it.",
    "norm2.why": "Whatever the attention added, the feed-forward should see rows at a steady "
                 "scale. Because this is pre-norm, the unnormed resid1 still travels on to the "
                 "second residual.",
    "norm2.pitfalls": "This norm feeds only the feed-forward: the second residual adds the "
                      "feed-forward output to resid1, not to norm2. It has its own γ2 and β2, "
                      "which may differ from γ1 and β1.",
    "norm2_parallel.summary": "A parallel block: the feed-forward reads the layer's input "
                              "{source} too, normed row by row ({norm}) here, not the stream "
                              "after attention.",
    "norm2_parallel.why": "The two branches do not wait for each other: the feed-forward never "
                          "sees what attention wrote, so both can be computed side by side "
                          "(GPT-NeoX, GPT-J, Phi). Their outputs meet only in the one residual "
                          "that follows.",
    "norm2_parallel.pitfalls": "This norm reads {source}, the rows norm1 read, not X + attn_out: "
                               "there is no first residual in a parallel block. {shared}",
    "norm2_parallel.shared": "Here γ2 and β2 equal γ1 and β1, so norm2 equals norm1 (Phi has "
                             "only one norm, read by both branches; GPT-NeoX's two may differ "
                             "once trained).",
    "norm2_parallel.own": "It has its own γ2 and β2 (GPT-NeoX's second LayerNorm), so norm2 "
                          "may differ from norm1 though both read the same rows.",
    "norm2_post.summary": "In post-norm, the second residual sum is normed row by row "
                          "({norm}){then}.",
    "norm2_post.final": "; the final norm then follows",
    "norm2_post.no_final": "",
    "norm2_post.why": "Post-norm closes every sub-layer with a norm, so the block hands on rows "
                      "at a standard scale.",
    "norm2_post.pitfalls": "This is a second, separate norm with its own γ2 and β2, not a "
                           "repeat of norm1. The \"post\" means after the addition, not after "
                           "training.",
    "final_norm.summary_head": "The block's output is normed once more, row by row, before the "
                               "vocabulary head.",
    "final_norm.summary": "The block's output is normed once more, row by row, before it leaves "
                          "the block.",
    "final_norm.why": "{then} The final norm hands on rows at a steady scale.",
    "final_norm.why_pre": "In pre-norm the stream itself is never normed on its way through, so "
                          "its rows can grow: {token}'s row reaches {largest}.",
    "final_norm.why_post": "In post-norm the block's output is already normed; this norm is "
                           "applied once more with its own γ_f and β_f.",
    "final_norm.pitfalls": "Like every norm here, it is not the softmax and its rows are not "
                           "probabilities. It usually goes with pre-norm, since post-norm output "
                           "is already normed.",
    "final_norm.check": "{stat} {then}",
    "final_norm.off": "Turn the final norm off: the step disappears.",
    "final_norm.off_logits": "Turn the final norm off: the step disappears, and {token}'s "
                             "largest logit changes from {before} ({was}) to about {after} "
                             "({now}).",
    # residuals and feed-forward
    "resid1.summary": "The attention output is added to X, position by position: the first "
                      "residual.",
    "resid1.why": "Adding instead of replacing keeps the original input and lets the attention "
                  "contribute only a change. It also gives signals a direct path that passes "
                  "through unaltered.",
    "resid1.how": "resid1 = X + attn_out, entry by entry, so the attention output must be {d} "
                  "wide like X. For {token}: {sum}.",
    "resid1.pitfalls": "{read} A residual is a plain sum with no learned numbers; it neither "
                       "normalises nor averages.",
    "resid1.read_pre": "The raw X is added, even though attention read norm1.",
    "resid1.read_post": "The raw X is added here; the norm comes in the next step.",
    "resid1.check": "Subtract: resid1 − X equals the attention output in every cell. Set Wv to "
                    "all zeros{biases}: the attention output becomes 0 and resid1 equals X.",
    "resid1.biases": " and remove the biases",
    "activation.relu": "ReLU",
    "activation.gelu": "GELU",
    "activation.silu": "SiLU",
    "activation.identity": "the identity",
    "activation.gelu_tanh": "GELU (tanh form)",
    "ffn.summary": "Each row goes through W1 to the hidden width {width}, {act}, then W2 back to "
                   "width {d}.",
    "ffn.summary_gated": "Each row goes through Wg and W1 to the hidden width {width}: {act} "
                         "of x·Wg is a gate on x·W1, cell by cell; then W2 back to width {d}.",
    "ffn.how_gated": "gate = act(x·Wg + bg), up = x·W1 + b1, hidden = up ⊙ gate and out = "
                     "hidden·W2 + b2, row by row. Here {token}'s row of {src}, {row}, gives the "
                     "gate {gate}, the up row {up}, the hidden row {hidden} and the output {out}.",
    "ffn.not_linear_gated": "Even with the identity activation it would not be linear: the gate "
                            "multiplies two projections of the same row.",
    "ffn.check_gated": "Each hidden cell is the up cell times the gate cell: {token}'s up row "
                       "{up} times its gate {gate} gives {hidden}. Where the gate is near 0 the "
                       "unit is shut, whatever W1 says.",
    "ffn.why": "Attention only blends V rows in proportions that sum to 1, then applies linear "
               "maps. The feed-forward adds a non-linear change to each position on its own.",
    "ffn.how": "hidden = act(x·W1 + b1) and out = hidden·W2 + b2, row by row. Here {token}'s row "
               "of {src}, {row}, gives the hidden row {hidden} and the output {out}.",
    "ffn.pitfalls": "The feed-forward never looks at other positions: every row is transformed "
                    "alone with the same W1 and W2. Its output must be d wide to be added back. "
                    "{linear}",
    "ffn.linear_here": "With the identity activation, as here, the whole feed-forward collapses "
                       "into one linear map.",
    "ffn.linear_would": "With the identity activation it would collapse into one linear map.",
    "ffn.check_relu": "Where the value before the activation is negative, ReLU shows 0: "
                      "{token}'s {z} becomes {hidden}. Switch the activation to identity: the "
                      "hidden row then equals x·W1 (plus b1).",
    "ffn.check_identity": "With the identity, the hidden row equals x·W1 (plus b1): {token}'s "
                          "is {z}. Switch to ReLU: its negative entries become 0.",
    "ffn.check_smooth": "{act} keeps large positive values nearly as they are and pulls negative "
                        "ones towards 0: {token}'s {z} becomes {hidden}. Switch the activation "
                        "to identity: the hidden row then equals x·W1 (plus b1).",
    "router.summary": "The router scores each token against the {experts} experts, turns the "
                      "scores into shares and keeps the {k} largest: only those experts run.",
    "router.why": "A mixture of experts holds {experts} feed-forwards but runs only {k} per "
                  "token, so the model has many more weights than any one token pays for. The "
                  "router decides which, from the token's own row.",
    "router.how_normalised": "logits = x · W_r, shares = softmax(logits), then the k largest "
                             "shares divided by their sum. Here {token}'s logits {logits} give "
                             "the shares {shares}; experts {chosen} are chosen, with weights "
                             "{weights}.",
    "router.how_raw": "logits = x · W_r, shares = softmax(logits), then the k largest shares "
                      "as they are (normalize is false). Here {token}'s logits {logits} give "
                      "the shares {shares}; experts {chosen} are chosen, with weights {weights}.",
    "router.pitfalls": "The chosen are marked ▲ in the shares: the unchosen experts' shares are "
                       "computed but their experts never run for this token. Two equal shares "
                       "are chosen in torch.topk's order, not always the lower expert first.",
    "router.check": "Recompute the first weight: expert {e}'s share {share} over the chosen "
                    "shares' sum {total} gives {weight}.",
    "router.check_raw": "The first weight is expert {e}'s share itself: {share}.",
    "experts.summary": "Each token's {k} chosen experts run their feed-forward on its row; the "
                       "outputs, times the router's weights, are summed.",
    "experts.why": "Of {experts} experts only {k} run for a token: the sum is the layer's "
                   "feed-forward output, added back to the stream as a plain one's would be.",
    "experts.how": "out = Σ weightₖ · expertₖ(x). Here {token} runs experts {chosen}, and the "
                   "weighted sum is {out}.",
    "experts.pitfalls": "expert_out holds each choice, not each expert: choice 1 of one token "
                        "and choice 1 of another may be different experts (router_chosen says "
                        "which).",
    "experts.check": "Recompute the first column: {terms} = {value}.",
    "resid2.summary": "The feed-forward output is added to the stream resid1: the second "
                      "residual, which is the block's output in pre-norm.",
    "resid2.why": "As with the first residual, the feed-forward adds a change on top of what the "
                  "stream already carries, so nothing computed earlier is lost.",
    "resid2.how": "resid2 = resid1 + ffn_out, entry by entry. For {token}: {sum}.",
    "resid2.pitfalls": "The sum starts from resid1, not norm2, which only fed the feed-forward. "
                       "In pre-norm the block's output is this unnormed sum, {then}",
    "resid2.final": "which is why the final norm follows here.",
    "resid2.next_layer": "and the next layer reads it as it is.",
    "resid2.no_final": "and this document has no final norm after it.",
    "resid2.check": "resid2 − resid1 equals ffn_out in every cell. Set W2 to zeros (and b2, if "
                    "any): resid2 then equals resid1.",
    "resid_parallel.summary": "The attention output and the feed-forward output are both added "
                              "to the layer's input {source} at once: the parallel residual, "
                              "the block's output.",
    "resid_parallel.why": "One sum instead of two: each branch adds its own change to the same "
                          "rows, so nothing the input carried is lost, and neither branch read "
                          "the other's output.",
    "resid_parallel.how": "{out} = {source} + attn_out + ffn_out, entry by entry. For {token}: "
                          "{sum}.",
    "resid_parallel.pitfalls": "It is not a sequential block with the same weights: there the "
                               "feed-forward would read {source} + attn_out, here it read "
                               "{source}. The block's output is this unnormed sum, {then}",
    "resid_parallel.check": "{out} − {source} − attn_out equals ffn_out in every cell. Set W2 "
                            "to zeros (and b2, if any): {out} then equals {source} + attn_out, "
                            "and attention's numbers do not move.",
    "resid2_post.summary": "In post-norm, the feed-forward output is added to norm1, the normed "
                           "first residual.",
    "resid2_post.why": "The residual gives the feed-forward a path around itself; in post-norm "
                       "that path starts from the already normed stream.",
    "resid2_post.how": "resid2 = norm1 + ffn_out, entry by entry. For {token}: {sum}; the next "
                       "step norms this sum again.",
    "resid2_post.pitfalls": "Unlike pre-norm, the sum starts from norm1 rather than resid1, so "
                            "the original scale of X is no longer carried along. It is still "
                            "only an addition.",
    "resid2_post.check": "resid2 − norm1 equals ffn_out in every cell. Switch the placement to "
                         "pre: this step then adds to resid1 instead.",
    # the head
    "transform.summary": "A masked-language-model head first transforms each final row: a dense "
                         "layer (W, {d}×{d}, plus b), {act}, then a LayerNorm with its own γ and "
                         "β; only then come the vocabulary scores.",
    "transform.why": "BERT was trained to fill [MASK] positions from the words on both sides. "
                     "Its head has this small layer of its own before the vocabulary, which is "
                     "the embedding table read backwards (tied).",
    "transform.how": "transform = LayerNorm({act}(row · W + b)) · γ + β. Here {token}'s row "
                     "{row} gives z = {z}, then {hidden}, then {out}.",
    "transform.pitfalls": "This is not a layer's norm or the final norm: it belongs to the head, "
                          "with weights of its own, and runs after the last layer.",
    "transform.check": "Recompute z's first entry: {terms} + {bias} = {value}.",
    "logits.summary": "Each final row is multiplied by the vocabulary head, giving one score, a "
                      "logit, for each of the {size} vocabulary entries.",
    "logits.why": "To predict the next token, every position needs one number per candidate "
                  "token. The head turns a row {d} wide into a row {size} wide.",
    "logits.why_mlm": "To fill a [MASK], every position needs one number per candidate token. "
                      "The head turns a row {d} wide into a row {size} wide.",
    "logits.how": "logits = row · unembed, where unembed is {d}×{size}, one column per entry "
                  "({vocab}). Here {token}'s row {row} gives {logits}.",
    "logits.pitfalls": "Logits are not probabilities: they can be negative and do not sum to 1. "
                       "They come from the last row of the whole computation, not from the "
                       "attention shares.",
    "logits.check": "Recompute one logit: {entry} is {terms} = {value}. The largest logit of a "
                    "row marks the entry that gets the largest probability in the next step.",
    "loss.summary": "Training: with the targets known, the loss −ln p(target) of all {n} "
                    "positions comes from this one forward pass; their mean is {mean}.",
    "loss.why": "Training asks each position to give the next token a large probability. All "
                "{n} positions can be scored at once {mask}",
    "loss.masked": "because the causal mask keeps each position from seeing the token it must "
                   "predict.",
    "loss.unmasked": "— but this stack is not causal: each position sees the token it must "
                     "predict, so a model that copies scores near 0 and the loss says nothing.",
    "loss.how": "loss_i = −ln probs[i, target_i]: here {losses}, mean {mean} over {n}. The worst "
                "is {token} → {entry}: p = {p}, loss {loss}.",
    "loss.pitfalls": "Generation cannot do this: each new token depends on the one chosen "
                     "before it, so {n} tokens need {n} forward passes, where training needed 1"
                     "{run}. “Transformers are parallel” holds for training, not for answering.",
    "loss.run": " — the pair beside the loss shows it: from {prompt}, greedy generation reads "
                "the tokens so far in each pass and chooses in turn {chosen}",
    "loss.check": "The loss is −ln of the bar at the target: for {token} the bar at {entry} is "
                  "{p}, and −ln {p} = {loss}. A probability of 1 gives 0; a smaller one, more.",
    "sample.summary": "The next token is drawn from the last position's probabilities at "
                      "temperature {t}: {kept} of {v} entries kept, and {chosen} chosen.",
    "sample.why": "Only {token}'s row predicts a token that is not there yet. Temperature, "
                  "top-k and top-p decide how adventurous the choice is.",
    "sample.how": "Divide the logits by T = {t} and take the softmax; {top_k}{top_p}the {kept} "
                  "kept are renormalised ({shares}); draw {step} with seed {seed} picks "
                  "{chosen}.",
    "sample.how_greedy": "T = 0 is greedy decoding: the logits are not divided and nothing is "
                         "drawn; the most probable entry, {chosen}, is taken (the lowest id "
                         "among equals).",
    "sample.top_k": "top-k keeps the {k} most probable; ",
    "sample.top_p": "top-p keeps the smallest most-probable-first set whose mass reaches {p} "
                    "({mass} after {kept}); ",
    "sample.pitfalls": "Temperature reshapes, it does not reorder: the entropy goes from {model} "
                       "nats (T = 1) to {tempered}, and {shares} over the kept. The most "
                       "probable entry, {greedy}, is not always the one drawn.",
    "sample.check": "The {kept} renormalised shares sum to 1 ({total}). T → 0 or top-k = 1 is "
                    "greedy: it always takes {greedy}.",
    "probs.fill_summary": "Fill the blank: softmax turns each row of logits into probabilities, "
                          "and at each [MASK] the most probable entry is the filled word: "
                          "{fills}.",
    "probs.fill": "position {position} → {entry} (p = {p})",
    "probs.fill_why": "A masked-language model was trained to guess the hidden word at each "
                      "[MASK] from the words on both sides; the probabilities at the other "
                      "positions are not asked for.",
    "probs.summary": "Softmax turns each row of logits into probabilities over the vocabulary.",
    "probs.why": "Choosing a next token needs numbers that are non-negative and add up to 1. "
                 "Softmax gives such numbers and keeps the order of the logits.",
    "probs.how": "p_v = exp(logit_v) / Σ_u exp(logit_u), row by row. Here {token}'s logits "
                 "{logits} give {probs}.",
    "probs.pitfalls": "The attention shares and these probabilities are different things, "
                      "separated by residuals, the feed-forward and the vocabulary head. "
                      "Hand-set parameters, not trained ones, make these probabilities say "
                      "nothing about a real model.",
    "probs.check": "Each row sums to 1 (for {token}: {sum}). The largest logit ({logit}, "
                   "{entry}) has the largest probability ({prob}), and the probabilities rank "
                   "the entries in the order of the logits.",
    # positions and the QK-norm
    "added.summary": "Each position's row of P is added to its token's row: X = token rows + P.",
    "added.why": "Attention alone does not know where a token sits: swap two tokens and every "
                 "share only moves with them. Adding a row that depends on the position makes "
                 "the same token at two positions two different rows.",
    "added.how": "Entry by entry, row p of X is the token's row plus row p of P. For {token} "
                 "(position {position}): {tokens} + {table} = {x}.",
    "added.pitfalls": "P depends on the position only, never on the token; the token rows keep "
                      "their meaning and P is mixed into them, so no later step sees the two "
                      "apart.",
    "added.check": "Row {token} of X minus its token row gives back row {position} of P: "
                   "{table}.",
    "types.summary": "Each token's row of the type table T (its segment) is added to its row: "
                     "{out} = token rows + T.",
    "types.summary_positions": "Each position's row of P and each token's row of the type "
                               "table T (its segment) are added to its row: {out} = token rows "
                               "+ P + T.",
    "types.why": "BERT reads two segments at once (a question and its passage, or two "
                 "sentences): a learned row per segment lets every later step tell which "
                 "segment a token came from.",
    "types.how": "Entry by entry, row p of {out} is the sum of the rows added at p. For {token} "
                 "(position {position}, type {kind}): {rows} = {x}.",
    "types.pitfalls": "A type row depends on the segment only, never on the token or its "
                      "position: with every type 0, the same row is added to every token and "
                      "only shifts them all alike.",
    "types.check": "Row {token} of {out} minus the other rows added gives back row {kind} of "
                   "the type table: {table}.",
    "rope.summary": "RoPE turns each pair of columns of q and k by the angle p·θᵢ of its "
                    "position; each pair keeps its length, only its direction turns.",
    "rope.why": "Attention alone does not know where a token sits. Turning q and k by angles "
                "that grow with the position makes q·k depend on how far apart the two "
                "positions are, not on where they are.",
    "rope.how": "Pair i of each head turns by p·θᵢ, θᵢ = base^(−2i/r): (x, y) becomes "
                "(x·cos − y·sin, x·sin + y·cos). For {token} (position {position}): q = {q} "
                "becomes {turned}.",
    "rope.pitfalls": "V is not turned and nothing is added to X. A turn by 2π is no turn at "
                     "all, so a fast pair cannot tell far positions apart; the slow pairs can.",
    "rope.check": "Lengths stay: |q| of {token} is {before} before and {after} after. At "
                  "position 0 nothing turns: row {first} of {turned} equals row {first} of {q}.",
    "qk_norm.head": " in head {head}",
    "qk_norm.summary": "Each head's q and k are normed on their own ({norm}) before they are "
                       "dotted.",
    "qk_norm.why": "Large q or k rows make scores so large that softmax hands nearly the whole "
                   "share to one key. Norming each head's q and k keeps the scores in a "
                   "workable range.",
    "qk_norm.how": "{norm} of each head's {d_k} columns of q (ε = {eps}), times γ{suffix}; k "
                   "likewise with γ_k. Here{head}, {token}'s q {q} becomes {normed}.",
    "qk_norm.pitfalls": "Only q and k are normed, not v, and the norm works inside one head's "
                        "columns of one row, never across positions. γ_q and γ_k are learned; "
                        "there is no β.",
    "qk_norm.pitfalls_shift": "Only q and k are normed, not v, and the norm works inside one "
                              "head's columns of one row, never across positions. γ_q, γ_k "
                              "and this LayerNorm's shifts β_q, β_k are learned.",
    "qk_norm.check": "Undo γ{suffix}: {token}'s normed q ÷ γ{suffix}{head} has mean square "
                     "{square}, close to 1.",
    "qk_norm.check_shift": "Undo β{suffix} and γ{suffix}: ({token}'s normed q − β{suffix}) ÷ "
                           "γ{suffix}{head} has mean square {square}, close to 1.",
    # around the cross-attention
    "cross_norm.summary": "Before cross-attention, each row of {source} is rescaled on its own "
                          "by the block's {norm}.",
    "cross_norm.why": "The cross-attention's queries come from this stream, and bringing each "
                      "row to a standard scale keeps their scores in a workable range. In "
                      "pre-norm the untouched {source} still flows past on the residual path.",
    "cross_norm_post.summary": "In post-norm, the cross residual sum, the stream plus the "
                               "cross-attention output, is normed row by row ({norm}).",
    "cross_norm_post.why": "Adding the cross-attention output can change how large each row "
                           "is, so post-norm brings the sum back to a standard scale before "
                           "the feed-forward reads it.",
    "cross_resid.summary": "The cross-attention output is added to the stream {source}, "
                           "position by position: the cross residual.",
    "cross_resid.how": "{out} = {source} + {attn}, entry by entry. For {token}: {sum}.",
    "cross_resid.pitfalls": "A residual is a plain sum with no learned numbers; it neither "
                            "normalises nor averages.",
    "cross_resid.check": "Subtract: {out} − {source} equals the cross-attention output in "
                         "every cell.",
    "cache.after": "{told} {cache}",
    "cache.projection": "Generating token {t} of the run ({token}, position p{p}): K and V of the "
                        "{earlier} earlier positions come from the KV cache{window}; only the new "
                        "row is computed (1 row instead of {n}).{groups}",
    "cache.window": " ({dropped} of them left the window of {w} and are no longer read)",
    "cache.groups_one": " The cache holds g = 1 K/V head per position, shared by the {h} "
                        "query heads.",
    "cache.groups_many": " The cache holds g = {g} K/V heads per position, shared by the {h} "
                         "query heads.",
    "cache.memory": "Generating token {t} of the run ({token}, position p{p}): the memory's K "
                    "and V ({m} encoder rows) were computed once, when the encoder ran, and are "
                    "reused at every token; only the new query row is computed.",
    "cache.queries": "Generating token {t} of the run ({token}, position p{p}): only the new "
                     "row is computed now, the new query against the {seen} keys it sees; the "
                     "{earlier} earlier rows were computed at earlier tokens (1 row instead of "
                     "{n}).",
    # what hides a key, who shares K/V heads (app.texts.mask_plans)
    "mask.causal": "the causal mask (position i reads keys 0 … i)",
    "mask.window": "the window of {w} (position i reads keys {first} … i)",
    "mask.window_open": "the window of {w} (position i reads no key before {first})",
    "mask.keys": "the key mask (padding keys {keys} are never read)",
    "mask.name_causal": "causal mask",
    "mask.name_window": "window of {w}",
    "mask.name_keys": "key mask",
    "mask.name_shares": "softmax shares",
    "kv.reads_one": "query head {head} reads K/V head {kv}",
    "kv.reads_many": "query heads {first}–{last} read K/V head {kv}",
    "projections.kv_shared_one": " K and V have a single head, shared by the {h} query heads: "
                                 "{reads}.",
    "projections.kv_shared": " K and V have {g} heads, shared by the {h} query heads: {reads}.",
    "scores.later_rule": "Hatched scores stay in the table, but the next step discards them "
                         "because of {rule}.",
    "weights.summary_rule": "Keys hidden by {rule} are removed, then softmax turns each row of "
                            "scores into shares that are non-negative and sum to 1.",
    "weights.why_rule": "Which keys a position may read is decided by {rule}; a hidden key's "
                        "share is exactly 0.",
    "weights.drop_rule": "drop the hidden keys, ",
}
"""Sentence id → English template."""
