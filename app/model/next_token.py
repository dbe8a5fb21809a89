"""What the two steps after the probabilities show, read from a trace: the draw of the next token
(``sample``) and the training loss (``loss``). The picture, its description and the step texts
all quote these numbers. Imports no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from app.model.operands import shown_tokens
from app.model.while_alive import remembered_while_alive
from engine import Scenario, Step, Trace
from engine.format.generation_keys import Settings
from engine.format.reader import FloatArray
from engine.generation.sampling import entropy


@dataclass(frozen=True, eq=False)
class DrawView:
    """Generation step ``t``: the last position's probabilities before and after the
    temperature, the entries top-k and top-p kept, their renormalised shares and the chosen id.

    ``ranked`` is every entry, most probable (tempered, then at T = 1) first, ties by id;
    ``running`` the
    cumulative tempered mass along ``ranked`` of what top-k kept, divided by their total (the
    mass top-p reads; meaningful for the first :attr:`counted` entries only, 1 after them).
    """

    t: int
    settings: Settings
    position: int
    vocab: tuple[str, ...]
    probs: FloatArray
    tempered: FloatArray
    kept: tuple[int, ...]
    shares: FloatArray
    chosen: int
    ranked: tuple[int, ...]
    running: FloatArray

    @property
    def counted(self) -> int:
        """How many of ``ranked`` top-p reads the mass of: top-k's k, or every entry."""
        k = self.settings.top_k
        return len(self.ranked) if k is None else min(k, len(self.ranked))

    @cached_property
    def entropy(self) -> float:
        """Entropy of the model's probabilities (temperature 1), in nats (worked out once per
        draw, as the other two: the type scale's search words the draw's lines at each of
        about 100 layouts, and each entropy read Llama 3's 128,256 probabilities)."""
        return entropy(self.probs)

    @cached_property
    def tempered_entropy(self) -> float:
        return entropy(self.tempered)

    @cached_property
    def sample_entropy(self) -> float:
        """Entropy of the renormalised shares the draw uses."""
        return entropy(self.shares)

    @cached_property
    def kept_ids(self) -> frozenset[int]:
        """:attr:`kept` as a set: the ranked table asks of each entry it shows whether it was
        kept, at each layout the type scale's search tries (a tuple of Llama 3's 128,256
        entries read through each time)."""
        return frozenset(self.kept)

    @cached_property
    def ranks(self) -> dict[int, int]:
        """Each entry's rank in :attr:`ranked`, 1 for the first."""
        return {entry: k + 1 for k, entry in enumerate(self.ranked)}

    @property
    def chosen_label(self) -> str:
        return self.vocab[self.chosen]

    @property
    def greedy(self) -> int:
        """The entry greedy decoding would take: the most probable (lowest id among equals)."""
        return self.ranked[0]


@remembered_while_alive(kept=4)
def draw_view(trace: Trace, step: Step) -> DrawView:
    """The draw a ``sample`` step wrote (its arrays ``gen{t}.…``); the last few are remembered
    by trace (a frame's composition, picture and texts each ask for it; ranking a 4,096-word
    vocabulary takes about half a millisecond), never past the trace's life."""
    prefix = step.writes[0].rsplit(".", 1)[0]
    a = trace.arrays
    run = trace.scenario.generation
    settings = run.settings if run is not None else Settings()
    tempered = a[f"{prefix}.tempered"]
    probs = a["probs"][-1]
    # Most probable first by the tempered share, then by the model's own probability: greedy's
    # tempered shares are one 1 and zeros, and the rest still read most probable first.
    ranked = tuple(np.lexsort((-probs, -tempered)).tolist())
    within = np.array(tempered[list(ranked)])
    if settings.top_k is not None:
        within[settings.top_k:] = 0.0  # what top-k cut adds nothing to the mass top-p reads
    running = np.cumsum(within) / within.sum()
    return DrawView(t=int(prefix.removeprefix("gen")), settings=settings,
                    position=trace.scenario.n - 1, vocab=shown_tokens(trace.tokens_of("vocab")),
                    probs=probs, tempered=tempered,
                    kept=tuple(a[f"{prefix}.kept"].astype(np.int64).tolist()),
                    shares=a[f"{prefix}.sample_probs"], chosen=int(a[f"{prefix}.chosen"][0]),
                    ranked=ranked, running=running)


@dataclass(frozen=True, eq=False)
class LossView:
    """Each position's target, the probability the model gives it and its loss −ln p, and the
    mean: every position from the one forward pass (training), where generating the same n
    tokens one at a time needs n passes."""

    tokens: tuple[str, ...]
    vocab: tuple[str, ...]
    targets: tuple[int, ...]
    p_target: FloatArray
    loss: FloatArray
    mean: float

    @property
    def n(self) -> int:
        return len(self.tokens)

    @property
    def worst(self) -> int:
        """The position with the largest loss (the first of equal ones)."""
        return int(np.argmax(self.loss))


def stack_is_causal(scenario: Scenario) -> bool:
    """Whether every self-attention of the main stack hides each position's future (what makes
    a loss at every position at once honest)."""
    return all(layer.attention.causal for layer in scenario.layers)


def loss_view(trace: Trace) -> LossView:
    """The loss step's numbers (the document has ``targets``)."""
    targets = trace.scenario.targets
    assert targets is not None
    probs = trace.arrays["probs"]
    return LossView(tokens=shown_tokens(trace.scenario.tokens),
                    vocab=shown_tokens(trace.tokens_of("vocab")),
                    targets=targets, p_target=probs[np.arange(len(targets)), list(targets)],
                    loss=trace.arrays["loss"], mean=float(trace.arrays["loss_mean"][0]))


__all__ = ["DrawView", "LossView", "draw_view", "loss_view", "stack_is_causal"]
