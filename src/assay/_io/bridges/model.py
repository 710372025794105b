"""What a bridge reader gives: the runs in another tool's result file, each a set of items whose
samples carry the scores that tool computed.

One ``BridgeRun`` is one system: an Inspect log (task · model), an lm-evaluation-harness samples
file (task · model · filter), or one promptfoo column (provider · prompt). An item is what the
tool calls a sample or a test (an Inspect sample id, an lm-eval ``doc_id``, a promptfoo test);
its ``samples`` are the tool's repeats of it (Inspect epochs, promptfoo ``--repeat``), never
split into items of their own.

A score value is a float; ``None`` marks a sample the tool left unscored (Inspect's NaN, an
lm-eval ``bypass`` null); a score absent from a sample's mapping does not apply to it (a
promptfoo metric tag the test does not use).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from assay._io.records import ParseFailure

__all__ = [
    "SOURCES",
    "BridgeItem",
    "BridgeOptions",
    "BridgeRun",
    "BridgeSample",
    "OwnMetric",
    "Source",
    "source_label",
]

Source = Literal["inspect", "lm-eval", "promptfoo"]
#: the tools a bridge reads, as ``--from`` names them
SOURCES: tuple[Source, ...] = ("inspect", "lm-eval", "promptfoo")
_LABELS = {"inspect": "Inspect", "lm-eval": "lm-evaluation-harness", "promptfoo": "promptfoo"}


def source_label(source: str) -> str:
    """The tool's own name for a ``--from`` value (``lm-eval`` → ``lm-evaluation-harness``)."""
    return _LABELS.get(source, source)


@dataclass(frozen=True)
class BridgeSample:
    """One scored attempt at an item: an Inspect epoch, a promptfoo repeat, an lm-eval line.

    ``where`` names it for a person (``log.eval:samples/7_epoch_2.json``, ``x.jsonl:14``);
    ``error`` is the tool's error for an attempt that failed (no score then); ``problems`` lists
    score values that could not be read (``scores.match.value: 'maybe' is not a score``).
    """

    index: int
    scores: dict[str, float | None]
    where: str
    error: str | None = None
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class BridgeItem:
    """One item of the tool's benchmark: its id, its samples and what a person reads of it."""

    id: str
    samples: tuple[BridgeSample, ...]
    #: short texts shown beside the item (``target``, ``output``)
    display: dict[str, str] = field(default_factory=dict)
    #: the value of the cluster field, when one was asked for and found
    cluster: str | None = None


@dataclass(frozen=True)
class OwnMetric:
    """A figure the tool itself reported for a score: Inspect's ``accuracy`` ± ``stderr``,
    lm-eval's ``acc,none`` ± ``acc_stderr,none``, promptfoo's pass rate."""

    score: str
    name: str
    value: float | None
    stderr: float | None = None
    n: int | None = None
    note: str = ""


@dataclass
class BridgeRun:
    """One system's items read from another tool's file, with what that tool said of them."""

    source: Source
    path: Path
    system: str
    format: str
    task: str | None = None
    model: str | None = None
    tool_version: str | None = None
    #: score names in the order they were met
    scores: list[str] = field(default_factory=list)
    #: the scores where lower is better (lm-eval's ``higher_is_better: false``)
    lower: set[str] = field(default_factory=set)
    items: list[BridgeItem] = field(default_factory=list)
    #: every id the tool meant to score (Inspect's dataset sample ids, lm-eval's split size),
    #: when the file says; None: the items read are the benchmark
    expected: list[str] | None = None
    own: list[OwnMetric] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)
    #: records that could not be read (no id, bad JSON): listed, never dropped
    failures: list[ParseFailure] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: how the tool reduces samples to an item (Inspect's ``epochs_reducer``)
    reducer: str | None = None

    @property
    def name(self) -> str:
        """``tool:system``, the run's default name."""
        return f"{self.source}:{self.system}"


@dataclass(frozen=True)
class BridgeOptions:
    """How a file is read: which id, filter, systems, cluster field and Inspect reader."""

    #: a path into the tool's record giving the item id (default: the tool's own id)
    id_field: str | None = None
    #: lm-eval: the filter to read (default: the file's first)
    filter: str | None = None
    #: promptfoo: the systems to read, by ``provider · prompt`` label or column index
    systems: tuple[str, ...] = ()
    #: a path into the tool's record giving the item's cluster (Inspect ``metadata.topic``)
    cluster_field: str | None = None
    #: Inspect: ``library`` (inspect_ai, when installed), ``builtin``, or ``auto``
    inspect_reader: Literal["auto", "library", "builtin"] = "auto"
    #: Inspect: ``samples``, ``reductions`` (per-id values the log reduced), or ``auto``
    inspect_source: Literal["auto", "samples", "reductions"] = "auto"
