"""Wrong or unclear messages made right (issue 13, item 11)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

import app.export.animation
from app.bidi import isolate
from app.export.job import run_export
from app.export.safe import ExportError
from app.export.settings import ExportRequest
from app.files.importing import import_matrix_file
from app.files.matrix_text import MAX_TEXT_CHARS, MatrixTextError, load_matrix_file
from app.window.studio import StudioWindow
from engine import ScenarioError, load_scenario, read_document
from tests.app.documents_support import example_document, write_document
from tests.app.driving import Dialogs
from tests.export.conftest import leftovers, load_trace


def refusal(path: Path) -> str:
    with pytest.raises(MatrixTextError) as caught:
        load_matrix_file(path)
    return str(caught.value)


def test_text_over_the_limit_is_measured_truly(tmp_path: Path) -> None:
    big = tmp_path / "big.csv"
    limit = MAX_TEXT_CHARS * 4
    big.write_bytes(("注," * (limit // 4 + 10)).encode())  # valid UTF-8, 4 bytes a cell
    size = big.stat().st_size
    assert refusal(big) == (f"big.csv: the file is {size:,} bytes; text files of at most "
                            f"{limit:,} bytes are read as a matrix")
    many = tmp_path / "many.csv"
    many.write_text("1" * (MAX_TEXT_CHARS + 1), encoding="utf-8")
    assert refusal(many) == (f"many.csv: the text has {MAX_TEXT_CHARS + 1:,} characters; at most "
                             f"{MAX_TEXT_CHARS:,} are read as a matrix")


def test_utf16_files_are_called_utf16_not_binary(tmp_path: Path) -> None:
    for name, data in (("bom.csv", "1,2\n3,4\n".encode("utf-16")),
                       ("plain.csv", "1,2\n3,4\n".encode("utf-16-le"))):
        (tmp_path / name).write_bytes(data)
        assert refusal(tmp_path / name) == f"{name}: is UTF-16 text; save it as UTF-8"
    document = tmp_path / "doc.qkv.json"
    document.write_bytes(json.dumps(example_document()).encode("utf-16"))
    with pytest.raises(ScenarioError) as caught:
        read_document(document)
    assert str(caught.value) == ("doc.qkv.json: is UTF-16 text; scenario documents are UTF-8 "
                                 "(save it as UTF-8)")


def test_an_unbalanced_quote_is_refused_not_read_as_a_decimal(tmp_path: Path) -> None:
    path = tmp_path / "q.csv"
    path.write_text('"1,2\n', encoding="utf-8")
    assert refusal(path) == 'q.csv: line 1: a quotation mark " is opened and never closed'
    path.write_text('"1,5","2"\n', encoding="utf-8")
    assert load_matrix_file(path).tolist() == [[1.5, 2.0]]  # a quoted decimal comma still reads


def test_a_duplicate_key_is_named(tmp_path: Path) -> None:
    path = tmp_path / "dup.qkv.json"
    text = json.dumps(example_document())
    path.write_text(text.replace('"title":', '"title": "first", "title":', 1), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    assert str(caught.value) == ('dup.qkv.json: the key "title" appears twice in one object; '
                                 "keep one")


def fake_ffmpeg(tmp_path: Path, script: str) -> str:
    exe = tmp_path / "ffmpeg"
    exe.write_text(f"#!/bin/sh\n{script}\n", encoding="utf-8")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return str(exe)


def test_mp4_messages_name_the_destination_and_the_real_cause(
        qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "b.mp4"
    request = ExportRequest(format="mp4", steps=(0,), destination=target, name="b")
    trace = load_trace("f11")
    monkeypatch.setattr(app.export.animation, "ffmpeg_exe", lambda: "/nowhere/ffmpeg")
    with pytest.raises(ExportError) as caught:
        run_export(trace, request)
    assert str(caught.value) == (f"cannot write {target}: ffmpeg could not be started "
                                 "(/nowhere/ffmpeg: No such file or directory)")
    failing = fake_ffmpeg(tmp_path, 'for last; do :; done\necho "$last: Invalid argument" >&2\n'
                                    "cat > /dev/null\nexit 1")
    monkeypatch.setattr(app.export.animation, "ffmpeg_exe", lambda: failing)
    with pytest.raises(ExportError) as caught:
        run_export(trace, request)
    assert str(caught.value) == (f"cannot write {target}: ffmpeg failed ({target}: Invalid "
                                 "argument)")
    assert leftovers(tmp_path) == ["ffmpeg"]


def test_an_import_that_overflows_gets_a_dialog_like_a_wrong_shape(
        window: StudioWindow, tmp_path: Path, dialogs: Dialogs) -> None:
    path = tmp_path / "huge.csv"
    path.write_text("1e308,1e308\n1e308,1e308\n", encoding="utf-8")
    before = window.state.scenario.X.copy()
    assert not import_matrix_file(window, "X", path)
    assert [(kind, title) for kind, title, _text in dialogs.shown] == [("warning", "Cannot import")]
    assert dialogs.shown[0][2].startswith("huge.csv was not imported: import huge.csv into X: "
                                          "projections (Q[0,1]): a value overflowed")
    np.testing.assert_array_equal(window.state.scenario.X, before)


def test_a_right_to_left_token_is_isolated_in_the_status_bar(window: StudioWindow,
                                                              tmp_path: Path) -> None:
    document = example_document()
    document["tokens"] = ["שלום", "עולם"]
    assert window.open_path(write_document(tmp_path / "he.qkv.json", document))
    window.state.set_receiver(1)
    assert window.state.edit_cell("attention.Wq", 0, 0, 2.0)
    message = window.statusBar().currentMessage()
    assert "shares for \u200e\u2068עולם\u2069\u200e: " in message
    shares = message.split(": ", 1)[1]
    assert [float(x) for x in shares.split(" / ")] == pytest.approx(
        window.state.trace.arrays["weights"][0, 1, :2].tolist(), abs=5e-4)
    assert isolate("爱") == "爱" and isolate("abc") == "abc"  # only where it is needed
