"""Malformed version-2 documents are refused in one line that names the place; the CLI exits 2.

A place is a document path; list items may be written `layers.1.attention` or
`layers[1].attention` (either style is accepted, as long as the place is named).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine import ScenarioError, compute, parse_scenario
from tests.engine import v2_documents as docs

Doc = dict[str, Any]


def place(path: str) -> str:
    """A regex for a dotted document path, list indices as `.1` or `[1]`; `|` for choices."""
    def one(p: str) -> str:
        parts = []
        for part in p.split("."):
            parts.append(rf"(\.{part}|\[{part}\])" if part.isdigit() else
                         (r"\." if parts else "") + re.escape(part))
        return "".join(parts)
    return r"(?<![\w.\]])(" + "|".join(one(p) for p in path.split("|")) + r")(?![\w\[])"


def _set(doc: Doc, path: str, value: Any) -> Doc:
    """The document with the value at a dotted path set (or deleted when value is DELETE)."""
    *parents, last = path.split(".")
    node: Any = doc
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    if value is DELETE:
        del node[int(last) if last.isdigit() else last]
    elif last.isdigit():
        node[int(last)] = value
    else:
        node[last] = value
    return doc


DELETE = object()


def _two_layers(**attention_keys: Any) -> Doc:
    return docs.document(100, layers=2, attention_keys=attention_keys or None)


def _rows(doc: Doc, path: str, extra: int) -> Doc:
    """Add `extra` rows of zeros to the matrix at `path`."""
    *parents, last = path.split(".")
    node: Any = doc
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    width = len(node[last][0])
    node[last] = node[last] + [[0.0] * width] * extra
    return doc


REFUSED: dict[str, tuple[Callable[[], Doc], str]] = {
    # positions
    "learned table shorter than n": (lambda: docs.document(
        101, positions={"kind": "learned", "table": docs.learned_table(1, 3, 4)}),
        "positions.table"),
    "learned table shorter than offset + n": (lambda: docs.document(
        102, positions={"kind": "learned", "table": docs.learned_table(1, 5, 4), "offset": 2}),
        "positions.table|positions.offset"),
    "learned table of the wrong width": (lambda: docs.document(
        103, positions={"kind": "learned", "table": docs.learned_table(1, 4, 3)}),
        "positions.table"),
    "odd rotary_dims": (lambda: docs.document(
        104, positions={"kind": "rope", "rotary_dims": 3}, attention_keys={"d_k": 4}),
        "positions.rotary_dims"),
    "rotary_dims more than d_k": (lambda: docs.document(
        105, positions={"kind": "rope", "rotary_dims": 6}, attention_keys={"d_k": 4}),
        "positions.rotary_dims"),
    "unknown pairing": (lambda: docs.document(
        106, positions={"kind": "rope", "pairing": "zigzag"}), "positions.pairing"),
    "unknown positions kind": (lambda: docs.document(
        107, positions={"kind": "wavelet"}), "positions.kind"),
    "slopes of the wrong length": (lambda: docs.document(
        108, positions={"kind": "alibi", "slopes": [0.5, 0.25, 0.125]}), "positions.slopes"),
    "unknown key in positions": (lambda: docs.document(
        109, positions={"kind": "sinusoidal", "bsae": 100}), "positions.bsae"),
    # attention inside layers
    "kv_heads not dividing heads": (lambda: _two_layers(heads=4, kv_heads=3),
                                    "layers.1.attention.kv_heads|layers.0.attention.kv_heads"),
    "kv_heads not dividing heads in the second layer only": (lambda: _set(
        _set(_set(_two_layers(heads=4, biases=False), "layers.1.attention.kv_heads", 3),
             "layers.1.attention.Wk", [[0.1] * 6] * 4),
        "layers.1.attention.Wv", [[0.2] * 6] * 4), "layers.1.attention.kv_heads"),
    "window 0": (lambda: docs.document(110, attention_keys={"window": 0}),
                 "layers.0.attention.window"),
    "window −2": (lambda: _set(_two_layers(), "layers.1.attention.window", -2),
                  "layers.1.attention.window"),
    "key_mask of the wrong length": (lambda: docs.document(
        111, attention_keys={"key_mask": [1, 1, 1]}), "layers.0.attention.key_mask"),
    "key_mask hiding the only key of row 0": (lambda: docs.document(
        112, attention_keys={"key_mask": [0, 1, 1, 1]}), "layers.0.attention.key_mask"),
    "key_mask hiding every key": (lambda: docs.document(
        113, attention_keys={"key_mask": [0, 0, 0, 0], "causal": False}),
        "layers.0.attention.key_mask"),
    "window and key_mask hiding every key of row 1": (lambda: docs.document(
        114, attention_keys={"key_mask": [1, 0, 1, 1], "window": 1}),
        "layers.0.attention.key_mask|layers.0.attention.window"),
    "unknown qk_norm": (lambda: docs.document(115, attention_keys={"qk_norm": "batchnorm"}),
                        "layers.0.attention.qk_norm"),
    "gamma_q of the wrong length": (lambda: docs.document(
        116, attention_keys={"qk_norm": "rmsnorm", "gamma_q": [1, 1, 1]}),
        "layers.0.attention.gamma_q"),
    "unknown key in a layer's attention": (lambda: _set(
        _two_layers(), "layers.1.attention.Wqq", [[1.0]]), "layers.1.attention.Wqq"),
    # widths
    "second layer's Wq too tall": (lambda: _rows(_two_layers(), "layers.1.attention.Wq", 1),
                                   "layers.1.attention.Wq"),
    "first layer's Wo too tall": (lambda: _rows(_two_layers(), "layers.0.attention.Wo", 2),
                                  "layers.0.attention.Wo"),
    "second layer's W2 too short": (lambda: _set(
        _two_layers(), "layers.1.block.ffn.W2", [[0.5] * 4] * 3), "layers.1.block.ffn.W2"),
    "Wg of the wrong shape": (lambda: _set(
        docs.document(117, block_keys={"gated": True}), "layers.0.block.ffn.Wg",
        [[0.5] * 4] * 4), "layers.0.block.ffn.Wg"),
    "gamma2 of the wrong length": (lambda: _set(
        _two_layers(), "layers.1.block.gamma2", [1.0] * 5), "layers.1.block.gamma2"),
    # block
    "unknown residual": (lambda: docs.document(118, block_keys={"residual": "diagonal"}),
                         "layers.0.block.residual"),
    "unknown activation": (lambda: docs.document(119, block_keys={"activation": "swish2"}),
                           "layers.0.block.ffn.activation"),
    "unknown key in a block": (lambda: _set(_two_layers(), "layers.1.block.gama1", [1.0] * 4),
                               "layers.1.block.gama1"),
    "unknown key in an ffn": (lambda: _set(_two_layers(), "layers.0.block.ffn.W3",
                                           [[1.0] * 4] * 5), "layers.0.block.ffn.W3"),
    "unknown key in a layer": (lambda: _set(_two_layers(), "layers.1.mlp", {}),
                               "layers.1.mlp"),
    "no layers": (lambda: _set(docs.document(120), "layers", []), "layers"),
    # head
    "unknown key in head": (lambda: _set(docs.document(121), "head.temperature", 2.0),
                            "head.temperature"),
    "head bias of the wrong length": (lambda: _set(docs.document(122), "head.bias", [0.0] * 5),
                                      "head.bias"),
    "unembed too tall": (lambda: _rows(docs.document(123), "head.unembed", 1), "head.unembed"),
    # encoder–decoder
    "cross_attention without an encoder": (lambda: _set(
        docs.encoder_decoder(130), "encoder", DELETE), "layers.0.cross_attention"),
    "an encoder without layers": (lambda: _set(docs.encoder_decoder(131), "encoder.layers", []),
                                  "encoder.layers|encoder"),
    "an encoder with no layers key": (lambda: _set(
        docs.encoder_decoder(132), "encoder.layers", DELETE), "encoder.layers|encoder"),
    "unknown key in the encoder": (lambda: _set(docs.encoder_decoder(133), "encoder.head", {}),
                                   "encoder.head"),
    "unknown key in an encoder layer": (lambda: _set(
        docs.encoder_decoder(134), "encoder.layers.1.attention.window_size", 2),
        "encoder.layers.1.attention.window_size"),
    "a causal encoder layer": (lambda: _set(
        docs.encoder_decoder(140), "encoder.layers.1.attention.causal", True),
        "encoder.layers.1.attention.causal"),
    "encoder layer's Wq too tall": (lambda: _rows(
        docs.encoder_decoder(135), "encoder.layers.0.attention.Wq", 1),
        "encoder.layers.0.attention.Wq"),
    "cross_attention's Wk too tall": (lambda: _rows(
        docs.encoder_decoder(136), "layers.1.cross_attention.Wk", 1),
        "layers.1.cross_attention.Wk"),
    "unknown key in cross_attention": (lambda: _set(
        docs.encoder_decoder(137), "layers.0.cross_attention.Wkk", [[1.0]]),
        "layers.0.cross_attention.Wkk"),
    "gamma_c of the wrong length": (lambda: _set(
        docs.encoder_decoder(138), "layers.0.block.gamma_c", [1.0] * 3),
        "layers.0.block.gamma_c"),
    "encoder token_ids without an embedding": (lambda: _set(
        _set(docs.encoder_decoder(139), "encoder.X", DELETE), "encoder.token_ids", [0, 1, 2]),
        "encoder.token_ids|embedding"),
    "encoder with X and token_ids": (lambda: _set(
        docs.encoder_decoder(140, source_ids=True), "encoder.X", [[0.0] * 4] * 3),
        "encoder.X|encoder.token_ids"),
    "encoder learned table shorter than its n": (lambda: docs.encoder_decoder(
        141, enc_positions={"kind": "learned", "table": docs.learned_table(1, 2, 4)}),
        "encoder.positions.table"),
}




def refusal(doc: Doc) -> str:
    with pytest.raises(ScenarioError) as refused:
        compute(parse_scenario(copy.deepcopy(doc)))
    return str(refused.value)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_malformed_version_2_document_is_refused_naming_the_place(case: str) -> None:
    assert_refused_naming_the_place(case)


def assert_refused_naming_the_place(case: str) -> None:
    build, where = REFUSED[case]
    message = refusal(build())
    assert "\n" not in message and len(message) < 300, message
    found = re.search(place(where), message)
    assert found, f"{where!r} not named in {message!r}"
    assert message.strip() != found.group(0), "names the place but not the problem"
    if not case.startswith("unknown key"):  # refused for its fault, not for a key not yet known
        assert "unknown key" not in message, message


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_cli_refuses_it_with_status_2_and_one_line(case: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    build, where = REFUSED[case]
    path = tmp_path / "bad.qkv.json"
    path.write_text(json.dumps(build(), ensure_ascii=False), encoding="utf-8")
    status = main(["compute", str(path)])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err.startswith("qkv-studio: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err and re.search(place(where), err), err


@pytest.mark.parametrize(("path", "where"), [
    ("layers.1.attention.kv_heads", "layers.1.attention.kv_heads"),
    ("layers[1].attention.kv_heads", "layers.1.attention.kv_heads"),
    ("encoder: has no layers", "encoder.layers|encoder"),
])
def test_the_place_pattern_accepts_both_index_styles(path: str, where: str) -> None:
    assert re.search(place(where), path)


@pytest.mark.parametrize(("text", "where"), [
    ("layers.11.attention.kv_heads", "layers.1.attention.kv_heads"),
    ("layers.1.attention.kv_heads_x", "layers.1.attention.kv_heads"),
    ("encoder.layers.0.attention.Wq", "layers.0.attention.Wq"),
    ("head.unembed2", "head.unembed"),
])
def test_the_place_pattern_refuses_a_neighbour(text: str, where: str) -> None:
    assert not re.search(place(where), text)
