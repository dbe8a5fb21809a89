"""A step split over several pages, every page its own part: a split heading ("(k/n)") can
leave the picture less room than the heading without it, and so more parts; each part's frame
then shows the part asked for, and says so. Mistral's projections after a generated token
(a real fixture checkpoint) went from 3 parts to 6 so: the frames of parts 4 to 6 showed
parts 1 to 3 again, and a PNG export wrote ``-step03-1.png`` twice and failed."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.canvas import FrameOptions
from app.canvas.frame import build_frame_scene
from app.cli import main
from engine import Scenario, compute, save_scenario
from engine.checkpoint import import_checkpoint
from engine.format.generation_keys import Settings
from engine.generation.run import generate
from tests.engine.hf_reference import FIXTURES


def generated() -> Scenario:
    """Mistral's fixture on a text, two tokens generated greedily."""
    return generate(import_checkpoint(FIXTURES / "mistral", "the cat sat"), 2,
                    Settings(temperature=0.0)).scenario


def test_each_part_of_a_split_step_shows_that_part(qtbot: QtBot) -> None:
    trace = compute(generated())
    index = trace.step_index("L1.projections")
    shown = []
    for part in range(6):
        _scene, item = build_frame_scene(trace, index, FrameOptions(lang="en"), part=part)
        assert item.composition is not None
        shown.append((item.composition.part, item.composition.parts,
                      item.heading.text.rsplit(" ", 1)[-1]))
    assert shown == [(k, 6, f"({k + 1}/6)") for k in range(6)]


def test_a_png_export_writes_each_part_once(tmp_path: Path) -> None:
    path, folder = tmp_path / "gen.qkv.json", tmp_path / "png"
    save_scenario(generated(), path)
    assert main(["export", str(path), "--format", "png", "--steps",
                 "L1.projections", "--out", str(folder)]) == 0
    assert sorted(path.name for path in folder.iterdir()) == [
        f"gen-step03-{k}.png" for k in range(1, 7)]
