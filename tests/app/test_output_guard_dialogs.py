"""The window's outputs never replace the open document or its sidecar (issue 34, item 1):
Save as… a link to the sidecar, and File → Export… naming the document, are refused with the
reason shown; nothing on disk changes."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine.format.io
import engine.format.sidecar_write
from app.export.dialog import ExportDialog
from app.export.safe import refused_output
from app.window.studio import StudioWindow
from engine import load_scenario
from engine.files.outputs import OutputRefusedError
from engine.words.refusals import Refusal
from tests.app.documents_support import make_modified, patch_save_dialog
from tests.app.driving import Dialogs, when_shown

REFUSED = ("this run reads that file (the document, its sidecar or a checkpoint's files); "
           "writing there would replace it: choose another name")


@pytest.fixture
def saved_with_sidecar(window: StudioWindow, tmp_path: Path,
                       monkeypatch: pytest.MonkeyPatch) -> Path:
    """The window's document saved as ``doc.qkv.json`` with a sidecar of weights."""
    monkeypatch.setattr(engine.format.io, "JSON_NUMBERS", 10)
    monkeypatch.setattr(engine.format.sidecar_write, "SIDECAR_MIN", 4)
    (tmp_path / "docs").mkdir()
    document = tmp_path / "docs" / "doc.qkv.json"
    patch_save_dialog(monkeypatch, document)
    assert window.save_as()
    assert document.with_name("doc.qkv.json.weights.safetensors").exists()
    return document


def test_save_as_a_link_to_the_open_document_s_sidecar_is_refused(
        window: StudioWindow, saved_with_sidecar: Path, dialogs: Dialogs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    sidecar = saved_with_sidecar.with_name("doc.qkv.json.weights.safetensors")
    before = sidecar.read_bytes(), saved_with_sidecar.read_bytes()
    link = saved_with_sidecar.with_name("link.qkv.json")
    link.symlink_to(sidecar.name)
    make_modified(window, 5.0)
    patch_save_dialog(monkeypatch, link)
    assert not window.save_as()
    [(kind, _title, text)] = dialogs.shown
    assert kind == "critical" and f"Could not save to {link}: {REFUSED}." in text
    assert (sidecar.read_bytes(), saved_with_sidecar.read_bytes()) == before
    assert link.is_symlink() and window.state.path == saved_with_sidecar
    assert sorted(p.name for p in link.parent.iterdir()) == [
        "doc.qkv.json", "doc.qkv.json.weights.safetensors", "link.qkv.json"]


@pytest.mark.parametrize("named", ["document", "sidecar"])
def test_export_naming_the_open_document_or_its_sidecar_is_refused(
        window: StudioWindow, saved_with_sidecar: Path, dialogs: Dialogs,
        named: str) -> None:
    target = saved_with_sidecar if named == "document" else \
        saved_with_sidecar.with_name("doc.qkv.json.weights.safetensors")
    before = {p.name: p.read_bytes() for p in saved_with_sidecar.parent.iterdir()}
    errors: list[str | None] = []

    def drive(dialog: ExportDialog) -> None:
        dialog.format_box.setCurrentIndex(dialog.format_box.findData("pdf"))
        dialog.current_radio.setChecked(True)
        dialog.destination_edit.setText(str(target))
        errors.append(None if dialog.export() else dialog.last_error)
        dialog.reject()

    when_shown(ExportDialog, drive)
    window.export_action.trigger()
    assert errors == [f"cannot write {target}: {REFUSED}"]
    assert [kind for kind, _title, _text in dialogs.shown] == ["critical"]
    assert {p.name: p.read_bytes() for p in saved_with_sidecar.parent.iterdir()} == before


def test_save_replaces_the_document_s_own_sidecar(window: StudioWindow, saved_with_sidecar: Path,
                                                   dialogs: Dialogs) -> None:
    make_modified(window, 7.0)
    assert window.save() and dialogs.shown == []
    assert load_scenario(saved_with_sidecar).attention.Wq[0, 0] == 7.0
    assert sorted(p.name for p in saved_with_sidecar.parent.iterdir()) == [
        "doc.qkv.json", "doc.qkv.json.weights.safetensors"]


def test_the_refusal_is_worded_in_chinese_too(tmp_path: Path) -> None:
    path = tmp_path / "doc.qkv.json"
    error = refused_output(OutputRefusedError(path, Refusal("output_is_input")))
    assert error.words("en") == f"cannot write {path}: {REFUSED}"
    assert error.words("zh") == (f"无法写入 {path}：本次运行读取这个文件（文档、它的附属文件"
                                 f"或检查点的文件）；写到那里会覆盖它：请换一个名称")
