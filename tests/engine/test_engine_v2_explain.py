"""Per-cell arithmetic of version-2 traces: every array of stacks, encoder and cross-attention,
found by the step that writes it (its op kind), in both languages and from the command line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from app.cli import main
from engine import Trace, compute, explain, format_number, parse_cell, parse_scenario
from tests.engine.test_engine_explain import final_number, parse_shown
from tests.engine.test_engine_malformed import BASES
from tests.engine.test_engine_v2_stacks import encoder_decoder

TRACES = {name: compute(parse_scenario(BASES[name])) for name in ("v2-stack", "v2-encoder")}
TRACES["encoder-decoder-post"] = compute(parse_scenario(encoder_decoder("post")))


def e_value(trace: Trace, name: str, index: tuple[int, ...]) -> float:
    return float(trace.arrays[name][index])


@pytest.mark.parametrize("name", sorted(TRACES))
def test_every_cell_of_a_version_2_trace_explains_to_its_own_value(name: str) -> None:
    trace = TRACES[name]
    for array_name, array in trace.arrays.items():
        for index in np.ndindex(array.shape):
            assert explain(trace, array_name, index, "zh").value == e_value(trace, array_name,
                                                                               index)
            e = explain(trace, array_name, index)
            assert e.value == float(array[index])
            assert e.formula.startswith(f"{array_name}["), e.formula
            assert final_number(e.formula) == format_number(float(array[index])), e.formula


@pytest.mark.parametrize("name", sorted(TRACES))
def test_the_shown_products_add_up_in_every_scope(name: str) -> None:
    trace = TRACES[name]
    checked = 0
    for array_name, array in trace.arrays.items():
        if array_name.rsplit(".", 1)[-1] not in ("Q", "K", "V", "mixed", "ffn_out", "logits"):
            continue
        for index in np.ndindex(array.shape):
            shown = explain(trace, array_name, index).formula.split(" = ")[-2]
            total = sum(math.prod(parse_shown(f) for f in term.split("·"))
                        for term in shown.split(" + "))
            assert abs(total - float(array[index])) <= 1e-5, (array_name, index, shown)
            checked += 1
    assert checked > 30


def test_a_grouped_query_score_reads_its_kv_heads_columns() -> None:
    trace = TRACES["v2-stack"]
    e = explain(trace, "L1.scores", (1, 1, 0))
    # head 2 of 2 reads the only key head: its query column 1, the key's column 0
    assert e.formula.startswith("L1.scores[1,1,0] = (L1.Q_normed[1,1]·L1.K_normed[0,0]) / √1")
    mixed = explain(trace, "L1.mixed", (1, 1))
    assert "L1.V[0,0]" in mixed.formula and "L1.V[1,0]" in mixed.formula


def test_cross_attention_and_encoder_cells_name_their_own_operands() -> None:
    trace = TRACES["encoder-decoder-post"]
    k = explain(trace, "L1.cross.K", (2, 1))
    assert k.formula.startswith("L1.cross.K[2,1] = enc.memory[2,0]·Wk[0,1]")
    q = explain(trace, "L1.cross.Q", (1, 0))
    assert q.formula.startswith("L1.cross.Q[1,0] = L1.norm1[1,0]·Wq[0,0]")
    scores = explain(trace, "L1.cross.scores", (0, 1, 2))
    assert scores.details[0] == "query “w1” against key “c”, head 1"
    weights = explain(trace, "L1.cross.weights", (0, 1, 2))
    assert weights.details[-1] == "no key is masked in this row", "cross-attention is not causal"
    enc = explain(trace, "enc.L1.Q", (0, 0))
    assert enc.formula.startswith("enc.L1.Q[0,0] = enc.X[0,0]·Wq[0,0]")
    assert explain(trace, "enc.X", (2, 1)).details == ("typed input for “c”, feature 1",)
    memory = explain(trace, "enc.memory", (2, 3))
    assert memory.formula.startswith("enc.memory[2,3] = enc.L2.norm2[2,3] = ")
    norm = explain(trace, "L2.cross.norm", (1, 0))
    assert "x = L2.cross.resid[1,·]" in norm.details[0]


def test_a_hidden_key_says_why_in_both_languages() -> None:
    trace = TRACES["v2-encoder"]  # the cross-attention's key_mask hides encoder token 1
    e = explain(trace, "L1.cross.weights", (0, 0, 1))
    assert e.formula == "L1.cross.weights[0,0,1] = 0 exactly: key 1 (“t”) is hidden from query 0 " \
        "by the mask"
    zh = explain(trace, "L1.cross.weights", (0, 0, 1), "zh")
    assert zh.formula.endswith("被掩码对查询 0 挡住")


def test_gated_ffn_qk_norm_and_head_bias_cells() -> None:
    trace = TRACES["v2-stack"]
    hidden = explain(trace, "L1.ffn_hidden", (0, 1))
    assert hidden.formula.startswith("L1.ffn_hidden[0,1] = L1.ffn_gate[0,1]·L1.ffn_up[0,1] = ")
    gate = explain(trace, "L1.ffn_gate", (0, 1))
    assert gate.formula.startswith("L1.ffn_gate[0,1] = silu(z[0,1])")
    assert "+ bg[1]" in gate.details[0]
    normed = explain(trace, "L1.Q_normed", (1, 1))
    assert normed.formula.startswith("L1.Q_normed[1,1] = x / √(mean(x²) + ε) · γ")
    assert explain(trace, "logits", (0, 1)).formula.split(" = ")[1].endswith("+ bias[1]")
    act = explain(trace, "L2.ffn_hidden", (1, 0))
    assert act.formula.startswith("L2.ffn_hidden[1,0] = gelu_tanh(")
    stats = explain(trace, "L1.norm1_stats", (0, 1))
    assert stats.formula.startswith("L1.norm1_stats[0,1] = √(mean(x²) + ε) = ")


def test_unknown_names_and_cells_are_refused_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace: Trace = TRACES["v2-stack"]
    with pytest.raises(KeyError) as caught:
        explain(trace, "L9.scores", (0, 0, 0))
    assert str(caught.value.args[0]).startswith("L9.scores: no such array in this trace (it has")
    assert parse_cell("L1.cross.scores[0,1,2]") == ("L1.cross.scores", (0, 1, 2))
    path = tmp_path / "v2.qkv.json"
    path.write_text(json.dumps(BASES["v2-encoder"]), encoding="utf-8")
    assert main(["explain", str(path), "L1.cross.scores[0,1,2]"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("L1.cross.scores[0,1,2] = ")
    assert main(["explain", str(path), "L3.Q[0,0]"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("qkv-studio: L3.Q: no such array in this trace") and err.count("\n") == 1
