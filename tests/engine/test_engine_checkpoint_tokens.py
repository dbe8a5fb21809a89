"""The text's own tokens, whatever tokenizer.json says of padding and truncation (as
transformers' ``tokenizer(text)`` gives them), and the tokenizer's failures at the library's
boundary: a Rust panic (pyo3's PanicException, a BaseException) and a command line's bytes that
are not UTF-8, each refused in one line naming the place, in English and Chinese."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tokenizers import Tokenizer

from app.cli import main
from app.texts.problems import problem_words
from engine import ScenarioError
from engine.checkpoint import import_checkpoint
from tests.engine.fixture_copies import fixture_copy
from tests.engine.hf_reference import FAMILIES, FIXTURES

TEXT = "the cat sat on the mat"
PADDING = {"strategy": {"Fixed": 30}, "direction": "Right", "pad_to_multiple_of": None,
           "pad_id": 0, "pad_type_id": 0, "pad_token": "[PAD]"}
"""all-MiniLM-L6-v2's padding, its length shortened to fit the fixtures' 16 to 32 positions."""
PANIC_PATTERN = "(?:x+x+)+y"
"""A Split pattern that onig backtracks on past its retry limit for a run of x's: the tokenizers
crate panics ("Onig: Regex search error: retry-limit-in-match over")."""


def tokenizer_copy(tmp_path: Path, family: str, **settings: Any) -> Path:
    """A copy of a fixture whose tokenizer.json has ``settings`` (padding, truncation,
    pre_tokenizer) put in."""
    return fixture_copy(tmp_path, family, settings, file="tokenizer.json")


def context(family: str) -> int:
    values = json.loads((FIXTURES / family / "config.json").read_text("utf-8"))
    return int(values.get("n_positions") or values["max_position_embeddings"])


@pytest.mark.parametrize("family", FAMILIES)
def test_padding_and_truncation_in_tokenizer_json_are_ignored(tmp_path: Path,
                                                              family: str) -> None:
    own = import_checkpoint(FIXTURES / family, TEXT)
    assert own.note == ""  # the fixtures' tokenizers neither pad nor truncate
    limit = 3
    folder = tokenizer_copy(tmp_path, family, truncation={
        "direction": "Right", "max_length": limit, "strategy": "LongestFirst", "stride": 0},
        padding={**PADDING, "strategy": {"Fixed": context(family) - 1}})
    padded = import_checkpoint(folder, TEXT)
    assert padded.token_ids == own.token_ids and padded.tokens == own.tokens
    count = len(own.tokens)
    assert count > limit
    assert padded.note == (f"tokenizer.json pads to {context(family) - 1} and truncates at "
                           f"{limit}: both ignored; the text is its own {count} tokens")


def test_the_ids_are_transformers_own_for_every_fixture_padded_or_not(tmp_path: Path) -> None:
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    for family in FAMILIES:
        folder = tokenizer_copy(tmp_path, family, padding=PADDING)
        theirs = transformers.PreTrainedTokenizerFast(
            tokenizer_file=str(folder / "tokenizer.json"))
        for pair in (None, "the mat") if family == "bert" else (None,):
            scenario = import_checkpoint(folder, TEXT, pair=pair)
            assert list(scenario.token_ids or ()) == theirs(TEXT, pair)["input_ids"], family


def test_a_batch_padding_and_a_multiple_are_named_too(tmp_path: Path) -> None:
    folder = tokenizer_copy(tmp_path, "bert", padding={
        **PADDING, "strategy": "BatchLongest", "pad_to_multiple_of": 8})
    scenario = import_checkpoint(folder, TEXT)
    assert scenario.note == ("tokenizer.json pads to the longest text of a batch (a multiple of "
                             "8): it is ignored; the text is its own 8 tokens")
    assert scenario.tokens == ("[CLS]", "the", "cat", "sat", "on", "the", "mat", "[SEP]")


def test_a_text_past_the_context_is_refused_not_cut_by_the_tokenizers_truncation(
        tmp_path: Path) -> None:
    folder = tokenizer_copy(tmp_path, "gpt2", truncation={
        "direction": "Right", "max_length": 8, "strategy": "LongestFirst", "stride": 0})
    with pytest.raises(ScenarioError) as caught:
        import_checkpoint(folder, " ".join([TEXT] * 3))
    assert str(caught.value) == ("text: the text is 27 tokens, more than the model's context "
                                 "of 16 positions")


def test_a_text_past_the_positions_the_engine_computes_is_refused(tmp_path: Path) -> None:
    folder = tokenizer_copy(tmp_path, "gpt2")
    config = json.loads((folder / "config.json").read_text("utf-8"))
    (folder / "config.json").write_text(json.dumps({**config, "n_positions": 1024}), "utf-8")
    with pytest.raises(ScenarioError) as caught:
        import_checkpoint(folder, " ".join([TEXT] * 100))
    assert str(caught.value) == ("text: the text is 900 tokens, more than the 512 positions QKV "
                                 "Studio computes: shorten it")
    assert problem_words(caught.value, "zh") == ("text：这段文本有 900 个 Token，超过了 QKV Studio "
                                                 "计算的 512 个位置：请缩短它")


def panicking(tmp_path: Path) -> Path:
    return tokenizer_copy(tmp_path, "llama", pre_tokenizer={
        "type": "Split", "pattern": {"Regex": PANIC_PATTERN}, "behavior": "Isolated",
        "invert": False})


def test_a_tokenizer_that_panics_is_refused_in_one_line(tmp_path: Path) -> None:
    folder = panicking(tmp_path)
    with pytest.raises(ScenarioError) as caught:
        import_checkpoint(folder, "x" * 40)
    assert str(caught.value) == ("tokenizer.json: the tokenizer failed on the text (Onig: Regex "
                                 "search error: retry-limit-in-match over)")
    assert problem_words(caught.value, "zh") == ("tokenizer.json：分词器处理这段文本时失败（Onig: "
                                                 "Regex search error: retry-limit-in-match "
                                                 "over）")
    assert import_checkpoint(folder, "the cat").token_ids  # a text it does not panic on


def test_the_command_refuses_a_panic_with_exit_2_and_writes_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_path = tmp_path / "doc.qkv.json"
    status = main(["import-hf", str(panicking(tmp_path)), "--text", "x" * 40,
                   "--out", str(out_path)])
    out, err = capsys.readouterr()
    assert (status, out, out_path.exists()) == (2, "", False)
    assert err == ("qkv-studio: tokenizer.json: the tokenizer failed on the text (Onig: Regex "
                   "search error: retry-limit-in-match over)\n")


def test_an_interrupt_inside_the_tokenizer_is_not_taken_for_its_failure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tokenizers import Tokenizer

    def interrupted(*_args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Tokenizer, "encode", interrupted)
    with pytest.raises(KeyboardInterrupt):
        import_checkpoint(FIXTURES / "llama", TEXT)


def test_a_text_that_is_not_utf8_is_refused_at_its_option(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_path = tmp_path / "doc.qkv.json"
    undecodable = os.fsdecode(b"caf\xe9")  # as Python decodes such argv: "caf\udce9"
    for option, texts in (("--text", [undecodable]), ("--text-pair", ["the cat", undecodable])):
        argv = ["import-hf", str(FIXTURES / "bert"), "--text", texts[0], "--out", str(out_path)]
        status = main([*argv, "--text-pair", texts[1]] if len(texts) == 2 else argv)
        out, err = capsys.readouterr()
        assert (status, out, out_path.exists()) == (2, "", False)
        assert err == (f"qkv-studio: {option}: is not UTF-8 text (character 4 is the "
                       "undecodable 0xE9): give the text in UTF-8\n")
    with pytest.raises(ScenarioError) as caught:
        import_checkpoint(FIXTURES / "bert", "a\ud800")
    assert problem_words(caught.value, "zh") == ("text：不是 UTF-8 文本（第 2 个字符是无法解码的 "
                                                 "U+D800）：请以 UTF-8 给出文本")


def test_the_command_line_bytes_that_are_not_utf8_give_one_line(tmp_path: Path) -> None:
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2]),
                   "LC_ALL": "C.UTF-8"}  # argv decoded as UTF-8, its bad bytes as surrogates
    done = subprocess.run([sys.executable, "-m", "app.cli", "import-hf", str(FIXTURES / "gpt2"),
                           "--text", b"caf\xe9 au lait", "--out", str(tmp_path / "doc.qkv.json")],
                          capture_output=True, env=environment, timeout=120, check=False)
    assert done.returncode == 2 and not (tmp_path / "doc.qkv.json").exists()
    assert done.stderr.decode() == ("qkv-studio: --text: is not UTF-8 text (character 4 is the "
                                    "undecodable 0xE9): give the text in UTF-8\n")


def test_the_rust_runtimes_own_panic_notice_is_not_printed_beside_the_refusal(
        tmp_path: Path) -> None:
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2]),
                   "RUST_BACKTRACE": "1"}  # a backtrace too, were fd 2 not held
    done = subprocess.run([sys.executable, "-m", "app.cli", "import-hf", str(panicking(tmp_path)),
                           "--text", "x" * 40], capture_output=True, env=environment,
                          timeout=120, check=False)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == ("qkv-studio: tokenizer.json: the tokenizer failed on the text "
                                    "(Onig: Regex search error: retry-limit-in-match over)\n")


@pytest.mark.parametrize("family", [family for family in FAMILIES if family != "bert"])
def test_a_vocabulary_entry_reads_as_the_texts_token_of_its_id(family: str) -> None:
    """The head's label of an id is the label the text's token of that id has: a
    sentencepiece word start (``▁sat``) keeps its space, and no two entries read alike
    (``▁sat`` and ``sat`` read `` sat`` and ``sat``), the text's first word too: a
    sentencepiece tokenizer puts a space before it (``▁the cat``: `` the cat``)."""
    scenario = import_checkpoint(FIXTURES / family, "the cat sat on the hat.")
    assert scenario.head is not None
    vocab = scenario.head.vocab
    assert len(set(vocab)) == len(vocab), "two entries of the vocabulary read alike"
    read = [(vocab[i], token) for i, token in zip(scenario.token_ids or (), scenario.tokens,
                                                  strict=True) if token not in ("<s>", "<bos>")]
    assert len(read) >= 4
    assert all(label == token for label, token in read), read
    pieces = json.loads((FIXTURES / family / "tokenizer.json").read_text("utf-8"))["model"]
    if "▁sat" in pieces.get("vocab", {}):
        assert (vocab[pieces["vocab"]["▁sat"]], vocab[pieces["vocab"]["sat"]]) == (" sat", "sat")


def test_tokens_that_split_one_character_are_named_by_their_entries(tmp_path: Path) -> None:
    """A byte fallback spells 猫 as three byte tokens over the same character, after the word
    start the tokenizer puts before it: the text cannot tell them apart (each was labelled
    猫), their vocabulary entries can."""
    vocab = ["<unk>", "<s>", "</s>", "▁", "t", "h", "e", "<0xE7>", "<0x8C>", "<0xAB>"]
    folder = tokenizer_copy(tmp_path, "mistral", model={
        "type": "BPE", "dropout": None, "unk_token": "<unk>", "continuing_subword_prefix": None,
        "end_of_word_suffix": None, "fuse_unk": True, "byte_fallback": True,
        "ignore_merges": False, "vocab": {token: k for k, token in enumerate(vocab)},
        "merges": []}, decoder={"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]})
    scenario = import_checkpoint(folder, "猫 the")
    assert [vocab[k] for k in scenario.token_ids or ()] == [
        "<s>", "▁", "<0xE7>", "<0x8C>", "<0xAB>", "▁", "t", "h", "e"]
    assert scenario.tokens == ("<s>", " ", "<0xE7>", "<0x8C>", "<0xAB>", " ", "t", "h", "e")
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    theirs = transformers.PreTrainedTokenizerFast(tokenizer_file=str(folder / "tokenizer.json"))
    assert list(scenario.token_ids or ()) == theirs("猫 the")["input_ids"]


@pytest.mark.parametrize(("text", "labels"), [
    ("x 猫", ("<s>", " ", "<unk>", " ", "<unk>")),  # both unknown: the model reads <unk>
    ("猫 x", ("<s>", " ", "<unk>", " ", "<unk>")),
    ("sat", ("<s>", " sat")),  # ▁sat, not the entry sat
])
def test_an_unknown_character_is_labelled_alike_wherever_it_stands(
        text: str, labels: tuple[str, ...]) -> None:
    """The word start a sentencepiece tokenizer puts before an unknown first character is
    labelled by its entry (a space); the unknown character is labelled as the model reads it,
    ``<unk>`` (it read as the character typed, a word the model never saw), at the start and
    later alike."""
    assert import_checkpoint(FIXTURES / "mistral", text).tokens == labels


@pytest.mark.parametrize("family", ["gpt2", "qwen2", "olmo2"])
def test_a_byte_level_token_of_part_of_a_character_is_named_by_its_bytes(
        tmp_path: Path, family: str) -> None:
    """A byte-level entry holding part of a character (``ç``, the byte 0xE7 that starts 猫)
    reads ``<0xE7>`` as a byte fallback's entry does, not as the letter ç, in the text and in
    the head's vocabulary alike; ``a`` then 0xE7 reads ``a<0xE7>``; an entry of whole
    characters reads as the tokenizer decodes it alone."""
    model = json.loads((FIXTURES / family / "tokenizer.json").read_text("utf-8"))["model"]
    vocab = {("aç" if token == "g" else token): k for token, k in model["vocab"].items()}
    folder = tokenizer_copy(tmp_path, family, model={
        **model, "vocab": vocab, "merges": [*model["merges"], ["a", "ç"]]})
    scenario = import_checkpoint(folder, "我爱你，a猫😀")
    assert scenario.head is not None
    assert scenario.tokens == ("我", "爱", "你", "<0xEF>", "<0xBC><0x8C>", "a<0xE7>", "<0x8C>",
                               "<0x80>")  # 猫's 0xAB and 😀's first three bytes are no entry
    assert tuple(scenario.head.vocab[k] for k in scenario.token_ids or ()) == scenario.tokens
    assert [scenario.head.vocab[vocab[token]] for token in ("ç", "Į", "½ł", "çĪ", "Ġ")] == [
        "<0xE7>", "<0x8C>", "<0xBD><0xA0>", "<0xE7><0x88>", " "]
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    whole = [(label, tokenizer.decode([k], skip_special_tokens=False))
             for k, label in enumerate(scenario.head.vocab[:len(vocab)]) if "<0x" not in label]
    assert len(whole) == 29 and all(label == decoded for label, decoded in whole), whole


TRIMMED = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
           "use_regex": True}
"""GPT-NeoX's (Pythia's) post-processor as its tokenizer.json ships it: the offsets of `` cat``
leave its space out."""
ROBERTA = {"type": "RobertaProcessing", "sep": ["<|endoftext|>", 0],
           "cls": ["<|endoftext|>", 0], "trim_offsets": True, "add_prefix_space": False}
"""RoBERTa's post-processor (its ``<s>`` and ``</s>`` the fixtures' one special token), which
trims the offsets too."""


@pytest.mark.parametrize("family", ["gpt2", "gpt_neox", "qwen2", "olmo2"])
@pytest.mark.parametrize(("settings", "text", "labels"), [
    ({"post_processor": TRIMMED}, "the cat  sat", ("the", " cat", " ", " ", "sat")),
    ({"post_processor": ROBERTA}, "the cat  sat",
     ("<|endoftext|>", "the", " cat", " ", " ", "sat", "<|endoftext|>")),
    ({"pre_tokenizer": {**TRIMMED, "add_prefix_space": True}}, "cat sat",
     (" cat", " ", "sat")),
])
def test_a_byte_level_token_reads_as_its_entry_whatever_its_offsets_say(
        tmp_path: Path, family: str, settings: dict[str, Any], text: str,
        labels: tuple[str, ...]) -> None:
    """Trimmed offsets leave `` cat``'s space out (it read ``cat``, the entry cat's label, and a
    lone space's empty span read ``Ġ``); a pre-tokenizer's added space is in no offset (the
    text's first ``cat``, the entry `` cat``, read ``cat``). Each token reads as the tokenizer
    decodes its id alone, as the head's vocabulary labels it."""
    folder = tokenizer_copy(tmp_path, family, **settings)
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    encoding = tokenizer.encode(text)
    if "post_processor" in settings:  # what the fault was: the trimmed spans
        assert [text[start:end] for start, end in encoding.offsets if end > start][:3] == [
            "the", "cat", "sat"]
    scenario = import_checkpoint(folder, text)
    assert scenario.head is not None and scenario.token_ids == tuple(encoding.ids)
    assert scenario.tokens == labels
    assert list(labels) == [tokenizer.decode([k], skip_special_tokens=False)
                            for k in encoding.ids]
    assert tuple(scenario.head.vocab[k] for k in encoding.ids) == labels
    vocab = tokenizer.get_vocab()
    assert (scenario.head.vocab[vocab["cat"]], scenario.head.vocab[vocab["Ġcat"]]) == (
        "cat", " cat")
