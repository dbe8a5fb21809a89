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
    "scores.summary_rescaled": "Every query row is dotted with every key row, and each score "
                               "is divided by √{number}: this model's own number under the "
                               "root, where the chapter's formula has dₖ = {d_k}.",
    "scores.summary_unscaled": "Every query row is dotted with every key row; scaling is off, "
                               "so the dot products are the scores.",
    "scores.why": "Before a position can decide how much to read from each other position, it "
                  "needs one number per candidate saying how well they match. The dot product "
                  "q·k gives it, {then}",
    "scores.why_scaled": "and dividing by √dₖ keeps their typical size from growing with the "
                         "width of q and k.",
    "scores.why_rescaled": "and dividing by a square root keeps their typical size in check; "
                           "this model was trained dividing by √{number} rather than by √dₖ = "
                           "√{d_k}.",
    "scores.why_unscaled": "and with scaling off its size grows with the width of q and k "
                           "(dₖ = {d_k} here).",
    "scores.how_scaled": "scores[i, j] = q_i · k_j ÷ √dₖ. Here{head}, with dₖ = {d_k}, {token}'s "
                         "query {query} meets {met}: raw {raws}, scaled {scaled_scores}.",
    "scores.how_rescaled": "scores[i, j] = q_i · k_j ÷ √{number}, the document's scale_dk "
                           "standing where dₖ = {d_k} would. Here{head}, {token}'s query {query} "
                           "meets {met}: raw {raws}, scaled {scaled_scores}.",
    "scores.how_unscaled": "scores[i, j] = q_i · k_j, with no division. Here{head}, {token}'s "
                           "query {query} meets {met}: {raws}.",
    "scores.how_capped": "{before} Then each is soft-capped, {cap} · tanh(s / {cap}), as "
                         "Gemma 2 does: {capped}; the mask and softmax read these.",
    "scores.check_capped": "{before} Capped: {cap} · tanh({score} / {cap}) = {capped}.",
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
    "scores.check_rescaled": "Check one cell: {token} against {key} is {terms} = {raw}, and "
                             "{raw} ÷ √{number} = {raw} ÷ {root} = {score}. Every score of the "
                             "table is divided by that same {root}, so the order within each "
                             "row stays what q·k made it.",
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
    "norm3.summary": "The attention's output is normed row by row ({norm}) before the first "
                     "residual adds it to X.",
    "norm3.why": "Gemma 2 norms what each sub-layer writes as well as what it reads: whatever "
                 "size the attention's output has, the stream grows by rows at one scale.",
    "norm3.pitfalls": "This is not post-norm: the stream X itself is never normed here, only the "
                      "attention's output, with its own γ3. resid1 adds norm3, not attn_out.",
    "norm3_stream.why": "This block norms nothing before its sub-layers (OLMo 2): the attention "
                        "read the stream as it is, and only what it writes is normed, so it "
                        "reaches the stream at one scale.",
    "norm3_stream.pitfalls": "Nothing before the attention was normed, and the stream X is not "
                             "normed here either: only the attention's output, with γ3. resid1 "
                             "adds norm3, not attn_out.",
    "norm4_stream.why": "As after attention: the feed-forward read resid1 as it is, and only its "
                        "output is normed before it joins the stream.",
    "norm4_stream.pitfalls": "This block has no γ2: the feed-forward read resid1 itself. γ4 "
                             "shapes only what comes out of it; resid2 adds norm4, not ffn_out.",
    "norm4.summary": "The feed-forward's output is normed row by row ({norm}) before the second "
                     "residual adds it to the stream.",
    "norm4.why": "As after attention, the feed-forward's contribution reaches the stream at one "
                 "scale, however large its output grew.",
    "norm4.pitfalls": "Its own γ4, not γ2: norm2 fed the feed-forward, norm4 shapes what comes "
                      "out of it. resid2 adds norm4, not ffn_out.",
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
    "resid1.read_stream": "The raw X is added, the very rows attention read (this block norms "
                          "no input).",
    "resid1.read_post": "The raw X is added here; the norm comes in the next step.",
    "resid1.check": "Subtract: resid1 − X equals the attention output in every cell. Set Wv to "
                    "all zeros{biases}: the attention output becomes 0 and resid1 equals X.",
    "resid1.biases": " and remove the biases",
    "resid1.summary_normed": "The attention output, normed first (norm3), is added to X, "
                             "position by position: the first residual.",
    "resid1.how_normed": "resid1 = X + norm3, entry by entry, so the normed attention output "
                         "must be {d} wide like X. For {token}: {sum}.",
    "resid1.check_normed": "Subtract: resid1 − X equals norm3 in every cell, not attn_out.",
    "resid2.summary_normed": "The feed-forward output, normed first (norm4), is added to the "
                             "stream resid1: the second residual, the block's output.",
    "resid2.how_normed": "resid2 = resid1 + norm4, entry by entry. For {token}: {sum}.",
    "resid2.check_normed": "resid2 − resid1 equals norm4 in every cell, not ffn_out.",
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
    "router.summary_one": "The router scores each token against the {experts} experts, turns "
                          "the scores into shares and keeps the largest: only that expert "
                          "runs.",
    "router.summary_all": "The router scores each token against the {experts} experts and turns "
                          "the scores into shares; it keeps all {k}, so every expert runs and "
                          "the shares only weigh them.",
    "router.why_one": "A mixture of experts holds {experts} feed-forwards but runs only one per "
                      "token, so the model has many more weights than any one token pays for. "
                      "The router decides which, from the token's own row.",
    "router.why_all": "This mixture holds {experts} feed-forwards and runs every one of them for "
                      "every token: nothing is saved, and the router only decides, from the "
                      "token's own row, how much each one counts.",
    "router.how_normalised_one": "logits = x · W_r, shares = softmax(logits), then the largest "
                                 "share divided by itself. Here {token}'s logits {logits} give "
                                 "the shares {shares}; expert {chosen} is chosen, with weight "
                                 "{weights}.",
    "router.how_raw_one": "logits = x · W_r, shares = softmax(logits), then the largest share as "
                          "it is (normalize is false). Here {token}'s logits {logits} give the "
                          "shares {shares}; expert {chosen} is chosen, with weight {weights}.",
    "router.pitfalls_all": "Every expert runs here, so no share is left out; the ▲ marks still "
                           "show the order torch.topk keeps them in, the order of "
                           "router_weights and expert_out.",
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
    "experts.summary_one": "Each token's chosen expert runs its feed-forward on its row; its "
                           "output, times the router's weight, is the layer's feed-forward "
                           "output.",
    "experts.summary_all": "Every expert runs its feed-forward on each token's row; the "
                           "outputs, times the router's weights, are summed.",
    "experts.summary_shared_one": "Each token's chosen expert runs its feed-forward on its row, "
                                  "and so does the shared expert, for every token; the chosen "
                                  "output times the router's weight and the shared output "
                                  "times its gate are summed.",
    "experts.why_one": "Of {experts} experts only one runs for a token: its weighted output is "
                       "the layer's feed-forward output, added back to the stream as a plain "
                       "one's would be.",
    "experts.why_all": "All {experts} experts run for every token: the weighted sum is the "
                       "layer's feed-forward output, added back to the stream as a plain one's "
                       "would be.",
    "experts.how_one": "out = weight · expert(x). Here {token} runs expert {chosen}, and the "
                       "weighted output is {out}.",
    "experts.how": "out = Σ weightₖ · expertₖ(x). Here {token} runs experts {chosen}, and the "
                   "weighted sum is {out}.",
    "experts.pitfalls": "expert_out holds each choice, not each expert: choice 1 of one token "
                        "and choice 1 of another may be different experts (router_chosen says "
                        "which).",
    "experts.check": "Recompute the first column: {terms} = {value}.",
    "experts.summary_shared": "Each token's {k} chosen experts run their feed-forward on its "
                              "row, and so does the shared expert, for every token; the chosen "
                              "outputs times the router's weights and the shared output times "
                              "its gate are summed.",
    "experts.how_shared": "out = Σ weightₖ · expertₖ(x) + σ(x · w_g) · shared(x). Here {token} "
                          "runs experts {chosen} and the shared one; x · w_g = {z}, so its gate "
                          "σ({z}) = {gate} keeps that part of the shared output, and the sum is "
                          "{out}.",
    "experts.pitfalls_shared": "The shared expert's gate is a sigmoid of its own, not one of "
                               "the router's shares: it takes no part in choosing, and the "
                               "router's weights and the gate need not add up to 1.",
    "resid2.summary": "The feed-forward output is added to the stream resid1: the second "
                      "residual, which is the block's output in pre-norm.",
    "resid2.why": "As with the first residual, the feed-forward adds a change on top of what the "
                  "stream already carries, so nothing computed earlier is lost.",
    "resid2.how": "resid2 = resid1 + ffn_out, entry by entry. For {token}: {sum}.",
    "resid2.pitfalls": "The sum starts from resid1, not norm2, which only fed the feed-forward. "
                       "In pre-norm the block's output is this unnormed sum, {then}",
    "resid2.pitfalls_stream": "The sum starts from resid1, the rows the feed-forward read as "
                              "they are (this block norms no input). In pre-norm the block's "
                              "output is this unnormed sum, {then}",
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
    "softcap.summary": "Each logit is bent by c · tanh(logit / c) with c = {cap}: every logit "
                       "stays between −{cap} and {cap}.",
    "softcap.why": "Gemma 2 was trained with its logits soft-capped, so no single entry can "
                   "run away with the probability: a logit far past {cap} counts hardly more "
                   "than {cap} itself.",
    "softcap.how": "logits = {cap} · tanh(uncapped / {cap}), entry by entry. Here {token}'s "
                   "uncapped logits {raw} give {capped}.",
    "softcap.pitfalls": "The cap is not a clip: a small logit passes almost unchanged, a large "
                        "one is bent smoothly toward ±c, and the order of the logits never "
                        "changes.",
    "softcap.check": "Recompute the largest one, {entry}: {cap} · tanh({raw} / {cap}) = "
                     "{value}.",
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
                "becomes {turned}.{scaled}{own}{unscaled}",
    "rope.scaled_linear": " The frequencies are scaled (linear): every θᵢ is divided by "
                          "{factor}.",
    "rope.scaled_llama3": " The frequencies are scaled (llama3): a pair whose wavelength 2π/θᵢ "
                          "is below {short} keeps its θᵢ, above {long} divides it by {factor}, "
                          "and between the two blends both.",
    "rope.scaled_longrope": " The frequencies are scaled (longrope): each pair's θᵢ is divided "
                            "by its own short factor, and cos and sin are multiplied by "
                            "{attention}.",
    "rope.scaled_yarn": " The frequencies are scaled (yarn): pairs past pair {start} move along "
                        "a ramp from θᵢ to θᵢ/{factor}, reached at pair {end}; cos and sin are "
                        "multiplied by {attention}.",
    "rope.own_base": " This layer has its own base, {base}, where the stack's is {stack}: "
                     "its θᵢ are {base}^(−2i/r), so its pairs turn at other speeds than the "
                     "other layers'.",
    "rope.unscaled": " This layer leaves out the stack's {kind} scaling: its θᵢ stay as the "
                     "base gives them, while the other layers' are scaled.",
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
    "qk_norm.summary_all": "All heads' q columns are normed together ({norm}), and so are all "
                           "heads' k columns, before they are split into heads and dotted.",
    "qk_norm.why_all": "Large q or k rows make scores so large that softmax hands nearly the "
                       "whole share to one key. Norming all heads' q together, and all heads' k, "
                       "keeps the scores in a workable range.",
    "qk_norm.how_all": "{norm} of all {width} columns of q at once (ε = {eps}), times "
                       "γ{suffix}; k likewise over its {k_width} columns with γ_k. Here "
                       "{token}'s q {q} becomes {normed}.",
    "qk_norm.pitfalls_all": "Only q and k are normed, not v. The norm spans every head's "
                            "columns of one row, so one head's large q shrinks the other heads' "
                            "too; it never works across positions. γ_q and γ_k are learned, one "
                            "number per column; there is no β.",
    "qk_norm.pitfalls_shift_all": "Only q and k are normed, not v. The norm spans every head's "
                                  "columns of one row, so one head's large q shrinks the other "
                                  "heads' too; it never works across positions. γ_q, γ_k and "
                                  "this LayerNorm's shifts β_q, β_k are learned, one number per "
                                  "column.",
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

BLOCK: dict[str, str] = {
    "row_statistics": "per row",
    "mean": "μ",
    "variance": "σ²",
    "divisor": "√(σ²+ε)",
    "mean_square": "mean(x²)",
    "rms_divisor": "√(mean(x²)+ε)",
    "layer_formula": "LayerNorm, each row on its own: (x − μ) / √(σ² + ε) · γ + β,  "
                     "ε = {eps}",
    "rms_formula": "RMSNorm, each row on its own: x / √(mean(x²) + ε) · γ,  ε = {eps}  "
                   "(no mean subtracted, no β)",
    "layer_row": "row {token}: (x − {mean}) / {divisor} · γ + β",
    "rms_row": "row {token}: x / {divisor} · γ",
    "norm_none": "norm is “none”: {out} is a copy of {source} (choose LayerNorm or RMSNorm "
                 "in the editor to rescale each row)",
    "stat_mean": "μ of row {token} = mean of its {d} numbers = {value}",
    "stat_variance": "σ² of row {token} = mean of (x − μ)² = {value}",
    "stat_divisor": "√(σ² + ε) = √({variance} + {eps}) = {value}",
    "stat_mean_square": "mean(x²) of row {token} = {value}",
    "stat_rms_divisor": "√(mean(x²) + ε) = √({mean_square} + {eps}) = {value}",
    "residual_note": "the residual path: each position adds its own sub-layer output; "
                     "nothing moves between positions",
    "parallel_note": "a parallel block: attention (through norm1) and the feed-forward "
                     "(through norm2) both read {source}; their outputs are added to it "
                     "at once, one residual",
    "z_title": "z = {source}·W1",
    "z_bias": " + b1",
    "hidden_title": "hidden = {activation}(z)",
    "gate_z_title": "z = {source}·Wg",
    "gate_title": "gate = {activation}(z)",
    "up_title": "up = {source}·W1",
    "times_gate": "⊙ gate =",
    "gated_hidden_title": "hidden = up ⊙ gate",
    "relu_marked": "▸ marked: zeroed by ReLU",
    "gelu_note": "GELU(z) = z·Φ(z)",
    "silu_note": "SiLU(z) = z·σ(z)",
    "gelu_tanh_note": "GELU(z) ≈ 0.5·z·(1 + tanh(√(2/π)·(z + 0.044715·z³)))",
    "identity_note": "identity: hidden = z",
    "ffn_out_title": "ffn_out = hidden·W2",
    "transform_pre_title": "z = {source}·W + b",
    "transform_norm": "→ LayerNorm, ε = {eps}, then ·γ + β →",
    "transform_title": "transform (to the vocabulary)",
    "ffn_out_bias": " + b2",
    "logits_title": "logits = {source}·unembed",
    "logits_note": "one score per vocabulary entry; the next step turns each row into "
                   "probabilities",
    "softmax_rows": "→ softmax per row →",
    "softcap_arrow": "→ {cap} · tanh(x / {cap}) →",
    "softcap_uncapped": "uncapped logits",
    "softcap_capped": "logits (capped at ±{cap})",
    "softcap_note": "each entry bent toward ±{cap}; small logits pass almost unchanged, the "
                    "order never changes",
    "probs_title": "Probabilities over the vocabulary",
    "fill_blank": "Fill the blank: [MASK] at position {position} → {entry} ({p}); then "
                  "{others}",
    "fill_separator": ", ",
    "probs_receiver": "{token} (receiver)",
    "probs_legend": "bar length = probability; each position's bars sum to 1",
    "probs_receiver_only": "{n} positions: showing the receiver; pick another in Receiver",
    "probs_top": "top {k} of {v} entries",
    "probs_others": "the other {count}",
    "logits_top": "{token}: the {k} most probable entries' logits",
    "logits_others": "the other {count} logits lie from {low} to {high}",
    "embed_ids": "token ids",
    "embed_id": "id",
    "embed_table": "embedding table",
    "embed_pick": "pick rows →",
    "embed_x": "X · the picked rows",
    "embed_picked": "the picked rows",
    "embed_picked_name": "picked",
    "embed_scaled": "token rows × {scale}",
    "embed_scale_note": "every picked row is multiplied by embedding_scale = {scale} before "
                        "anything is added to it",
    "embed_row": "{token} ← {id}",
    "embed_pair": "{token} → row {id}",
    "embed_note": "each id picks one row of the table: {pairs}",
    "head_band": "head {n}",
    "head_band_ablated": "head {n} ✕",
    "concat_ablated": "ablated, its output set to 0 before Wo: head {heads}",
    "concat_title": "concatenate → width {width}",
    "concat_wo": "{h} heads × {d_v} = width {width}, then · Wo ({width}×{d_out}) gives "
                 "{d_out} numbers per position",
    "concat_no_wo": "{h} heads × {d_v} = width {width}: the attention output",
    "output_width": "output · width {d_out}",
    "compare_header": "Compare · A: {a}  |  B: {b}",
    "side": "{side} · {label}: {title}",
    "differs_title": "What differs in this step (B − A)",
    "b_minus_a": "B − A · {name}",
    "max_difference": "max |B − A| = {value}",
    "identical": "identical in A and B: {names}",
    "differs_elsewhere": "differs too (its B − A is drawn at the step that writes it): "
                         "{names}",
    "only_a": "only in A: {names}",
    "only_b": "only in B: {names}",
    "reshaped": "shape differs: {name} {a} in A, {b} in B",
    "nothing_differs": "nothing this step shows differs between A and B",
}
"""Words drawn on the decoder-block, embedding, multi-head and comparison frames.
Ids ``block.*``."""

CACHE_MARKS: dict[str, str] = {
    "heading": "KV cache · generated token {t}",
    "reused": "K, V {rows}: reused from the cache  (- - - dashed)",
    "dropped": "K, V {rows}: left the window of {w}, dropped from the cache's view  "
               "(-·- dash-dot)",
    "queries_earlier": "Q {rows}: computed at earlier tokens, not kept  (··· dotted)",
    "new_row": "{row}: new, computed now  (━ solid) · 1 row instead of {n}",
    "groups_one": "the cache holds g = 1 K/V head per position (h = {h} query heads "
                  "share it)",
    "groups_many": "the cache holds g = {g} K/V heads per position (h = {h} query heads)",
    "memory": "K, V of the memory, {rows}: computed once, when the encoder ran  "
              "(- - - dashed)",
    "earlier": "{rows}: computed at earlier tokens  (··· dotted)",
    "new_query": "{row}: the new query, computed now against {seen} keys  (━ solid)",
    "tag_reused": "← cache",
    "tag_dropped": "← out of the window",
    "tag_earlier": "← earlier",
    "tag_new": "← new",
    "tag_once": "← computed once",
    "range": "rows p{a}–p{b}",
    "single": "row p{a}",
}
"""Words drawn on the KV-cache marks of a generated token's attention frames (ids
``cache_marks.*``)."""

CANVAS: dict[str, str] = {
    "worked_title": "Worked row for “{token}”{head}: {stage}",
    "stage_scores": "the scores",
    "stage_shares": "the shares",
    "stage_mix": "the mix of V",
    "score": "s",
    "worked_head": ", head {n}",
    "key": "key",
    "dot": "q·k",
    "scaled": "÷ √{d_k} = s",
    "unscaled": "s (not scaled)",
    "capped": "c · tanh(s / c), the soft cap",
    "exp": "exp(s − max)",
    "share": "share",
    "masked": "✕ masked: not read",
    "total": "Σ",
    "output": "output row",
    "map_title": "Where you are",
    "embed": "embed",
    "inputs": "X and W",
    "projections": "Q/K/V",
    "projections_heads": "Q/K/V ×{heads}",
    "scores": "scores",
    "weights": "softmax",
    "weights_masked": "mask + softmax",
    "mix": "mix V",
    "mix_wo": "mix V · Wo",
    "resid": "+ residual",
    "resid_parallel": "+ attn + FFN",
    "norm": "{norm}",
    "norm_parallel": "{norm} of the input",
    "norm_word": "Norm",
    "no_norm": "no norm",
    "final_norm": "final {norm}",
    "qk_norm": "QK-{norm}",
    "ffn": "FFN",
    "router": "Router",
    "experts": "Experts",
    "transform": "MLM transform",
    "positions": "+ positions",
    "types": "+ types",
    "positions_types": "+ positions + types",
    "embedding_norm": "embedding {norm}",
    "rope": "RoPE turns q, k",
    "logits": "logits",
    "softcap": "soft cap c·tanh",
    "probs": "probs",
    "loss": "loss −ln p",
    "sample": "draw next token",
    "map_step": "step {n}: {label}",
    "map_layer": "{layer}: the same step there",
    "map_layers": "{layers}: the same step in {layer}",
}
"""The worked row and the route map drawn on a frame. (ids ``canvas.*``)."""

EDIT: dict[str, str] = {
    "cell": "{place} = {value}",
    "ablate_on": "head {head} ablated (output 0)",
    "ablate_off": "head {head} restored",
    "paste": "paste {shape} into {name}",
    "import": "import {source} into {name}",
    "resize": "resize {changes}",
    "attention.causal_on": "causal mask on",
    "attention.causal_off": "causal mask off",
    "attention.scale_on": "scaling on",
    "attention.scale_off": "scaling off",
    "block.final_norm_on": "final norm on",
    "block.final_norm_off": "final norm off",
    "block.norm": "norm {value}",
    "block.placement": "{value}-norm",
    "block.ffn.activation": "activation {value}",
    "block.eps": "ε = {value}",
    "block.pre_norms_on": "norms before the sub-layers on",
    "block.pre_norms_off": "norms before the sub-layers off",
    "attention.scale_dk": "scores ÷ √{value}",
    "attention.scale_dk_default": "scores ÷ √dₖ",
    "attention.rope_base": "own RoPE base {value}",
    "attention.rope_base_default": "the stack's RoPE base",
    "attention.rope_scaled_on": "the stack's RoPE scaling taken",
    "attention.rope_scaled_off": "the stack's RoPE scaling left out",
    "display.decimals": "decimals = {value}",
    "option": "{name} = {value}",
    "option_on": "{name} on",
    "option_off": "{name} off",
    "tokens": "token {col} = {text}",
    "block.vocab": "vocabulary {col} = {text}",
    "head.vocab": "vocabulary {col} = {text}",
    "encoder.tokens": "source token {col} = {text}",
    "block_on": "add decoder block",
    "block_off": "remove decoder block",
    "head_on": "add vocabulary head",
    "head_off": "remove vocabulary head",
    "layer_name": "layer {n}",
    "encoder_layer_name": "encoder layer {n}",
    "layer_add": "add {layer}",
    "layer_remove": "remove {layer}",
    "layer_duplicate": "duplicate {layer}",
    "layer_up": "move {layer} up",
    "layer_down": "move {layer} down",
    "swap": "swap tokens {i} “{a}” and {j} “{b}”",
    "positions": "positions: {kind}",
    "positions_none": "none",
    "positions_sinusoidal": "sinusoidal",
    "positions_learned": "learned",
    "positions_rope": "RoPE",
    "positions_alibi": "ALiBi",
    "append_token": "append token {id} “{text}”",
    "generation_greedy": "generation: greedy",
    "generation_temperature": "generation: temperature = {value}",
    "generation_top_k": "generation: top-k = {value}",
    "generation_top_k_off": "generation: top-k off",
    "generation_top_p": "generation: top-p = {value}",
    "generation_seed": "generation: seed = {value}",
}
"""The names of the document's edits (undo steps, status lines). (ids ``edit.*``)."""

EXERCISE: dict[str, str] = {
    "action": "E&xercise",
    "action_tip": "Hide cells of the frame, predict them, then check (the panel on the right)",
    "toggle": "Exercise",
    "toggle_name": "Exercise mode: blanks to predict",
    "close_panel": "Close the exercise panel",
    "float_panel": "Float the exercise panel",
    "panel": "Exercise",
    "chooser": "E&xercise:",
    "chooser_name": "Exercise to answer",
    "none": "This document has no exercise yet: make one under “Teacher”.",
    "step_of": "Step: {title}",
    "blank_name": "{what}, blank",
    "blank": "blank",
    "blank_right": "blank, checked ✓ right",
    "blank_wrong": "blank, checked ✗ wrong",
    "save_answers": "Save a&nswers as…",
    "save_answers_tip": "Write a copy of this document with your answers in it (the "
                        "document stays as it is); opening the copy brings them back",
    "save_answers_dialog": "Save your answers as a copy",
    "save_answers_filter": "Scenario documents (*.qkv.json)",
    "answers_saved": "Answers saved in {path} (this document is unchanged)",
    "answers_not_over_open": "Not saved: {path} is the document that is open. Your "
                             "answers are saved as a copy: choose another name.",
    "answers_not_saved": "Answers not saved to {path}: {problem}",
    "answers_title": "Answers not saved",
    "blank_tip": "Your prediction for {what}",
    "share_cell": "share of {key} for {query}",
    "head_cell": "head {head}: ",
    "array_cell": "{name} of {row}, column {col}",
    "check": "&Check",
    "check_name": "Check the predictions",
    "reveal": "&Reveal",
    "reveal_name": "Reveal every answer",
    "again": "&Try again",
    "right": "✓ right: {value}",
    "wrong": "✗ wrong: you wrote {predicted}, the answer is {value}",
    "missing": "✗ no prediction: the answer is {value}",
    "not_number": "✗ “{text}” is not a number: the answer is {value}",
    "revealed": "revealed: {value}",
    "differs": "first term that differs: {term}",
    "score": "{right} of {count} right",
    "verdict_name": "{what}: {verdict}",
    "rise": "rises",
    "fall": "falls",
    "same": "stays the same",
    "direction_question": "If {edit} grows by {by}, what does {watch} do?",
    "unchanged_question": "Which of these edits leave {watch} unchanged? (tick all)",
    "choice": "{name}[{cell}] + {by}",
    "ablation_question": "{heads}. What does {watch} do?",
    "ablation_one": "Head {heads} of {where} is switched off",
    "ablation_many": "Heads {heads} of {where} are switched off",
    "ablation_one_only": "Head {heads} is switched off",
    "ablation_many_only": "Heads {heads} are switched off",
    "layer": "layer {n}",
    "encoder_layer": "encoder layer {n}",
    "cross_layer": "the cross-attention of layer {n}",
    "ablation_right": "✓ right: {watch} {way}: {before} → {after}",
    "ablation_wrong": "✗ wrong: {watch} {way} (computed with the heads switched off): "
                      "{before} → {after}",
    "direction_right": "✓ right: {watch} {way}",
    "direction_wrong": "✗ wrong: {watch} {way} (computed on the edited document)",
    "unchanged_right": "✓ right: exactly these leave {watch} unchanged: {choices}",
    "unchanged_wrong": "✗ wrong: the ones that leave {watch} unchanged are: {choices}",
    "no_choice": "none",
    "teacher": "Teacher",
    "hide": "&Hide:",
    "hide_outputs": "the step's outputs",
    "hide_row": "the receiver's row of shares",
    "hide_cells": "cells I click on the canvas",
    "hide_auto": "let the app choose",
    "difficulty": "&Difficulty:",
    "difficulty_name": "How many cells the app hides",
    "title_en": "Title (English)",
    "title_zh": "Title (中文)",
    "prompt_en": "Prompt (English)",
    "prompt_zh": "Prompt (中文)",
    "add": "&New exercise at this step",
    "apply_texts": "Set title and prompt",
    "remove": "Remove exercise",
    "ask_direction": "Ask: rise or fall?",
    "ask_unchanged": "Ask: which edit leaves it unchanged?",
    "ask_ablation": "Ask: a head switched off?",
    "default_title": "Predict: {step}",
    "default_prompt": "Work out the hidden numbers by hand, then press Check.",
    "direction_title": "Rise or fall?",
    "unchanged_title": "Which edit changes nothing?",
    "ablation_title": "Without this head?",
    "click_hint": "Click a cell of the canvas to hide it or show it again.",
    "edit_add": "new exercise “{title}”",
    "edit_remove": "remove exercise “{title}”",
    "edit_change": "change exercise “{title}”",
    "edit_cell": "exercise “{title}”: hide or show {name}[{cell}]",
    "nothing_to_hide": "The current step writes no numbers to hide.",
}
"""Exercise mode: the panel, its blanks and verdicts, the teacher's choices.
Ids ``exercise.*``."""

FRAME: dict[str, str] = {
    "heading": "Step {n} of {count} · {title}",
    "ablated_mark": " · ablated: 0",
    "part_title": "{title} ({k}/{count})",
    "reads": "reads:",
    "writes": "writes:",
    "nothing": "—",
    "input_rows": "X · input rows",
    "head": " · head {n}",
    "head_of": " · head {n} of {h}",
    "scores": "scores",
    "scores_uncapped": "scores before the cap",
    "scores_capped": "scores, capped at ±{cap}",
    "scores_cap_arrow": "→ {cap} · tanh(s / {cap}) →",
    "shares": "shares",
    "mixed": "mixed",
    "mixed_joined": "mixed (heads joined)",
    "encoder_memory": "encoder memory",
    "memory": "memory",
    "qk_norm_op": "→ {norm} per head ·",
    "qk_norm_all_op": "→ {norm} over all heads ·",
    "router_logits": "router logits",
    "router_softmax": "→ softmax over the experts →",
    "router_shares": "shares (▲ chosen)",
    "router_top": "→ top {k} →",
    "router_chosen": "chosen experts",
    "router_weights": "weights (÷ their sum)",
    "router_weights_raw": "weights (the shares)",
    "expert_choice": "choice {rank}: its expert's output",
    "experts_sum": "Σ weight · output =",
    "experts_run": "→ chosen experts' FFNs →",
    "experts_shared_sum": "Σ weight · output + gate · shared =",
    "shared_input": "x ·",
    "shared_sigmoid": "→ σ →",
    "shared_weight": "shared expert's gate",
    "shared_run": "x → shared expert's FFN →",
    "shared_out": "shared expert's output",
    "attention_output": "attention output",
    "softmax": "→ softmax →",
    "scaled_note": "÷ √{d_k} = {root}",
    "not_scaled_note": "not scaled",
    "mask_note": "hatched cells are hidden by the mask in the next step",
    "mask_note_causal": "hatched cells are hidden by the causal mask in the next step",
    "mask_rule": "Hatched cells are hidden by {rule}.",
    "kv_shared_note": "shared K/V (g = {g}, h = {h}): {reads}",
    "corner_note": "each cell of a result = its row on the left · its column above",
    "rows_sum_note": "each row sums to 1",
    "masked_zero_note": "masked shares are exactly 0",
    "note_join": "; ",
    "who_reads": "Who “{token}” reads, and how much",
    "query": "Query",
    "key": "Key",
    "key_encoder": "Key (encoder)",
    "kv_group": " (K/V group {n})",
    "masked": "✕ masked",
    "arrow_legend": "arrow width and opacity = share",
    "rows_sum_legend": "each row of shares sums to 1",
    "legend_other": "grey, faint: the other queries' arrows",
    "legend_heads": "faint: the other queries' arrows; colour: the head",
    "arrow_filter": "showing each row's top {top_k} and shares ≥ {min_share}",
    "large_note": "{cells} cells: {shown}; hover any cell for its value",
    "large_highlighted": "numbers of the highlighted row",
    "large_colours": "colours only",
    "heat_cell": "heat map: a square is a cell",
    "heat_block": "heat map: a square is the mean of {down}×{across} cells",
    "heat_hint": "Heat maps: hover over a cell for its value",
    "in_view": "In view: {title}, rows {rows}, columns {cols}",
    "parameter_tip": "{name}[{index}] = {value}: a parameter you can edit",
    "share_from_to": "share from {query} to {key}: {share}",
    "share_masked": "{key} is masked for {query}",
    "frame_summary": "Step {n} of {count}: {title}.",
    "head_prefix": "head {n}: ",
    "choice_prefix": "choice {n}, expert {e}: ",
    "row_values": "{name}, row {token}: {values}",
}
"""Words drawn on the canvas and in exported frames. (ids ``frame.*``)."""

NEXT_TOKEN: dict[str, str] = {
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
}
"""What the pictures of the draw (``sample``) and of the training loss print.
Ids ``next_token.*``."""

POSITION: dict[str, str] = {
    "embedded": "token rows",
    "positions": "position rows P",
    "with_positions": "X = rows + P",
    "added_note": "each position's row of P is added to its token's row: the same token "
                  "at another position gets another row",
    "type_rows": "type rows T",
    "summed": "{name} = the sum",
    "types_note": "each token's row of the type table (its entry of token_types, its "
                  "segment) is added too: the same token in another segment gets another "
                  "row",
    "norm_follows": "the next step norms this sum; the norm's output is X, the rows the "
                    "first layer reads",
    "angles": "angles p·θᵢ (rad)",
    "pair": "pair {i}: cols {a},{b}",
    "theta": "θ{i} = {theta}",
    "turn": "turn by p·θ",
    "dials_q": "q pairs of {token} turned{head}",
    "dials_k": "k pairs of {token} turned{head}",
    "dial_angle": "p·θ{i} = {p}·{theta} = {angle} rad",
    "dial_degrees": "= {degrees}°",
    "dial_pair": "({x}, {y}) → ({x2}, {y2})",
    "dial_legend": "dashed arrow: the pair before; solid arrow: after the turn (same length)",
    "rope_note": "RoPE turns each pair of columns of q and k by the angle p·θᵢ of its "
                 "position; q·k then depends on how far apart the two positions are",
    "kept_columns": "columns {first}–{last} of each head are not turned",
    "scaled_linear": "θᵢ scaled (linear): each divided by {factor}",
    "unscaled_note": "θᵢ not scaled: this layer leaves out the stack's {kind} scaling",
    "scaled_llama3": "θᵢ scaled (llama3): kept where the wavelength 2π/θᵢ is below {short}, "
                     "divided by {factor} above {long}, blended between",
    "scaled_yarn": "θᵢ scaled (yarn): from pair {start} to pair {end} a ramp towards "
                   "θᵢ/{factor}; cos and sin × {attention}",
    "scaled_longrope": "θᵢ scaled (longrope): each divided by its pair's short factor; cos "
                       "and sin × {attention}",
    "qk": "q·k",
    "alibi": "ALiBi bias",
    "scores_biased": "scores = q·k + bias",
    "alibi_note": "bias = −slope · distance: a key further back costs more (slope {slope})",
    "head": " · head {n}",
    "positioned": "{token} · p{p}",
    "equal_distance": "scores[{a}] = scores[{b}] = {value}: the same q and k rows, {d} "
                      "apart both times. After RoPE a score depends only on the distance "
                      "between the positions, not on where they are",
}
"""Words drawn on the positional-encoding pictures (added rows, RoPE, ALiBi).
Ids ``position.*``."""

WORKSHEET_DIALOG: dict[str, str] = {
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
}
"""File → Export worksheet…: the menu entry, its dialog, progress, messages.
Ids ``worksheet_dialog.*``."""

WORKSHEET: dict[str, str] = {
    "sheet": "Worksheet · {title}",
    "key": "Answer key · {title}",
    "variant": "Variant {number}",
    "name_line": "Name: ____________________",
    "exercise": "Exercise {number} · {title}",
    "continued": "Exercise {number} · {title} (continued)",
    "working": "Working",
    "how_to_check": "How to check: {sentence}",
    "check_projection": "each row of Q, K and V is one input row times a table — redo one "
                        "column of each with the table's column and compare.",
    "check_scores": "each score is the query row's dot product with the key row, divided by "
                    "√dₖ, or by the root the step's title names (then soft-capped, "
                    "c · tanh(s / c), where the step's title says so); a masked cell is not "
                    "used.",
    "check_weights": "add up each row of your shares and compare the sum with what softmax "
                     "promises of every row; a masked key takes no share.",
    "check_mix": "each output number lies between the smallest and the largest visible value "
                 "of its column, nearer to the values with the larger shares.",
    "check_other": "recompute each blank from the numbers its frame shows; the key gives "
                   "every value's arithmetic.",
    "check_question": "work out the changed numbers, or reason from where the edited number "
                      "enters the computation.",
    "check_ablation": "work out the steps after the attention again with the head's slice "
                      "zeroed, or reason from what the head added to the stream.",
    "given": "Blank cells of {arrays} are asked in Exercise {exercises}: use your "
             "answers there.",
    "given_many": "Blank cells of {arrays} are asked in Exercises {exercises}: use your "
                  "answers there.",
    "frames_of": "The frame is the one of Exercise {number}.",
    "and": "{first} and {last}",
    "comma": ", ",
    "parameter_cell": "{name}[{cell}]",
    "parameter_item": "{name}[{cell}]",
    "edit": "The edit: {cell} grows by {by} (from {before} to {after}).",
    "ablate": "The change: {heads} (a switched-off head's slice of the concatenated heads is "
              "set to 0 before Wo).",
    "watch": "Watch {cell}.",
    "watch_array": "Watch every number of “{array}”.",
    "rise": "rises",
    "fall": "falls",
    "same": "stays the same",
    "choice": "{letter}. {cell} grows by {by}",
    "tick": "☐",
    "fill_answer": "{cell} = {value}",
    "direction_answer": "{cell} {direction}: {before} → {after}.",
    "unchanged_yes": "{letter}. {cell} + {by}: unchanged (tick it).",
    "unchanged_no": "{letter}. {cell} + {by}: changes, most at {where} ({before} → {after}).",
    "tolerance": "Right within ±{tolerance}.",
    "page": "page {number}",
}
"""A printed worksheet and its answer key. (ids ``worksheet.*``)."""

MATRIX: dict[str, str] = {
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
}
"""Why a pasted or imported matrix was refused. (ids ``matrix.*``)."""

RUN: dict[str, str] = {
    "token": "token {t} “{label}”",
    "token_of": "Token {t} of {count} “{label}”",
}
"""How a generation run's tokens are named, on the timeline and in exported frames.
Ids ``run.*``."""

EXPORT: dict[str, str] = {
    "picture_too_large": "a picture of {size} pixels would need {asked}; at most {most} fit, "
                         "which at this shape is a width of at most {fits} pixels",
    "no_memory": "there is not enough memory for a picture of {width} × {height} pixels; choose "
                 "a smaller width or scale",
    "not_a_folder": "cannot write {named}: {probe} is not a folder",
    "ffmpeg_missing": "MP4 export needs ffmpeg, and none was found: install it (Debian, Ubuntu: "
                      "sudo apt install ffmpeg; Fedora: sudo dnf install ffmpeg-free; others: "
                      "ffmpeg.org) or set IMAGEIO_FFMPEG_EXE to its path; GIF export needs none",
    "ffmpeg_not_started": "cannot write {path}: ffmpeg could not be started ({exe}: {error})",
    "ffmpeg_failed": "cannot write {path}: ffmpeg failed ({detail})",
}
"""Why an export failed (:class:`app.export.safe.ExportError`; ids ``export.*``)."""

TEXTS: dict[str, str] = {
    "language_name": "English",
    "why": "Why it is needed",
    "how": "How it is done",
    "pitfalls": "Costs and common misreadings",
    "check": "How to check it is right",
    "check_line": "✓ {heading}: {check}",
}
"""The language's own name (for a language menu), the four headings of every step text, and
the timeline's check line (ids ``texts.*``)."""

GROUPS: dict[str, str] = {
    "embedding": "Embedding",
    "layer": "Layer {n}",
    "encoder": "Encoder",
    "encoder_layer": "Encoder · Layer {n}",
    "decoder_layer": "Decoder · Layer {n}",
    "head": "Head",
    "cross": "Cross-attention",
    "cross_step": "cross-attention · {step}",
    "layers": "Layers {first}–{last}",
    "encoder_layers": "Encoder · Layers {first}–{last}",
    "decoder_layers": "Decoder · Layers {first}–{last}",
}
"""The timeline's groups of steps and the map's runs of layers (ids ``group.*``)."""

MODEL_VIEW: dict[str, str] = {
    "title": "Model view: {layers} × {heads} heads, receiver “{token}” (position {position})",
    "head": "{layer} h{head}",
    "legend": "▸ marks the receiver's row; the figure beside each head is its mean share "
              "on the first key “{first}”. Hover a cell for its share; click a head to open "
              "it.",
    "sink_title": "Attention sinks",
    "sink_what": "Softmax must give a whole share away, so a head with nothing useful to "
                 "look at parks it on the first key: an attention sink. Its mean share on "
                 "“{first}” is the figure beside it.",
    "sink_strongest": "Strongest here: {label}, mean share {mean} on “{first}”.",
    "sink_removed": "Remove position 0 from {label}: the receiver “{token}” row's other "
                    "shares are divided by 1 − {first_share} = {rest} and sum to 1 again.",
    "sink_before": "with key 0:  {shares}",
    "sink_after": "without it:  {shares}",
    "sink_none": "One position: no key is left when position 0 is removed.",
    "no_attention": "This document has no attention: no head to show.",
    "hover": "{label}: “{query}” ({row}) → “{key}” ({col}): share {share}",
    "hover_masked": "{label}: “{query}” ({row}) → “{key}” ({col}): masked",
}
"""The model view of every layer × head and its attention-sink frame (ids ``model_view.*``)."""

LENS: dict[str, str] = {
    "reading": "Reading each layer through the vocabulary head…",
    "title": "Logit lens: what the model would predict if it stopped after each of its "
             "{layers} layers",
    "title_one": "Logit lens: what the model would predict if it stopped before or after its "
                 "one layer",
    "legend": "Each cell reads that position's row of the stream through the document's own final "
              "norm and vocabulary head, then softmax: it prints the most probable token and its "
              "probability. The last row is the document's own probabilities. ▸ marks the "
              "receiver's column. Hover a cell for its five most probable tokens.",
    "row_input": "embedding",
    "row_layer": "after L{layer}",
    "row_last": "after L{layer} = output",
    "column": "{position} “{token}”",
    "top_entry": "“{label}” p {p} (logit {logit})",
    "hover": "{row}, position {position} “{token}”: row {position} of {stream} → final norm → "
             "vocabulary head → softmax, p = e^(z − z_max) / Σ e^(z − z_max). Most probable: "
             "{top}",
}
"""The logit lens (ids ``lens.*``): View → Logit lens and ``export --view lens``."""


LABELS: dict[str, str] = {
    "input.embed": "embed",
    "positions.added": "positions",
    "input.types": "types",
    "input.summed": "positions",
    "input.embedding_norm": "embedding norm",
    "positions.rope": "rope",
    "attention.qk_norm": "qk norm",
    "attention.inputs": "inputs",
    "attention.projections": "projections",
    "attention.scores": "scores",
    "attention.weights": "weights",
    "attention.mix": "mix",
    "block.norm1": "norm1",
    "block.resid1": "resid1",
    "block.norm2": "norm2",
    "block.ffn": "ffn",
    "block.router": "router",
    "block.experts": "experts",
    "block.resid2": "resid2",
    "block.norm2_parallel": "norm2",
    "block.resid_parallel": "resid2",
    "block.norm1_post": "norm1",
    "block.resid2_post": "resid2",
    "block.norm2_post": "norm2",
    "block.norm3": "norm3",
    "block.norm4": "norm4",
    "block.cross_norm": "norm",
    "block.cross_norm_post": "norm",
    "block.cross_resid": "resid",
    "block.final_norm": "final norm",
    "encoder.final_norm": "final norm",
    "head.transform": "transform",
    "block.logits": "logits",
    "block.softcap": "softcap",
    "block.probs": "probs",
    "block.loss": "loss",
    "block.sample": "sample",
}
"""A timeline button's word or two, by the step's explain_key (a cross-attention's as a
self-attention's)."""

PRESETS: dict[str, str] = {
    "sizes": "Tiny and seeded, not trained: d = 8, 2 heads of 4, 2 layers, a feed-forward 12 "
             "wide, the chapter's 7 words, weights rounded to 2 decimals.",
    # gpt2
    "gpt2.name": "GPT-2",
    "gpt2.menu": "learned positions, pre-norm LayerNorm, GELU, tied head",
    "gpt2.title": "GPT-2 · tiny preset",
    "gpt2.note": "{sizes} GPT-2 (2019) adds a learned row to each token's embedding for its "
                 "position (a table of 8 rows here), normalises with LayerNorm before attention "
                 "and before the feed-forward (pre-norm), uses GELU in its tanh form, biases "
                 "everywhere, and a head tied to the embedding: the unembedding is the embedding "
                 "table turned on its side.",
    # llama
    "llama.name": "Llama",
    "llama.menu": "RoPE, RMSNorm, SwiGLU gate, no biases",
    "llama.title": "Llama · tiny preset",
    "llama.note": "{sizes} Llama adds nothing to the embedding: RoPE turns each head's q and k by "
                  "p·θ after the projection (all 4 columns, 2 pairs, base 10000), so scores "
                  "depend on the distance. RMSNorm divides by the root mean square and has no "
                  "shift; the feed-forward is SwiGLU, silu(x·Wg) times x·W1, a gate; no layer has "
                  "a bias; the head has its own weights.",
    # mistral
    "mistral.name": "Mistral",
    "mistral.menu": "Llama with grouped K/V heads and a sliding window",
    "mistral.title": "Mistral · tiny preset",
    "mistral.note": "{sizes} Mistral 7B is Llama's block with two changes. Grouped-query "
                    "attention: 2 query heads share 1 head of K and V, so the KV cache is half as "
                    "large. A sliding window: query i sees key j only when i − j < 2 here (4096 "
                    "in the real model), so the cells beyond it are masked even where the causal "
                    "mask would allow them; later layers still reach further.",
    # mixtral
    "mixtral.name": "Mixtral",
    "mixtral.menu": "Mistral's attention, a router choosing 2 of 4 experts",
    "mixtral.title": "Mixtral · tiny preset",
    "mixtral.note": "{sizes} Mixtral 8x7B is Mistral's layer with a mixture of experts in place "
                    "of the feed-forward: 4 SwiGLU experts here (8 in the real model). A router "
                    "scores each token against every expert (x · W_r), turns the scores into "
                    "shares with a softmax, keeps the 2 largest, divides them by their sum, and "
                    "adds the 2 chosen experts' outputs in those proportions; the other experts "
                    "do not run for that token. RoPE base 1000000, 1 K/V head.",
    # qwen2_moe
    "qwen2_moe.name": "Qwen2-MoE",
    "qwen2_moe.menu": "2 of 4 experts and a shared one behind a sigmoid gate",
    "qwen2_moe.title": "Qwen2-MoE · tiny preset",
    "qwen2_moe.note": "{sizes} Qwen1.5-MoE and Qwen2-57B-A14B keep Qwen2's attention (q/k/v "
                      "biases, 1 K/V head here) and replace the feed-forward with a mixture: a "
                      "router keeps each token's 2 largest shares of 4 experts (60 or 64 in the "
                      "real models) as they are, without dividing by their sum. Beside them a "
                      "shared expert runs for every token; its output is multiplied by σ(x · "
                      "w_g), a gate between 0 and 1 computed from the token's own row, and added "
                      "to the chosen experts' weighted sum. RoPE base 1000000.",
    # qwen2
    "qwen2.name": "Qwen2",
    "qwen2.menu": "Llama's blocks with q/k/v biases and grouped K/V heads",
    "qwen2.title": "Qwen2 · tiny preset",
    "qwen2.note": "{sizes} Qwen2 keeps Llama's RMSNorm, SwiGLU and RoPE (base 1000000, so the "
                  "slow pair hardly turns) but gives q, k and v a bias (and o none), shares 1 "
                  "head of K and V between its 2 query heads, and, as its small models do, ties "
                  "the head to the embedding.",
    # gpt_neox
    "gpt_neox.name": "GPT-NeoX",
    "gpt_neox.menu": "RoPE on part of each head, parallel residual",
    "gpt_neox.title": "GPT-NeoX · tiny preset",
    "gpt_neox.note": "{sizes} GPT-NeoX (Pythia) turns only part of each head with RoPE: here 2 of "
                     "its 4 columns (a quarter in Pythia), the rest pass unturned. Its residual "
                     "is parallel: attention and the feed-forward both read the layer's input, "
                     "each through its own LayerNorm, and both outputs are added to it at once: x "
                     "+ attn(norm₁ x) + ffn(norm₂ x). GELU in its erf form; the head has its own "
                     "weights.",
    # bert
    "bert.name": "BERT",
    "bert.menu": "an encoder: no causal mask, post-norm, GELU, fills a [MASK]",
    "bert.title": "BERT · tiny preset",
    "bert.note": "{sizes} BERT is an encoder: no causal mask, every token reads every other, "
                 "before and after, so it does not predict the next token and does not generate. "
                 "Post-norm: LayerNorm comes after each residual sum, so there is no final norm. "
                 "GELU in its erf form, learned positions, biases everywhere. It reads 我 [MASK] "
                 "你 。 and ends, as BertForMaskedLM does, with the masked-language-model head: a "
                 "dense layer, GELU and LayerNorm, then the embedding table turned on its side "
                 "plus a bias of its own. Its last step fills the blank: the most probable word "
                 "at [MASK], guessed from both sides. Missing here: BERT's token types (segment "
                 "A/B rows) and the LayerNorm of the embedding sum (the bert example has both).",
}
"""File → New from architecture: each family's name and one-line note for the menu, and its
document's title and note ({sizes}: how small every preset is)."""

EXAMPLES: dict[str, str] = {
    # bert
    "bert.menu": "BERT's embeddings · two segments",
    "bert.menu_note": "word × 2 + position + segment rows, then LayerNorm → X",
    "bert.title": "{title}",
    "bert.note": "{note}",
    # continue
    "continue.menu": "Continue 我 爱 → 你 。",
    "continue.menu_note": "greedy generation, one forward pass per new token",
    "continue.title": "{title}",
    "continue.note": "{note}",
    # encoder-decoder
    "encoder-decoder.menu": "Encoder–decoder · I love you → 我 爱",
    "encoder-decoder.menu_note": "2 target rows read 3 source rows (cross-attention)",
    "encoder-decoder.title": "{title}",
    "encoder-decoder.note": "{note}",
    # f11
    "f11.menu": "F11 · Q/K/V on two positions",
    "f11.menu_note": "the chapter's walk-through: 我 reads itself, 爱 reads both",
    "f11.title": "{title}",
    "f11.note": "{note}",
    # g01
    "g01.menu": "G01 · one decoder block",
    "g01.menu_note": "pre-norm, from input rows to a three-word vocabulary",
    "g01.title": "{title}",
    "g01.note": "{note}",
    # multihead
    "multihead.menu": "Two heads joined, then Wo",
    "multihead.menu_note": "each head 2 wide, joined to 4, Wo 4×6 back to 6",
    "multihead.title": "{title}",
    "multihead.note": "{note}",
    # norms
    "norms.menu": "LayerNorm vs RMSNorm",
    "norms.menu_note": "the row [1, 3] under both norms, side by side",
    "norms.title": "{title}",
    "norms.note": "{note}",
    # order
    "order.menu": "排除A，保留B · order needs positions",
    "order.menu_note": "swap A and B: with RoPE, A reads the other verb",
    "order.title": "{title}",
    "order.note": "{note}",
    # pronoun
    "pronoun.menu": "Which word does “it” read?",
    "pronoun.menu_note": "hand-set weights: “it” gives “animal” the largest share",
    "pronoun.title": "{title}",
    "pronoun.note": "{note}",
    # rope
    "rope.menu": "RoPE · one word at three positions",
    "rope.menu_note": "q, k turned by p·θ: scores depend on distance only",
    "rope.title": "{title}",
    "rope.note": "{note}",
    # single-key
    "single-key.menu": "One visible key",
    "single-key.menu_note": "the first row's share is 1 whatever its score",
    "single-key.title": "{title}",
    "single-key.note": "{note}",
    # three-layers
    "three-layers.menu": "Three layers, pre-norm",
    "three-layers.menu_note": "three sets of weights: shares change layer by layer",
    "three-layers.title": "{title}",
    "three-layers.note": "{note}",
    # training
    "training.menu": "Training loss · every position at once",
    "training.menu_note": "targets shifted by one; unmasked, it copies",
    "training.title": "{title}",
    "training.note": "{note}",
    # tokenizer
    "tokenizer.menu": "Token ids and the embedding table",
    "tokenizer.menu_note": "ids 7, 12 and 3 pick three rows of the table to form X",
    "tokenizer.title": "{title}",
    "tokenizer.note": "{note}",
}
"""File → Examples: each built-in example's title and one-line note for the menu, and its
document's title and note (English: as its file has them)."""
