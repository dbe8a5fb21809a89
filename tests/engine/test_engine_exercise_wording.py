"""A prompt worded from its document's own values (issue 26): ``{largest:weights[7]}`` names
the key the row gives its largest share, ``{value:X[9,1]}`` prints a cell, so a worksheet's
variant never quotes the document's token or number; a placeholder naming no cell is refused
at the prompt."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from app.export.worksheet_plan import plan_sheets
from engine import ScenarioError, compute, parse_scenario
from engine.exercises.document import Words
from engine.exercises.fit import check_fit
from engine.exercises.wording import prompt_text
from tests.engine.test_engine_builtin_exercises import reference, scenario
from tests.engine.test_engine_exercises import DIRECTION, f11


def largest_for_it(s: Any) -> str:
    """The token “it” (row 7) gives its largest share, worked by the independent reference."""
    return str(s.tokens[int(np.argmax(reference(s)["weights"][7]))])


def test_the_pronoun_prompt_names_its_own_largest_share() -> None:
    s = scenario("pronoun")
    trace = compute(s)
    assert largest_for_it(s) == "animal"
    assert prompt_text(trace, s.exercises[0], "en").startswith(
        "“it” gives “animal” the largest share. Predict its output row")
    assert prompt_text(trace, s.exercises[0], "zh").startswith("“it”把最大份额给了“animal”。")


def test_each_variant_names_the_token_its_own_numbers_favour() -> None:
    s = scenario("pronoun")
    # Ten positions whose every row must discriminate: few seeds give a variant at all
    # (seeds 0 to 5 give none in 2,000 draws); 6 and 7 do.
    sheets = [sheet for seed in (6, 7) for sheet in plan_sheets(s, (0,), "en", 1, seed)]
    named = []
    for sheet in sheets:
        (task,) = sheet.tasks
        token = largest_for_it(task.trace.scenario)
        assert task.prompt.startswith(f"“it” gives “{token}” the largest share."), sheet.variant
        named.append(token)
    assert set(named) != {"animal"}, "some variant favours another token than the document"


def test_a_value_is_printed_as_the_frames_print_it() -> None:
    s = parse_scenario(f11(DIRECTION))
    trace = compute(s)
    asked = replace(s.exercises[0], prompt=Words(
        "q of 爱 is {value:Q[1,0]}, Wk[1,0] is {value:attention.Wk[1,0]}; {other} stays",
        "爱 的 q 是 {value:Q[1,0]}"))
    assert prompt_text(trace, asked, "en") == "q of 爱 is 2, Wk[1,0] is 0.5; {other} stays"
    assert prompt_text(trace, asked, "zh") == "爱 的 q 是 2"


@pytest.mark.parametrize(("prompt", "message"), [
    ("{largest:Q[1]}", "exercises[0].prompt.en: {largest:…} names the key a row of shares or "
                       "scores gives the most; Q is neither"),
    ("{largest:weights[2]}", "exercises[0].prompt.en: [0,2] is outside the 1×2 array weights"),
    ("{value:Z[0,0]}", "exercises[0].prompt.en: {value:…} names no trace array or document "
                       "path Z"),
    ("{value:X[0]}", "exercises[0].prompt.en: X needs 2 indices, got 1"),
])
def test_a_placeholder_naming_no_cell_is_refused(prompt: str, message: str) -> None:
    doc: dict[str, Any] = f11({**DIRECTION, "prompt": {"en": prompt, "zh": "好"}})
    with pytest.raises(ScenarioError) as caught:
        check_fit(compute(parse_scenario(json.loads(json.dumps(doc)))))
    assert str(caught.value) == message
