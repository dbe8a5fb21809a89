"""``qkv-studio lens FILE [--top K]``: the logit lens as JSON, without Qt.

For every layer boundary (0: the stream entering layer 1; ℓ: the stream leaving layer ℓ) and
every position, the ``K`` tokens the document's final norm and vocabulary head give most
probability to (:mod:`engine.lens`).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from app.model.examples import resolve_document

DEFAULT_TOP = 5


def add_lens_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("What the model would predict if it stopped after each layer: each "
                          "layer's stream read through the final norm and the vocabulary head.")
    parser.add_argument("--top", default=None, metavar="K",
                        help=f"how many tokens per position, the most probable first "
                             f"(default: {DEFAULT_TOP})")
    parser.set_defaults(run=lens_command)


def lens_command(args: argparse.Namespace) -> int:
    from engine import ScenarioError, compute, load_scenario
    from engine.lens import read_layers, top_tokens
    from engine.whole_text import option_whole

    try:
        trace = compute(load_scenario(resolve_document(args.file)))
        readings = read_layers(trace)
        vocab = trace.tokens_of("vocab")
        top = option_whole(args.top, "--top", 1, len(vocab))
    except ScenarioError as error:
        print(f"qkv-studio: {error}", file=sys.stderr)
        return 2
    layers: list[dict[str, Any]] = [
        {"layer": reading.layer,
         "positions": [{"position": p,
                        "top": [{"id": i, "label": vocab[i], "p": share}
                                for i, share in top_tokens(row, top or DEFAULT_TOP)]}
                       for p, row in enumerate(reading.probs)]}
        for reading in readings]
    json.dump({"tokens": list(trace.tokens_of("tokens")), "layers": layers}, sys.stdout,
              ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
