"""A document with a sidecar of weights in the window (issue 25, item 3): Save as writes a new
sidecar beside the new name, a recovery copy keeps one beside it and removes it with the copy,
and a stray one left by a crash is tidied. The sidecar thresholds are lowered so the F11 example
has one; export draws it as it draws the JSON document."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

import engine.format.io
import engine.format.sidecar_write
from app.cli import main
from app.files.opening import is_big_file
from app.files.recovery import find_orphans
from app.model.examples import example_path
from app.window.studio import StudioWindow
from engine import dumps_scenario, load_scenario, save_scenario
from tests.app.documents_support import make_modified, patch_save_dialog


@pytest.fixture(autouse=True)
def small_sidecars(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.format.io, "JSON_NUMBERS", 10)
    monkeypatch.setattr(engine.format.sidecar_write, "SIDECAR_MIN", 4)


def test_save_as_and_the_recovery_copy_keep_the_sidecar(
        qtbot: QtBot, window: StudioWindow, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "recovery"
    window.recovery.timer.setInterval(10)
    window.recovery._directory = folder
    make_modified(window, 3.0)
    qtbot.waitUntil(lambda: window.recovery.sidecar_path.exists(), timeout=3000)
    copy = window.recovery.copy_path
    weights = copy.with_name(f"{window.recovery.session_id}.qkv.json.weights.safetensors")
    assert weights.exists()
    assert dumps_scenario(load_scenario(copy)) == dumps_scenario(window.state.scenario)
    target = tmp_path / "lesson.qkv.json"
    patch_save_dialog(monkeypatch, target)
    assert window.save_as()
    assert (tmp_path / "lesson.qkv.json.weights.safetensors").exists()
    assert load_scenario(target).attention.Wq[0, 0] == 3.0
    assert not copy.exists() and not weights.exists()  # a clean document keeps no copy
    again = tmp_path / "again.qkv.json"
    patch_save_dialog(monkeypatch, again)
    assert window.save_as()
    for name in ("lesson.qkv.json", "lesson.qkv.json.weights.safetensors"):
        (tmp_path / name).unlink()
    assert dumps_scenario(load_scenario(again)) == dumps_scenario(window.state.scenario)


@pytest.mark.parametrize("name", ["gone.qkv.json.weights.safetensors",
                                  "gone.weights.safetensors"])  # before format 2.1
def test_a_stray_sidecar_of_weights_is_tidied(tmp_path: Path, name: str) -> None:
    stray = tmp_path / name
    stray.write_bytes(b"left by a crash")
    assert find_orphans(tmp_path) == []
    assert not stray.exists()


def test_export_draws_a_document_with_a_sidecar_as_its_json_twin(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save_scenario(load_scenario(example_path("continue")), tmp_path / "doc.qkv.json")
    assert (tmp_path / "doc.qkv.json.weights.safetensors").exists()
    pictures = []
    for name, folder in ((str(tmp_path / "doc.qkv.json"), tmp_path / "a"),
                         ("continue", tmp_path / "b")):
        status = main(["export", name, "--format", "png", "--steps", "3", "--width", "640",
                       "--out", str(folder)])
        out, err = capsys.readouterr()
        assert (status, err) == (0, "")
        pictures.append(Path(out.strip()).read_bytes())
    assert pictures[0] == pictures[1]


def test_a_document_with_a_sidecar_is_read_in_this_process(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Its numbers come from the sidecar (numpy); a process would send the whole model back."""
    monkeypatch.setattr("app.files.opening.BACKGROUND_BYTES", 100)
    save_scenario(load_scenario(example_path("continue")), tmp_path / "doc.qkv.json")
    assert not is_big_file(tmp_path / "doc.qkv.json")
    (tmp_path / "doc.qkv.json.weights.safetensors").unlink()
    assert is_big_file(tmp_path / "doc.qkv.json")
