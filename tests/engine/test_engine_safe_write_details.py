"""The safe writer's smaller promises: reasons, modes, owners, temporary names (issue 16 item 4).

Each test here pins a behaviour that mutation testing showed no other test noticed.
"""

from __future__ import annotations

import errno
import os
import re
import socket
import stat
from pathlib import Path

import pytest

import engine.files.safe_write as safe_write
from engine.files.safe_write import (
    WriteError,
    failure_reason,
    plain_reason,
    publish,
    replacing,
    temp_name,
    write_all,
    write_bytes,
)


def test_reasons_are_plain_words_without_a_final_full_stop() -> None:
    assert plain_reason(OSError(errno.ENOSPC, "No space left on device")) == "the disk is full"
    assert plain_reason(OSError(errno.ETXTBSY, "Text file busy.")) == "Text file busy"
    assert plain_reason(OSError()) == "the system refused"
    assert failure_reason(OSError(errno.EROFS, "x")) == "the disk is read-only"
    assert failure_reason(ValueError("bad\n   value")) == "bad value"
    assert failure_reason(ValueError()) == "ValueError"


def test_a_socket_is_refused_and_stays_a_socket(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a socket's path must be short
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind("s.pdf")
        with pytest.raises(WriteError) as caught:
            write_bytes("s.pdf", b"%PDF")
    finally:
        server.close()
    assert str(caught.value) == "cannot write s.pdf: it is a socket, not a file; choose a file name"
    assert stat.S_ISSOCK((tmp_path / "s.pdf").lstat().st_mode)


def test_empty_bytes_make_an_empty_file(tmp_path: Path) -> None:
    target = tmp_path / "empty.txt"
    target.write_bytes(b"old content")
    write_bytes(target, b"")
    assert target.read_bytes() == b""


def test_write_all_truncates_and_creates_owner_only(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.bin"
    write_all(fresh, b"ab")
    assert fresh.read_bytes() == b"ab"
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
    write_all(fresh, b"z")
    assert fresh.read_bytes() == b"z"


def test_the_temporary_file_is_owner_only_until_published(tmp_path: Path) -> None:
    target = tmp_path / "slide.png"
    with replacing(target, mode=0o644) as temp:
        assert stat.S_IMODE(temp.stat().st_mode) == 0o600
        temp.write_bytes(b"png")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_publish_applies_the_asked_mode(tmp_path: Path) -> None:
    staged = tmp_path / "staged"
    staged.write_bytes(b"data")
    publish(staged, tmp_path / "out.gif", mode=0o640)
    assert stat.S_IMODE((tmp_path / "out.gif").stat().st_mode) == 0o640
    assert (tmp_path / "out.gif").read_bytes() == b"data" and not staged.exists()


def test_the_group_is_kept_where_only_the_group_may_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to give the old file another owner")
    target = tmp_path / "deck.pptx"
    target.write_bytes(b"old")
    os.chown(target, 4242, 4343)
    real_chown = os.chown
    calls: list[tuple[int, int]] = []

    def chown_group_only(path: Path, uid: int, gid: int) -> None:
        calls.append((uid, gid))
        if uid != -1:
            raise PermissionError(errno.EPERM, "Operation not permitted")
        real_chown(path, uid, gid)

    monkeypatch.setattr(os, "chown", chown_group_only)
    write_bytes(target, b"new")
    assert calls == [(4242, 4343), (-1, 4343)]
    assert (target.stat().st_uid, target.stat().st_gid) == (0, 4343)
    assert target.read_bytes() == b"new"


def test_an_owner_that_cannot_be_kept_leaves_the_writer_s_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "deck.pptx"
    target.write_bytes(b"old")
    if os.geteuid() == 0:
        os.chown(target, 4242, 4343)

    def refuse(path: Path, uid: int, gid: int) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "chown", refuse)
    write_bytes(target, b"new")
    assert target.read_bytes() == b"new"
    assert (target.stat().st_uid, target.stat().st_gid) == (os.geteuid(), os.getegid())


def test_a_removed_temporary_file_does_not_hide_the_real_error(tmp_path: Path) -> None:
    with (pytest.raises(ValueError, match=r"^the real error$"),
          replacing(tmp_path / "a.svg") as temp):
        temp.unlink()
        raise ValueError("the real error")
    assert list(tmp_path.iterdir()) == []


def test_a_taken_temporary_name_is_skipped(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    tokens = iter(["00000000", "11111111"])
    monkeypatch.setattr(safe_write.secrets, "token_hex", lambda _n: next(tokens))
    taken = tmp_path / f".qkv-a.pdf.{os.getpid()}-00000000.tmp.pdf"
    taken.write_bytes(b"someone else's")
    write_bytes(tmp_path / "a.pdf", b"%PDF")
    assert (tmp_path / "a.pdf").read_bytes() == b"%PDF"
    assert taken.read_bytes() == b"someone else's"


def test_no_free_temporary_name_is_a_write_error(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(safe_write.secrets, "token_hex", lambda _n: "00000000")
    (tmp_path / f".qkv-a.pdf.{os.getpid()}-00000000.tmp.pdf").write_bytes(b"x")
    with pytest.raises(WriteError) as caught:
        write_bytes(tmp_path / "a.pdf", b"%PDF")
    assert caught.value.reason == f"no free temporary name next to {tmp_path / 'a.pdf'}"
    assert not (tmp_path / "a.pdf").exists()


def test_a_temporary_name_keeps_the_suffix_of_up_to_16_characters(tmp_path: Path) -> None:
    assert re.fullmatch(r"\.qkv-report\.pdf\.\d+-[0-9a-f]{8}\.tmp\.pdf",
                        temp_name("report.pdf", tmp_path))
    kept = "a." + "s" * 15
    dropped = "a." + "s" * 16
    assert re.fullmatch(rf"\.qkv-{kept}\.\d+-[0-9a-f]{{8}}\.tmp\.{'s' * 15}",
                        temp_name(kept, tmp_path))
    assert re.fullmatch(rf"\.qkv-{dropped}\.\d+-[0-9a-f]{{8}}\.tmp", temp_name(dropped, tmp_path))


def test_a_temporary_name_fits_the_folder_s_name_limit(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    long = "a" * 300
    marker = "m" * 10
    assert len(temp_name(long, tmp_path, marker)) == 255
    assert temp_name(long, tmp_path, marker).startswith(f".qkv-{marker}aaa")

    def pathconf(folder: object, name: str) -> int:
        if name != "PC_NAME_MAX":
            raise ValueError(f"unrecognized configuration name {name}")
        return 100

    monkeypatch.setattr(os, "pathconf", pathconf)
    assert len(temp_name(long, tmp_path)) == 100
    # No room left for any of the name: the temporary name is the prefix, marker and tail only.
    no_room = temp_name(long, tmp_path, "m" * 90)
    assert re.fullmatch(rf"\.qkv-{'m' * 90}\.\d+-[0-9a-f]{{8}}\.tmp", no_room)

    def unknown(folder: object, name: str) -> int:
        raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(os, "pathconf", unknown)
    assert len(temp_name(long, tmp_path)) == 255


def test_the_umask_is_read_and_left_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    old = os.umask(0o027)
    try:
        assert safe_write.umask() == 0o027
        real_umask = os.umask

        def no_umask_call(mask: int) -> int:
            raise AssertionError("the umask was changed while /proc could be read")

        monkeypatch.setattr(os, "umask", no_umask_call)
        assert safe_write.umask() == 0o027  # read from /proc/self/status
        monkeypatch.setattr(os, "umask", real_umask)

        def no_proc(*args: object, **kwargs: object) -> object:
            raise OSError(errno.ENOENT, "No such file or directory")

        monkeypatch.setattr("builtins.open", no_proc)
        assert safe_write.umask() == 0o027  # the fallback sets it back
        monkeypatch.undo()
        assert os.umask(0o027) == 0o027
    finally:
        os.umask(old)
