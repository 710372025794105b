"""Run: the JSON artifact of one scored run, the same envelope for every task.

Reports, the store, gates and comparisons read a Run, never the original files: it carries the
statistics table and the metric specs, so a paired test needs nothing else.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, overload, runtime_checkable

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    field_serializer,
    field_validator,
    model_serializer,
)

from assay._engine.artifact import check_items, check_run, refuse_input
from assay._io.atomic import Written, write_atomic
from assay._io.listlike import ListLike
from assay.errors import InputError
from assay.metrics.spec import MetricSpec, Tier
from assay.metrics.table import StatsTable, compact_rows

if TYPE_CHECKING:
    from assay.stats.units import Units

T = TypeVar("T")
#: 2: compact rows and items, item fields at their default omitted (schema 1 still loads)
ARTIFACT_SCHEMA = 2


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MetricResult(_Model):
    """One metric of a run: point value, percentile CI, support and, for per-item means, spread."""

    name: str
    value: float | None
    ci_lower: float | None = None
    ci_upper: float | None = None
    ci_method: str | None = None
    n: int
    tier: Tier = "core"
    higher_is_better: bool = True
    kind: str
    path: str = "fast"
    description: str = ""
    mean: float | None = None
    p10: float | None = None
    median: float | None = None
    min: float | None = None
    max: float | None = None

    #: with clusters: Var(cluster bootstrap) / Var(iid bootstrap) of the value
    design_effect: float | None = None
    #: the resampling units the CI is over (clusters, or items) and what they are called
    n_units: int | None = None
    unit: str | None = None

    _numbers_not_strings = field_validator(
        "value",
        "ci_lower",
        "ci_upper",
        "n",
        "mean",
        "p10",
        "median",
        "min",
        "max",
        "design_effect",
        "n_units",
        mode="before",
    )(refuse_input)

    @model_serializer(mode="wrap")
    def _unclustered_omitted(self, handler: SerializerFunctionWrapHandler) -> Any:
        """The cluster fields are written only when set: an iid run's artifact is as before."""
        data = handler(self)
        if isinstance(data, dict):
            for key in _CLUSTER_FIELDS:
                if data.get(key) is None:
                    data.pop(key, None)
        return data


_CLUSTER_FIELDS = ("design_effect", "n_units", "unit")


class UnitsRecord(_Model):
    """A run's resampling units: the field (or file) naming each item's cluster, where it came
    from, and how many clusters there are; the labels themselves are ``stats.clusters``, one
    per id. A run without it (every artifact older than clusters) resamples items."""

    by: str
    source: str
    n_clusters: int


class IssueRecord(_Model):
    id: str | None
    where: str
    reason: str


class CohortSummary(_Model):
    """Who was scored: attempted = evaluated + missing + failed; the rest is listed."""

    attempted: int
    evaluated: int
    missing: int
    missing_ids: list[str]
    failed: int
    failures: list[IssueRecord]
    unmatched: int
    unmatched_ids: list[str]
    unmatched_records: list[IssueRecord]
    duplicates: list[IssueRecord]
    parse_failures: list[IssueRecord]
    gold_failures: list[IssueRecord]
    no_gold_ids: list[str]
    excluded: int
    abstained: int
    abstained_ids: list[str]


class Provenance(_Model):
    predictions: list[str]
    predictions_sha256: str
    gold: list[str]
    gold_sha256: str
    git_commit: str | None
    config_sha256: str
    seed: int
    ci: bool
    n_bootstrap_ci: int
    alpha: float
    assay_version: str


class Surface(_Model):
    """The dataset fingerprint: two runs are compared on equal surfaces (or the id overlap)."""

    fingerprint: str
    n_items: int
    seed: int
    gold_sha256: str


class ItemRecord(_Model):
    id: str
    status: str
    gold_sha256: str
    source: str | None = None
    error: str | None = None
    scores: dict[str, float | None] = Field(default_factory=dict)
    flags: list[str] = Field(default_factory=list)
    details: dict[str, Any] = Field(default_factory=dict)


class _ItemKey(BaseModel):
    """What a comparison reads of an item record: its id and its gold digest (the parser skips
    the rest of the record without building it). Its validator is built when a comparison
    first reads keys (``defer_build``), not when a scoring run imports this module."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    id: str
    gold_sha256: str


@cache
def _item_keys_adapter() -> TypeAdapter[list[_ItemKey]]:
    return TypeAdapter(list[_ItemKey])


@cache
def _items_adapter() -> TypeAdapter[list[ItemRecord]]:
    return TypeAdapter(list[ItemRecord])


#: an empty JSON array, whitespace around it allowed
_EMPTY_ARRAY = re.compile(rb"\s*\[\s*\]\s*\Z")


class LazyItems(ListLike[ItemRecord]):
    """The item records of an artifact read with ``lazy_items``: parsed when first used.

    In a translation artifact 84% of the bytes are the records' texts, which a comparison of
    runs on one surface never reads (_engine/run.py ``Run.from_bytes``). The records' ids and gold
    digests (``id_digests``) are parsed on their own when asked for, the whole records on first
    access; either way they are checked as ``Run.load`` checks them (the records validated, their
    ids those of ``stats.ids``), a problem being the ``InputError`` ``Run.load`` gives for it.
    """

    def __init__(
        self, data: bytes, span: tuple[int, int], origin: Path, check: Callable[[list[str]], None]
    ) -> None:
        self._data = data  # the whole artifact: an error is reported as reading it whole does
        self._span = span
        self._origin = origin
        self._check = check  # refuses record ids that are not stats.ids
        self._keys: list[tuple[str, str]] | None = None
        self._records: list[ItemRecord] | None = None
        #: True when the artifact lists no records (known without parsing)
        self.empty = _EMPTY_ARRAY.match(data, *span) is not None

    @property
    def id_digests(self) -> list[tuple[str, str]]:
        """(id, gold_sha256) of every record, in order (the records themselves not built)."""
        if self._keys is None:
            if self._records is not None:
                keys = [(r.id, r.gold_sha256) for r in self._records]
            else:
                keys = [(k.id, k.gold_sha256) for k in self._parse(_item_keys_adapter())]
            self._check([item_id for item_id, _ in keys])
            self._keys = keys
        return self._keys

    def records(self) -> list[ItemRecord]:
        """The records, parsed (once) from the artifact's text."""
        if self._records is None:
            self._records = self._parse(_items_adapter())
            self.id_digests  # noqa: B018  (checks the records' ids once)
        return self._records

    def _parse(self, adapter: TypeAdapter[list[T]]) -> list[T]:
        start, end = self._span
        try:
            return adapter.validate_json(self._data[start:end])
        except ValidationError as err:
            try:  # the error of the whole artifact, as Run.load reports it
                Run.model_validate_json(self._data)
            except ValidationError as whole:
                raise _artifact_error(whole, self._origin) from None
            raise _artifact_error(err, self._origin, "items.") from None

    def __len__(self) -> int:
        return 0 if self.empty else len(self.id_digests)

    @overload
    def __getitem__(self, index: int) -> ItemRecord: ...

    @overload
    def __getitem__(self, index: slice) -> list[ItemRecord]: ...

    def __getitem__(self, index: int | slice) -> ItemRecord | list[ItemRecord]:
        return self.records()[index]

    def __iter__(self) -> Iterator[ItemRecord]:
        return iter(self.records())


class Run(_Model):
    """The scored run (see DESIGN.md, "A Run")."""

    artifact_schema: int = ARTIFACT_SCHEMA
    assay_version: str
    task: str
    metrics_version: int
    run_id: str
    name: str
    generated_at: str
    provenance: Provenance
    surface: Surface
    settings: dict[str, Any]
    cohort: CohortSummary
    metrics: dict[str, MetricResult]
    summaries: dict[str, Any] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    #: the reproducibility signature (assay._engine.signature); "" in artifacts older than it
    signature: str = ""
    #: the clusters CIs and paired tests resample; None: items (written only when set)
    units: UnitsRecord | None = None
    specs: list[dict[str, Any]]
    stats: dict[str, Any]
    # a list; for a run scored here, records made from its items when read (_engine/records.py),
    # or for a spilled run (see _engine/spill.py) a lazy sequence read from disk;
    # ``stats`` and ``items`` stay the last two fields: the streamed writer relies on it
    items: Sequence[ItemRecord]

    @field_serializer("items", mode="wrap")
    def _items_as_list(
        self, value: Sequence[ItemRecord], handler: SerializerFunctionWrapHandler
    ) -> Any:
        return handler(value if isinstance(value, list) else list(value))

    @field_serializer("stats", mode="wrap")
    def _stats_as_lists(self, value: dict[str, Any], handler: SerializerFunctionWrapHandler) -> Any:
        rows = value.get("values")
        if rows is not None and not isinstance(rows, list):
            value = {**value, "values": list(rows)}
        return handler(value)

    @model_serializer(mode="wrap")
    def _iid_units_omitted(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict) and data.get("units", 0) is None:
            data.pop("units")
        return data

    def table_units(self) -> Units:
        """The resampling units of ``table()``'s rows: its cluster labels (``stats.clusters``)
        named by ``units.by``, or items (``ITEMS``) for a run without clusters."""
        from assay.stats.units import ITEMS, Units

        labels = self.stats.get("clusters")
        if self.units is None or labels is None:
            return ITEMS
        return Units(self.units.by, tuple(labels))

    @property
    def spilled(self) -> bool:
        """True when the items (and statistics rows) are read from disk on demand."""
        from assay._engine.spill import SpilledSequence  # loaded already where a run spilled

        return isinstance(self.items, SpilledSequence)

    def table(self) -> StatsTable:
        """The per-item statistics table (rows in surface order)."""
        rows = self.stats.get("values")
        if isinstance(rows, CheckedRows) and len(rows) == len(rows.matrix):
            return StatsTable.from_json({**self.stats, "values": rows.matrix})
        return StatsTable.from_json(self.stats)

    def metric_specs(self) -> list[MetricSpec]:
        """The run's specs, each one's kind registered (a suite's own: by importing it)."""
        from assay._engine.registry import ensure_kinds

        return ensure_kinds(self.task, (MetricSpec.from_json(s) for s in self.specs))

    def item_ids(self) -> list[str]:
        """The ids of the item records, in order."""
        if isinstance(self.items, LazyItems):
            return [item_id for item_id, _ in self.items.id_digests]
        return [item.id for item in self.items]

    def item_gold_digests(self) -> dict[str, str]:
        if isinstance(self.items, LazyItems):
            return dict(self.items.id_digests)
        return {item.id: item.gold_sha256 for item in self.items}

    def to_json(self) -> str:
        """The artifact's text: deterministic, NaN never appears (undefined values are null).

        See `artifact_pieces` for the layout; `pretty_json` indents everything for reading.
        """
        return "".join(self.iter_json())

    def iter_json(self) -> Iterator[str]:
        """``to_json()`` in pieces, written row by row and item by item (a spilled run is saved
        without building its text)."""
        return artifact_pieces(self)

    def pretty_json(self) -> str:
        """The artifact indented throughout (every row and item spread over lines), for humans;
        ``Run.load`` reads either text."""
        data = json.loads(self.to_json())
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the artifact whole or not at all (``write_artifact``); the path written."""
        return self.write_artifact(path).path

    def write_artifact(
        self, path: str | os.PathLike[str], *, progress: Callable[[int], None] | None = None
    ) -> Written:
        """Write the artifact to ``path`` through ``assay._io.atomic.write_atomic``: a unique
        temporary file in its folder, flushed and ``fsync``ed, renamed over ``path`` (a
        reader, or a crash, never sees half a file; of concurrent writers the last rename
        wins, each whole). ``Written.is_ours()`` then says whether the file on disk is still
        this run's. ``progress(n)``: n more bytes written. A path that is not a regular file
        (``/dev/null``, ``/dev/stdout``, a FIFO) is written in place."""
        return write_atomic(path, artifact_bytes(self), progress=progress)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, lazy_items: bool = False) -> Run:
        """Read a run artifact; a missing or malformed file is an InputError naming it.

        ``lazy_items``: the item records are parsed on first access (`LazyItems`), for a reader
        that needs only the envelope and the statistics (``mt compare``)."""
        p = Path(path)
        try:
            data = p.read_bytes()
        except FileNotFoundError:
            raise InputError(f"{p}: run file not found") from None
        except OSError as err:
            raise InputError(f"{p}: not a readable run artifact: {err}") from None
        return cls.from_bytes(data, p, lazy_items=lazy_items)

    @classmethod
    def from_bytes(
        cls,
        data: bytes | str,
        origin: str | os.PathLike[str] = "<run>",
        *,
        lazy_items: bool = False,
    ) -> Run:
        """A run from artifact text already read (``origin`` names it in errors).

        With ``lazy_items`` the records, when ``"items"`` is the artifact's last member (as every
        writer puts it), are kept as text and parsed and checked when first used (`LazyItems`);
        the rest is parsed and checked now. An artifact laid out otherwise, or whose rest has
        any error, is read whole, so the refusal is the one ``Run.load`` gives."""
        p = Path(origin)
        span = _items_span(data) if lazy_items and isinstance(data, bytes) else None
        if span is not None:
            assert isinstance(data, bytes)
            try:
                run = cls.model_validate_json(data[: span[0]] + b"[]}")
            except ValidationError:
                pass  # read whole below: the error is the one Run.load gives
            else:
                ids = run.stats.get("ids")
                run.items = LazyItems(data, span, p, lambda listed: check_items(ids, listed, p))
                _keep_matrix(run, check_run(run, p, items=False))
                return run
        try:
            # pydantic-core parses the bytes straight into the models (no Python dict tree)
            run = cls.model_validate_json(data)
        except ValidationError as err:
            raise _artifact_error(err, p) from None
        _keep_matrix(run, check_run(run, p))  # tampering refused naming the field
        return run


class CheckedRows(list[Any]):
    """``stats.values`` as read and checked, carrying the float64 matrix the check built
    (read-only), so that ``Run.table`` does not convert 10⁵ cells a second time. A list
    everywhere else (equality, JSON, pickling); a run whose rows are replaced converts them."""

    matrix: Any


def _keep_matrix(run: Run, matrix: Any) -> None:
    if matrix is not None:
        rows = CheckedRows(run.stats["values"])
        rows.matrix = matrix
        run.stats["values"] = rows


#: how every artifact writer introduces the last member (a JSON string holds no raw newline,
#: so these bytes are outside strings; a valid head below shows they are at the top level)
_ITEMS_MEMBER = b'\n  "items": '


def _items_span(data: bytes) -> tuple[int, int] | None:
    """Where the text of ``items`` is, when it is the artifact's last member.

    The rest, closed as ``"items": []}``, is then parsed as a whole JSON object and the span,
    when read, as a whole array: the two read exactly as the artifact would."""
    at = data.rfind(_ITEMS_MEMBER)
    end = len(data)
    while end and data[end - 1] in b" \t\r\n":  # (no stripped copy of the whole text)
        end -= 1
    if at < 0 or data[end - 1 : end] != b"}":
        return None
    return at + len(_ITEMS_MEMBER), end - 1


def _artifact_error(err: ValidationError, p: Path, prefix: str = "") -> InputError:
    """A validation error of an artifact as the one-line InputError naming file and field
    (``prefix`` is prepended to the field's location)."""
    first = err.errors()[0]
    if first["type"] == "json_invalid":
        return InputError(f"{p}: not a readable run artifact: {first['msg']}")
    loc = prefix + ".".join(str(x) for x in first["loc"])
    if first["type"] == "value_error":  # a tampered number (_engine/artifact.py)
        problem = first.get("ctx", {}).get("error", first["msg"])
        return InputError(f"{p}: tampered or corrupt run artifact: {loc}: {problem}")
    return InputError(f"{p}: not an assay run artifact: {loc}: {first['msg']}")


def looks_like_run(data: bytes) -> bool:
    """True when ``data`` starts like a run artifact (every writer puts ``artifact_schema``
    first), so a caller holding unknown JSON parses it once, as a Run or as something else."""
    return data.lstrip()[:1] == b"{" and b'"artifact_schema"' in data[:256]


def item_line(record: ItemRecord) -> bytes:
    """One item record as the artifact writes it: one line of compact JSON (UTF-8), fields
    left at their default (no source, no error, no flags...) omitted;
    ``ItemRecord.model_validate_json`` reads it back equal. Written by pydantic-core's encoder
    (non-finite floats as null): ``model_dump_json``'s bytes, before it decodes them."""
    return _RECORD_SERIALIZER.to_json(record, exclude_defaults=True)


_RECORD_SERIALIZER = ItemRecord.__pydantic_serializer__


#: statistics cells encoded per call of the C encoder (whole rows: at least one a call); a
#: block's numbers, text and bytes are alive at once
CELL_BLOCK = 1 << 14


def artifact_pieces(run: Run) -> Iterator[str]:
    """The artifact text of ``run`` in pieces (``artifact_bytes`` decoded)."""
    return (piece.decode("utf-8") for piece in artifact_bytes(run))


def artifact_bytes(run: Run) -> Iterator[bytes]:
    """The artifact of ``run`` in pieces of UTF-8 bytes (what ``Run.save`` writes: the item
    lines as pydantic-core encodes them, never decoded to text and encoded again).

    Layout (artifact schema 2): the envelope (every field but ``stats`` and ``items``) indented
    by two spaces, as a person reads it; then ``stats`` with its ``ids`` and ``columns`` each on
    one line and one compact line per statistics row; then ``items``, one compact line per
    item record (`item_line`). The bulk of the bytes are thus written by C encoders (json's
    and pydantic-core's) block by block, and reading needs nothing but a JSON parser; schema 1
    artifacts (indented throughout, every item field present) load the same way.
    """
    head = run.model_dump_json(indent=2, exclude={"stats", "items"})
    if not head.endswith("\n}"):  # pragma: no cover - pydantic always writes an object
        raise AssertionError("unexpected envelope text")
    yield (head[:-2] + ',\n  "stats": ').encode("utf-8")
    for piece in _stats_pieces(run.stats):
        yield piece.encode("utf-8")
    yield b',\n  "items": '
    items = run.items
    lines = items.raw() if isinstance(items, EncodedRecords) else map(item_line, items)
    yield from _array_lines(lines)
    yield b"\n}\n"


@runtime_checkable
class EncodedRecords(Protocol):
    """Item records that give their artifact lines themselves, as ``item_line`` writes them:
    a run scored in memory (``_engine.records.ScoredRecords``, lines made a block at a time
    without building a record each) and a spilled run (``_engine.spill.SpilledSequence``,
    lines read from its file). The writer asks for the lines, not for these classes, so this
    module needs neither the scoring's records nor the spill machinery to write a run."""

    def raw(self) -> Iterator[bytes]: ...


def _array_lines(lines: Iterable[bytes]) -> Iterator[bytes]:
    """A JSON array at the second level whose elements (one line each) go on lines of their
    own."""
    sep = b"[\n    "
    empty = True
    for line in lines:
        yield sep + line
        sep = b",\n    "
        empty = False
    yield b"[]" if empty else b"\n  ]"


def _stats_pieces(stats: dict[str, Any]) -> Iterator[str]:
    """``stats``: each member compact on one line, ``values`` one row a line."""
    if not stats:
        yield "{}"
        return
    sep = "{\n    "
    for key, value in stats.items():
        yield sep + _compact(key) + ": "
        sep = ",\n    "
        if key == "values":
            yield from _row_lines(value)
        else:
            yield _compact(
                list(value) if isinstance(value, Sequence) and not isinstance(value, str) else value
            )
    yield "\n  }"


def _row_lines(rows: Any) -> Iterator[str]:
    """The statistics rows, CELL_BLOCK cells at a time through the C encoder, one row a line."""
    from assay._engine.spill import StatsRows

    if isinstance(rows, StatsRows):
        values = rows.values
        step = max(1, CELL_BLOCK // max(1, values.shape[1]))
        blocks: Iterable[Any] = (
            compact_rows(values[lo : lo + step]) for lo in range(0, len(rows), step)
        )
    else:
        step = max(1, CELL_BLOCK // max(1, len(rows[0]) if len(rows) else 1))
        blocks = (rows[lo : lo + step] for lo in range(0, len(rows), step))
    sep = "[\n      "
    empty = True
    for block in blocks:
        if not len(block):
            continue
        text = _compact(block)  # "[[...],[...]]": numbers only, so "],[" only parts rows
        yield sep + text[1:-1].replace("],[", "],\n      [")
        sep = ",\n      "
        empty = False
    yield "[]" if empty else "\n    ]"


def _compact(value: Any) -> str:
    """Compact JSON through the C encoder; non-finite floats become null (``json_safe``)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        return json.dumps(
            json_safe(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False
        )


def json_safe(value: Any) -> Any:
    """``value`` with every non-finite float (NaN, ±inf) replaced by None, through dicts, lists
    and tuples (a tuple becomes a list): an undefined number is null in an artifact, never
    NaN, which strict JSON has no word for. The run store encodes runs the same way."""
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value
