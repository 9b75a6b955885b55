"""Files written whole or not at all: through a temporary file and a rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write"]


def atomic_write(path, write) -> None:
    """Write ``path`` with ``write(handle)`` (a binary file) through a hidden temporary file
    in its folder, synced and renamed over it.

    A reader never sees a half-written file, and an interrupted write leaves the previous
    content (or nothing) in place. The file gets the ordinary permissions of a new file
    (``0666`` less the umask), so a report or a shared cache is readable as others are.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
