"""Writing a file whole or not at all, and knowing afterwards whether it is still ours.

``write_atomic`` writes to a temporary file of its own in the target's folder (a unique name,
so two writers never share one), flushes and ``fsync``s it, renames it over the target
(atomic on POSIX and Windows) and ``fsync``s the folder, so that the new name survives a crash.
A reader, or a process killed at any point, sees the old file or the new one, never a torn
mix; a failed write leaves the old file and no temporary one.

Concurrent writers of one path: **the last rename wins**, and each leaves one whole file. Each
learns whether the file on disk is the one it wrote (`Written.is_ours`: the same file, by
device and inode), so a command can say "written" or that another process replaced it.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["Written", "write_atomic"]


@dataclass(frozen=True)
class Written:
    """Where ``write_atomic`` wrote, and the identity (device, inode) of the file it wrote
    (None when it wrote into a device or FIFO in place)."""

    path: Path
    identity: tuple[int, int] | None

    def is_ours(self) -> bool:
        """Whether ``path`` is still the file this write made (False once another writer
        renamed its own over it, or removed it)."""
        if self.identity is None:
            return True
        try:
            st = self.path.stat()
        except OSError:
            return False
        return (st.st_dev, st.st_ino) == self.identity


@cache
def _file_mode() -> int:
    """The mode a new file gets from ``open`` (0o666 less the umask): a temporary file is
    made 0o600, which the renamed artifact must not keep."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # where /proc is not: read by setting it, then put back
    os.umask(mask)
    return 0o666 & ~mask


def _fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX; a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(
    path: str | os.PathLike[str],
    pieces: Iterable[bytes],
    *,
    progress: Callable[[int], None] | None = None,
) -> Written:
    """Write ``pieces`` to ``path`` whole or not at all (see the module docstring); the
    folder is made when missing. ``progress(n)`` is told the bytes of each piece written.

    A path that exists and is not a regular file (``/dev/null``, ``/dev/stdout``, a FIFO) is
    written in place: a rename would replace it.
    """
    p = Path(path)
    if p.exists() and not p.is_file():
        with p.open("wb") as fh:
            for piece in pieces:
                fh.write(piece)
        return Written(p, None)
    folder = p.parent
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{p.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as fh:
            for piece in pieces:
                fh.write(piece)
                if progress is not None:
                    progress(len(piece))
            fh.flush()
            if hasattr(os, "fchmod"):  # (POSIX)
                os.fchmod(fh.fileno(), _file_mode())
            os.fsync(fh.fileno())
            st = os.fstat(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_folder(folder)
    return Written(p, (st.st_dev, st.st_ino))
