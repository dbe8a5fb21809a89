"""Operating-system errors in plain words, for messages that name a file."""

from __future__ import annotations

import errno

PLAIN = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the disk is read-only",
    errno.ENOTDIR: "part of the folder path is a file, not a folder",
    errno.ENOENT: "the folder does not exist",
    errno.EISDIR: "a folder has that name",
    errno.ENAMETOOLONG: "the name is too long",
    errno.EIO: "the disk reported an input/output error",
}


def plain_os_error(error: OSError) -> str:
    """``the disk is full``: what went wrong, without a code or a traceback."""
    if error.errno in PLAIN:
        return PLAIN[error.errno]
    return str(error.strerror or error).rstrip(".") or "the system refused"
