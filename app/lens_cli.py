"""``qkv-studio lens FILE [--top K]``: the logit lens as JSON, without Qt.

For every layer boundary (0: the stream entering layer 1; ℓ: the stream leaving layer ℓ) and
every position, the ``K`` tokens the document's final norm and vocabulary head give most
probability to (:mod:`engine.analysis.lens`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.checkpoint_options import load_document
from app.model.examples import resolve_document

if TYPE_CHECKING:
    from engine.analysis.lens import Reading

DEFAULT_TOP = 5


def add_lens_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("What the model would predict if it stopped after each layer: each "
                          "layer's stream read through the final norm and the vocabulary head.")
    parser.add_argument("--top", default=None, metavar="K",
                        help=f"how many tokens per position, the most probable first "
                             f"(default: {DEFAULT_TOP})")
    parser.set_defaults(run=lens_command)


def lens_command(args: argparse.Namespace) -> int:
    from engine import ScenarioError, compute
    from engine.analysis.lens import read_layers
    from engine.format.whole_text import option_whole

    try:
        trace = compute(load_document(resolve_document(args.file), args))
        readings = read_layers(trace)
        vocab = trace.tokens_of("vocab")
        top = option_whole(args.top, "--top", 1, len(vocab))
    except ScenarioError as error:
        print(f"qkv-studio: {error}", file=sys.stderr)
        return 2
    _write_json(trace.tokens_of("tokens"), vocab, readings, top or DEFAULT_TOP)
    return 0


def _write_json(tokens: Sequence[str], vocab: Sequence[str], readings: Sequence[Reading],
                top: int) -> None:
    """``{"tokens": […], "layers": [{"layer": ℓ, "positions": [{"position": p, "top": […]}, …]},
    …]}`` written one position at a time: ``--top`` the whole vocabulary of a long document
    is millions of entries, never held at once (``json.dump``'s bytes, in C's speed)."""
    from engine.analysis.lens import top_tokens

    out = sys.stdout
    out.write(f'{{"tokens": {json.dumps(list(tokens), ensure_ascii=False)}, "layers": [')
    for k, reading in enumerate(readings):
        out.write(f'{", " if k else ""}{{"layer": {reading.layer}, "positions": [')
        for p, row in enumerate(reading.probs):
            entries = [{"id": i, "label": vocab[i], "p": share}
                       for i, share in top_tokens(row, top)]
            out.write(", " * (p > 0) + json.dumps({"position": p, "top": entries},
                                                  ensure_ascii=False))
        out.write("]}")
    out.write("]}\n")
