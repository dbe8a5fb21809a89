"""The migration hook: older documents are brought up to the current version before validation."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import engine.format.migrate
from engine import ScenarioError, compute, load_scenario, parse_scenario
from engine.format.migrate import MIGRATIONS, UNVERSIONED, document_version, migrate
from engine.format.writer import FORMAT_VERSION, to_document
from tests.examples import EXAMPLES

F11: dict[str, Any] = json.loads((EXAMPLES / "f11.qkv.json").read_text(encoding="utf-8"))


def hand_written() -> dict[str, Any]:
    """F11 as a person might type it: no format or version keys."""
    doc = copy.deepcopy(F11)
    doc.pop("format", None)
    doc.pop("version", None)
    return doc


def test_the_table_has_a_step_from_every_older_version() -> None:
    assert sorted(MIGRATIONS) == list(range(UNVERSIONED, FORMAT_VERSION))


def test_a_document_without_a_version_is_version_0_and_becomes_the_current_version() -> None:
    doc = hand_written()
    assert document_version(doc) == UNVERSIONED == 0
    migrated = migrate(doc)
    assert isinstance(migrated, dict)
    assert migrated["version"] == FORMAT_VERSION == 2
    assert "version" not in doc, "the input is never changed"
    assert to_document(parse_scenario(migrated)) == to_document(parse_scenario(F11))


def test_current_documents_pass_through_unchanged() -> None:
    current = {**F11, "version": 2}
    assert migrate(current) == current
    assert migrate({**F11, "version": 2.0}) == {**F11, "version": 2.0}


def test_version_1_becomes_version_2_with_the_same_keys() -> None:
    assert migrate(F11) == {**F11, "version": 2}
    assert migrate({**F11, "version": 1.0}) == {**F11, "version": 2}


def test_a_version_written_as_0_or_0_point_0_is_migrated_too() -> None:
    for zero in (0, 0.0):
        migrated = migrate({**F11, "version": zero})
        assert isinstance(migrated, dict) and migrated["version"] == 2


@pytest.mark.parametrize("version", [3, 99, 3.0])
def test_newer_documents_are_not_migrated_and_are_refused_by_validation(version: int) -> None:
    doc = {**F11, "version": version}
    assert migrate(doc) == doc
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(migrate(doc))
    assert str(caught.value) == (f"version: this document is version {int(version)}, made by "
                                 "a newer QKV Studio; this one reads up to version 2")


@pytest.mark.parametrize("version", [True, "1", 1.5, None, [1], -1, 10**9])
def test_odd_versions_are_left_to_validation(version: object) -> None:
    doc = {**F11, "version": version}
    assert migrate(doc) == doc
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(migrate(doc))
    assert str(caught.value).startswith("version: ")


@pytest.mark.parametrize("value", [None, [], "text", 3, [F11]])
def test_anything_but_an_object_is_returned_as_it_is(value: object) -> None:
    assert migrate(value) == value


def test_the_hook_chains_steps_in_order_and_writes_each_version(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A future format 3: version 0 → 1 → 2 → 3, each step seeing the previous one's output."""
    monkeypatch.setattr(engine.format.migrate, "FORMAT_VERSION", 3)
    seen: list[int] = []

    def step(k: int) -> engine.format.migrate.Migration:
        def run(doc: dict[str, Any]) -> dict[str, Any]:
            seen.append(doc.get("version", 0))
            return {**doc, f"from_{k}": True}
        return run

    table = {k: step(k) for k in range(3)}
    migrated = migrate({"X": [[1]]}, table)
    assert migrated == {"X": [[1]], "version": 3, "from_0": True, "from_1": True, "from_2": True}
    assert seen == [0, 1, 2]
    assert migrate({"version": 2}, table) == {"version": 3, "from_2": True}
    with pytest.raises(KeyError):
        migrate({"version": 1}, {0: step(0)})  # a gap in the table is a programming error


def test_load_scenario_migrates_a_hand_written_file(tmp_path: Path) -> None:
    path = tmp_path / "typed.json"
    path.write_text(json.dumps(hand_written(), ensure_ascii=False), encoding="utf-8")
    scenario = load_scenario(path)
    assert to_document(scenario)["version"] == FORMAT_VERSION
    a, b = compute(scenario), compute(load_scenario(EXAMPLES / "f11.qkv.json"))
    for name in a.arrays:
        np.testing.assert_array_equal(a.arrays[name], b.arrays[name])
