"""Every Chinese text a frame can show is Chinese (issue 35: "8 logits" on a timeline button):
for every step of every built-in example and preset, the step's title, timeline button and map
box, the document's title and the reads/writes line over the frame, every text of the step's
picture (captions, notes, grid titles, the bars' words), the hover arithmetic of two cells of
each grid, and the step's summary and four explanations. The picture is laid out by itself, as
a frame lays it out (a whole frame would first measure every step of the document for its one
scale: 2 s a preset).

A Latin word may stay only when it is on purpose:

- the chapter's own Latin words in its Chinese text (Token, Query, softmax, logits, pre/post-norm
  …) and the names of functions and settings in formulas (exp, max, tanh, top-k …);
- the model families a preset or a text names (GPT-2, Llama, BERT …);
- the document's own names and words: its arrays and parameters (``L1.Wq``, ``unembed``), its
  tokens and vocabulary (``tired``, ``[CLS]``), and code names written with an underscore
  (``rotary_dims``, ``q_i``).

A timeline button or map box is two or three words: it keeps only array symbols and the
chapter's loanwords of :data:`LABEL_WORDS` — no document name, no "logits".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from app.canvas import FrameOptions
from app.canvas.bars import ProbabilityBars
from app.canvas.compose import Group
from app.canvas.context import LayoutContext
from app.canvas.frame import shown_names
from app.canvas.grid import MatrixGrid
from app.canvas.layout import TextItem, items_of
from app.canvas.route_map import step_label as map_label
from app.canvas.steps import lay_out_step
from app.model.examples import example_names, example_path
from app.model.operands import tokens_of
from app.model.presets import PRESETS, preset
from app.texts import step_text
from app.texts.example_words import document_words
from app.texts.step_labels import step_label
from app.texts.titles import step_title
from app.texts.words import say
from engine import Step, Trace, compute, load_scenario

LABEL_WORDS = frozenset({"Token", "RoPE", "QK", "softmax", "Wo", "ln", "LayerNorm", "RMSNorm"})
"""The Latin words a timeline button or a map box may keep (the chapter writes them so)."""
ALLOWED = LABEL_WORDS | {
    # the chapter's Latin words in its Chinese sentences
    "Query", "Key", "Value", "Norm", "FFN", "ReLU", "logits", "logit", "pre-norm", "post-norm",
    "pre", "post", "Transformer",
    # functions and settings written as in a formula
    "GELU", "SiLU", "SwiGLU", "exp", "max", "mean", "ln", "log", "sin", "cos", "tanh", "erf",
    "gelu", "silu", "relu", "top-k", "top-p", "base", "bg", "torch.topk", "sigmoid",
    "normalize", "false",
    # model families
    "BERT", "BART", "GPT-2", "GPT-J", "GPT-NeoX", "Phi", "Llama", "Mistral", "Qwen2", "Mixtral",
    "Qwen2-MoE",
}
LATIN = re.compile(r"[A-Za-z]{2,}")
WORD = re.compile(r"[A-Za-z0-9_.\-]+")
"""A word as a formula writes it: ``L1.Wq``, ``top-k``, ``rotary_dims``, ``GPT-2``."""
DOCUMENTS = [*example_names(), *(f"preset {name}" for name in PRESETS)]
pytestmark = pytest.mark.usefixtures("qapp")


def words(text: str) -> Iterator[str]:
    """The Latin words of ``text`` (two letters in a row at least), as a formula writes them."""
    for word in WORD.findall(text):
        word = word.strip(".-")
        if LATIN.search(word):
            yield word


def own_words(trace: Trace) -> frozenset[str]:
    """The document's names (each dotted part too) and the words of its tokens and
    vocabulary."""
    scenario = trace.scenario
    names = {*trace.arrays, *scenario.parameter_paths()}
    tokens = list(scenario.head.vocab if scenario.head is not None else ())
    for step in trace.steps:
        names |= {*step.reads, *step.writes}
        tokens += tokens_of(trace, step.rows)
    parts = {part for name in names for part in name.split(".")}
    return frozenset(names | parts | set(words(" ".join(tokens))))


def english(text: str, allowed: frozenset[str] | set[str]) -> set[str]:
    """The words of ``text`` that are none of ``allowed`` nor a code name."""
    return {word for word in words(text) if "_" not in word and word not in allowed
            and not all(part in allowed for part in word.split("."))}


def picture_texts(trace: Trace, step: Step) -> Iterator[str]:
    """The words of ``step``'s Chinese picture, and the hover texts of two cells of each grid
    (its first and its last)."""
    picture = Group()
    lay_out_step(LayoutContext(trace, FrameOptions(lang="zh")), step, picture)
    yield from (item.text for item in items_of(picture, TextItem))
    for grid in items_of(picture, MatrixGrid):
        spec = grid.spec
        yield spec.title
        yield spec.note
        if spec.explain is not None:
            rows, cols = spec.values.shape
            yield spec.explain(0, 0)
            yield spec.explain(rows - 1, cols - 1)
    for bars in items_of(picture, ProbabilityBars):
        yield from (bars.spec.title, bars.spec.legend, *bars.spec.group_titles)


def trace_of(document: str) -> Trace:
    if document.startswith("preset "):
        return compute(preset(document.removeprefix("preset ")))
    return compute(load_scenario(example_path(document)))


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_chinese_text_of_every_step_is_chinese(document: str) -> None:
    trace = trace_of(document)
    allowed = ALLOWED | own_words(trace)
    subtitle, _note = document_words(trace.scenario.title, trace.scenario.note, "zh")
    left: dict[str, set[str]] = {}
    for index, step in enumerate(trace.steps):
        title = step_title(step, trace.scenario, "zh")
        for label in (step_label(step, "zh"), map_label(trace, step, "zh")):
            if said := english(label, LABEL_WORDS):
                left.setdefault(f"{step.id} label {label!r}", said)
        text = step_text(trace, index, "zh")
        flow = (f"{say('frame.reads', 'zh')} {shown_names(trace, step.reads)} "
                f"{say('frame.writes', 'zh')} {shown_names(trace, step.writes)}")
        for said_in in (title, subtitle, flow, *picture_texts(trace, step), text.summary,
                        *text.sections()):
            if said := english(said_in, allowed):
                left.setdefault(f"{step.id}: {said_in[:70]!r}", said)
    assert left == {}


def test_the_check_finds_english() -> None:
    """Not vacuous: the English texts of one step are flagged, word by word."""
    trace = trace_of("g01")
    step = trace.steps[trace.step_index("logits")]
    assert english(f"11 {step_label(step, 'en')}", LABEL_WORDS) == {"logits"}
    assert english(step_title(step, trace.scenario, "en"), ALLOWED | own_words(trace)) == {
        "Logits", "one", "score", "per", "vocabulary", "entry"}
    assert english("z[3,11] = L1.norm2[3,0]·W1[0,11] + … (9 terms)",
                   ALLOWED | own_words(trace_of("preset gpt2"))) == {"terms"}
