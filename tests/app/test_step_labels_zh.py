"""Every timeline button has Chinese words: the step kinds of every built-in example, preset and
generated document that covers every construct (qk_norm, cross-attention's post-norm, the
position steps) — only the chapter's own loanwords stay Latin."""

from __future__ import annotations

import re

import pytest

from app.model.examples import example_path
from app.model.presets import PRESETS, preset
from app.texts.step_labels import step_label
from engine import Trace, compute, load_scenario, parse_scenario
from tests.app.generated_documents import EXAMPLES, build

LOANWORDS = {"RoPE", "QK", "Token"}
"""Latin words a Chinese timeline button keeps, as the chapter does ("logits" is said
词表分数 there, as on the map: "8 logits" on a button was English, issue 35)."""
NAMES = ("f11", "g01", "encoder-decoder", "multihead", "norms", "order", "pronoun", "rope",
         "single-key", "three-layers", "tokenizer", "continue", "training")


def traces() -> list[tuple[str, Trace]]:
    found = [(name, compute(load_scenario(example_path(name)))) for name in NAMES]
    found += [(f"preset {name}", compute(preset(name))) for name in PRESETS]
    found += [(f"generated {k}", compute(parse_scenario(build(spec))))
              for k, spec in enumerate(EXAMPLES)]
    return found


@pytest.mark.parametrize(("name", "trace"), traces(), ids=lambda value: str(value)[:24])
def test_every_step_label_is_chinese(name: str, trace: Trace) -> None:
    for step in trace.steps:
        label = step_label(step, "zh")
        latin = set(re.findall(r"[A-Za-z]+", label)) - LOANWORDS
        assert not latin, (name, step.id, step.explain_key, label)
