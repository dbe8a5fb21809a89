"""Version-2 documents as trees: paths, edits, saving, migration, resizing and every refusal."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import engine.files.memory
import engine.format.document
from app.cli import main
from engine import ScenarioError, compute, parse_scenario
from engine.format.migrate import migrate
from engine.format.writer import to_document
from engine.scenario.edit import with_document_value, with_parameter
from engine.scenario.modules import Attention, FeedForward
from engine.scenario.resize import Sizes, resize
from engine.scenario.scenario import number_count
from engine.scenario.variants import variant
from tests.engine.test_engine_v2_stacks import attention, block, encoder_decoder, head, stack
from tests.examples import EXAMPLES

Doc = dict[str, Any]


def two_layers() -> Doc:
    return stack([{"attention": attention(4), "block": block(4)} for _ in range(2)],
                 head=head(4))


def test_parameter_paths_walk_the_whole_tree_in_document_order() -> None:
    s = parse_scenario(encoder_decoder("pre"))
    paths = s.parameter_paths()
    assert paths[:2] == ["X", "encoder.X"]
    assert "encoder.layers.1.block.ffn.W1" in paths
    assert paths.index("layers.0.attention.Wq") < paths.index("layers.0.cross_attention.Wq") \
        < paths.index("layers.0.block.gamma_c") < paths.index("layers.1.attention.Wq") \
        < paths.index("head.unembed")
    assert isinstance(s.module("layers.1.cross_attention"), Attention)
    assert isinstance(s.module("encoder.layers.0.block.ffn"), FeedForward)
    with pytest.raises(KeyError):
        s.module("layers.7")
    with pytest.raises(KeyError):
        s.parameter("layers.0.attention.Wz")


def test_the_shorthand_keeps_its_version_1_paths() -> None:
    s = parse_scenario(json.loads((EXAMPLES / "g01.qkv.json").read_text(encoding="utf-8")))
    assert s.shorthand and s.head_in_block
    assert "block.unembed" in s.parameter_paths() and "block.gamma_f" in s.parameter_paths()
    assert not any(p.startswith(("layers", "head")) for p in s.parameter_paths())
    assert s.module("attention") is s.layers[0].attention
    assert s.block is not None and s.block.unembed is s.head.unembed  # type: ignore[union-attr]


def test_a_same_shape_cell_edit_replaces_one_array_and_nothing_else() -> None:
    s = parse_scenario(two_layers())
    wq = s.parameter("layers.1.attention.Wq").copy()
    wq[0, 0] += 1
    edited = with_parameter(s, "layers.1.attention.Wq", wq)
    assert edited.parameter("layers.1.attention.Wq")[0, 0] == wq[0, 0]
    assert edited.layers[0] is s.layers[0] and edited.head is s.head, "the rest is shared"
    assert edited.layers[1].block is s.layers[1].block
    a, b = compute(s), compute(edited)
    np.testing.assert_array_equal(a.arrays["L1.resid2"], b.arrays["L1.resid2"])
    assert not np.array_equal(a.arrays["L2.Q"], b.arrays["L2.Q"])


def test_the_fast_path_does_not_revalidate_the_document(monkeypatch: pytest.MonkeyPatch) -> None:
    s = parse_scenario(two_layers())
    monkeypatch.setattr(engine.format.document, "parse_document", lambda document: 1 / 0)
    with_parameter(s, "head.unembed", np.zeros((4, 3)))  # no parse: no ZeroDivisionError
    with pytest.raises(ZeroDivisionError):
        with_parameter(s, "head.unembed", np.zeros((4, 5)))


def test_document_values_and_options_of_a_layer_go_through_validation() -> None:
    s = parse_scenario(two_layers())
    windowed = with_document_value(s, "layers.1.attention.window", 1)
    assert windowed.layers[1].attention.window == 1
    assert np.array_equal(compute(windowed).visible_for("L2."), np.eye(4, dtype=bool))
    with pytest.raises(ScenarioError, match=r"^layers\.1\.attention\.window: "):
        with_document_value(s, "layers.1.attention.window", 0)


@pytest.mark.parametrize("make", [two_layers, lambda: encoder_decoder("post")])
def test_to_document_and_back_is_bit_for_bit(make: Callable[[], Doc]) -> None:
    doc = make()
    doc["layers"][0]["attention"].update(window=3, key_mask=[1, 1, 0, 1] if len(doc["X"]) == 4
                                         else [1, 1])
    s = parse_scenario(doc)
    written = to_document(s)
    assert written["version"] == 2
    again = parse_scenario(json.loads(json.dumps(written)))
    assert to_document(again) == written
    a, b = compute(s), compute(again)
    assert list(a.arrays) == list(b.arrays)
    for name in a.arrays:
        np.testing.assert_array_equal(a.arrays[name], b.arrays[name], err_msg=name)


VERSION_1_EXAMPLES = [path for path in sorted(EXAMPLES.glob("*.qkv.json"))
                      if json.loads(path.read_text(encoding="utf-8"))["version"] == 1]


@pytest.mark.parametrize("path", VERSION_1_EXAMPLES, ids=lambda p: p.stem)
def test_every_example_migrates_to_version_2_with_its_arrays_bit_for_bit(path: Path) -> None:
    original = json.loads(path.read_text(encoding="utf-8"))
    migrated = migrate(original)
    assert isinstance(migrated, dict) and migrated == {**original, "version": 2}
    read = parse_scenario(migrated)
    written = to_document(read)
    assert {k: v for k, v in written.items() if k != "version"} == \
        {k: v for k, v in to_document(parse_scenario(original)).items() if k != "version"}
    assert set(written) <= set(original) | {"format", "title"}, "the shorthand keeps its shape"
    a, b = compute(read), compute(parse_scenario(written))
    for name in a.arrays:
        np.testing.assert_array_equal(a.arrays[name], b.arrays[name], err_msg=name)


def test_every_layers_numbers_count_toward_the_document_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    one = parse_scenario(stack([{"attention": attention(4), "block": block(4)}]))
    two = parse_scenario(two_layers())
    per_layer = number_count(one) - 16  # X is 4×4
    assert number_count(two) == 16 + 2 * per_layer + 4 + 4 + 12  # γf, βf, unembed
    monkeypatch.setattr(engine.files.memory, "physical_memory", lambda: 8 * (number_count(two) - 1))
    with pytest.raises(ScenarioError, match=r"^document: its \d+ numbers and its trace's \d+ "):
        parse_scenario(two_layers())


def test_resizing_a_stack_fits_every_layer() -> None:
    s = parse_scenario(two_layers())
    resized = resize(s, Sizes(n=3, d=5, d_k=2, d_v=2, heads=1))
    r = parse_scenario(resized.document)
    assert (r.n, r.d, len(r.layers)) == (3, 5, 2)
    for k in range(2):
        np.testing.assert_array_equal(r.parameter(f"layers.{k}.attention.Wq")[:4, :2],
                                      s.parameter(f"layers.{k}.attention.Wq")[:, :2])
        assert r.parameter(f"layers.{k}.block.gamma2")[4] == 1.0
    assert r.parameter("head.unembed").shape == (5, 3)
    assert resized.dropped > 0


def refusal(doc: Doc) -> str:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(doc)
    return str(caught.value)


def edited(change: Callable[[Doc], object], make: Callable[[], Doc] = two_layers) -> Doc:
    doc = copy.deepcopy(make())
    change(doc)
    return doc


def _att(doc: Doc, k: int = 0) -> Doc:
    att: Doc = doc["layers"][k]["attention"]
    return att


def _narrow_layer_without_block(doc: Doc) -> None:
    """Layer 2 without a block, its output 3 wide in a stream 4 wide."""
    doc["layers"][1].pop("block")
    _att(doc, 1)["Wo"] = [row[:3] for row in _att(doc, 1)["Wo"]]


REFUSALS: list[tuple[Callable[[Doc], object], str]] = [
    (lambda d: _att(d).update(heads=4, Wq=attention(4, 4)["Wq"], kv_heads=3),
     "layers.0.attention.kv_heads: 3 key/value heads do not divide the 4 query heads"),
    (lambda d: _att(d).update(kv_heads=1),
     "layers.0.attention.Wk: expected 2 columns for 1 key heads of d_k=2, got 4"),
    (lambda d: _att(d).update(window=0),
     "layers.0.attention.window: expected a whole number from 1 to 1000000, got 0"),
    (lambda d: _att(d).update(key_mask=[1, 1, 1]),
     "layers.0.attention.key_mask: expected 4 numbers (one per key), got 3"),
    (lambda d: _att(d, 1).update(key_mask=[1, 1, 0.5, 1]),
     "layers.1.attention.key_mask[2]: expected 1 (seen) or 0 (hidden), got 0.5"),
    (lambda d: _att(d).update(key_mask=[0, 1, 1, 1]),
     "layers.0.attention.key_mask: hides every key from query 0: a query must see at least "
     "one key"),
    (lambda d: _att(d).update(window=1, key_mask=[1, 1, 0, 1]),
     "layers.0.attention.key_mask: hides every key from query 2: a query must see at least "
     "one key"),
    (lambda d: d["layers"][0].update(cross_attention=attention(4)),
     "layers.0.cross_attention: cross-attention reads an encoder's output, and this document "
     "has no encoder"),
    (lambda d: d["layers"][1]["block"].update(gamma_c=[1, 1, 1, 1]),
     "layers.1.block.gamma_c: only a layer with cross_attention has this norm"),
    (lambda d: _narrow_layer_without_block(d),
     "layers.1.attention.Wo: the layer hands its output on to a stream of width d=4, got 3"),
    (lambda d: _att(d, 1).update(Wq=attention(3)["Wq"]),
     "layers.1.attention.Wq: expected 4 rows to match d=4, got 3"),
    (lambda d: d["layers"][0].update(blok={}),
     "layers.0.blok: unknown key (allowed here: attention, cross_attention, block)"),
    (lambda d: d["head"].update(colour=1),
     "head.colour: unknown key (allowed here: norm, eps, final_norm, gamma_f, beta_f, transform, "
     "unembed, bias, vocab, softcap)"),
    (lambda d: d["head"].update(bias=[1, 2]),
     "head.bias: expected 3 numbers to match unembed's columns, got 2"),
    (lambda d: d.update(layers=[]), "layers: expected at least one layer, got none"),
    (lambda d: d.update(layers=d["layers"] * 51), "layers: 102 layers is more than the limit of "
     "100"),
    (lambda d: d.update(attention=attention(4)),
     "attention: give either attention (and block) or layers, not both"),
    (lambda d: d["layers"][0]["block"].update(residual="parallel", placement="post"),
     'layers.0.block.residual: a parallel residual is pre-norm: it needs placement "pre"'),
    (lambda d: d["layers"][0]["block"]["ffn"].update(bg=[0] * 5),
     "layers.0.block.ffn.bg: a gate bias needs the gate Wg"),
    (lambda d: _att(d).update(gamma_q=[1, 1]),
     "layers.0.attention.gamma_q: a QK-norm scale needs qk_norm"),
    (lambda d: _att(d).update(qk_norm="rmsnorm", gamma_k=[1, 1, 1]),
     "layers.0.attention.gamma_k: expected 2 numbers to match d_k=2, got 3"),
]


@pytest.mark.parametrize(("change", "message"), REFUSALS, ids=[m.split(":")[0] + str(k) for
                                                                 k, (_, m) in enumerate(REFUSALS)])
def test_a_malformed_version_2_document_is_refused_naming_the_place(
        change: Callable[[Doc], object], message: str) -> None:
    assert refusal(edited(change)) == message


ENCODER_REFUSALS: list[tuple[Callable[[Doc], object], str]] = [
    (lambda d: d["encoder"].pop("layers"),
     "encoder.layers: missing: an encoder needs at least one layer"),
    (lambda d: d["encoder"].update(layers=[]),
     "encoder.layers: expected at least one layer, got none"),
    (lambda d: d["encoder"]["layers"][0].update(cross_attention=attention(4)),
     "encoder.layers.0.cross_attention: an encoder layer cannot have cross-attention: only a "
     "decoder layer reads the encoder's output"),
    (lambda d: d["layers"][1]["cross_attention"].update(key_mask=[1, 1]),
     "layers.1.cross_attention.key_mask: expected 3 numbers (one per key), got 2"),
    (lambda d: d["layers"][1]["cross_attention"].update(causal=True),
     "layers.1.cross_attention.causal: unknown key (allowed here: heads, scale, scale_dk, Wq, Wk, "
     "Wv, bq, bk, bv, Wo, bo, kv_heads, window, key_mask, qk_norm, qk_norm_over, gamma_q, "
     "gamma_k, beta_q, beta_k, ablate_heads, softcap)"),
    (lambda d: d["layers"][0].pop("block"),
     "layers.0.cross_attention: cross-attention needs the layer's block (its norm and residual)"),
    (lambda d: d["encoder"].update(token_ids=[0, 1, 2]),
     "encoder.X: give either X or token_ids with embedding, not both"),
]


@pytest.mark.parametrize(("change", "message"), ENCODER_REFUSALS,
                         ids=[m.split(":")[0] + str(k) for k, (_, m) in
                              enumerate(ENCODER_REFUSALS)])
def test_a_malformed_encoder_is_refused_naming_the_place(change: Callable[[Doc], object],
                                                         message: str) -> None:
    assert refusal(edited(change, lambda: encoder_decoder("pre"))) == message


def test_the_command_line_refuses_with_one_line_and_status_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.qkv.json"
    path.write_text(json.dumps(edited(lambda d: _att(d).update(window=0))), encoding="utf-8")
    assert main(["compute", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == ("qkv-studio: layers.0.attention.window: expected a whole number from 1 to "
                   "1000000, got 0\n")


def test_a_variant_of_a_stack_changes_every_layer() -> None:
    s = parse_scenario(two_layers())
    rms = variant(s, "norm").scenario
    assert [layer.block.norm for layer in rms.layers] == ["rmsnorm", "rmsnorm"]  # type: ignore[union-attr]
    post = variant(s, "placement").scenario
    assert [layer.block.placement for layer in post.layers] == ["post", "post"]  # type: ignore[union-attr]
    open_mask = variant(s, "causal")
    assert (open_mask.label_a, open_mask.label_b) == ("causal mask", "no mask")
    assert not any(layer.attention.causal for layer in open_mask.scenario.layers)
    assert compute(open_mask.scenario).visible_for("L2.").all()
