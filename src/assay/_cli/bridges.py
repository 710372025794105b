"""Other tools' result files where ``assay compare``, ``significance`` and ``gate`` take runs.

A run reference that is an Inspect log, an lm-evaluation-harness samples file (or model folder)
or a promptfoo output, told by its content or by ``--from``, is scored on the fly with the
``scores`` suite (the comparison's seed, the run store untouched) and stands for the run it
gives; a promptfoo output with several columns gives one run per column (``--system`` picks).
Anything else is a run artifact or a stored run id, as before.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from assay._engine.run import Run

#: the start of a run artifact (``artifact_schema`` is its first field)
_ARTIFACT_MARK = b'"artifact_schema"'


@dataclass(frozen=True)
class BridgeChoice:
    """The bridge options of a command line: the tool and what to read of its files."""

    source: str | None = None
    filter: str | None = None
    systems: tuple[str, ...] = ()
    id_field: str | None = None
    reducer: str | None = None

    def options(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "filter": self.filter,
            "id_field": self.id_field,
            "reducer": self.reducer,
        }


def bridge_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--from``, ``--filter``, ``--system``, ``--id-field`` and ``--reducer``."""
    options = [
        click.option(
            "--from",
            "source",
            type=click.Choice(["inspect", "lm-eval", "promptfoo"]),
            metavar="TOOL",
            help="inspect, lm-eval or promptfoo: RUNS that are result files of this tool, "
            "scored on the fly with the scores suite (default: told by their content)",
        ),
        click.option(
            "--filter", "bridge_filter", help="lm-eval: the filter read (default: the first)"
        ),
        click.option(
            "--system",
            "systems",
            multiple=True,
            help="promptfoo: the columns read, 'provider · prompt' or index (default: all)",
        ),
        click.option(
            "--id-field",
            "id_field",
            help="path to the item id in the tool's records (e.g. vars.id)",
        ),
        click.option(
            "--reducer",
            type=click.Choice(["mean", "median", "max", "min"]),
            metavar="HOW",
            help="an item's value from its samples: mean (Inspect's default), median, max, min",
        ),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def choice_of(kwargs: dict[str, Any]) -> BridgeChoice:
    """The ``BridgeChoice`` of a command's keyword arguments, removed from them."""
    return BridgeChoice(
        source=kwargs.pop("source", None),
        filter=kwargs.pop("bridge_filter", None),
        systems=tuple(kwargs.pop("systems", ()) or ()),
        id_field=kwargs.pop("id_field", None),
        reducer=kwargs.pop("reducer", None),
    )


def is_tool_file(ref: str | os.PathLike[str], choice: BridgeChoice) -> bool:
    """True when ``ref`` is another tool's result file: by content, or with ``--from`` any
    existing file that is not a run artifact."""
    path = Path(ref)
    if not path.exists():
        return False
    from assay.suites.scores import detect_source

    if detect_source(path) is not None:
        return True
    if choice.source is None:
        return False
    if path.is_dir():
        return True
    with path.open("rb") as fh:
        return _ARTIFACT_MARK not in fh.read(256)


def score_tool_file(
    ref: str | os.PathLike[str], choice: BridgeChoice, *, seed: int | None, one: bool = False
) -> list[Run]:
    """The runs of a tool's file, scored with the scores suite (``one``: exactly one)."""
    from assay._engine.scoring import score
    from assay.suites.scores import system_names

    path = Path(ref)
    every = system_names(path, **choice.options())
    names = every
    if choice.systems:
        picked = [n for k, n in enumerate(every) if n in choice.systems or str(k) in choice.systems]
        if picked:
            names = picked
        elif len(every) > 1:  # a file of one system keeps it: --system names another file's
            raise click.UsageError(
                f"{path}: none of --system {', '.join(choice.systems)} in it "
                f"(systems: {'; '.join(every)})"
            )
    if one and len(names) != 1:
        raise click.UsageError(
            f"{path}: {len(names)} systems in it ({'; '.join(names)}); pick one with --system"
        )
    return [
        score(
            "scores",
            pred=path,
            seed=seed,
            system=name if len(every) > 1 else None,
            **choice.options(),
        )
        for name in names
    ]


def resolve_runs(
    refs: Sequence[str | os.PathLike[str]],
    store: str | None,
    choice: BridgeChoice,
    *,
    seed: int | None,
    lazy_items: bool = False,
) -> list[Run]:
    """Each reference's runs, in order: a tool's file scored on the fly, else a run file or a
    stored run id (``_cli.resolve.load_run_ref``)."""
    from assay._cli.resolve import load_run_ref

    runs: list[Run] = []
    for ref in refs:
        if is_tool_file(ref, choice):
            runs += score_tool_file(ref, choice, seed=seed)
        else:
            runs.append(load_run_ref(ref, store, lazy_items=lazy_items))
    return runs


def resolve_run(ref: str, store: str | None, choice: BridgeChoice, *, seed: int | None) -> Run:
    """The one run ``ref`` names (a tool's file of several systems needs ``--system``)."""
    from assay._cli.resolve import load_run_ref

    if is_tool_file(ref, choice):
        return score_tool_file(ref, choice, seed=seed, one=True)[0]
    return load_run_ref(ref, store)
