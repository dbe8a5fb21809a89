"""Choosing the next token from the logits of the last position: temperature, top-k, top-p and a
seeded draw, as pure functions.

The order is the usual one: the logits are divided by the temperature and turned into
probabilities (``tempered``); top-k keeps the k most probable entries; top-p keeps, of those, the
smallest set in descending probability whose mass (renormalised over what top-k kept) reaches p;
the kept probabilities are renormalised (``sample_probs``, 0 outside the kept set) and one id is
drawn. Ties in probability are ordered by id, lowest first.

Temperature 0 is greedy: the whole mass goes to the largest logit (the lowest id among equal
ones), so the draw always gives it, as top-k = 1 does at any temperature.

Draw t of a run (1-based) uses its own generator, ``np.random.default_rng((seed, t))``, and one
uniform number u from it: the chosen id is the first kept id whose cumulative sample probability
passes u. A draw depends only on the seed, t and the logits; so a saved run replays from its
stored ``chosen`` ids without sampling again, and continuing it draws what one longer run would.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.format.generation_keys import Settings
from engine.format.reader import FloatArray
from engine.forward.numerics import softmax

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Draw:
    """One sampling step: every array the step shows, and the id it chose.

    ``tempered`` are the probabilities after the temperature; ``kept`` the ids top-k and top-p
    left, most probable first; ``sample_probs`` the renormalised probabilities (0 outside
    ``kept``, summing to 1); entropies in nats.
    """

    logits: FloatArray
    tempered: FloatArray
    kept: IntArray
    sample_probs: FloatArray
    chosen: int

    def trace_arrays(self, t: int) -> dict[str, FloatArray]:
        """The step's arrays under the trace names of generation step ``t`` (1-based):
        ``gen{t}.logits``, ``.tempered``, ``.kept`` (ids), ``.sample_probs``, ``.chosen`` (one
        id)."""
        return {f"gen{t}.logits": self.logits, f"gen{t}.tempered": self.tempered,
                f"gen{t}.kept": self.kept.astype(np.float64),
                f"gen{t}.sample_probs": self.sample_probs,
                f"gen{t}.chosen": np.array([float(self.chosen)])}

    @property
    def sample_entropy(self) -> float:
        """Entropy of the renormalised probabilities the draw uses."""
        return entropy(self.sample_probs)


def entropy(probs: FloatArray) -> float:
    """−Σ p·ln p over the entries with p > 0 (nats)."""
    seen = probs[probs > 0]
    return float(-(seen * np.log(seen)).sum())


def tempered(logits: FloatArray, temperature: float) -> FloatArray:
    """softmax(logits / T); T = 0: all the mass on the largest logit (the lowest such id)."""
    if temperature == 0.0:
        greedy = np.zeros_like(logits)
        greedy[int(np.argmax(logits))] = 1.0
        return greedy
    # Shifted first, so no quotient is positive: a tiny T sends the others to −∞ (share 0).
    with np.errstate(over="ignore"):
        scaled = (logits - logits.max()) / temperature
    return softmax(scaled)


def ranked(probs: FloatArray) -> IntArray:
    """Every id, most probable first; equal probabilities by id."""
    order: IntArray = np.argsort(-probs, kind="stable").astype(np.int64)
    return order


def kept_ids(probs: FloatArray, top_k: int | None, top_p: float) -> IntArray:
    """The ids top-k then top-p keep, most probable first (always at least one; never one of
    probability 0).

    Top-p keeps the smallest prefix of what top-k kept whose renormalised mass reaches p; p = 1
    keeps it all (a cumulative sum may fall short of 1 by rounding).
    """
    order = ranked(probs)
    order = order[probs[order] > 0]  # what can never be drawn is not kept
    if top_k is not None:
        order = order[:top_k]
    if top_p >= 1.0:
        return order
    mass = np.cumsum(probs[order])
    count = int(np.searchsorted(mass / mass[-1], top_p, side="left")) + 1
    return order[:min(count, len(order))]


def renormalised(probs: FloatArray, kept: IntArray) -> FloatArray:
    """The kept probabilities divided by their sum; 0 elsewhere."""
    out = np.zeros_like(probs)
    out[kept] = probs[kept] / probs[kept].sum()
    return out


def draw_generator(seed: int, t: int) -> np.random.Generator:
    """The generator of draw ``t`` (1-based) of a run with ``seed``."""
    return np.random.default_rng((seed, t))


def pick(sample_probs: FloatArray, kept: IntArray, u: float) -> int:
    """The first kept id whose cumulative probability passes ``u`` in [0, 1)."""
    mass = np.cumsum(sample_probs[kept])
    index = int(np.searchsorted(mass, u * mass[-1], side="right"))
    return int(kept[min(index, len(kept) - 1)])


def sample(logits: FloatArray, settings: Settings, t: int) -> Draw:
    """Draw ``t`` (1-based) of a run from one row of logits."""
    probs = tempered(logits, settings.temperature)
    kept = kept_ids(probs, settings.top_k, settings.top_p)
    shares = renormalised(probs, kept)
    u = float(draw_generator(settings.seed, t).random())
    return Draw(logits=logits, tempered=probs, kept=kept, sample_probs=shares,
                chosen=pick(shares, kept, u))


__all__ = ["Draw", "Settings", "draw_generator", "entropy", "kept_ids", "pick", "ranked",
           "renormalised", "sample", "tempered"]
