"""The modules one step's text may quote: its own attention, its layer's block, its norm.

A stack's layers may differ (norm kind, ε, activation, placement, scaling, mask, heads …), and a
decoder layer has a cross-attention besides its own: every fact of a step's text comes from the
module the step belongs to, found from the step's ``module``, ``stack`` and ``layer``, never from
the document's first layer. Imports no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.model.operands import ROLES
from engine.scenario.op_kinds import KINDS

if TYPE_CHECKING:
    from engine import Scenario, Step
    from engine.scenario.modules import Attention, Block, Layer

QK_NORM = "attention.qk_norm"
"""The ``explain_key`` of the norm of q and k inside an attention."""
EMBEDDING_NORM = "input.embedding_norm"
"""The ``explain_key`` of the norm of a stack's summed input rows (its output is X)."""
TYPES = "input.types"
"""The ``explain_key`` of the sum that adds type rows (with or without positions)."""
_FINAL_NORMS = frozenset({"block.final_norm", "encoder.final_norm"})


def words_key(step: Step) -> str:
    """The key of a step's title and timeline label in the catalogue: its ``explain_key``, but
    ``input.summed`` for a sum of type rows that adds position rows too (BERT's)."""
    summed = step.explain_key == TYPES and any(name.endswith("positions") for name in step.reads)
    return "input.summed" if summed else step.explain_key


@dataclass(frozen=True)
class StepModules:
    """What one step's text may say about the model, taken from the step's own modules.

    Attributes
    ----------
    attention
        The step's attention (a cross-attention step's cross-attention); its layer's attention
        for a step outside attention.
    block
        The block of the step's layer (the last layer's for a final norm), or None.
    norm, eps
        The norm kind and ε of the step's norm: its layer's block, the attention's QK-norm, the
        head's or the encoder's final norm (``"none"`` and 0 without one).
    last_layer
        Whether the step's layer is the last of its stack.
    final_norm_follows
        Whether a final norm comes right after this layer (the last of its stack).
    vocab
        The head's vocabulary (empty without a head, and in the encoder).
    """

    attention: Attention
    block: Block | None
    norm: str
    eps: float
    last_layer: bool
    final_norm_follows: bool
    vocab: tuple[str, ...]


def _stack(scenario: Scenario, step: Step) -> tuple[tuple[Layer, ...], bool]:
    """The layers of the step's stack and whether that stack ends with a final norm."""
    encoder = scenario.encoder
    if step.stack == "encoder" and encoder is not None:
        return encoder.layers, encoder.final_norm
    head = scenario.head
    return scenario.layers, head is not None and head.final_norm


def _layer_index(step: Step, count: int) -> int:
    """0-based index of the step's layer: its own; the last for the head and the final norms;
    the first for the steps before the layers (and every step of the shorthand, whose one
    layer is numbered 0)."""
    if step.layer:
        return min(step.layer, count) - 1  # a hand-made trace may number more layers
    head_side = KINDS[step.op].head or step.explain_key in _FINAL_NORMS
    return count - 1 if head_side else 0


def _norm(scenario: Scenario, step: Step, attention: Attention,
          block: Block | None) -> tuple[str, float]:
    if step.explain_key == QK_NORM and attention.qk_norm is not None:
        return attention.qk_norm, attention.qk_eps
    if step.explain_key == EMBEDDING_NORM:
        module = scenario.module(step.module)
        return module.norm, module.eps
    if step.explain_key == "encoder.final_norm" and scenario.encoder is not None:
        return scenario.encoder.norm, scenario.encoder.eps
    if step.explain_key == "block.final_norm" and scenario.head is not None:
        return scenario.head.norm, scenario.head.eps
    return (block.norm, block.eps) if block is not None else ("none", 0.0)


def modules_of(scenario: Scenario, step: Step) -> StepModules:
    """The modules of ``step`` in ``scenario`` (see :class:`StepModules`)."""
    layers, stack_final_norm = _stack(scenario, step)
    index = _layer_index(step, len(layers))
    layer = layers[index]
    own = ROLES[step.op].attention or step.explain_key == QK_NORM
    attention: Attention = scenario.module(step.module) if own and step.module else \
        layer.attention
    norm, eps = _norm(scenario, step, attention, layer.block)
    head = scenario.head
    last = index == len(layers) - 1
    return StepModules(attention=attention, block=layer.block, norm=norm, eps=eps,
                       last_layer=last, final_norm_follows=stack_final_norm and last,
                       vocab=head.vocab if head is not None and step.stack == "decoder" else
                       ())
