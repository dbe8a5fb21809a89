"""The process's stderr held while a library runs, so that a notice it writes there itself
(the Rust runtime's ``thread '…' panicked at …`` and backtrace before pyo3 raises the panic in
Python) does not stand beside the command's one-line refusal that already says it."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def stderr_held(said: Callable[[BaseException], bool]) -> Iterator[None]:
    """Run the block with file descriptor 2 written to a temporary file, then pass on what it
    held to the real stderr, unless the block raised an error for which ``said`` is true (an
    error whose own words tell what the held notice told)."""
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to hold (a windowed build's): nothing can stand beside
        yield
        return
    _flush()
    dropped = False
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        except BaseException as error:
            dropped = said(error)
            raise
        finally:
            _flush()
            os.dup2(saved, 2)
            os.close(saved)
            if not dropped:
                held.seek(0)
                notice = held.read()
                while notice:
                    notice = notice[os.write(2, notice):]


def _flush() -> None:
    """Python's own buffered stderr written out to the descriptor it writes to now."""
    if sys.stderr is not None:
        sys.stderr.flush()
