"""The one safe writer (issue 13: items 2, 3, 11 and "one writer")."""

from __future__ import annotations

import dataclasses
import errno
import os
import stat
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import engine.files.safe_write as safe_write
from engine import ScenarioError, load_scenario, save_scenario
from engine.files.safe_write import WriteError, real_target, replacing, write_bytes
from engine.scenario.edit import with_document_value
from tests.examples import EXAMPLES


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("name", ["null", "full"])
def test_a_device_is_refused_and_stays_a_device(name: str,
                                                device_node: Callable[[str], Path]) -> None:
    device = device_node(name)
    before = device.stat()
    with pytest.raises(WriteError) as caught:
        write_bytes(device, b"data")
    assert str(caught.value) == f"cannot write {device}: it is a device, not a file; choose a " \
                                "file name"
    after = device.stat()
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert not [n for n in os.listdir(device.parent) if n.startswith(".qkv-")]


def test_a_fifo_a_folder_and_a_symlink_loop_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.qkv.json"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.pdf"
    folder.mkdir()
    loop = tmp_path / "loop.qkv.json"
    loop.symlink_to(tmp_path / "other")
    (tmp_path / "other").symlink_to(loop)
    scenario = load_scenario(EXAMPLES / "f11.qkv.json")
    reasons = {}
    for path in (fifo, folder, loop):
        with pytest.raises(WriteError) as caught:
            save_scenario(scenario, path)
        assert str(caught.value).startswith(f"cannot write {path}: ")
        assert len(str(caught.value).splitlines()) == 1
        reasons[path.name] = caught.value.reason
    assert reasons == {"pipe.qkv.json": "it is a pipe (FIFO), not a file; choose a file name",
                       "folder.pdf": "a folder has that name",
                       "loop.qkv.json": "it is a loop of symbolic links"}
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and loop.is_symlink()
    assert names(tmp_path) == ["folder.pdf", "loop.qkv.json", "other", "pipe.qkv.json"]


def test_a_symlink_to_a_file_is_followed_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.qkv.json"
    real.write_bytes(b"old")
    link = tmp_path / "link.qkv.json"
    link.symlink_to(real)
    assert real_target(link) == real
    write_bytes(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"


def test_a_short_write_is_caught_before_the_rename(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # A writer that loses its error (as QPdfWriter does on a full disk) leaves a short file:
    # the old file must survive and the failure must be said.
    target = tmp_path / "slides.pdf"
    target.write_bytes(b"%PDF old and whole")
    with pytest.raises(WriteError, match=r"slides\.pdf: only 3 of 10 bytes reached the disk"), \
            replacing(target, expected_size=10) as temp:
        temp.write_bytes(b"%PD")
    with pytest.raises(WriteError, match=r"slides\.pdf: nothing reached the disk"), \
            replacing(target):
        pass
    assert target.read_bytes() == b"%PDF old and whole"
    assert names(tmp_path) == ["slides.pdf"]


def test_a_failing_write_call_keeps_the_old_file(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "kept.qkv.json"
    target.write_bytes(b"old")

    def full(handle: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(safe_write.os, "write", full)
    with pytest.raises(WriteError) as caught:
        write_bytes(target, b"new content")
    assert str(caught.value) == f"cannot write {target}: the disk is full"
    assert target.read_bytes() == b"old" and names(tmp_path) == ["kept.qkv.json"]


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs, or a skip where mounting is not allowed (not root, a container)."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                             capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_a_full_disk_keeps_the_old_file_whole(tiny_disk: Path) -> None:
    target = tiny_disk / "deck.pdf"
    target.write_bytes(b"x" * 40_000)
    with pytest.raises(WriteError) as caught:
        write_bytes(target, b"y" * 40_000)
    assert str(caught.value) == f"cannot write {target}: the disk is full"
    assert target.read_bytes() == b"x" * 40_000
    assert names(tiny_disk) == ["deck.pdf"]


def test_legal_long_names_can_be_written(tmp_path: Path) -> None:
    for length in (241, 250, 255):
        name = "a" * (length - len(".qkv.json")) + ".qkv.json"
        write_bytes(tmp_path / name, b"{}")
        assert (tmp_path / name).read_bytes() == b"{}"
    wide = "注" * 82 + ".json"  # 251 bytes in UTF-8
    write_bytes(tmp_path / wide, b"{}")
    assert len(names(tmp_path)) == 4
    with pytest.raises(WriteError, match="the name is too long"):
        write_bytes(tmp_path / ("a" * 256), b"{}")


def test_mode_and_owner_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "private.qkv.json"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    if os.geteuid() == 0:
        os.chown(target, 1234, 5678)
    write_bytes(target, b"new")
    status = target.stat()
    assert stat.S_IMODE(status.st_mode) == 0o640
    if os.geteuid() == 0:
        assert (status.st_uid, status.st_gid) == (1234, 5678)
    write_bytes(tmp_path / "forced", b"x", mode=0o600)
    assert stat.S_IMODE((tmp_path / "forced").stat().st_mode) == 0o600


def test_a_hard_link_keeps_the_old_content(tmp_path: Path) -> None:
    target = tmp_path / "doc.qkv.json"
    target.write_bytes(b"old")
    other = tmp_path / "other-name.qkv.json"
    os.link(target, other)
    write_bytes(target, b"new")
    assert target.read_bytes() == b"new" and other.read_bytes() == b"old"


def test_a_lone_surrogate_is_refused_naming_the_file(tmp_path: Path) -> None:
    scenario = load_scenario(EXAMPLES / "f11.qkv.json")
    with pytest.raises(ScenarioError, match=r"^title: character 2 is \\udfff, a lone half"):
        with_document_value(scenario, "title", "a\udfff")  # an edit is refused, with its place
    bad = dataclasses.replace(scenario, title="a\udfff")  # and the writer refuses it anyway
    with pytest.raises(WriteError) as caught:
        save_scenario(bad, tmp_path / "t.qkv.json")
    assert str(caught.value).startswith(f"cannot write {tmp_path / 't.qkv.json'}: ")
    assert "lone surrogate" in str(caught.value)
    assert names(tmp_path) == []
