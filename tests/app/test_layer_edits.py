"""The named edits of a stack (app.model.layer_edits) and of positions and token order
(app.model.edits), without a window: what each does to the document, what it is called, what it
refuses."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from app.model.edits import (
    Operation,
    Resize,
    SetBlock,
    SetHead,
    SetOption,
    SetPositions,
    SwapTokens,
)
from app.model.examples import example_path
from app.model.layer_edits import AddLayer, DuplicateLayer, MoveLayer, RemoveLayer, layered_document
from app.model.parts import part_of, place_name
from engine import Scenario, ScenarioError, compute, parse_scenario
from engine.checkpoint import import_checkpoint
from engine.format.io import load_scenario
from engine.format.mapped_weight import MappedWeight
from engine.format.writer import to_document
from engine.scenario.modules import Mixture
from engine.scenario.resize import Sizes
from tests.engine.hf_reference import FIXTURES


def example(name: str) -> Scenario:
    return load_scenario(example_path(name))


def layer_numbers(scenario: Scenario, index: int) -> dict[str, np.ndarray]:
    """Every array of layer ``index``, keyed by its path inside the layer."""
    prefix = f"layers.{index}."
    return {path.removeprefix(prefix): scenario.parameter(path)
            for path in scenario.parameter_paths() if path.startswith(prefix)}


def test_the_shorthand_becomes_a_layers_document_when_a_second_layer_is_added() -> None:
    g01 = example("g01")
    assert g01.shorthand and "attention.Wq" in g01.parameter_paths()
    two = AddLayer(1).apply(g01)
    assert not two.shorthand and len(two.layers) == 2
    paths = two.parameter_paths()
    assert "attention.Wq" not in paths and "block.unembed" not in paths
    assert {"layers.0.attention.Wq", "layers.1.attention.Wq", "layers.0.block.ffn.W1",
            "head.unembed", "head.gamma_f"} <= set(paths)
    # Layer 1 keeps every number of the shorthand, bit for bit; the head moved out of the block.
    for name in ("attention.Wq", "attention.Wk", "attention.Wv", "attention.Wo",
                 "block.gamma1", "block.ffn.W1", "block.ffn.W2"):
        assert g01.parameter(name).tobytes() == two.parameter(f"layers.0.{name}").tobytes()
    for name in ("unembed", "gamma_f", "beta_f"):
        assert g01.parameter(f"block.{name}").tobytes() == two.parameter(f"head.{name}").tobytes()
    # The trace's arrays take the layer prefix; layer 1 computes exactly what the shorthand did.
    before, after = compute(g01), compute(two)
    assert "Q" in before.arrays and "Q" not in after.arrays
    for name in ("Q", "scores", "weights", "resid1", "norm2", "ffn_out", "resid2"):
        np.testing.assert_array_equal(after.arrays[f"L1.{name}"], before.arrays[name],
                                      err_msg=name)
    assert "L2.weights" in after.arrays
    document = to_document(two)
    assert "attention" not in document and "block" not in document
    assert document["head"]["vocab"] == list(g01.block.vocab)  # type: ignore[union-attr]


def test_a_new_layer_starts_from_plain_numbers_shaped_like_its_neighbour() -> None:
    g01 = example("g01")
    two = AddLayer(1).apply(g01)
    new = layer_numbers(two, 1)
    assert set(new) == set(layer_numbers(two, 0))
    np.testing.assert_array_equal(new["attention.Wq"], np.eye(2))
    np.testing.assert_array_equal(new["block.gamma2"], np.ones(2))
    np.testing.assert_array_equal(new["block.beta1"], np.zeros(2))
    block = two.layers[1].block
    assert block is not None and block.norm == "layernorm" and block.placement == "pre"
    # Identity projections, γ = 1, β = 0 and the ReLU feed-forward: the second layer's
    # arithmetic written out from the first layer's output.
    trace = compute(two)
    x = trace.arrays["L1.resid2"]
    mean = x.mean(axis=1, keepdims=True)
    normed = (x - mean) / np.sqrt(((x - mean) ** 2).mean(axis=1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(trace.arrays["L2.norm1"], normed, rtol=1e-12)
    scores = normed @ normed.T / np.sqrt(2)
    scores[0, 1] = -np.inf  # causal
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(trace.arrays["L2.weights"][0], weights, rtol=1e-12)


def test_duplicate_copies_every_number_and_the_copy_reads_the_first_layers_output() -> None:
    stack = example("three-layers")
    four = DuplicateLayer(1).apply(stack)
    assert len(four.layers) == 4
    for path, values in layer_numbers(stack, 1).items():
        assert four.parameter(f"layers.2.{path}").tobytes() == values.tobytes()
        assert four.parameter(f"layers.1.{path}").tobytes() == values.tobytes()
    for path, values in layer_numbers(stack, 2).items():  # the old third layer is now fourth
        assert four.parameter(f"layers.3.{path}").tobytes() == values.tobytes()
    # Layer 3 (the copy) applied to layer 2's output: the same layer alone on those rows.
    trace = compute(four)
    alone = to_document(stack)
    alone["X"] = trace.arrays["L2.resid2"].tolist()
    alone["layers"] = [alone["layers"][1]]
    alone.pop("head")
    single = compute(parse_scenario(alone))
    for name in ("weights", "resid1", "ffn_out", "resid2"):
        np.testing.assert_array_equal(trace.arrays[f"L3.{name}"], single.arrays[f"L1.{name}"],
                                      err_msg=name)


def test_moving_a_layer_down_and_up_again_gives_the_document_back() -> None:
    stack = example("three-layers")
    moved = MoveLayer(0, by=1).apply(stack)
    assert moved.parameter("layers.1.attention.Wq").tobytes() == \
        stack.parameter("layers.0.attention.Wq").tobytes()
    assert moved.parameter("layers.0.attention.Wq").tobytes() == \
        stack.parameter("layers.1.attention.Wq").tobytes()
    back = MoveLayer(1, by=-1).apply(moved)
    assert to_document(back) == to_document(stack)
    assert not np.array_equal(compute(moved).arrays["probs"], compute(stack).arrays["probs"])


def test_refusals_name_the_stack() -> None:
    g01 = example("g01")
    with pytest.raises(ScenarioError, match=r"^layers: a stack keeps at least one layer$"):
        RemoveLayer(0).apply(g01)
    stack = example("three-layers")
    with pytest.raises(ScenarioError, match=r"^layers: layer 1 is already the first$"):
        MoveLayer(0, by=-1).apply(stack)
    with pytest.raises(ScenarioError, match=r"^layers: layer 3 is already the last$"):
        MoveLayer(2, by=1).apply(stack)
    with pytest.raises(ScenarioError, match=r"^layers: there is no layer 4 in a stack of 3$"):
        DuplicateLayer(3).apply(stack)
    assert len(RemoveLayer(1).apply(stack).layers) == 2


def test_encoder_layers_have_their_own_operations() -> None:
    translation = example("encoder-decoder")
    assert translation.encoder is not None and len(translation.encoder.layers) == 1
    two = DuplicateLayer(0, "encoder.layers").apply(translation)
    assert two.encoder is not None and len(two.encoder.layers) == 2 and len(two.layers) == 1
    assert two.parameter("encoder.layers.1.attention.Wq").tobytes() == \
        translation.parameter("encoder.layers.0.attention.Wq").tobytes()
    assert "enc.L2.weights" in compute(two).arrays
    with pytest.raises(ScenarioError, match=r"^encoder\.layers: a stack keeps"):
        RemoveLayer(0, "encoder.layers").apply(translation)


@pytest.mark.parametrize(("operation", "en", "zh"), [
    (AddLayer(1), "add layer 2", "添加第 2 层"),
    (RemoveLayer(2), "remove layer 3", "删除第 3 层"),
    (DuplicateLayer(0), "duplicate layer 1", "复制第 1 层"),
    (MoveLayer(1, by=-1), "move layer 2 up", "第 2 层上移"),
    (MoveLayer(1, by=1), "move layer 2 down", "第 2 层下移"),
    (AddLayer(0, "encoder.layers"), "add encoder layer 1", "添加编码器第 1 层"),
    (SetOption("layers.1.attention.causal", False), "layer 2: causal mask off",
     "第 2 层: 关闭因果掩码"),
    (SetPositions("rope"), "positions: RoPE", "位置编码：RoPE"),
    (SetPositions("none"), "positions: none", "位置编码：无"),
])
def test_every_new_edit_is_named_in_both_languages(operation: object, en: str, zh: str) -> None:
    assert operation.label("en") == en  # type: ignore[attr-defined]
    assert operation.label("zh") == zh  # type: ignore[attr-defined]


def test_places_name_the_layer_like_the_trace_does() -> None:
    assert place_name("attention.Wq") == "Wq"
    assert place_name("block.gamma1") == "γ1"
    assert place_name("layers.1.attention.Wq") == "L2.Wq"
    assert place_name("layers.0.cross_attention.Wk") == "L1.cross.Wk"
    assert place_name("layers.2.block.gamma1") == "L3.γ1"
    assert place_name("encoder.layers.0.block.ffn.W1") == "enc.L1.W1"
    assert place_name("head.gamma_f") == "γf"
    assert place_name("encoder.X") == "enc.X"
    assert place_name("positions.table") == "table"
    assert part_of("layers.1.block.ffn.W1") == "layers.1"
    assert part_of("encoder.layers.0.attention.Wq") == "encoder.layers.0"
    assert part_of("positions.table") == part_of("X") == "inputs"
    assert part_of("head.unembed") == "head" and part_of("encoder.gamma_f") == "encoder"
    assert part_of("attention.Wq") == part_of("block.unembed") == "layers.0"


def test_swap_tokens_swaps_labels_and_rows_and_is_named_by_the_tokens() -> None:
    f11 = example("f11")
    swap = SwapTokens.of(f11, 0, 1)
    assert swap.label("en") == f"swap tokens 0 “{f11.tokens[0]}” and 1 “{f11.tokens[1]}”"
    swapped = swap.apply(f11)
    assert swapped.tokens == (f11.tokens[1], f11.tokens[0])
    np.testing.assert_array_equal(swapped.X, f11.X[[1, 0]])
    with pytest.raises(ScenarioError, match=r"^tokens: choose two different positions"):
        SwapTokens(1, 1).apply(f11)


def test_a_positions_kind_starts_from_editable_defaults() -> None:
    stack = example("three-layers")
    alibi = SetPositions("alibi").apply(stack)
    heads = stack.attention.heads
    expected = 2.0 ** (-8.0 * np.arange(1, heads + 1) / heads)
    np.testing.assert_array_equal(alibi.parameter("positions.slopes"), expected)
    learned = SetPositions("learned").apply(stack)
    np.testing.assert_array_equal(learned.parameter("positions.table"),
                                  np.zeros((stack.n, stack.d)))
    none = SetPositions("none").apply(alibi)
    assert "positions" not in to_document(none)


def test_alibi_fits_a_stack_whose_layers_differ_in_heads() -> None:
    """Layer 2 of three-layers with one head: one list of slopes cannot fit 2, 1 and 2 heads,
    so each layer takes its own default slopes (the engine's, computed here by hand)."""
    document = to_document(example("three-layers"))
    document["layers"][1]["attention"]["heads"] = 1
    stack = parse_scenario(document)
    alibi = compute(SetPositions("alibi").apply(stack))
    assert "slopes" not in to_document(alibi.scenario)["positions"]
    first, second = (alibi.arrays[f"L{k}.alibi"] for k in (1, 2))
    assert first.shape == (2, 3, 3) and second.shape == (1, 3, 3)
    assert first[0, 1, 0] == -2.0 ** -4 and first[1, 1, 0] == -2.0 ** -8, "2^(−8k/2)"
    assert second[0, 2, 0] == -2 * 2.0 ** -8, "2^(−8/1), two positions back"


def test_a_stack_written_out_pins_the_heads_norm_whichever_layer_ends_last() -> None:
    stack = example("three-layers")
    document = layered_document(stack)
    assert document["head"]["norm"] == "layernorm" and document["head"]["eps"] == 1e-5
    assert to_document(parse_scenario(document))["layers"] == to_document(stack)["layers"]


@pytest.mark.parametrize("operation", [RemoveLayer(1), DuplicateLayer(0), MoveLayer(0, by=1),
                                       AddLayer(2), SetBlock(False, "layers.0"),
                                       SetHead(False)],
                         ids=lambda operation: type(operation).__name__)
def test_an_edit_of_the_layers_leaves_a_checkpoints_weights_in_it(operation: Operation) -> None:
    """A document that reads its weights from the checkpoint keeps reading them there after a
    layer edit (a 1B model's 4 GB are not copied, let alone written out as lists), and
    computes what the same edit of the checkpoint read whole computes."""
    mapped = import_checkpoint(FIXTURES / "llama", "the cat sat")
    eager = import_checkpoint(FIXTURES / "llama", "the cat sat", mapped=False)
    edited = operation.apply(mapped)
    kept = [path for path, weight in edited.parameters.items()
            if isinstance(weight, MappedWeight)]
    assert "embedding" in kept and any(path.endswith("Wq") for path in kept)
    ours, theirs = compute(edited).arrays, compute(operation.apply(eager)).arrays
    assert ours.keys() == theirs.keys()
    for name, array in theirs.items():
        np.testing.assert_array_equal(ours[name], array, err_msg=name)


def test_a_new_number_of_positions_leaves_a_checkpoints_weights_in_it() -> None:
    """Resizing n changes no weight's shape: every one stays in the checkpoint."""
    mapped = import_checkpoint(FIXTURES / "llama", "the cat sat")
    before = {path for path, weight in mapped.parameters.items()
              if isinstance(weight, MappedWeight)}
    resized = Resize(replace(Sizes.of(mapped), n=mapped.n + 2), "n", mapped.n).apply(mapped)
    assert resized.n == mapped.n + 2
    assert {path for path, weight in resized.parameters.items()
            if isinstance(weight, MappedWeight)} == before


def test_a_layer_added_after_a_mixture_of_experts_has_fresh_experts() -> None:
    """A layer added after Mixtral's first takes its shape, each expert fresh: identity-like
    weights, as a feed-forward's (the experts were written over by zeros and refused)."""
    document = import_checkpoint(FIXTURES / "mixtral", "the cat sat")
    added = AddLayer(1).apply(document)
    before, after = (layer.block.ffn if layer.block is not None else None
                     for layer in (document.layers[0], added.layers[1]))
    assert isinstance(before, Mixture) and isinstance(after, Mixture)
    assert len(after.experts) == len(before.experts) and after.top_k == before.top_k
    for expert in after.experts:
        np.testing.assert_array_equal(expert.W1, np.eye(*np.shape(expert.W1)))
    np.testing.assert_array_equal(after.router, np.eye(*after.router.shape))
    assert np.isfinite(compute(added).arrays["logits"]).all()
