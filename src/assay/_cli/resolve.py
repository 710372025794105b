"""Runs named on the command line: a run artifact file, or the id (or id prefix) of a stored run."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import click

from assay._engine.run import Run
from assay.errors import InputError


def store_option(fn: click.decorators.FC) -> click.decorators.FC:
    """``--store URL``: the run store (default ``ASSAY_STORE``, else ``.assay/assay.db``)."""
    return click.option(
        "--store",
        "store",
        metavar="URL",
        help="run store: SQLAlchemy URL or SQLite file (default: $ASSAY_STORE, "
        "else .assay/assay.db)",
    )(fn)


def _looks_like_path(ref: str) -> bool:
    return os.sep in ref or "/" in ref or ref.endswith(".json")


def load_run_ref(
    ref: str | os.PathLike[str], store: str | None = None, *, lazy_items: bool = False
) -> Run:
    """The run ``ref`` names: an existing file is read as an artifact, otherwise ``ref`` is
    looked up as a run id (or unique prefix) in the store. ``lazy_items``: a file's item
    records are parsed when first used (``Run.load``)."""
    text = os.fspath(ref)
    path = Path(text)
    if path.exists() or _looks_like_path(text):
        return Run.load(path, lazy_items=lazy_items)
    from assay._store import RunStore, StoreError

    try:
        with RunStore(store, readonly=True) as st:
            return st.get(text)
    except StoreError as err:
        raise InputError(
            f"{text}: no such run file, and the run store is unavailable: {err}"
        ) from None
    except InputError as err:
        raise InputError(f"{text}: no such run file, and {err}") from None


def load_run_refs(
    refs: Sequence[str | os.PathLike[str]], store: str | None = None, *, lazy_items: bool = False
) -> list[Run]:
    return [load_run_ref(r, store, lazy_items=lazy_items) for r in refs]
