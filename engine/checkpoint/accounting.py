"""Every tensor of a checkpoint used or refused: after a family's layout has read what it
computes, a tensor it left unread is refused by name, since it would change transformers'
numbers (a Gemma-2 labelled ``gemma`` has norms a Gemma layout never reads), unless it is one
of the family's ignored tensors below, which carry no number of the trace, or a layer that
``--layers`` left out.

Which layer a tensor belongs to is read from its name: ``….layers.K.…`` (Llama, GPT-NeoX,
Phi, OPT…), ``….h.K.…`` (GPT-2) or ``….layer.K.…`` (BERT).
"""

from __future__ import annotations

import re

from engine.checkpoint.folder import Checkpoint
from engine.format.errors import ScenarioError
from engine.words.refusals import Refusal

ROTARY = r"rotary_emb\.inv_freq"
"""RoPE's inverse frequencies, a buffer older checkpoints saved: the engine computes the angles
from the config's base."""
IGNORED: dict[str, tuple[str, ...]] = {
    # GPT-2's causal mask (``attn.bias``) and its fill value (``attn.masked_bias``): buffers.
    "gpt2": (r"attn\.bias", r"attn\.masked_bias"),
    # GPT-NeoX's mask buffers, as in GPT-2, and the rotary buffer.
    "gpt_neox": (r"attention\.bias", r"attention\.masked_bias", ROTARY),
    # BERT: ``position_ids`` (0, 1, 2…: a buffer); the pooler (``BertModel``'s pooled output
    # of [CLS], not part of the trace); BertForPreTraining's next-sentence head (it reads the
    # pooled [CLS], not a token's row: not part of the trace). The masked-LM head is read.
    "bert": (r"embeddings\.position_ids", r"pooler\.dense\.(weight|bias)",
             r"cls\.seq_relationship\.(weight|bias)"),
    **{family: (ROTARY,) for family in ("llama", "mistral", "qwen2", "qwen3", "gemma", "gemma2",
                                        "phi", "phi3", "stablelm", "starcoder2", "mixtral",
                                        "qwen3_moe", "olmo2", "qwen2_moe", "gemma3_text")},
    "opt": (),
}
"""Per family, the tensors (patterns matched at the end of a name) no layout reads."""
_LAYER = re.compile(r"(?:^|\.)(?:layers|layer|h)\.(\d+)\.")
SHOWN = 5
"""How many unused tensors a refusal names."""


def layer_of(name: str) -> int | None:
    """The 0-based layer the tensor ``name`` belongs to (None: outside the layers)."""
    match = _LAYER.search(name)
    return int(match[1]) if match else None


def ignored(family: str, name: str) -> bool:
    """Whether ``name`` is one of ``family``'s tensors that carry no number of the trace."""
    return any(re.search(rf"(?:^|\.){pattern}$", name) for pattern in IGNORED[family])


def wanted(family: str, name: str, chosen: list[int]) -> bool:
    """Whether the import of ``chosen`` layers should read ``name``: not ignored, and in a
    chosen layer or outside the layers."""
    layer = layer_of(name)
    return not ignored(family, name) and (layer is None or layer in chosen)


def check_all_used(checkpoint: Checkpoint, family: str, chosen: list[int]) -> None:
    """Refuse the tensors the layout should have read and did not.

    Raises
    ------
    ScenarioError
        At the weights, naming the first few unused tensors and how many there are.
    """
    unused = sorted(name for name in checkpoint.stored
                    if name not in checkpoint.used and wanted(family, name, chosen))
    if unused:
        names = ", ".join(unused[:SHOWN]) + (", …" if len(unused) > SHOWN else "")
        raise ScenarioError(str(checkpoint.folder / "*.safetensors"),
                            Refusal("tensors_unused", count=len(unused), names=names,
                                    family=family))


__all__ = ["IGNORED", "check_all_used", "ignored", "layer_of", "wanted"]
