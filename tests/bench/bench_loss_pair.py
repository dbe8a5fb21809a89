"""Timing of the loss step's pair (issue 24 item 4): the greedy passes the generation panel
draws, from the first token, at the GPT-2 small layer size with targets (n = 8: 8 passes, the
KV cache after the first), against the one forward pass of the training document.

Run with ``.venv/bin/python tests/bench/bench_loss_pair.py [--runs 20]`` (not collected by
pytest). The passes are worked out once per document (the picture, its description and the step
text share them); nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.model.passes import generation_passes
from engine import compute, parse_scenario
from tests.bench.bench_generate import N, gpt2_layer
from tests.bench.timing import report, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    document = parse_scenario({**gpt2_layer(), "targets": [*range(1, N), 0]})
    passes = generation_passes.__wrapped__(document)
    print(f"{len(passes.passes)} passes, chosen {[p.label for p in passes.passes]}")
    report(f"the generation panel's {N} greedy passes", timed(
        lambda: generation_passes.__wrapped__(document), runs))
    report("the training pass (compute, with the loss)", timed(lambda: compute(document), runs))
    report("the passes again (cached per document)", timed(
        lambda: generation_passes(document), runs))


if __name__ == "__main__":
    main()
