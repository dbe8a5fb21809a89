"""Other sampling settings for a computed document: only the draw is worked again.

The draw of the next token reads the last position's logits and the run's settings, nothing
else, and nothing reads the draw. So a document whose settings change (a temperature slider
moved) needs no forward pass: :func:`redrawn` keeps every array of the trace and works the
``sample`` step's arrays again from the logits it already has. The result equals
:func:`engine.forward.trace.compute` of the document with the new settings, bit for bit.
"""

from __future__ import annotations

from dataclasses import fields, replace

import numpy as np

from engine.format.errors import ScenarioError
from engine.format.generation_keys import Generation, Settings, parse_generation
from engine.forward.trace import Trace
from engine.generation.sampling import sample
from engine.scenario.op_kinds import KINDS, head_output
from engine.scenario.scenario import Scenario
from engine.words.refusals import Refusal


def with_settings(scenario: Scenario, settings: Settings) -> Scenario:
    """The document with its run's settings replaced (its chosen ids kept), checked as a file's
    ``generation`` is: the same scenario
    :func:`~engine.scenario.edit.with_document_value` would give, without reading the rest of
    the document again.

    Raises
    ------
    ScenarioError
        If the document has no run to set (no token ids or vocabulary head), or a setting is
        out of its range.
    """
    run = scenario.generation or Generation()
    head = scenario.head
    vocab = len(head.vocab) if head is not None and head.unembed is not None else 0
    if scenario.token_ids is None or vocab == 0:
        raise ScenarioError("generation", Refusal("run_needs_vocabulary"))
    checked = parse_generation(replace(run, settings=settings).to_document(),
                               scenario.token_ids, vocab)
    changed = replace(scenario, generation=checked)
    for name in TREE_FACTS:  # worked out from the tree, which is the same objects
        if name in vars(scenario):
            vars(changed)[name] = vars(scenario)[name]
    return changed


TREE_FACTS = ("_places", "parameters")
"""What a scenario works out once from its tree of modules and arrays (cached properties): a
new run's settings leave it as it was."""


def redrawn(trace: Trace, scenario: Scenario) -> Trace | None:
    """The trace of ``scenario``, which is ``trace``'s document with other run settings
    (:func:`with_settings`): the same arrays and steps, the ``sample`` step's arrays drawn again
    from the last position's logits. None for any other document, a trace without a draw (a
    document that cannot generate), one shown in another row order or a draw that overflows:
    compute that document instead, which says why."""
    run, before = scenario.generation, trace.scenario.generation
    if (run is None or not KINDS[trace.steps[-1].op].draws or trace.row_order is not None
            or run.chosen != (before.chosen if before is not None else ())
            or not same_but_run(scenario, trace.scenario)):
        return None
    t = len(run.chosen) + 1
    scores = head_output(trace.steps)
    try:
        with np.errstate(over="raise", invalid="raise", divide="raise"):  # as compute
            arrays = sample(trace.arrays[scores][-1], run.settings, t).trace_arrays(t)
    except FloatingPointError:
        return None
    return replace(trace, scenario=scenario, arrays={**trace.arrays, **arrays})


def same_but_run(one: Scenario, other: Scenario) -> bool:
    """Whether the two documents hold the very same values except their ``generation``."""
    return all(getattr(one, each.name) is getattr(other, each.name) for each in fields(Scenario)
               if each.name != "generation")


__all__ = ["redrawn", "same_but_run", "with_settings"]
