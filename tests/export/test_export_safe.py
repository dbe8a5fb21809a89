"""Safe writes: a file appears whole or not at all, and failures name the path."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from app.export.safe import ExportCancelled, ExportError, atomic_file, staged_folder
from tests.export.conftest import leftovers


def test_atomic_file_appears_only_at_the_end(tmp_path: Path) -> None:
    target = tmp_path / "deck.pptx"
    with atomic_file(target) as temp:
        assert temp.parent == tmp_path and temp.name.startswith(".qkv-deck.pptx.")
        assert temp.name.endswith(".tmp.pptx")  # the suffix stays last: writers may read it
        temp.write_bytes(b"whole")
        assert not target.exists()
    assert target.read_bytes() == b"whole"
    assert leftovers(tmp_path) == ["deck.pptx"]


def test_atomic_file_keeps_the_usual_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        with atomic_file(tmp_path / "a.pdf") as temp:
            temp.write_bytes(b"%PDF")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.pdf").stat().st_mode) == 0o644


def test_a_failure_inside_leaves_nothing_and_keeps_an_older_file(tmp_path: Path) -> None:
    target = tmp_path / "movie.mp4"
    target.write_bytes(b"old")
    with pytest.raises(ExportCancelled), atomic_file(target) as temp:
        temp.write_bytes(b"half")
        raise ExportCancelled()
    assert target.read_bytes() == b"old"
    assert leftovers(tmp_path) == ["movie.mp4"]


def test_a_path_under_a_regular_file_names_the_path(tmp_path: Path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder")
    message = r"cannot write .*file\.txt/out\.pdf: .*not a folder"
    with pytest.raises(ExportError, match=message), atomic_file(blocker / "out.pdf"):
        pytest.fail("the block must not run")
    assert leftovers(tmp_path) == ["file.txt"]


def test_missing_folders_are_made_and_removed_again_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "new" / "deeper" / "a.gif"
    with pytest.raises(RuntimeError), atomic_file(target) as temp:
        temp.write_bytes(b"GIF89a")
        raise RuntimeError("encoder broke")
    assert leftovers(tmp_path) == []
    with atomic_file(target) as temp:
        temp.write_bytes(b"GIF89a")
    assert target.read_bytes() == b"GIF89a"


def test_a_failed_move_is_reported_with_the_path(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(source: object, target: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    message = r"cannot write .*slides\.pptx: permission denied"
    with pytest.raises(ExportError, match=message), atomic_file(tmp_path / "slides.pptx") as temp:
        temp.write_bytes(b"x")
    assert leftovers(tmp_path) == []


def test_staged_files_are_published_together(tmp_path: Path) -> None:
    with staged_folder(tmp_path) as staged:
        for name in ("a-step01.png", "a-step02.png"):
            staged.write(name, name.encode())
        assert leftovers(tmp_path) == [staged.staging.name, f"{staged.staging.name}/a-step01.png",
                                       f"{staged.staging.name}/a-step02.png"]
        written = staged.commit()
    assert [p.name for p in written] == ["a-step01.png", "a-step02.png"]
    assert leftovers(tmp_path) == ["a-step01.png", "a-step02.png"]


def test_a_failed_publication_removes_what_this_run_moved(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    real_replace = os.replace
    calls: list[str] = []

    def second_fails(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        calls.append(str(target))
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", second_fails)
    with pytest.raises(ExportError, match=r"a-step02\.png: the disk is full"), \
            staged_folder(tmp_path) as staged:
        for name in ("a-step01.png", "a-step02.png", "a-step03.png"):
            staged.write(name, b"png")
        staged.commit()
    assert leftovers(tmp_path) == []
