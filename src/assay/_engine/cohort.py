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
) -> Cohort:
    """Pair prediction and gold records by key; see the module docstring for the accounting.

    With ``sink``, each paired item (in surface order) is handed to it instead of being kept:
    the Cohort then has no ``items`` (out-of-core scoring writes them to disk as they come).
    """
    raw_pkey = pred_key or record_id
    raw_gkey = gold_key or record_id

    def pkey(r: SourceRecord) -> str | None:
        rid = raw_pkey(r)
        return None if rid is None else normalize_id(rid)

    def gkey(r: SourceRecord) -> str | None:
        rid = raw_gkey(r)
        return None if rid is None else normalize_id(rid)

    if expected_ids is not None:
        expected_ids = [normalize_id(i) for i in expected_ids]
    if restrict_ids is not None:
        restrict_ids = [normalize_id(i) for i in restrict_ids]
    allowed = set(restrict_ids) if restrict_ids is not None else None
    warnings: list[str] = []

    # records are kept by position, read back when needed: a disk-backed sequence (a task's
    # ``load`` under ``spooling``) then stays on disk while it is paired
    gold_records = gold if isinstance(gold, Sequence) else list(gold)
    pred_records = predictions if isinstance(predictions, Sequence) else list(predictions)
    gold_by_id: dict[str, int] = {}
    gold_order: list[str] = []
    gold_failures: list[CohortIssue] = []
    duplicates: list[CohortIssue] = []
    for position, res in enumerate(_scan(gold_records, raw_gkey)):
        if type(res) is str:  # a plain record's id (``_scan``)
            gid: str | None = normalize_id(res)
        elif isinstance(res, ParseFailure):
            gold_failures.append(CohortIssue(res.id, res.where(), res.reason))
            continue
        else:
            assert isinstance(res, SourceRecord)
            gid = gkey(res)
            if gid is None:
                gold_failures.append(CohortIssue(None, res.where(), "gold record has no id"))
                continue
        assert gid is not None
        if gid in gold_by_id:
            first = gold_records[gold_by_id[gid]]
            this = gold_records[position]
            assert isinstance(first, SourceRecord) and isinstance(this, SourceRecord)
            spelled = _collision(raw_gkey(first), raw_gkey(this))
            if _canonical(first.record) != _canonical(this.record):
                raise InputError(
                    f"{this.where()}: duplicate gold id {gid!r} with different content "
                    f"(first at {first.where()}){spelled}"
                )
            duplicates.append(
                CohortIssue(gid, this.where(), f"duplicate gold record (identical){spelled}")
            )
            continue
        gold_by_id[gid] = position
        gold_order.append(gid)

    if not gold_by_id:
        detail = f" ({len(gold_failures)} unreadable)" if gold_failures else ""
        raise InputError(f"no usable {gold_label} records{detail}")

    added: list[str] = []
    if from_predictions:
        surface = [i for i in gold_order if allowed is None or i in allowed]
        n_excluded = 0  # set once the predictions are paired
        added = no_gold = [
            i
            for i in dict.fromkeys(expected_ids or ())
            if i not in gold_by_id and (allowed is None or i in allowed)
        ]
        if no_gold:
            warnings.append(
                f"{len(no_gold)} expected id(s) have no gold: {', '.join(no_gold[:10])}"
            )
    elif expected_ids is not None:
        surface = [i for i in dict.fromkeys(expected_ids) if allowed is None or i in allowed]
        no_gold = [i for i in surface if i not in gold_by_id]
        if no_gold:
            warnings.append(
                f"{len(no_gold)} expected id(s) have no gold and cannot be scored: "
                f"{', '.join(no_gold[:10])}"
            )
        surface = canonical_order(i for i in surface if i in gold_by_id)
        n_excluded = len(gold_by_id) - len(surface)
    else:
        no_gold = []
        surface = canonical_order(i for i in gold_order if allowed is None or i in allowed)
        n_excluded = len(gold_order) - len(surface)
    in_surface = set(surface)

    preds: dict[str, int] = {}
    failed: dict[str, CohortIssue] = {}
    unmatched: list[CohortIssue] = []
    parse_failures: list[CohortIssue] = []
    pred_files: dict[str, None] = {}
    n_pred = 0
    file_at: Callable[[int], str] = getattr(pred_records, "file_at", _no_file)
    for position, res in enumerate(_scan(pred_records, raw_pkey)):
        n_pred += 1
        if type(res) is str:  # a plain record's id (``_scan``)
            pid: str | None = normalize_id(res)
            file = file_at(position)
        elif isinstance(res, ParseFailure):
            pred_files[res.file] = None
            fid = None if res.id is None else normalize_id(res.id)
            if fid is not None and fid in in_surface and fid not in preds:
                failed.setdefault(fid, CohortIssue(fid, res.where(), res.reason))
            else:
                parse_failures.append(CohortIssue(fid, res.where(), res.reason))
            continue
        else:
            assert isinstance(res, SourceRecord)
            pid, file = pkey(res), res.file
            if pid is None:
                pred_files[file] = None
                parse_failures.append(CohortIssue(None, res.where(), "prediction has no id"))
                continue
        assert pid is not None
        if allowed is not None and pid not in allowed:
            continue
        pred_files[file] = None
        if pid in preds:
            first, this = pred_records[preds[pid]], pred_records[position]
            assert isinstance(first, SourceRecord) and isinstance(this, SourceRecord)
            spelled = _collision(raw_pkey(first), raw_pkey(this))
            reason = f"duplicate prediction; kept {first.where()}{spelled}"
            duplicates.append(CohortIssue(pid, this.where(), reason))
            continue
        if pid not in in_surface:
            where = pred_records[position].where()
            unmatched.append(CohortIssue(pid, where, f"no {gold_label} record with this id"))
            continue
        preds[pid] = position
        failed.pop(pid, None)

    if from_predictions:
        wanted = set(expected_ids or ())
        surface = [i for i in surface if i in preds or i in failed or i in wanted]
        n_excluded = len(gold_order) - len(surface)

    items: list[Item] = []
    add = sink or items.append
    gold_at, pred_at = _record_at(gold_records), _record_at(pred_records)
    for gid in surface:
        g = gold_at(gold_by_id[gid])[0]
        if gid in preds:
            add(new_item(gid, g, *pred_at(preds[gid])))
        elif gid in failed:
            issue = failed[gid]
            add(new_item(gid, g, None, issue.where, None, issue.reason, "failed"))
        else:
            add(new_item(gid, g, None, None, None, "no prediction", "missing"))
    unmatched_ids = {u.id for u in unmatched}
    for gid in added:
        if gid not in unmatched_ids:
            add(new_item(gid, {}, None, None, None, "no prediction and no gold record", "missing"))

    if n_pred and not preds and not failed:
        sample_p = ", ".join(str(u.id) for u in unmatched[:3]) or "none with an id"
        sample_g = ", ".join(surface[:3])
        raise InputError(
            f"none of the {n_pred} {pred_label} records matched a {gold_label} id "
            f"(prediction ids: {sample_p}; gold ids: {sample_g})"
        )
    if n_pred == 0:
        warnings.append(f"no {pred_label} records were read: every item is missing")
    if gold_failures:
        warnings.append(f"{len(gold_failures)} {gold_label} record(s) could not be read")
    return Cohort(
        items=tuple(items),
        unmatched=tuple(unmatched),
        duplicates=tuple(duplicates),
        parse_failures=tuple(parse_failures),
        gold_failures=tuple(gold_failures),
        no_gold_ids=tuple(no_gold),
        n_excluded=n_excluded,
        warnings=tuple(warnings),
        pred_files=tuple(pred_files),
    )
