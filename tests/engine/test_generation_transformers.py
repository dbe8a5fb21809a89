"""Generation on an imported checkpoint against transformers' ``generate`` (issue 25, item 5),
with the ``reference`` extra (skipped, saying why, without it).

Each family's tiny random float64 model (built as in test_engine_checkpoint_transformers, with
transformers' float32 casts computed in float64) is imported and run on by both:
- **greedy**: the engine's temperature 0 and ``generate(do_sample=False)`` choose the same ids;
- **sampled** (temperature, top-k, top-p): transformers' own warpers shape the distribution;
  torch's ``multinomial``, the only random part, is replaced by the engine's draw (the same
  uniform number of the same seed, walked over the ids most probable first), so equal ids mean
  equal distributions at every step. The test also compares the two distributions themselves:
  ``generate`` casts the last logits to float32 before its warpers (even in a float64 model), so
  they agree to float32's rounding, about 5e-8; checked at 1e-6.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.checkpoint import import_checkpoint
from engine.generation_run import generate
from engine.parse_generation import Settings
from engine.sampling import draw_generator
from tests.engine.hf_reference import FAMILIES, FIXTURES
from tests.engine.test_engine_checkpoint_transformers import build, exact_float64

torch = pytest.importorskip("torch", reason="torch is not installed (pip install torch==2.13.0)")
transformers = pytest.importorskip("transformers", reason="transformers is not installed")

PROMPT = "the cat sat"
STEPS = 6
SAMPLED = Settings(temperature=0.8, top_k=5, top_p=0.9, seed=11)


def their_ids(model: Any, ids: list[int], **how: Any) -> list[int]:
    """The ids transformers' ``generate`` appends to ``ids``."""
    # No end-of-text: the engine has none, and a min_new_tokens would hide that id instead.
    model.generation_config.eos_token_id = None
    config = transformers.GenerationConfig(max_new_tokens=STEPS, pad_token_id=0,
                                           eos_token_id=None, **how)
    with torch.no_grad():
        out = model.generate(torch.tensor([ids]), generation_config=config)
    new = [int(i) for i in out[0, len(ids):]]
    assert len(new) == STEPS
    return new


def engine_draws(monkeypatch: pytest.MonkeyPatch, seed: int, seen: list[np.ndarray]) -> None:
    """torch.multinomial replaced by the engine's draw t of ``seed``: the first id, most probable
    first (equal ones by id), whose cumulative probability passes u · total."""
    counter = iter(range(1, 10_000))

    def multinomial(probs: Any, num_samples: int = 1, **_: Any) -> Any:
        assert num_samples == 1 and probs.shape[0] == 1
        row = probs[0].double().numpy()
        seen.append(row)
        u = float(draw_generator(seed, next(counter)).random())
        order = np.argsort(-row, kind="stable")
        mass = np.cumsum(row[order])
        index = int(np.searchsorted(mass, u * mass[-1], side="right"))
        return torch.tensor([[int(order[min(index, len(order) - 1)])]])

    monkeypatch.setattr(torch, "multinomial", multinomial)


GENERATIVE = tuple(family for family in FAMILIES if family != "bert")
"""The families that generate: BERT imports without a head (and reads both ways)."""


@pytest.mark.parametrize("family", GENERATIVE)
def test_generation_on_an_imported_checkpoint_chooses_what_transformers_chooses(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, family: str) -> None:
    exact_float64(monkeypatch)
    model, _tokenizer = build(family, tmp_path, FAMILIES.index(family) + 40)
    scenario = import_checkpoint(tmp_path, PROMPT)
    assert scenario.token_ids is not None
    ids = list(scenario.token_ids)

    greedy = generate(scenario, STEPS, Settings(temperature=0.0))
    ours = [token.draw.chosen for token in greedy.tokens]
    assert ours == their_ids(model, ids, do_sample=False)
    assert len(set(ours)) > 1, "a model that repeats one id would prove little"

    seen: list[np.ndarray] = []
    engine_draws(monkeypatch, SAMPLED.seed, seen)
    theirs = their_ids(model, ids, do_sample=True, temperature=SAMPLED.temperature,
                       top_k=SAMPLED.top_k, top_p=SAMPLED.top_p)
    sampled = generate(scenario, STEPS, SAMPLED)
    assert [token.draw.chosen for token in sampled.tokens] == theirs
    for token, row in zip(sampled.tokens, seen, strict=True):
        np.testing.assert_allclose(token.draw.sample_probs, row, rtol=0, atol=1e-6)
    assert any(1 < len(token.draw.kept) < SAMPLED.top_k + 1 for token in sampled.tokens)


def test_a_yarn_scaled_checkpoint_generates_what_transformers_generates(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The committed yarn fixture: every generated token turned by the scaled frequencies and
    the attention factor (the cached keys' and the new row's), as transformers' greedy run."""
    exact_float64(monkeypatch)
    folder = FIXTURES / "llama-rope-yarn"
    model = transformers.AutoModelForCausalLM.from_pretrained(
        folder, attn_implementation="eager", dtype=torch.float64).eval()
    scenario = import_checkpoint(folder, PROMPT)
    assert scenario.token_ids is not None
    greedy = generate(scenario, STEPS, Settings(temperature=0.0))
    ours = [token.draw.chosen for token in greedy.tokens]
    assert ours == their_ids(model, list(scenario.token_ids), do_sample=False)
    assert len(set(ours)) > 1
