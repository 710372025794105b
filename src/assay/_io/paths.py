"""File names built from ids (paper ids, document ids) kept inside the folder they belong to.

An id comes from a user's file (an ids list, a gold record), so ``../evil`` or ``/etc/passwd``
must never become a path outside the folder it names a file in: ``confined`` refuses any id
that is not one plain file name, and checks the resolved path (symlinks followed) is inside.
"""

from __future__ import annotations

from pathlib import Path

from assay.errors import InputError

__all__ = ["confined", "unsafe_name"]


def unsafe_name(name: str) -> str | None:
    """Why ``name`` cannot be one file name inside a folder, or None when it can."""
    if not name or (name.strip() != name and not name.strip()):
        return "empty name"
    if "\x00" in name:
        return "a NUL character"
    if "/" in name or "\\" in name:
        return "a path separator"
    if name in (".", ".."):
        return f"the name {name!r}"
    return None


def confined(root: Path, name: str, *, what: str = "id") -> Path:
    """``root / name``, refused (``InputError``) when ``name`` would leave ``root``."""
    problem = unsafe_name(name)
    if problem is None:
        path = root / name
        base = root.resolve()
        resolved = path.resolve()
        if resolved == base or base in resolved.parents:
            return path
        problem = "a link out of the folder"
    raise InputError(f"{what} {name!r} cannot name a file in {root}: it holds {problem}")
