"""An ablated head of an imported GPT-2 against transformers: transformers 5's GPT-2 has no
``head_mask`` any more, so the head is zeroed by hand — a pre-hook on layer 2's ``attn.c_proj``
sets the head's slice of the concatenated heads to 0 — and every later number must agree
within 1e-10 (float64 throughout)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from engine import compute
from engine.checkpoint import import_checkpoint
from tests.engine.hf_reference import FIXTURES
from tests.engine.test_engine_checkpoint_transformers import TEXT, run, torch, transformers


def test_an_ablated_gpt2_head_computes_what_transformers_computes_with_it_zeroed() -> None:
    model = transformers.AutoModelForCausalLM.from_pretrained(
        FIXTURES / "gpt2", attn_implementation="eager", dtype=torch.float64).eval()
    scenario = import_checkpoint(FIXTURES / "gpt2", TEXT)
    layer = scenario.layers[1]
    ablated = replace(scenario, layers=(scenario.layers[0], replace(
        layer, attention=replace(layer.attention, ablate_heads=(1,)))))
    width = layer.attention.d_v

    def zero_head(_module: Any, inputs: Any) -> Any:
        joined = inputs[0].clone()
        joined[..., width:2 * width] = 0.0
        return (joined,)

    hook = model.transformer.h[1].attn.c_proj.register_forward_pre_hook(zero_head)
    try:
        theirs = run(model, list(scenario.token_ids or ()))
    finally:
        hook.remove()
    ours, plain = compute(ablated).arrays, compute(scenario).arrays
    for name in ("logits", "probs"):
        assert np.abs(ours[name] - theirs[name]).max() <= 1e-10, name
    np.testing.assert_allclose(ours["L2.weights"], theirs["shares"][1], rtol=0, atol=1e-10)
    # The head mattered: without the ablation the probabilities differ.
    assert np.abs(plain["probs"] - theirs["probs"]).max() > 1e-3
