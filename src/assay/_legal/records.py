"""Reading the legal suites' inputs: one JSONL/JSON/CSV file holding gold and output fields, or a
gold file and a prediction file; a record whose field has the wrong type becomes a
ParseFailure naming the file, line and field (a counted failure, never a crash)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from assay._engine.task import LoadedInputs
from assay._io.readers import json_type, read_records
from assay._io.records import (
    ParseFailure,
    ReadResult,
    SourceRecord,
    gold_part,
    missing_field,
)
from assay.errors import UsageError

#: ``check(value) -> reason or None``
FieldCheck = Callable[[Any], str | None]


def optional_label(value: Any) -> str | None:
    """A label, a JSON object holding one, or null/NaN (a blank answer, scored as a miss)."""
    if value is None or isinstance(value, str | int | float | bool | dict):
        return None
    return f"must be a label (string, number or object), found {json_type(value)}"


def optional_text(value: Any) -> str | None:
    """A string or null (NaN from a CSV counts as null)."""
    if value is None or isinstance(value, str) or (isinstance(value, float) and value != value):
        return None
    return f"must be a string or null, found {json_type(value)}"


def span_list(value: Any) -> str | None:
    """A list of strings (empty = the category is absent)."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return None
    return f"must be a list of strings, found {json_type(value)}"


def check_fields(
    results: Sequence[ReadResult], checks: Mapping[str, FieldCheck], role: str, required: bool
) -> list[ReadResult]:
    """Each record kept when every checked field is usable, else a ParseFailure naming it."""
    out: list[ReadResult] = []
    for res in results:
        if isinstance(res, ParseFailure):
            out.append(res)
            continue
        problem = _problem(res, checks, role, required)
        out.append(ParseFailure(res.file, res.line, problem, res.id) if problem else res)
    return out


def _problem(
    res: SourceRecord, checks: Mapping[str, FieldCheck], role: str, required: bool
) -> str | None:
    for name, check in checks.items():
        if name not in res.record:
            if required:
                return missing_field(role, name, res.record)
            continue
        reason = check(res.record[name])
        if reason:
            return f"{role} field {name!r} {reason}"
    return None


def load_inputs(
    pred: Path,
    gold: tuple[Path, ...],
    *,
    suite: str,
    id_field: str,
    gold_checks: Mapping[str, FieldCheck],
    pred_checks: Mapping[str, FieldCheck],
    pred_required: bool = True,
) -> LoadedInputs:
    """Gold and predictions from one combined file or from a gold file and a prediction file."""
    if len(gold) > 1:
        raise UsageError(f"{suite} takes one gold file or directory")
    preds = list(read_records(pred, id_field=id_field))
    golds = (
        [gold_part(r, pred_checks, keep=gold_checks) for r in preds]
        if not gold
        else list(read_records(gold[0], id_field=id_field))
    )
    return LoadedInputs(
        check_fields(preds, pred_checks, "prediction", pred_required),
        check_fields(golds, gold_checks, "gold", True),
        (pred,),
        gold or (pred,),
    )
