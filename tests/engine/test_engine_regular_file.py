"""open_regular refuses FIFOs, devices, sockets and folders before reading, without blocking."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from engine.files.regular_file import check_regular, open_regular
from engine.format.errors import ScenarioError


def test_a_regular_file_opens_and_reads(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b"{}\n")
    with open_regular(path, "a.json") as stream:
        assert stream.read() == b"{}\n"
    assert check_regular(path, "a.json") == 3


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError) as caught:
        open_regular(fifo, "weights")
    assert caught.value.refusal.key == "not_regular_file"
    assert str(caught.value).startswith("weights")


def test_a_device_a_socket_and_a_folder_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as device:
        check_regular("/dev/zero", "config")
    assert device.value.refusal.key == "not_regular_file"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "sock"))
        with pytest.raises(ScenarioError) as sock:
            check_regular(tmp_path / "sock", "sidecar")
    assert sock.value.refusal.key in {"not_regular_file", "unreadable"}
    with pytest.raises(ScenarioError) as folder:
        check_regular(tmp_path, "document")
    assert folder.value.refusal.key == "is_folder"


def test_a_missing_file_is_unreadable_with_the_system_reason(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as caught:
        check_regular(tmp_path / "none", "tokenizer.json")
    assert caught.value.refusal.key == "unreadable"
    assert "No such file" in str(caught.value)
