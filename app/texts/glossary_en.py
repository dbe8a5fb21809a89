"""English glossary: one entry per term id, and the words in a text that link to each term."""

from __future__ import annotations

from functools import cache

from app.texts.glossary_numbers import worked
from app.texts.model import GlossaryEntry


def _entry(term_id: str, term: str, definition: str, example: str) -> tuple[str, GlossaryEntry]:
    return term_id, GlossaryEntry(term=term, definition=definition, example=example,
                                  term_id=term_id)


@cache
def entries() -> dict[str, GlossaryEntry]:
    """Every entry by term id, built when first asked for (the generation terms' worked
    examples compute their numbers with the engine: not at start-up)."""
    return dict((
    _entry("Wq", "Wq (W_Q), query projection",
           "The parameter table that turns each input row into its query: Q = X·Wq, with d rows "
           "and dₖ columns per head.",
           "In F11, 爱's row [1, −1] times Wq = [[1, 1], [−1, 1]] gives q = [2, 0]."),
    _entry("Wk", "Wk (W_K), key projection",
           "The parameter table that turns each input row into its key: K = X·Wk, with as many "
           "columns as Wq so that q·k is defined.",
           "[1, −1] times Wk = [[0.5, 0.5], [0.5, −0.5]] gives k = [0, 1]."),
    _entry("Wv", "Wv (W_V), value projection",
           "The parameter table that turns each input row into the content it hands over: "
           "V = X·Wv, whose width dᵥ may differ from dₖ.",
           "[1, −1] times Wv = [[5, 10], [5, −10]] gives v = [0, 20]."),
    _entry("Wo", "Wo (W_O), output projection",
           "The parameter table that maps the concatenated head outputs to the width the "
           "residual needs; it is neither a set of shares nor the vocabulary head.",
           "Two heads of width 2 concatenate to 4 numbers, and Wo of shape 4×6 turns them "
           "into 6."),
    _entry("QKV", "Query, Key, Value (Q, K, V)",
           "Three rows computed for each position from the same input: its query scores the "
           "keys, its key gets scored, and its value is the content the shares blend.",
           "For 爱 in F11, q = [2, 0], k = [0, 1] and v = [0, 20]; its q against 我's k "
           "[1, 0] gives 2."),
    _entry("shares", "Shares (softmax output)",
           "The numbers softmax gives for one row of attention, non-negative and summing to 1, "
           "recomputed for every input; not the parameters' weights W.",
           "For 爱 in F11 the shares are 0.804 (我) and 0.196 (爱), and 0.804 + 0.196 = 1."),
    _entry("I", "I, identity matrix",
           "A square matrix with 1 on the diagonal and 0 elsewhere; multiplying by it changes "
           "nothing.",
           "[3, −2]·[[1, 0], [0, 1]] = [3, −2]."),
    _entry("Norm", "Norm",
           "The block's row-by-row rescaling (LayerNorm, RMSNorm or none); it is not "
           "probability normalisation, so outputs may be negative and need not sum to 1.",
           "LayerNorm([1, 3]) = [−1, 1], whose sum is 0, not 1."),
    _entry("LayerNorm", "LayerNorm",
           "Subtract the row's mean, divide by √(variance + ε), then multiply by γ and add β.",
           "[1, 3] has mean 2 and variance 1, so with ε = 0, γ = 1 and β = 0 it becomes "
           "[−1, 1]."),
    _entry("RMSNorm", "RMSNorm",
           "Divide the row by its root mean square √(mean of squares + ε), then multiply by γ; "
           "no mean is subtracted and there is no β.",
           "[1, 3] has mean of squares 5, so it becomes [1/√5, 3/√5] ≈ [0.447, 1.342]."),
    _entry("gamma", "γ (gamma), norm scale",
           "A learned row of multipliers, one per feature, applied after a norm.",
           "With γ = [2, 1], LayerNorm([1, 3]) becomes [−2, 1]."),
    _entry("beta", "β (beta), norm shift",
           "A learned row of offsets, one per feature, added after LayerNorm (RMSNorm has "
           "none).",
           "With β = [0, 0.5], LayerNorm([1, 3]) becomes [−1, 1.5]."),
    _entry("epsilon", "ε (epsilon), stabiliser",
           "A small constant set by hand and added under the square root so that a constant "
           "row never divides by zero; it is not learned.",
           "G01 uses ε = 1e−5, so LayerNorm([0, 2]) gives [−0.999995, 0.999995] rather than "
           "exactly [−1, 1]."),
    _entry("pre-norm", "Pre-norm",
           "An order of operations: norm first, then the sub-layer, whose output is added to "
           "the unnormed input, x + F(Norm(x)).",
           "G01 is pre-norm: resid1 = X + attention(Norm(X)), so X's row [0, 2] is added "
           "as it is."),
    _entry("post-norm", "Post-norm",
           "An order of operations: sub-layer and addition first, then a norm of the sum, "
           "Norm(x + F(x)); not a stage of training.",
           "With x = [1, 3] and F = 0, pre-norm gives [1, 3] but post-norm gives [−1, 1] "
           "(LayerNorm, ε = 0)."),
    _entry("causal-mask", "Causal mask",
           "Hides from each position every position after it, so a share toward the future is "
           "exactly 0.",
           "With two positions, 我 sees only 我 (share 1), and 爱 sees both 我 and 爱."),
    _entry("residual", "Residual",
           "Adding a sub-layer's output back to its input, so the sub-layer contributes a "
           "change instead of replacing the row.",
           "In G01, [0, 2] + [−0.888377, 0.888377] = [−0.888377, 2.888377]."),
    _entry("FFN", "FFN, feed-forward network",
           "Per row, act(x·W1 + b1)·W2 + b2, with the same W1 and W2 for every position and no "
           "mixing between positions.",
           "ReLU([−1, 1]) = [0, 1], and W2 = 0.5·I then gives [0, 0.5]."),
    _entry("logits", "Logits",
           "The raw scores of the vocabulary head, one per vocabulary entry; any real numbers, "
           "not probabilities.",
           "[−1, 1]·[[1, 0, −1], [0, 1, 0.5]] = [−1, 1, 1.5]."),
    _entry("probabilities", "Probabilities",
           "The softmax of the logits: non-negative numbers over the vocabulary that sum to 1.",
           "Logits [−1, 1, 1.5] give about [0.049, 0.359, 0.592]."),
    _entry("softmax", "Softmax",
           "Take exp of each entry and divide by the sum of the exps, which turns any real row "
           "into non-negative numbers summing to 1 in the same order.",
           "softmax([1.414, 0]) = [0.804, 0.196], and the softmax of a single number is "
           "always [1]."),
    _entry("scale", "Scaling by √dₖ",
           "Dividing the scores by √dₖ, the square root of the key width, so that their "
           "typical size does not grow with the width.",
           "With dₖ = 2, a raw score of 2 becomes 2 ÷ √2 = 1.414."),
    _entry("heads", "Heads, multi-head attention",
           "Splitting the columns of Q, K and V into groups, attending in each group separately, "
           "and concatenating the results.",
           "Two heads of width 2 give 2 + 2 = 4 numbers per position, and Wo of shape 4×6 then "
           "gives 6."),
    _entry("embedding", "Embedding",
           "A learned table with one row per token id; looking up the ids gives the rows of X.",
           "Ids 7, 12 and 3 pick rows 7, 12 and 3 of the table (counting from 0), giving a "
           "3-row X."),
    _entry("RoPE", "RoPE, rotary position embedding",
           "Turns each pair of columns of q and k by an angle that grows with the position, "
           "p·θᵢ, so that q·k depends only on how far apart the two positions are.",
           "In the rope example one row stands at positions 0, 1 and 2; after the turn "
           "scores[1, 0] = scores[2, 1] = 0.768 (distance 1) and scores[2, 0] = 0.282 "
           "(distance 2)."),
    _entry("positional-encoding", "Positional encoding",
           "Rows that depend only on the position, sinusoidal or learned, added to the token "
           "rows so that one token at two positions gives two different rows.",
           "Sinusoidal with d = 2: P[1] = [sin 1, cos 1] = [0.841, 0.540], so the token row "
           "[1, 0] at position 1 becomes [1.841, 0.540]."),
    _entry("ALiBi", "ALiBi, attention with linear biases",
           "Adds to each score a penalty −slope · distance that grows with how far back the key "
           "is, one slope per head, instead of adding rows for the positions.",
           "With 2 heads the slopes are 2⁻⁴ = 0.0625 and 2⁻⁸ = 0.00390625; in head 1 a key 3 "
           "positions back gets the bias −3 · 0.0625 = −0.1875."),
    _entry("cross-attention", "Cross-attention",
           "Attention whose queries come from the decoder's rows and whose keys and values come "
           "from the encoder's output, its memory, so that the shares form a target × source "
           "table.",
           "In the encoder–decoder example the shares are 2 × 3, and “我” gives “love” 0.999283, "
           "“I” 0.000474 and “you” 0.000243."),
    _entry("encoder", "Encoder",
           "A stack of layers that reads the source tokens with no causal mask, every row "
           "reading every row, and hands its last rows, the memory, to the decoder's "
           "cross-attention.",
           "In the encoder–decoder example the encoder's row of “I” reads all 3 source tokens, "
           "with shares 0.894285, 0.052857 and 0.052857."),
    _entry("grouped-query", "Grouped-query attention",
           "Several query heads share one key/value head, so that K and V have fewer columns "
           "than Q (with a single key/value head it is multi-query attention).",
           "4 query heads of width 2 with 2 key/value heads: Q has 8 columns but K and V have "
           "4, query heads 1 and 2 read key/value head 1, and heads 3 and 4 read head 2."),
    _entry("sliding-window", "Sliding window",
           "Each query reads only the w keys up to and including its own position (i − j < w), "
           "so that a row never reads more than w keys.",
           "With w = 2 and the causal mask, position 4 reads keys 3 and 4 only, and its share "
           "of key 0 is exactly 0."),
    _entry("key-mask", "Key mask",
           "One flag per key that hides every key marked 0 from every row (padding, say), "
           "whatever its scores.",
           "With key_mask [1, 1, 0, 1] the share of key 2 is exactly 0 in every row, and each "
           "row's other shares still sum to 1."),
    _entry("ablation", "Head ablation",
           "Setting one head's output — its columns of the concatenated heads, before Wo — to 0 "
           "and recomputing everything after, to see what that head contributes.",
           "With ablate_heads [1] the mixed values of head 2 are 0 in every row, so attn_out "
           "is head 1's columns times their rows of Wo (plus bo) alone."),
    _entry("QK-norm", "QK-norm",
           "A norm (LayerNorm or RMSNorm) of each head's q and k rows before the scores, with "
           "learned γ_q and γ_k, which keeps the scores from growing without bound.",
           "RMSNorm of q = [3, 4] with γ_q = 1 is [3, 4] ÷ √12.5 = [0.849, 1.131]."),
    _entry("KV-cache", "KV cache",
           "While generating, the keys and values of the earlier positions, kept from the passes "
           "before: under the causal mask they never change, so each new token computes only its "
           "own q, k and v, its scores against every key so far, its shares and its mix.",
           worked("KV-cache", "Continuing {prompt} (the continue example), the cache holds K "
                  "({K}) and V ({V}) of the {n} positions; for {new} only its own row is "
                  "computed, and its {keys} shares {shares} are those of recomputing every "
                  "position. {steps} tokens compute {cached} rows of K and V with the cache, "
                  "{full} without.")),
    _entry("temperature", "Temperature",
           "The number T the logits are divided by before softmax when sampling: T < 1 sharpens "
           "the probabilities, T > 1 flattens them, T = 0 is greedy (all the mass on the "
           "largest logit); their order never changes.",
           worked("temperature", "Logits {logits} give {plain} at T = {T_plain}, {cold} at "
                  "T = {T_cold} and {hot} at T = {T_hot}.")),
    _entry("top-k", "Top-k sampling",
           "Keep only the k most probable entries, scale their probabilities up to sum to 1, and "
           "draw from them; k = 1 is greedy.",
           worked("top-k", "Logits {logits} give {probs}; top-k with k = {k} keeps {kept}, "
                  "scaled up to {shares}.")),
    _entry("top-p", "Top-p (nucleus) sampling",
           "Keep the fewest most probable entries whose probabilities add up to at least p, "
           "scale them up to sum to 1, and draw from them; p = 1 keeps every entry.",
           worked("top-p", "With {probs} and p = {p}: {short} falls short and {mass} reaches "
                  "it, so {count} entries are kept, scaled up to {shares}.")),
    _entry("cross-entropy", "Cross-entropy loss",
           "The training loss of one position: −ln of the probability the model gives the "
           "target, 0 when it is certain of it and the larger the less likely it finds it; a "
           "sentence's loss is the mean over its positions.",
           worked("cross-entropy", "In the training example {token} should predict {target}, "
                  "whose probability is {p}: −ln {p} = {loss}; the mean of the {n} positions is "
                  "({sum}) / {n} = {mean}.")),
    _entry("teacher-forcing", "Teacher forcing",
           "Training feeds each position the true earlier words of the sentence, not the "
           "model's own guesses, so under the causal mask every position's prediction and loss "
           "come from one forward pass.",
           worked("teacher-forcing", "In the training example position 0 ({first}) predicts "
                  "{guess} (probability {guess_p}), yet position 1 reads the true {second}: all "
                  "{n} losses come from 1 pass. Generating, the model feeds back its own choice: "
                  "from {first} it gives {run}.")),
    _entry("attention-sink", "Attention sink",
           "A head that puts much of every row's share on the first key, because softmax must "
           "give a whole share away and a head with nothing useful to look at parks it there "
           "(the model view prints each head's mean share on the first key).",
           "Remove position 0 from a row [0.80, 0.15, 0.05]: the rest is divided by "
           "1 − 0.80 = 0.20, giving [0.75, 0.25]."),
    _entry("logit-lens", "Logit lens",
           "Reading the stream between two layers through the model's own final norm and "
           "vocabulary head, as if the model stopped there: each layer's guess at the next token "
           "(View → Logit lens); the last layer's reading is the model's own probabilities.",
           "A row the head turns into the logits [2, 1, 0] reads softmax [0.665, 0.245, 0.090]: "
           "its top token gets 0.665, whichever layer the row leaves."),
))

FORMS: dict[str, tuple[str, ...]] = {
    "Wq": ("Wq", "W_Q"),
    "Wk": ("Wk", "W_K"),
    "Wv": ("Wv", "W_V"),
    "Wo": ("Wo", "W_O"),
    "QKV": ("Q/K/V", "Q, K and V", "QKV", "Query", "Key", "Value", "query", "queries", "key",
            "keys"),
    "shares": ("share", "shares"),
    "I": ("identity matrix",),
    "Norm": ("norm", "norms", "normed"),
    "LayerNorm": ("LayerNorm", "layer norm"),
    "RMSNorm": ("RMSNorm",),
    "gamma": ("γ", "gamma"),
    "beta": ("β", "beta"),
    "epsilon": ("ε", "epsilon"),
    "pre-norm": ("pre-norm",),
    "post-norm": ("post-norm",),
    "causal-mask": ("causal mask", "causal masking", "mask"),
    "residual": ("residual", "residuals"),
    "FFN": ("FFN", "feed-forward"),
    "logits": ("logit", "logits"),
    "probabilities": ("probability", "probabilities"),
    "softmax": ("softmax",),
    "scale": ("√dₖ",),
    "heads": ("multi-head", "head", "heads", "concatenated", "concatenation"),
    "embedding": ("embedding", "embedding table", "token id", "token ids"),
    "RoPE": ("RoPE", "rotary"),
    "positional-encoding": ("positional encoding", "positional encodings"),
    "ALiBi": ("ALiBi",),
    "cross-attention": ("cross-attention", "cross-attends", "cross-attend"),
    "encoder": ("encoder", "encoders"),
    "grouped-query": ("grouped-query attention", "grouped-query", "multi-query attention"),
    "sliding-window": ("sliding window",),
    "key-mask": ("key mask", "key_mask"),
    "ablation": ("head ablation", "ablate_heads"),
    "QK-norm": ("QK-norm",),
    "KV-cache": ("KV cache", "KV caches"),
    "temperature": ("temperature",),
    "top-k": ("top-k",),
    "top-p": ("top-p", "nucleus sampling"),
    "cross-entropy": ("cross-entropy", "loss", "losses"),
    "teacher-forcing": ("teacher forcing",),
    "attention-sink": ("attention sink", "attention sinks"),
    "logit-lens": ("logit lens",),
}
"""The words that link to each term. A form in lower case matches in any case; a form with a
capital letter matches only as written."""

BLOCKERS: tuple[str, ...] = ("vocabulary head", "probability normalisation",
                             "probability normalization")
"""Phrases that contain a form but must not link (the vocabulary head is not an attention head,
and a norm is not probability normalisation)."""
