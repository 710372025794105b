"""Each item's cluster (the contract of a clause, the document of a segment), resolved once.

A run's resampling unit comes from one of, first found wins:

1. ``--clusters FILE`` (``score(clusters=...)``): an id → cluster map read by
   ``assay._io.clusters.read_cluster_map`` (JSON object, two-column TSV/CSV such as WMT's
   ``*.docids.tsv``, or one cluster a line for line-aligned inputs); every item must be in it.
   Its name in outputs is ``cluster_by`` when that is given too, else ``cluster``;
2. the suite section's ``cluster_by`` (``--cluster-by FIELD``, or ``cluster_by:`` in the
   settings file): a field path (``contract``, ``meta.doc``, ``vars["doc id"]``) read in each
   item's gold record, else in its prediction record. An item with neither is an
   ``InputError`` naming the gold file(s), the item id and the field: a declared cluster is
   never silently dropped. (An item with no gold record at all, an expected id nobody
   answered, is its own cluster.) ``item`` means iid items;
3. the suite's default (``Task.default_cluster_by``: ContractEval rows by ``contract``, the
   scores suite by the tool's cluster field, ...): used when the data names it, i.e. when some
   item has the field; items without it are then each their own cluster, counted in a
   warning. When no item has it, the run resamples items.

The labels are collected as the cohort is paired (`ClusterLabeler`, called on every item in
surface order), so an out-of-core run reads nothing twice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from assay._engine.item import Item
from assay._engine.task import Task
from assay._io.clusters import ClusterMap
from assay._io.fieldpath import FieldPath, FieldPathError, parse_path
from assay.errors import InputError, UsageError

#: ``cluster_by`` value that turns clustering off (a suite's default included)
ITEM_UNIT = "item"
#: the name of a cluster map's labels when ``cluster_by`` does not name them
DEFAULT_MAP_NAME = "cluster"


@dataclass(frozen=True)
class ClusterChoice:
    """Where a run's cluster labels come from: a field path, or a cluster map."""

    by: str
    #: how it was asked for, for outputs: "--cluster-by", "settings", "suite default", "file"
    source: str
    path: FieldPath | None = None
    cluster_map: ClusterMap | None = None
    #: True when a missing field is an error (asked for), False for a suite default
    strict: bool = True

    @property
    def digest(self) -> str | None:
        """A cluster map's content digest (the run's settings digest covers it)."""
        if self.cluster_map is None:
            return None
        text = "\n".join(f"{k}\t{v}" for k, v in sorted(self.cluster_map.mapping.items()))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def choose_clusters(
    task: Task[Any], section: Any, cluster_map: ClusterMap | None
) -> ClusterChoice | None:
    """The run's cluster source (see the module docstring), None for iid items."""
    asked = getattr(section, "cluster_by", None)
    if cluster_map is not None:
        name = asked if asked and asked != ITEM_UNIT else DEFAULT_MAP_NAME
        return ClusterChoice(name, f"file {cluster_map.source}", cluster_map=cluster_map)
    if asked == ITEM_UNIT:
        return None
    if asked:
        return ClusterChoice(asked, "cluster_by", path=_path(asked))
    default = task.default_cluster_by(section)
    if default:
        return ClusterChoice(default, "suite default", path=_path(default), strict=False)
    return None


def _path(text: str) -> FieldPath:
    try:
        return parse_path(text)
    except (UsageError, ValueError) as err:
        raise UsageError(f"cluster_by {text!r}: {err}") from None


@dataclass
class ClusterLabeler:
    """Collects each item's cluster label as the cohort is made (call it on every item, in
    surface order); `labels` then gives them, or None when the run resamples items."""

    choice: ClusterChoice
    gold_files: Sequence[str] = ()
    ids: list[str] = field(default_factory=list)
    found: list[str | None] = field(default_factory=list)

    def __call__(self, item: Item) -> None:
        self.ids.append(item.id)
        if self.choice.path is not None:
            self.found.append(self._field(item, self.choice.path))

    def _field(self, item: Item, path: FieldPath) -> str | None:
        for record in (item.gold, item.pred):
            if not record:
                continue
            try:
                value = path.get(record)
            except FieldPathError:
                continue
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, str | int):
                raise InputError(
                    f"item {item.id!r}: cluster field {path.text!r} must be a string or an "
                    f"integer, got {type(value).__name__}"
                )
            return str(value)
        if self.choice.strict and item.gold:
            where = ", ".join(self.gold_files) or "the gold"
            raise InputError(
                f"{where}: item {item.id!r} has no field {path.text!r} in its gold or "
                f"prediction record (--cluster-by {path.text}; 'item' resamples items)"
            )
        return None

    def result(self) -> ClusterLabels | None:
        """One label per item in order; None when a suite default found the field on no item
        (the run resamples items)."""
        if self.choice.cluster_map is not None:
            return ClusterLabels(self.choice, self.choice.cluster_map.labels_for(self.ids))
        if not any(label is not None for label in self.found):
            if self.choice.strict and self.ids:
                raise InputError(f"no item has the cluster field {self.choice.by!r}")
            return None
        alone = [i for i, label in zip(self.ids, self.found, strict=True) if label is None]
        warnings: tuple[str, ...] = ()
        if alone:
            warnings = (
                f"{len(alone)} item(s) without {self.choice.by!r} are each their own cluster "
                f"(e.g. {', '.join(repr(i) for i in alone[:3])})",
            )
        # an item without the field is a cluster of its own, named apart from any real label
        labels = tuple(
            label if label is not None else f"\x00{item_id}"
            for item_id, label in zip(self.ids, self.found, strict=True)
        )
        return ClusterLabels(self.choice, labels, warnings)


@dataclass(frozen=True)
class ClusterLabels:
    """A run's clusters: where they came from, one label per item (surface order), and the
    warnings resolving them gave."""

    choice: ClusterChoice
    labels: tuple[str, ...]
    warnings: tuple[str, ...] = ()

    @property
    def n_clusters(self) -> int:
        return len(set(self.labels))
