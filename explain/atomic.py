"""Files written whole or not at all: through a temporary file and a rename."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

__all__ = ["atomic_write"]


def atomic_write(path, write) -> None:
    """Write ``path`` through a hidden temporary file in its folder, synced and renamed.

    A reader never sees a half-written file, and an interrupted write leaves the previous
    content (or nothing) in place. The file gets the ordinary permissions of a new file
    (``0666`` less the umask), so a report or a shared cache is readable as others are.

    Parameters
    ----------
    path : path-like
        The file to write.
    write : callable
        ``write(handle)`` writes the content to ``handle``, a file open in binary mode.
    """
    path = Path(path)
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            # the kernel applies the umask to 0666 (mkstemp makes 0600): no process-wide
            # umask to change and put back, which other threads could see meanwhile
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
