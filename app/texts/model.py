"""The shapes of the teaching texts and the languages they come in."""

from __future__ import annotations

from dataclasses import dataclass

from engine.words import LANGUAGES as LANGUAGES


@dataclass(frozen=True)
class StepText:
    """What a teacher says about one step.

    Attributes
    ----------
    summary
        One sentence on what the step does, shown under the timeline.
    why, how, pitfalls, check
        The texts under the four :data:`~app.texts.words.HEADINGS`: why the step is needed, how
        it is done, its costs and common misreadings, and a concrete check a student can do in
        the app.
    """

    summary: str
    why: str
    how: str
    pitfalls: str
    check: str

    def sections(self) -> tuple[str, str, str, str]:
        """The four heading texts in the order of :data:`~app.texts.words.HEADINGS`."""
        return (self.why, self.how, self.pitfalls, self.check)


@dataclass(frozen=True)
class GlossaryEntry:
    """One glossary term in one language.

    Attributes
    ----------
    term
        The term as displayed (``"Wq (W_Q)"``, ``"份额"``).
    definition
        A one-line definition.
    example
        A tiny worked example with numbers.
    term_id
        The language-independent id (``"Wq"``, ``"shares"``, ``"pre-norm"`` …).
    """

    term: str
    definition: str
    example: str
    term_id: str


def check_language(lang: str) -> str:
    """Return ``lang`` if it is one of :data:`LANGUAGES`.

    Raises
    ------
    ValueError
        If ``lang`` is not a supported language code.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    return lang


TERM_IDS: tuple[str, ...] = (
    "Wq", "Wk", "Wv", "Wo", "QKV", "shares", "I", "Norm", "LayerNorm", "RMSNorm", "gamma",
    "beta", "epsilon", "pre-norm", "post-norm", "causal-mask", "residual", "FFN", "logits",
    "probabilities", "softmax", "scale", "heads", "embedding", "RoPE", "positional-encoding",
    "ALiBi", "cross-attention", "encoder", "grouped-query", "sliding-window", "key-mask",
    "QK-norm", "KV-cache", "temperature", "top-k", "top-p", "cross-entropy", "teacher-forcing",
    "ablation", "attention-sink", "logit-lens",
)
"""Ids of the glossary terms, in the order the glossary lists them."""
