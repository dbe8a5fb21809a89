"""A vocabulary head that ends with a step after its logits, for tests: the engine's logits step,
then their soft cap c·tanh(logits / c) recorded by the tape API as a step of the logits' kind
(install it with ``monkeypatch.setattr(engine.forward.tape, "logits", capped_logits)``)."""

from __future__ import annotations

import numpy as np

from engine.format.reader import FloatArray
from engine.forward import tape as ops

CAP = 0.5
"""Small next to the logits of tests/engine/generation_documents' three-layers document (up to
±1.6), so the cap changes them by up to 1.1."""

_logits = ops.logits


def capped_logits(tape: ops.Tape, place: ops.Place, source: str, unembed: FloatArray,
                  bias: FloatArray | None) -> None:
    """The logits, then their soft cap ``capped`` as the head's last step."""
    _logits(tape, place, source, unembed, bias)
    tape.arrays["capped"] = CAP * np.tanh(tape["logits"] / CAP)
    tape.step(place, "capped", "Capped logits", ("logits",), ("capped",), "block.logits",
              "logits")
