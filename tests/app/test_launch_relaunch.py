"""Launch never loops (issue 34), on real processes: a launch that crashes opening the last
session's document is not repeated — the next one shows F11 and says which document failed and
at which stage, in English and Chinese, and the one after it is a plain F11 launch; a document
whose sidecar of weights is a FIFO never keeps the window away."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from tests.app.documents_support import example_document, write_document

LAUNCH = Path(__file__).with_name("launch_session.py")
F11_TITLE = example_document()["title"]
LESSON_TITLE = example_document("multihead")["title"]
LIMIT_S = 90
"""A launch that has not ended by then hangs (each takes about 2 s here, 10 under load)."""
MESSAGES = {
    ("en", "reading"): "⚠ QKV Studio ended while opening {path} last time: it was not opened "
                       "again; showing F11",
    ("en", "drawing"): "⚠ QKV Studio ended while drawing the first frame of {path} last time: "
                       "it was not opened again; showing F11",
    ("zh", "reading"): "⚠ 上次 QKV Studio 在打开 {path} 时结束：这次不再打开它，改为显示 F11",
    ("zh", "drawing"): "⚠ 上次 QKV Studio 在绘制 {path} 的第一帧时结束：这次不再打开它，改为显示 "
                       "F11",
}
LOCALES = {"en": "en_US.UTF-8", "zh": "zh_CN.UTF-8"}


def launch(home: Path, *document: str, crash: str = "",
           lang: str = "en") -> tuple[int, dict[str, str]]:
    """One launch in a process of its own, with its settings and data under ``home``: its exit
    code and what it reported (``WINDOW``, ``TITLE``, ``PATH``, ``STATUS``, ``DIALOG``)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(home),
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
           "LANG": LOCALES[lang], "LC_ALL": LOCALES[lang], "LANGUAGE": ""}
    env.pop("QKV_TEST_CRASH", None)
    if crash:
        env["QKV_TEST_CRASH"] = crash
    try:
        result = subprocess.run([sys.executable, str(LAUNCH), *document], env=env, cwd=home,
                                capture_output=True, text=True, timeout=LIMIT_S)
    except subprocess.TimeoutExpired as hung:
        pytest.fail(f"the launch did not end within {LIMIT_S} s: {hung.stdout!r}")
    said: dict[str, str] = {}
    for line in result.stdout.splitlines():
        key, _space, value = line.partition(" ")
        said[key] = value
    return result.returncode, said


Launched = tuple[Path, Path, tuple[int, str | None, str | None]]
"""A home, the lesson's document and what launch 1 reported."""


@pytest.fixture(scope="module")
def closed_on_the_lesson(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Launched]:
    """Launch 1 of each language, once for both stages: the lesson opened and closed normally
    (the session remembers only its path; each test goes on in a copy of the home)."""
    done: dict[str, Launched] = {}

    def launched(lang: str) -> Launched:
        if lang not in done:
            home = tmp_path_factory.mktemp(f"lesson-{lang}")
            doc = write_document(home / "lesson.qkv.json", example_document("multihead"))
            status, said = launch(home, str(doc), lang=lang)
            done[lang] = home, doc, (status, said.get("TITLE"), said.get("PATH"))
        return done[lang]

    return launched


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("stage", ["reading", "drawing"])
def test_a_launch_that_crashed_opening_the_last_document_is_not_repeated(
        tmp_path: Path, closed_on_the_lesson: Callable[[str], Launched], stage: str,
        lang: str) -> None:
    lesson_home, doc, first = closed_on_the_lesson(lang)  # 1: the lesson, closed normally
    sequence = [first]
    assert sequence[-1] == (0, LESSON_TITLE, str(doc))
    shutil.copytree(lesson_home, tmp_path, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(doc.name))

    crash = f"reading:{doc}" if stage == "reading" else f"drawing:{LESSON_TITLE}"
    status, said = launch(tmp_path, crash=crash, lang=lang)  # 2: crashes opening it again
    sequence.append((status, said.get("TITLE"), said.get("PATH")))
    assert status == -signal.SIGABRT, said
    assert "WINDOW" in said, "the window showed before the document was read"

    status, said = launch(tmp_path, lang=lang)  # 3: F11, saying which document and why
    sequence.append((status, said.get("TITLE"), said.get("PATH")))
    assert (status, said["TITLE"], said["PATH"]) == (0, F11_TITLE, "-")
    assert said["STATUS"] == MESSAGES[lang, stage].format(path=doc)

    status, said = launch(tmp_path, lang=lang)  # 4: a plain launch, the lesson forgotten
    sequence.append((status, said.get("TITLE"), said.get("PATH")))
    assert (status, said["TITLE"], said["PATH"]) == (0, F11_TITLE, "-")
    assert not said["STATUS"].startswith("⚠")
    print(f"\n{stage}, {lang}: {sequence}")


def sidecar_document(folder: Path) -> tuple[Path, Path]:
    """A document whose inputs X are in its sidecar of weights, and that sidecar."""
    document = example_document()
    sidecar = folder / "lesson.weights.safetensors"
    save_file({"X": np.array(document["X"], dtype=np.float64)}, str(sidecar))
    document["X"] = {"$file": sidecar.name, "key": "X"}
    path = folder / "lesson.qkv.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path, sidecar


REFUSED = ("X: lesson.weights.safetensors is not a regular file (a device, a pipe or a socket): "
           "nothing was read from it")


@pytest.fixture(scope="module")
def remembered_fifo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Launch 1, once for both ways: the document read in a worker, shown and remembered; then
    its sidecar made a FIFO (each test goes on in a copy of the home, the document and its
    FIFO left where the session remembers them)."""
    home = tmp_path_factory.mktemp("fifo")
    doc, sidecar = sidecar_document(home)
    status, said = launch(home, str(doc))
    assert (status, said["TITLE"], said["PATH"]) == (0, F11_TITLE, str(doc))
    sidecar.unlink()
    os.mkfifo(sidecar)  # no writer ever comes: opening it to read blocks for ever
    return home, doc


@pytest.mark.slow
@pytest.mark.parametrize("how", ["last session", "command line"])
def test_a_fifo_sidecar_never_keeps_the_window_away(
        tmp_path: Path, remembered_fifo: tuple[Path, Path], how: str) -> None:
    home, doc = remembered_fifo
    shutil.copytree(home, tmp_path, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(doc.name, "*.safetensors"))
    status, said = launch(tmp_path, *([str(doc)] if how == "command line" else []))
    assert status == 0
    assert float(said["WINDOW"]) < LIMIT_S / 3
    assert (said["TITLE"], said["PATH"]) == (F11_TITLE, "-")
    if how == "command line":
        assert said["DIALOG"] == f"Cannot open: {doc} was not opened: | {REFUSED}"
    else:
        assert said["STATUS"] == (f"⚠ The last document could not be opened again ({REFUSED}); "
                                  "showing F11")
