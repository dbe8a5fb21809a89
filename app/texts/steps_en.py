"""English step texts, one :class:`StepText` per ``explain_key`` of the engine's steps.

The numbers quoted come from the built-in examples F11 (attention on 我/爱) and G01 (a pre-norm
decoder block); ``tests/app/test_texts.py`` recomputes them with the engine.
"""

from __future__ import annotations

from app.texts.model import StepText

STEPS: dict[str, StepText] = {
    "input.embed": StepText(
        summary="Each token id picks one row of the embedding table; the picked rows, in order, "
                "form X.",
        why="An id is a label, not an amount: 7 cannot be multiplied in any useful way. Looking "
            "up a learned row turns each token into numbers the later steps can compute with.",
        how="Row k of X is the embedding row whose index is the k-th token id. In the tokenizer "
            "example the ids 7, 12 and 3 select rows 7, 12 and 3 (counting from 0), which gives "
            "a 3×4 X.",
        pitfalls="Ids have no size: id 12 is not \"more\" than id 3. Splitting 检查路径过滤 into "
                 "three tokens is a teaching choice, and a real tokenizer may cut it elsewhere. "
                 "No column of the table has a fixed human meaning.",
        check="Compare each row of X with the table row its id names: for id 7 both read "
              "[0, 0.6, −1, −0.4]. Edit a table row that no token uses: X must not change.",
    ),
    "attention.inputs": StepText(
        summary="One input X meets three parameter tables, Wq, Wk and Wv; nothing is scored yet.",
        why="Attention reads the same rows in three different ways: to look for something, to be "
            "found, and to hand content over. Three separate tables let each reading be learned "
            "on its own.",
        how="Each row of X is one position: in F11, 我 is [1, 1] and 爱 is [1, −1]. Wq, Wk and "
            "Wv are given tables of coefficients with one row per column of X; the next step "
            "multiplies X by each of them.",
        pitfalls="Wq, Wk and Wv are parameters, shared by every position; they are not three "
                 "more copies of the text. Keep them apart from Q, K and V, which are results "
                 "computed from X.",
        check="Count shapes: X has one row per token and d columns, and every W has d rows (d = 2 "
              "in F11). Wq and Wk need the same number of columns, because every q will be dotted "
              "with every k; the app refuses a Wk of another width.",
    ),
    "attention.projections": StepText(
        summary="Every row of X is multiplied by Wq, Wk and Wv, giving that position's q, k and v "
                "rows.",
        why="One input row has three jobs: its q decides what it reads, its k decides how well "
            "others match it, and its v is the content it passes on. Separate projections let "
            "the features used for matching differ from the content that gets moved.",
        how="Q = X·Wq, K = X·Wk and V = X·Wv, each entry a row of X times a column of W (plus a "
            "bias if one is given). In F11, 爱's row [1, −1] gives q = [2, 0], k = [0, 1] and "
            "v = [0, 20].",
        pitfalls="Positions do not mix here: row 爱 of Q depends on row 爱 of X alone. The names "
                 "are a memory aid only; q, k and v are plain rows of numbers, not questions, "
                 "database keys or answers.",
        check="Redo one entry by hand: Q[爱, 0] = 1·1 + (−1)·(−1) = 2. Edit Wv: only V changes, "
              "Q and K stay as they were.",
    ),
    "attention.scores": StepText(
        summary="Every query row is dotted with every key row; with scaling on, each score is "
                "divided by √dₖ.",
        why="Before a position can decide how much to read from each other position, it needs "
            "one number per candidate saying how well they match. The dot product q·k gives it, "
            "and dividing by √dₖ keeps their typical size from growing with the width of q "
            "and k.",
        how="scores[i, j] = q_i · k_j, then ÷ √dₖ when scaling is on. In F11 (dₖ = 2), 爱's "
            "query [2, 0] meets 我's key [1, 0] and its own key [0, 1]: raw 2 and 0, scaled "
            "1.414 and 0.",
        pitfalls="A score is not a probability: it may be negative or above 1, and only the next "
                 "step turns scores into shares. A score toward a later position may appear in "
                 "the table, yet under the causal mask the next step discards it.",
        check="Check one cell: 爱 against 我 is 2·1 + 0·0 = 2, and 2 ÷ √2 = 1.414. Turn scaling "
              "off: every score is multiplied by √dₖ (here 1.414) and the order within each row "
              "stays the same.",
    ),
    "attention.weights": StepText(
        summary="Keys the mask hides are removed, then softmax turns each row of scores into "
                "shares that are non-negative and sum to 1.",
        why="To blend rows of V, each position needs amounts that are non-negative and add up "
            "to one whole, and raw scores are neither. When text is generated, a position must "
            "also be kept from reading tokens after it, which is the causal mask's job.",
        how="Row by row: drop the keys the mask hides (later positions, when causal), take exp "
            "of the remaining scores and divide each by their total. For 爱 in F11, exp(1.414) "
            "and exp(0) become 0.804 and 0.196, while 我 sees only itself.",
        pitfalls="Shares are computed afresh for each input; they are not the parameters' weights "
                 "in Wq, Wk or Wv. A large share tells where this step takes most of its numbers "
                 "from, not why the model produced its final output. If a row has a single "
                 "visible key, that key takes the whole share of 1 whatever its score.",
        check="Each row sums to 1 (in F11: 0.804 + 0.196 = 1). With causal on, the first row "
              "sees only itself, so its share stays 1 however you edit Wq or Wk. Edit Wv: the "
              "shares must not move.",
    ),
    "attention.mix": StepText(
        summary="Each position's output is the sum of the V rows, each multiplied by its share; "
                "with Wo, that sum is then projected.",
        why="This is the one step where information travels between positions: a position's new "
            "row is built from the content of the positions it reads. Wo, when present, brings "
            "the concatenated heads back to the width the rest of the model uses.",
        how="mixed_i = Σ_j share_ij · v_j. In F11, 爱 gets 0.804·[10, 0] + 0.196·[0, 20] = "
            "[8.044, 3.911] and 我 gets 1·[10, 0] = [10, 0]. With several heads, each head mixes "
            "its own columns of V, the results are concatenated, and Wo multiplies the whole.",
        pitfalls="The shares decide how much of each V row to take; they never alter V itself. "
                 "The output is a new row of numbers, not a vocabulary word or an answer. Wo is "
                 "a parameter table, not a second set of shares.",
        check="Edit Wv: the shares stay put and only the mix changes. Before Wo, each output "
              "entry lies between the smallest and largest entry of its V column among the "
              "visible rows, because the shares are non-negative and sum to 1.",
    ),
    "block.norm1": StepText(
        summary="Before attention, each row of X is rescaled on its own by the block's norm "
                "(LayerNorm, RMSNorm, or none).",
        why="Rows can arrive at very different sizes, and bringing each to a standard scale keeps "
            "the attention scores in a workable range. In pre-norm the untouched X still flows "
            "past on the residual path.",
        how="LayerNorm subtracts the row's mean, divides by √(variance + ε), then multiplies by "
            "γ and adds β; RMSNorm divides by the root mean square without subtracting the mean "
            "and has no β. In G01 the row [0, 2] becomes about [−0.999995, 0.999995].",
        pitfalls="A norm works inside one row and never across positions. It does not turn "
                 "numbers into probabilities: outputs can be negative and need not sum to 1. γ "
                 "and β are learned parameters, while ε is a small constant set by hand.",
        check="With γ = 1 and β = 0, each LayerNorm row has mean 0 and a mean square close to 1: "
              "G01's row [1, 0] gives [0.999980, −0.999980]. Set the norm to none: norm1 equals "
              "X.",
    ),
    "block.norm1_post": StepText(
        summary="In post-norm, the first residual sum, X plus the attention output, is normed "
                "row by row.",
        why="Adding the attention output to X can change how large each row is, so post-norm "
            "brings the sum back to a standard scale before the feed-forward reads it.",
        how="norm1 = Norm(X + attn_out), each row on its own, with γ1 and β1. The formula is the "
            "same as in pre-norm; only its place in the order of operations differs.",
        pitfalls="Pre-norm and post-norm name the order of operations inside one forward pass, "
                 "not two phases of training. Here the residual path carries the normed sum, so "
                 "X does not reach the output untouched: x + F(Norm(x)) and Norm(x + F(x)) are "
                 "generally different.",
        check="With γ = 1 and β = 0, each LayerNorm row of norm1 has mean 0. Switch the "
              "placement between pre and post on the same numbers: the block output changes, "
              "and in post the next residual adds the feed-forward output to norm1, not resid1.",
    ),
    "block.norm2": StepText(
        summary="The stream after the first residual is normed row by row before the "
                "feed-forward reads it.",
        why="Whatever the attention added, the feed-forward should see rows at a steady scale. "
            "Because this is pre-norm, the unnormed resid1 still travels on to the second "
            "residual.",
        how="norm2 = Norm(resid1) with γ2 and β2, row by row. In G01 the second row "
            "[−0.888377, 2.888377] becomes about [−0.999999, 0.999999].",
        pitfalls="This norm feeds only the feed-forward: the second residual adds the "
                 "feed-forward output to resid1, not to norm2. It has its own γ2 and β2, which "
                 "may differ from γ1 and β1.",
        check="With γ = 1 and β = 0, each LayerNorm row has mean 0, so at width 2 its two "
              "entries are equal and opposite. Edit γ2: norm2 and the later steps change, resid1 "
              "does not.",
    ),
    "block.norm2_post": StepText(
        summary="In post-norm, the second residual sum is normed row by row, and the result is "
                "the block's output.",
        why="Post-norm closes every sub-layer with a norm, so the block hands on rows at a "
            "standard scale.",
        how="norm2 = Norm(norm1 + ffn_out), row by row with γ2 and β2. If a final norm follows, "
            "it is applied to this result.",
        pitfalls="This is a second, separate norm with its own γ2 and β2, not a repeat of norm1. "
                 "The \"post\" means after the addition, not after training.",
        check="With γ = 1 and β = 0, each LayerNorm row of norm2 has mean 0, and each RMSNorm "
              "row has a mean square close to 1. Set the norm to none: norm2 equals resid2 "
              "exactly.",
    ),
    "block.resid1": StepText(
        summary="The attention output is added to X, position by position: the first residual.",
        why="Adding instead of replacing keeps the original input and lets the attention "
            "contribute only a change. It also gives signals a direct path that passes through "
            "unaltered.",
        how="resid1 = X + attn_out, entry by entry, so the attention output must be as wide as "
            "X. In G01 the second row is [0, 2] + [−0.888377, 0.888377] = "
            "[−0.888377, 2.888377].",
        pitfalls="The raw X is added, even in pre-norm where attention read norm1 instead. A "
                 "residual is a plain sum with no learned numbers; it neither normalises nor "
                 "averages.",
        check="Subtract: resid1 − X equals the attention output in every cell. Set Wv to all "
              "zeros (with no biases): the attention output becomes 0 and resid1 equals X.",
    ),
    "block.ffn": StepText(
        summary="Each row goes through W1 to the hidden width, an activation, then W2 back to "
                "width d.",
        why="Attention only blends V rows in proportions that sum to 1, then applies linear maps. "
            "The feed-forward adds a non-linear change to each position on its own.",
        how="hidden = act(x·W1 + b1) and out = hidden·W2 + b2, row by row. In G01 the second "
            "row of norm2, about [−1, 1], gives the hidden row [0, 0.999999] after ReLU, and "
            "W2 = 0.5·I halves it to [0, 0.499999].",
        pitfalls="The feed-forward never looks at other positions: every row is transformed "
                 "alone with the same W1 and W2. Its hidden width may differ from d, but its "
                 "output must be d wide to be added back. With the identity activation the "
                 "whole feed-forward collapses into one linear map.",
        check="Where the value before the activation is negative, ReLU shows 0 in the hidden "
              "row: G01's second row has hidden [0, 0.999999]. Switch the activation to "
              "identity: the hidden row then equals x·W1 (plus b1).",
    ),
    "block.resid2": StepText(
        summary="The feed-forward output is added to the stream resid1: the second residual, "
                "which is the block's output in pre-norm.",
        why="As with the first residual, the feed-forward adds a change on top of what the "
            "stream already carries, so nothing computed earlier is lost.",
        how="resid2 = resid1 + ffn_out, entry by entry. In G01 the second row is "
            "[−0.888377, 2.888377] + [0, 0.499999] = [−0.888377, 3.388376].",
        pitfalls="The sum starts from resid1, not norm2, which only fed the feed-forward. In "
                 "pre-norm the block's output is this unnormed sum, which is why a final norm "
                 "usually follows.",
        check="resid2 − resid1 equals ffn_out in every cell. In G01 the second row's "
              "feed-forward output starts with 0, so resid2 keeps −0.888377 there.",
    ),
    "block.resid2_post": StepText(
        summary="In post-norm, the feed-forward output is added to norm1, the normed first "
                "residual.",
        why="The residual gives the feed-forward a path around itself; in post-norm that path "
            "starts from the already normed stream.",
        how="resid2 = norm1 + ffn_out, entry by entry, and the next step norms this sum again.",
        pitfalls="Unlike pre-norm, the sum starts from norm1 rather than resid1, so the original "
                 "scale of X is no longer carried along. It is still only an addition; the norm "
                 "comes in the next step.",
        check="resid2 − norm1 equals ffn_out in every cell. Switch the placement to pre: this "
              "step then adds to resid1 instead.",
    ),
    "block.final_norm": StepText(
        summary="The block's output is normed once more, row by row, before the vocabulary head.",
        why="In pre-norm the stream itself is never normed on its way through, so its rows can "
            "grow: G01's second row reaches 3.388376. The final norm hands the vocabulary head "
            "rows at a steady scale.",
        how="final_norm = Norm(block output) with γ_f and β_f. In G01 the second row "
            "[−0.888377, 3.388376] becomes about [−0.999999, 0.999999].",
        pitfalls="It is optional and usually goes with pre-norm, since post-norm output is "
                 "already normed. Like every norm here, it is not the softmax and its rows are "
                 "not probabilities.",
        check="With γ_f = 1 and β_f = 0, each LayerNorm row has mean 0. Turn the final norm "
              "off: the step disappears, and in G01 the second row's largest logit rises from "
              "1.499998 to about 2.583.",
    ),
    "block.logits": StepText(
        summary="Each final row is multiplied by the vocabulary head, giving one score, a logit, "
                "per vocabulary entry.",
        why="To predict the next token, every position needs one number per candidate token. "
            "The head turns a row d wide into a row as wide as the vocabulary.",
        how="logits = row · unembed, where unembed has d rows and one column per vocabulary "
            "entry. In G01 the second row [−0.999999, 0.999999] times "
            "[[1, 0, −1], [0, 1, 0.5]] gives [−0.999999, 0.999999, 1.499998].",
        pitfalls="Logits are not probabilities: they can be negative and do not sum to 1. They "
                 "come from the last row of the whole computation, not from the attention "
                 "shares.",
        check="Recompute one logit: −0.999999·(−1) + 0.999999·0.5 = 1.499998. The largest logit "
              "of a row marks the entry that gets the largest probability in the next step.",
    ),
    "block.probs": StepText(
        summary="Softmax turns each row of logits into probabilities over the vocabulary.",
        why="Choosing a next token needs numbers that are non-negative and add up to 1. Softmax "
            "gives such numbers and keeps the order of the logits.",
        how="p_v = exp(logit_v) / Σ_u exp(logit_u), row by row. In G01 the second row's logits "
            "[−0.999999, 0.999999, 1.499998] give [0.048611, 0.359188, 0.592201].",
        pitfalls="The attention shares and these probabilities are different things, separated "
                 "by residuals, the feed-forward and the vocabulary head. G01's parameters are "
                 "hand-picked, not trained, so its probabilities say nothing about a real model.",
        check="Each row sums to 1: 0.048611 + 0.359188 + 0.592201 = 1. The largest logit "
              "(1.499998) has the largest probability (0.592201), and the probabilities rank the "
              "entries in the same order as the logits.",
    ),
}
