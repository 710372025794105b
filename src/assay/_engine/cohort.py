"""Pairing predictions with gold into a Cohort, with every item accounted for.

The surface (the denominator) is the expected ids when given, else the gold ids, restricted by
an ids file, in canonical id order (``canonical_order``): every resample is drawn over that
order, so the same ids and values give the same CIs and p-values whatever the order of the
rows in the files. Expected items without a prediction are ``missing``; unparseable predictions that
can be attributed to an id are ``failed``; both are scored as misses. Predictions without gold
are ``unmatched``; duplicates and unattributable parse failures are listed, never dropped.

With ``from_predictions`` (a suite whose seed says so: biblio, seed 002, as bibr's harness
does), the surface is the gold papers that have a prediction (or an unreadable one), and the
expected ids only *add* rows: an expected id with gold but no prediction is ``missing``, one with
neither gold nor a prediction is a ``missing`` item whose gold record is ``{}`` (listed in
``no_gold_ids`` too); an expected id without gold that has a prediction is that prediction's
``unmatched`` entry. Gold papers with neither a prediction nor an expected id are counted in
``n_excluded``.

Ids are compared after ``normalize_id`` (surrounding whitespace stripped, Unicode NFC), on both
sides and in id lists, so ``"doc 1 "`` and ``"doc 1"``, or an "é" typed as e + combining accent
and the precomposed one, are one item. Two different ids of one file that normalize alike are
a collision: listed with both spellings among the duplicates (a gold collision with different
content is an error, as an exact duplicate is).

Repeated prediction ids are duplicates (the first is scored, the rest listed, with a warning
naming ``--samples``) unless the run reads samples (``samples``, a `SampleKey`): then every
prediction of an id is a sample of its item (``Item.samples``), ordered by its sample index field
(``SampleKey.field``, or the first of ``SAMPLE_FIELDS`` the first prediction has) when there is
one, else in file order; only a second record with the same id and sample index is a duplicate.
An unreadable prediction attributed to an id is a failed sample of it (scored as a miss, as a
failed item is); an item whose every sample failed is a failed item.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from assay._engine.item import Item, new_item
from assay._io.records import ParseFailure, ReadResult, SourceRecord
from assay.errors import InputError

KeyFunction = Callable[[SourceRecord], str | None]


@dataclass(frozen=True)
class CohortIssue:
    """A record that could not be used as-is: where it came from and why."""

    id: str | None
    where: str
    reason: str


#: sample index fields looked for, in this order, when samples are read without a named field
SAMPLE_FIELDS = ("sample", "sample_index", "sample_idx", "epoch")


@dataclass(frozen=True)
class SampleKey:
    """How several predictions of one id are read as its samples: ordered and told apart by the
    sample index ``field`` (None: the first of ``SAMPLE_FIELDS`` the first readable prediction
    has; with none, every repeated record is a sample, in file order)."""

    field: str | None = None


@dataclass(frozen=True)
class Cohort:
    """The paired items in canonical id order, plus the accounting of everything else."""

    items: tuple[Item, ...]
    unmatched: tuple[CohortIssue, ...] = ()
    duplicates: tuple[CohortIssue, ...] = ()
    parse_failures: tuple[CohortIssue, ...] = ()
    gold_failures: tuple[CohortIssue, ...] = ()
    no_gold_ids: tuple[str, ...] = ()
    n_excluded: int = 0
    warnings: tuple[str, ...] = field(default=())
    #: files of the prediction records considered (not left out by the ids restriction)
    pred_files: tuple[str, ...] = ()
    #: with samples read: the sample index field used (None: repeated ids in file order)
    sample_field: str | None = None

    @property
    def attempted(self) -> int:
        return len(self.items)

    @property
    def evaluated(self) -> int:
        return sum(1 for item in self.items if item.status == "ok")

    @property
    def missing_ids(self) -> list[str]:
        return [item.id for item in self.items if item.status == "missing"]

    @property
    def failed(self) -> list[CohortIssue]:
        return [
            CohortIssue(item.id, item.source or "", item.error or "")
            for item in self.items
            if item.status == "failed"
        ]

    @property
    def ids(self) -> list[str]:
        return [item.id for item in self.items]


_RUNS = re.compile(r"(\d+)")
_PREFIXED = re.compile(r"(\D+)(\d+)")


def _natural_key(item_id: str) -> tuple[tuple[int, int, str], ...]:
    """Digit runs compared as numbers ("2" < "10"), other runs as text; ties by the raw id."""
    parts = _RUNS.split(item_id)
    key = [
        (0, len(run.lstrip("0")), run.lstrip("0")) if k % 2 else (1, 0, run)
        for k, run in enumerate(parts)
        if run
    ]
    key.append((2, 0, item_id))
    return tuple(key)


def canonical_order(ids: Iterable[str]) -> list[str]:
    """Ids in natural order: numbers in ids by value, the rest by code point; file order ignored.

    Line-numbered ids ("1", "2", ..., "10") keep their file order, so a text-lines run resamples
    exactly as sacrebleu does; any other surface gets one order whatever its files' row order.
    Comparing digit runs by (length without leading zeros, digits) never converts them to int,
    so an id of 10,000 digits sorts too.
    """
    ids = list(ids)
    if all(i.isascii() and i.isdigit() for i in ids):
        return sorted(ids, key=lambda i: (len(i.lstrip("0")), i.lstrip("0"), i))
    # the common shape "doc-123": one text run then one digit run; ``_natural_key`` then
    # compares (text, digit length, digits, id), which this flat key gives in one match
    keys: list[tuple[str, int, str, str]] = []
    for i in ids:
        m = _PREFIXED.fullmatch(i)
        if m is None:
            break
        digits = m[2].lstrip("0")
        keys.append((m[1], len(digits), digits, i))
    else:
        keys.sort()  # the id last: ties cannot reach past it
        return [k[3] for k in keys]
    return sorted(ids, key=_natural_key)


def normalize_id(raw: str) -> str:
    """An id as pairing compares it: stripped of surrounding whitespace, in Unicode NFC."""
    text = raw.strip()
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def _collision(first: str | None, second: str | None) -> str:
    """The two spellings when two different raw ids became one id by normalization."""
    if first is None or second is None or first == second:
        return ""
    return f" (ids {first!r} and {second!r} are one id after strip + NFC normalization)"


def _canonical(record: dict[str, object]) -> str:
    return json.dumps(record, sort_keys=True, ensure_ascii=False, default=str)


def record_id(record: SourceRecord) -> str | None:
    """The default pairing key: the record's id."""
    return record.id


def _scan(records: Sequence[ReadResult], raw_key: KeyFunction) -> Iterable[ReadResult | str]:
    """The results by position, for the pairing's first pass; a sequence that keeps plain
    records as columns (``io.compact.ShapedRecords``) gives such a record as its id string
    when the key is the id (``record_id``): no record is rebuilt just to read its id. Either
    way the result itself is read back by position where a message needs it."""
    ids = getattr(records, "scan", None)
    if ids is not None and raw_key is record_id:
        return cast("Iterable[ReadResult | str]", ids())
    return records


def _record_at(records: Sequence[ReadResult]) -> Callable[[int], tuple[dict[str, Any], str]]:
    """(record, where) of the record at a position: a columnar sequence's own ``record_at``
    (``io.compact.ShapedRecords``: no ``SourceRecord`` rebuilt), else read from the result."""
    own: Callable[[int], tuple[dict[str, Any], str]] | None = getattr(records, "record_at", None)
    if own is not None:
        return own

    def at(position: int) -> tuple[dict[str, Any], str]:
        res = records[position]
        assert isinstance(res, SourceRecord)
        return res.record, res.where()

    return at


def _no_file(position: int) -> str:
    raise AssertionError("only a sequence with file_at gives records as ids")  # pragma: no cover


def build_cohort(
    predictions: Iterable[ReadResult],
    gold: Iterable[ReadResult],
    *,
    pred_key: KeyFunction | None = None,
    gold_key: KeyFunction | None = None,
    expected_ids: Sequence[str] | None = None,
    restrict_ids: Sequence[str] | None = None,
    gold_label: str = "gold",
    pred_label: str = "predictions",
    sink: Callable[[Item], None] | None = None,
    from_predictions: bool = False,
    gold_files: Sequence[str] = (),
    samples: SampleKey | None = None,
) -> Cohort:
    """Pair prediction and gold records by key; see the module docstring for the accounting.

    Four passes: the gold records indexed by id (`_index_gold`), the surface chosen
    (`_choose_surface`), the predictions indexed against it (`_index_predictions`), then one
    item made per surface id (`_make_items`). With ``sink``, each paired item (in surface
    order) is handed to it instead of being kept: the Cohort then has no ``items`` (out-of-core
    scoring writes them to disk as they come). ``gold_files`` name the gold's files in the
    error when no gold record is usable. With ``samples`` every prediction of an id is a sample
    of its item (see the module docstring).
    """
    expected = None if expected_ids is None else [normalize_id(i) for i in expected_ids]
    allowed = None if restrict_ids is None else {normalize_id(i) for i in restrict_ids}
    # records are kept by position, read back when needed: a disk-backed sequence (a task's
    # ``load`` under ``spooling``) then stays on disk while it is paired
    gold_records = gold if isinstance(gold, Sequence) else list(gold)
    pred_records = predictions if isinstance(predictions, Sequence) else list(predictions)
    golds = _index_gold(gold_records, gold_key or record_id, gold_label, gold_files)
    surface = _choose_surface(golds, expected, allowed, from_predictions)
    preds = _index_predictions(
        pred_records, pred_key or record_id, set(surface.ids), allowed, gold_label, samples
    )
    if from_predictions:  # the gold papers that have a prediction, and the expected ids
        wanted = set(expected or ())
        surface.ids = [
            i for i in surface.ids if i in preds.by_id or i in preds.failed or i in wanted
        ]
        surface.n_excluded = len(golds.order) - len(surface.ids)
    items: list[Item] = []
    _make_items(sink or items.append, surface, golds, preds, gold_records, pred_records)
    _check_matched(preds, surface, pred_label, gold_label)
    warnings = surface.warnings + _read_warnings(preds, golds, pred_label, gold_label)
    warnings += _repeated_warning(preds, sampled=samples is not None)
    return Cohort(
        items=tuple(items),
        unmatched=tuple(preds.unmatched),
        duplicates=tuple(golds.duplicates + preds.duplicates),
        parse_failures=tuple(preds.parse_failures),
        gold_failures=tuple(golds.failures),
        no_gold_ids=tuple(surface.no_gold),
        n_excluded=surface.n_excluded,
        warnings=tuple(warnings),
        pred_files=tuple(preds.files),
        sample_field=preds.sampling.index_field if preds.sampling is not None else None,
    )


def _normalized_key(raw_key: KeyFunction) -> KeyFunction:
    """``raw_key`` with its id normalized (``normalize_id``)."""

    def key(r: SourceRecord) -> str | None:
        rid = raw_key(r)
        return None if rid is None else normalize_id(rid)

    return key


@dataclass
class _GoldIndex:
    """The gold records by id (their positions), the ids in file order, and what could not be
    used: unreadable records and duplicates."""

    by_id: dict[str, int] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    failures: list[CohortIssue] = field(default_factory=list)
    duplicates: list[CohortIssue] = field(default_factory=list)


def _index_gold(
    records: Sequence[ReadResult], raw_key: KeyFunction, label: str, files: Sequence[str] = ()
) -> _GoldIndex:
    """Every gold record's position by id; an exact duplicate is listed, a duplicate id with
    other content is an InputError, and no usable record at all is one too (`_no_usable`)."""
    key = _normalized_key(raw_key)
    index = _GoldIndex()
    by_id, order, failures = index.by_id, index.order, index.failures  # locals in the loop
    for position, res in enumerate(_scan(records, raw_key)):
        if type(res) is str:  # a plain record's id (``_scan``)
            gid: str | None = normalize_id(res)
        elif isinstance(res, ParseFailure):
            failures.append(CohortIssue(res.id, res.where(), res.reason))
            continue
        else:
            assert isinstance(res, SourceRecord)
            gid = key(res)
            if gid is None:
                failures.append(CohortIssue(None, res.where(), _no_id("gold", res.record)))
                continue
        assert gid is not None
        if gid in by_id:
            duplicate = _gold_duplicate(records, by_id[gid], position, gid, raw_key)
            index.duplicates.append(duplicate)
            continue
        by_id[gid] = position
        order.append(gid)
    if not index.by_id:
        raise InputError(_no_usable(label, index.failures, files))
    return index


#: field names that usually hold an item's id, for the hint when a record has none
_ID_LIKE = ("id", "_id", "uid", "idx", "index", "key", "doc_id", "item_id", "example_id", "qid")


def _no_id(role: str, record: dict[str, Any]) -> str:
    """Why a record has no id: its fields, and the one that looks like an id, if any."""
    names = [k for k in record if isinstance(k, str)]
    like = next((k for k in names if k.lower() in _ID_LIKE or k.lower().endswith("_id")), None)
    shown = ", ".join(names[:8]) + (", …" if len(names) > 8 else "")
    hint = f"; the id may be in {like!r}: --id-field {like}" if like is not None else ""
    return f"{role} record has no id (its fields: {shown or 'none'}{hint})"


#: reasons named in the error when no gold record is usable (the rest are counted)
_SHOWN_REASONS = 3


def _no_usable(label: str, failures: Sequence[CohortIssue], files: Sequence[str]) -> str:
    """The error when no record of the gold could be used: which files, how many records, and
    the first reasons with where they first occur ("gold.jsonl:1 and 4 more: gold record has
    no field 'expectd' (did you mean 'expected'?)")."""
    where = f" in {', '.join(files)}" if files else ""
    if not failures:
        return f"no usable {label} records{where}: none was read (an empty file or folder?)"
    groups: dict[str, list[str]] = {}
    for issue in failures:
        groups.setdefault(issue.reason, []).append(issue.where)
    parts = []
    for reason, places in list(groups.items())[:_SHOWN_REASONS]:
        more = f" and {len(places) - 1} more" if len(places) > 1 else ""
        parts.append(f"{places[0]}{more}: {reason}")
    rest = len(groups) - _SHOWN_REASONS
    tail = f"; … and {rest} other reason(s)" if rest > 0 else ""
    n = len(failures)
    every = "the one record" if n == 1 else f"all {n} records"
    listed = "; ".join(parts) + tail
    return f"no usable {label} records{where}: {every} could not be used: {listed}"


def _gold_duplicate(
    records: Sequence[ReadResult], kept: int, position: int, gid: str, raw_key: KeyFunction
) -> CohortIssue:
    """The duplicate gold record at ``position`` (the one at ``kept`` is kept), listed when it
    is identical to it; an InputError when its content differs."""
    first, this = records[kept], records[position]
    assert isinstance(first, SourceRecord) and isinstance(this, SourceRecord)
    spelled = _collision(raw_key(first), raw_key(this))
    if _canonical(first.record) != _canonical(this.record):
        raise InputError(
            f"{this.where()}: duplicate gold id {gid!r} with different content "
            f"(first at {first.where()}){spelled}"
        )
    return CohortIssue(gid, this.where(), f"duplicate gold record (identical){spelled}")


@dataclass
class _Surface:
    """The ids scored, in order, and the accounting of the choice: gold ids left out
    (``n_excluded``), expected ids without gold (``no_gold``; with ``from_predictions`` also
    ``added`` as items of their own) and the warnings saying so."""

    ids: list[str]
    n_excluded: int
    no_gold: list[str]
    added: list[str]
    warnings: list[str]


def _choose_surface(
    golds: _GoldIndex,
    expected: list[str] | None,
    allowed: set[str] | None,
    from_predictions: bool,
) -> _Surface:
    """The surface (see the module docstring): the expected ids with gold, else the gold ids,
    restricted to ``allowed``, in canonical order; with ``from_predictions`` the gold ids in
    file order, narrowed once the predictions are known."""

    def kept(i: str) -> bool:
        return allowed is None or i in allowed

    if from_predictions:
        no_gold = [i for i in dict.fromkeys(expected or ()) if i not in golds.by_id and kept(i)]
        warnings = [f"{len(no_gold)} expected id(s) have no gold: {', '.join(no_gold[:10])}"]
        surface = [i for i in golds.order if kept(i)]  # n_excluded set once paired
        return _Surface(surface, 0, no_gold, no_gold, warnings if no_gold else [])
    if expected is not None:
        listed = [i for i in dict.fromkeys(expected) if kept(i)]
        no_gold = [i for i in listed if i not in golds.by_id]
        warnings = [
            f"{len(no_gold)} expected id(s) have no gold and cannot be scored: "
            f"{', '.join(no_gold[:10])}"
        ]
        surface = canonical_order(i for i in listed if i in golds.by_id)
        return _Surface(
            surface, len(golds.by_id) - len(surface), no_gold, [], warnings if no_gold else []
        )
    surface = canonical_order(i for i in golds.order if kept(i))
    return _Surface(surface, len(golds.order) - len(surface), [], [], [])


@dataclass
class _PredictionIndex:
    """The predictions paired to surface ids (their positions), unreadable ones attributed to
    a surface id (``failed``), and the rest of the accounting."""

    by_id: dict[str, int] = field(default_factory=dict)
    failed: dict[str, CohortIssue] = field(default_factory=dict)
    unmatched: list[CohortIssue] = field(default_factory=list)
    parse_failures: list[CohortIssue] = field(default_factory=list)
    duplicates: list[CohortIssue] = field(default_factory=list)
    #: files of the records considered (not left out by the ids restriction), in order
    files: dict[str, None] = field(default_factory=dict)
    #: records read, readable or not
    n_read: int = 0
    #: with samples read: every sample of each id (``_Sampling``)
    sampling: _Sampling | None = None


@dataclass
class _Sampling:
    """The samples of each id when samples are read: readable ones as (sort key, position),
    unreadable ones as their issue, and the (id, sample index) pairs seen."""

    index_field: str | None
    #: whether ``index_field`` is still to be chosen from the first readable prediction
    detect: bool
    readable: dict[str, list[tuple[tuple[int, int, str], int]]] = field(default_factory=dict)
    failed: dict[str, list[CohortIssue]] = field(default_factory=dict)
    seen: dict[tuple[str, str], int] = field(default_factory=dict)

    def choose_field(self, record: dict[str, Any]) -> None:
        """The sample field from the first readable prediction's fields (``SAMPLE_FIELDS``)."""
        if self.detect:
            self.detect = False
            self.index_field = next((f for f in SAMPLE_FIELDS if f in record), None)

    def add(self, pid: str, position: int, res: SourceRecord, order: int) -> CohortIssue | None:
        """Sample ``res`` of ``pid``; an issue instead when it has no sample index or repeats
        one of its id's (a duplicate: the first is kept)."""
        self.choose_field(res.record)
        if self.index_field is None:
            self.readable.setdefault(pid, []).append(((0, order, ""), position))
            return None
        value = res.record.get(self.index_field)
        if value is None or isinstance(value, dict | list):
            return CohortIssue(
                pid, res.where(), f"prediction has no sample index in field {self.index_field!r}"
            )
        text = str(value)
        first = self.seen.setdefault((pid, text), position)
        if first != position:
            return CohortIssue(pid, res.where(), f"duplicate sample {text!r} of id {pid!r}")
        number = int(value) if isinstance(value, int) or text.isdigit() else None
        key = (0, number, "") if number is not None else (1, 0, text)
        self.readable.setdefault(pid, []).append((key, position))
        return None


def _index_predictions(
    records: Sequence[ReadResult],
    raw_key: KeyFunction,
    in_surface: set[str],
    allowed: set[str] | None,
    gold_label: str,
    samples: SampleKey | None = None,
) -> _PredictionIndex:
    """Every prediction's position by surface id: the first of a duplicate id is kept, one
    outside the restriction skipped, one without gold unmatched, an unreadable one failed when
    its id is a surface id not yet predicted (a later readable prediction replaces it). With
    ``samples``, every readable and unreadable prediction of a surface id is also one of its
    samples (``_PredictionIndex.sampling``)."""
    key = _normalized_key(raw_key)
    index = _PredictionIndex()
    if samples is not None:
        index.sampling = _Sampling(samples.field, detect=samples.field is None)
    sampling = index.sampling
    by_id, files, failed = index.by_id, index.files, index.failed  # locals in the loop
    file_at: Callable[[int], str] = getattr(records, "file_at", _no_file)
    n_read = 0
    # samples read: each record whole (its sample index), never a plain record's bare id
    scanned = records if sampling is not None else _scan(records, raw_key)
    for position, res in enumerate(scanned):
        n_read += 1
        if type(res) is str:  # a plain record's id (``_scan``)
            pid: str | None = normalize_id(res)
            file = file_at(position)
        elif isinstance(res, ParseFailure):
            _unreadable_prediction(index, res, in_surface)
            continue
        else:
            assert isinstance(res, SourceRecord)
            pid, file = key(res), res.file
            if pid is None:
                files[file] = None
                reason = _no_id("prediction", res.record)
                index.parse_failures.append(CohortIssue(None, res.where(), reason))
                continue
        assert pid is not None
        if allowed is not None and pid not in allowed:
            continue
        files[file] = None
        if sampling is not None and pid in in_surface:
            assert isinstance(res, SourceRecord)
            issue = sampling.add(pid, position, res, n_read)
            if issue is not None:
                index.duplicates.append(issue)
                continue
            if pid in by_id:
                continue  # the item's first sample is kept in ``by_id``
        if pid in by_id:
            duplicate = _duplicate_prediction(records, by_id[pid], position, pid, raw_key)
            index.duplicates.append(duplicate)
            continue
        if pid not in in_surface:
            where = records[position].where()
            index.unmatched.append(CohortIssue(pid, where, f"no {gold_label} record with this id"))
            continue
        by_id[pid] = position
        failed.pop(pid, None)
    index.n_read = n_read
    return index


def _duplicate_prediction(
    records: Sequence[ReadResult], kept: int, position: int, pid: str, raw_key: KeyFunction
) -> CohortIssue:
    """The duplicate prediction at ``position``, listed (the one at ``kept`` is scored)."""
    first, this = records[kept], records[position]
    assert isinstance(first, SourceRecord) and isinstance(this, SourceRecord)
    spelled = _collision(raw_key(first), raw_key(this))
    return CohortIssue(pid, this.where(), f"duplicate prediction; kept {first.where()}{spelled}")


def _unreadable_prediction(
    index: _PredictionIndex, res: ParseFailure, in_surface: set[str]
) -> None:
    """An unreadable prediction: the failure of its surface id when it names one not yet
    predicted, else a parse failure."""
    index.files[res.file] = None
    fid = None if res.id is None else normalize_id(res.id)
    if index.sampling is not None and fid is not None and fid in in_surface:
        issue = CohortIssue(fid, res.where(), res.reason)
        index.sampling.failed.setdefault(fid, []).append(issue)
        index.failed.setdefault(fid, issue)
    elif fid is not None and fid in in_surface and fid not in index.by_id:
        index.failed.setdefault(fid, CohortIssue(fid, res.where(), res.reason))
    else:
        index.parse_failures.append(CohortIssue(fid, res.where(), res.reason))


def _make_items(
    add: Callable[[Item], None],
    surface: _Surface,
    golds: _GoldIndex,
    preds: _PredictionIndex,
    gold_records: Sequence[ReadResult],
    pred_records: Sequence[ReadResult],
) -> None:
    """One item per surface id, in order: paired, failed (its prediction unreadable) or
    missing; then the added expected ids without gold nor prediction, as missing items."""
    gold_at, pred_at = _record_at(gold_records), _record_at(pred_records)
    sampling = preds.sampling
    for gid in surface.ids:
        g = gold_at(golds.by_id[gid])[0]
        if sampling is not None and (gid in preds.by_id or gid in preds.failed):
            add(_sampled_item(gid, g, sampling, pred_at))
        elif gid in preds.by_id:
            add(new_item(gid, g, *pred_at(preds.by_id[gid])))
        elif gid in preds.failed:
            issue = preds.failed[gid]
            add(new_item(gid, g, None, issue.where, None, issue.reason, "failed"))
        else:
            add(new_item(gid, g, None, None, None, "no prediction", "missing"))
    unmatched_ids = {u.id for u in preds.unmatched}
    for gid in surface.added:
        if gid not in unmatched_ids:
            add(new_item(gid, {}, None, None, None, "no prediction and no gold record", "missing"))


def _sampled_item(
    gid: str,
    gold: dict[str, Any],
    sampling: _Sampling,
    pred_at: Callable[[int], tuple[dict[str, Any], str]],
) -> Item:
    """The item of ``gid`` with its samples: readable ones in sample order, then unreadable
    ones (failed samples); its own prediction the first readable sample's, else it is failed."""
    readable = sorted(sampling.readable.get(gid, ()))
    subs = [new_item(gid, gold, *pred_at(position)) for _, position in readable]
    subs += [
        new_item(gid, gold, None, issue.where, None, issue.reason, "failed")
        for issue in sampling.failed.get(gid, ())
    ]
    first = subs[0]
    return new_item(
        gid, gold, first.pred, first.source, None, first.error, first.status, tuple(subs)
    )


def _check_matched(
    preds: _PredictionIndex, surface: _Surface, pred_label: str, gold_label: str
) -> None:
    """Predictions were read but none names a surface id: an InputError with samples of both
    sides' ids (the usual cause: the wrong id field or the wrong files)."""
    if preds.n_read and not preds.by_id and not preds.failed:
        sample_p = ", ".join(str(u.id) for u in preds.unmatched[:3]) or "none with an id"
        sample_g = ", ".join(surface.ids[:3])
        raise InputError(
            f"none of the {preds.n_read} {pred_label} records matched a {gold_label} id "
            f"(prediction ids: {sample_p}; gold ids: {sample_g})"
        )


def _repeated_warning(preds: _PredictionIndex, *, sampled: bool) -> list[str]:
    """Without samples read, a warning when prediction ids repeat: the first of each is scored
    and the rest listed as duplicates; ``--samples`` scores each as a sample of its item."""
    if sampled or not preds.duplicates:
        return []
    return [
        f"{len(preds.duplicates)} prediction record(s) repeat an id already predicted: the "
        "first of each id is scored and the rest are listed as duplicates; if they are "
        "repeated samples of the same items, score them with --samples (the mean over each "
        "item's samples, pass@k, the within-item variance)"
    ]


def _read_warnings(
    preds: _PredictionIndex, golds: _GoldIndex, pred_label: str, gold_label: str
) -> list[str]:
    """Warnings about what was read: no predictions at all, unreadable gold records."""
    warnings = []
    if preds.n_read == 0:
        warnings.append(f"no {pred_label} records were read: every item is missing")
    if golds.failures:
        warnings.append(f"{len(golds.failures)} {gold_label} record(s) could not be read")
    return warnings
