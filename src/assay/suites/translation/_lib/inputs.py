"""Reading translation inputs into canonical gold and prediction records.

Three shapes, each paired by id:

* a test report (run log) JSON: ``{"entries": [{id, source, expected, predicted, error,
  exact_match, scores, plugin_metrics}, ...], ...}`` (schema: ``report.schema.json``);
* JSONL, one entry a line: id, source, reference (or expected), hypothesis (or predicted);
  the references may also come from separate ``--gold`` JSONL files;
* sacrebleu-style plain text: a hypothesis file and one or more reference files, aligned by
  line (ids are line numbers).

Canonical gold: ``{"source", "references": [...]}`` (plus language codes when given);
canonical prediction: ``{"predicted", "error", "exact_match", "plugin_metrics", "comet"}``.
A bad entry costs itself (a listed failure); a bad file as a whole is an InputError naming it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from assay._io.decoding import read_bytes
from assay._io.readers import json_type, read_jsonl, read_text_lines
from assay._io.records import ParseFailure, ReadResult, SourceRecord, did_you_mean
from assay._io.strict import loads_lenient
from assay.errors import InputError
from assay.suites.translation.settings import TranslationSettings

#: report-level keys copied into every record (language codes for COMET's coverage check)
LANG_KEYS = ("source_lang", "target_lang")
REFERENCE_ALIASES = ("reference", "references", "ref")
HYPOTHESIS_ALIASES = ("hypothesis", "hyp", "translation")


def detect_format(path: Path, settings: TranslationSettings) -> str:
    """report for .json, jsonl for .jsonl/.ndjson, text otherwise (unless configured)."""
    if settings.format != "auto":
        return settings.format
    suffix = path.suffix.lower()
    if suffix == ".json":
        return "report"
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    return "text"


def read_inputs(
    pred: Path, gold: tuple[Path, ...], settings: TranslationSettings
) -> tuple[list[ReadResult], list[ReadResult], tuple[Path, ...]]:
    """(gold records, prediction records, gold paths) of a test report, JSONL entries or text
    lines (``gold``: reference files for text, gold JSONL files for JSONL, none for a report)."""
    fmt = detect_format(pred, settings)
    if fmt == "report":
        if gold:
            raise InputError(f"{pred}: a test report carries its references; drop --gold")
        golds, preds = read_report(pred, settings)
        return golds, preds, (pred,)
    if fmt == "jsonl":
        golds, preds = read_jsonl_entries(pred, settings, need_gold=not gold)
        if gold:
            golds = [g for path in gold for g in read_gold_jsonl(path, settings)]
        return golds, preds, gold or (pred,)
    golds, preds = read_text_system(pred, gold)
    return golds, preds, gold


# --------------------------------------------------------------------------- field checks


def _text_or_none(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _references(value: Any) -> list[str] | None:
    """A reference value as a list, or None when its type is wrong."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def _lang_pair(meta: Mapping[str, Any]) -> dict[str, str]:
    out = {k: str(meta[k]) for k in LANG_KEYS if isinstance(meta.get(k), str)}
    pair = meta.get("language_pair") or meta.get("lang_pair")
    if isinstance(pair, str) and "-" in pair:
        src, tgt = pair.split("-", 1)
        out.setdefault("source_lang", src)
        out.setdefault("target_lang", tgt)
    return out


def _first_key(record: Mapping[str, Any], names: Sequence[str]) -> str | None:
    return next((n for n in names if n in record), None)


def gold_record(
    record: Mapping[str, Any], s: TranslationSettings, meta: Mapping[str, Any]
) -> tuple[dict[str, Any] | None, str | None]:
    """(canonical gold, None) or (None, reason) for one entry."""
    key = _first_key(record, (s.expected_field, *REFERENCE_ALIASES)) or s.expected_field
    refs = _references(record.get(key))
    if refs is None:
        return None, (
            f"field {key!r} must be a string or a list of strings, "
            f"found {json_type(record.get(key))}"
        )
    source = record.get(s.source_field)
    if not _text_or_none(source):
        return None, f"field {s.source_field!r} must be a string, found {json_type(source)}"
    gold: dict[str, Any] = {"source": source or "", "references": refs}
    gold.update(_lang_pair(meta))
    gold.update(_lang_pair(record))
    gold.update(_cluster_fields(record, s))
    return gold, None


def _cluster_fields(record: Mapping[str, Any], s: TranslationSettings) -> dict[str, Any]:
    """The entry's document (``docid``, the suite's default cluster, or the head of the
    ``cluster_by`` path), kept in the canonical gold so that CIs can resample documents."""
    heads = {"docid", *([s.cluster_by.split(".")[0].split("[")[0]] if s.cluster_by else [])}
    return {k: record[k] for k in sorted(heads) if k in record}


def _numbers(value: Any) -> bool:
    """True for a (nested) mapping whose leaves are numbers, booleans, strings or null."""
    if isinstance(value, Mapping):
        return all(_numbers(v) for v in value.values())
    return value is None or isinstance(value, bool | int | float | str | list)


def pred_record(
    record: Mapping[str, Any], s: TranslationSettings, report_plugins: Mapping[str, Any]
) -> tuple[dict[str, Any] | None, str | None]:
    """(canonical prediction, None) or (None, reason) for one entry."""
    key = _first_key(record, (s.predicted_field, *HYPOTHESIS_ALIASES))
    predicted = record.get(key) if key is not None else None
    if key is None:
        known = [k for k in record if isinstance(k, str)]
        hint = did_you_mean(s.predicted_field, known, what="its fields")
        return None, f"no field {s.predicted_field!r} (or 'hypothesis'){hint}"
    if not _text_or_none(predicted):
        return None, f"field {key!r} must be a string or null, found {json_type(predicted)}"
    error = record.get(s.error_field)
    if error is not None and not isinstance(error, str | bool):
        return None, f"field {s.error_field!r} must be a string, boolean or null"
    exact = record.get("exact_match")
    if exact is not None and not isinstance(exact, bool):
        return None, f"field 'exact_match' must be a boolean or null, found {json_type(exact)}"
    plugins = record.get("plugin_metrics", {})
    if plugins is None:
        plugins = {}
    if not isinstance(plugins, Mapping) or not _numbers(plugins):
        return None, "field 'plugin_metrics' must be an object of values"
    scores = record.get("scores", {})
    if scores is None:
        scores = {}
    if not isinstance(scores, Mapping):
        return None, f"field 'scores' must be an object, found {json_type(scores)}"
    comet = scores.get("comet", record.get("comet"))
    if comet is not None and (isinstance(comet, bool) or not isinstance(comet, int | float)):
        return None, f"COMET score must be a number, found {json_type(comet)}"
    return {
        "predicted": predicted,
        "error": error if error not in (False, "") else None,
        "exact_match": exact,
        "plugin_metrics": dict(plugins),
        "report_plugin_metrics": dict(report_plugins),
        "comet": float(comet) if comet is not None else None,
    }, None


# --------------------------------------------------------------------------- test report


def read_report(path: Path, s: TranslationSettings) -> tuple[list[ReadResult], list[ReadResult]]:
    """A test report's entries as (gold, predictions); see the module docstring."""
    data = _load_json(path)
    if not isinstance(data, dict):
        raise InputError(f"{path}: a test report is a JSON object, found {json_type(data)}")
    entries = data.get("entries")
    if "entries" not in data:
        raise InputError(f"{path}: not a test report: no 'entries' list")
    if not isinstance(entries, list):
        raise InputError(f"{path}: 'entries' must be a list, found {json_type(entries)}")
    if not entries:
        raise InputError(f"{path}: the report has no entries")
    plugins = data.get("plugin_metrics")
    report_plugins = plugins if isinstance(plugins, Mapping) else {}
    return split_entries(entries, str(path), s, data, report_plugins)


def _load_json(path: Path) -> Any:
    try:
        raw = read_bytes(path)  # at most the document limit (assay._io.limits)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a file") from None
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: invalid UTF-8 at byte offset {err.start}") from None
    if not text.strip():
        raise InputError(f"{path}: empty file")
    try:
        return loads_lenient(text)
    except json.JSONDecodeError as err:
        raise InputError(
            f"{path}: invalid JSON: {err.msg} at line {err.lineno} column {err.colno}"
        ) from None
    except ValueError as err:  # StrictJSONError: nested or sized beyond the limits
        raise InputError(f"{path}: invalid JSON: {err}") from None


def _entry_id(entry: Mapping[str, Any], s: TranslationSettings) -> tuple[str | None, str | None]:
    if s.id_field not in entry:
        return None, f"entry has no {s.id_field!r}"
    value = entry[s.id_field]
    if isinstance(value, str) and value:
        return value, None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value), None
    return None, f"field {s.id_field!r} must be a non-empty string or an integer"


def split_entries(
    entries: Iterable[Any],
    file: str,
    s: TranslationSettings,
    meta: Mapping[str, Any],
    report_plugins: Mapping[str, Any],
) -> tuple[list[ReadResult], list[ReadResult]]:
    """Entries → (gold, predictions); ``line`` is the entry's 1-based position."""
    gold: list[ReadResult] = []
    preds: list[ReadResult] = []
    for pos, entry in enumerate(entries, start=1):
        reason: str | None
        if not isinstance(entry, dict):
            reason = f"entry must be an object, found {json_type(entry)}"
            gold.append(ParseFailure(file, pos, reason))
            preds.append(ParseFailure(file, pos, reason))
            continue
        eid, problem = _entry_id(entry, s)
        if eid is None:
            gold.append(ParseFailure(file, pos, problem or "no id"))
            preds.append(ParseFailure(file, pos, problem or "no id"))
            continue
        g, reason = gold_record(entry, s, meta)
        gold.append(
            SourceRecord(eid, g, file, pos)
            if g is not None
            else ParseFailure(file, pos, reason or "", eid)
        )
        p, reason = pred_record(entry, s, report_plugins)
        preds.append(
            SourceRecord(eid, p, file, pos)
            if p is not None
            else ParseFailure(file, pos, reason or "", eid)
        )
    return gold, preds


# --------------------------------------------------------------------------- JSONL


def read_jsonl_entries(
    path: Path, s: TranslationSettings, *, need_gold: bool
) -> tuple[list[ReadResult], list[ReadResult]]:
    """JSONL entries as (gold, predictions); an unreadable line is a failure of that line."""
    gold: list[ReadResult] = []
    preds: list[ReadResult] = []
    for res in read_jsonl(path, id_field=s.id_field):
        if isinstance(res, ParseFailure):
            gold.append(res)
            preds.append(res)
            continue
        if res.id is None:
            failure = ParseFailure(res.file, res.line, f"entry has no {s.id_field!r}")
            gold.append(failure)
            preds.append(failure)
            continue
        if need_gold:
            g, reason = gold_record(res.record, s, {})
            gold.append(
                SourceRecord(res.id, g, res.file, res.line)
                if g is not None
                else ParseFailure(res.file, res.line, reason or "", res.id)
            )
        p, reason = pred_record(res.record, s, {})
        preds.append(
            SourceRecord(res.id, p, res.file, res.line)
            if p is not None
            else ParseFailure(res.file, res.line, reason or "", res.id)
        )
    if not gold and not preds:
        raise InputError(f"{path}: no entries")
    return gold, preds


def read_gold_jsonl(path: Path, s: TranslationSettings) -> list[ReadResult]:
    """Separate gold JSONL: id, source, reference (or expected)."""
    gold: list[ReadResult] = []
    for res in read_jsonl(path, id_field=s.id_field):
        if isinstance(res, ParseFailure) or res.id is None:
            gold.append(
                res
                if isinstance(res, ParseFailure)
                else ParseFailure(res.file, res.line, f"entry has no {s.id_field!r}")
            )
            continue
        g, reason = gold_record(res.record, s, {})
        gold.append(
            SourceRecord(res.id, g, res.file, res.line)
            if g is not None
            else ParseFailure(res.file, res.line, reason or "", res.id)
        )
    if not gold:
        raise InputError(f"{path}: no entries")
    return gold


# --------------------------------------------------------------------------- plain text


def _lines(path: Path, role: str) -> list[ReadResult]:
    lines = list(read_text_lines(path))
    if not lines:
        raise InputError(f"{path}: empty {role} file")
    return lines


def read_text_system(
    hyp_path: Path, ref_paths: Sequence[Path], source_path: Path | None = None
) -> tuple[list[ReadResult], list[ReadResult]]:
    """sacrebleu-style files aligned by line → (gold, predictions), ids = line numbers.

    Files of different line counts, an empty file, or invalid UTF-8 in a reference or source
    line are InputErrors naming file and line; a hypothesis line that is not UTF-8 is a
    failure of that segment alone.
    """
    if not ref_paths:
        raise InputError(f"{hyp_path}: plain-text hypotheses need reference files (--gold/-r)")
    hyps = _lines(hyp_path, "hypothesis")
    refs = [_lines(p, "reference") for p in ref_paths]
    sources = _lines(source_path, "source") if source_path is not None else None
    for p, lines in [
        *zip(ref_paths, refs, strict=True),
        *([(source_path, sources)] if source_path is not None and sources is not None else []),
    ]:
        if len(lines) != len(hyps):
            raise InputError(
                f"{hyp_path} has {len(hyps)} lines but {p} has {len(lines)}: "
                "files must be aligned by line"
            )
        bad = next((r for r in lines if isinstance(r, ParseFailure)), None)
        if bad is not None:
            raise InputError(f"{bad.where()}: {bad.reason}")
    gold: list[ReadResult] = []
    preds: list[ReadResult] = []
    file = str(hyp_path)
    for i, h in enumerate(hyps):
        line_id = str(i + 1)
        texts = [_text(lines[i]) for lines in refs]
        src = _text(sources[i]) if sources is not None else ""
        gold.append(
            SourceRecord(line_id, {"source": src, "references": texts}, str(ref_paths[0]), i + 1)
        )
        if isinstance(h, ParseFailure):
            preds.append(h)
            continue
        preds.append(
            SourceRecord(
                line_id,
                {
                    "predicted": _text(h),
                    "error": None,
                    "exact_match": None,
                    "plugin_metrics": {},
                    "report_plugin_metrics": {},
                    "comet": None,
                },
                file,
                i + 1,
            )
        )
    return gold, preds


def _text(res: ReadResult) -> str:
    assert isinstance(res, SourceRecord)
    return str(res.record["text"])


def report_schema() -> dict[str, Any]:
    """The published JSON Schema of a test report (shipped in this package)."""
    from importlib.resources import files

    text = files("assay.suites.translation._lib").joinpath("report.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
