"""import-hf holds the process's stderr while it imports: what a library writes there itself is
passed on, unless the error raised already says it (a Rust panic's notice beside its refusal)."""

from __future__ import annotations

import os

import pytest

from app.held_stderr import stderr_held


def said(error: BaseException) -> bool:
    return isinstance(error, ValueError)


def test_what_the_block_writes_is_passed_on_unless_the_error_says_it(
        capfd: pytest.CaptureFixture[str]) -> None:
    with stderr_held(said):
        os.write(2, b"a library's notice\n")
    assert capfd.readouterr().err == "a library's notice\n"
    with pytest.raises(ValueError), stderr_held(said):
        os.write(2, b"thread '<unnamed>' panicked at ...\n")
        raise ValueError
    assert capfd.readouterr().err == ""
    with pytest.raises(KeyError), stderr_held(said):
        os.write(2, b"another error's notice\n")
        raise KeyError
    assert capfd.readouterr().err == "another error's notice\n"
    os.write(2, b"after\n")  # the descriptor is the real stderr again
    assert capfd.readouterr().err == "after\n"
