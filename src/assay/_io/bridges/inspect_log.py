"""Inspect AI logs (``.eval`` and ``.json``) as a bridge run: every scorer's value per sample.

Two readers give the same parts (the log's header, its samples, its reductions):

* **library**: ``inspect_ai.log`` (the ``[inspect]`` extra), the format owners' reader, used when
  installed and ``inspect_reader`` is ``auto`` or ``library``; imported here, never at start-up
  (it loads ~1,400 modules);
* **builtin**: the documented layout read directly. An ``.eval`` log is a ZIP archive whose
  ``header.json`` (or, for a log still running or crashed, ``_journal/start.json``) holds the
  header and whose ``samples/{id}_epoch_{n}.json`` (or the chunked ``…/sample.json``) members
  hold one sample each; a ``.json`` log is the whole ``EvalLog`` in one object. Members may be
  Zstandard-compressed (:mod:`assay._io.bridges.ziparchive`) and hold the bare JSON constants
  ``NaN`` / ``Infinity`` (Inspect's "unscored"), so they are parsed leniently. Log format
  version 2 is read, and version 1 (``.json`` only) migrated as Inspect migrates it; any other
  version is refused by name.

Ids are the samples' ``id`` (never the member name: a string id may contain ``_epoch_``) and
epochs are samples of one item. A dict-valued score gives one score per key, named by the key as
Inspect names its metrics; NaN is unscored; an errored sample has no score and its error is kept.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from assay._io.bridges.model import BridgeItem, BridgeOptions, BridgeRun, BridgeSample, OwnMetric
from assay._io.bridges.values import ScoreValueError, to_score
from assay._io.bridges.ziparchive import Archive
from assay._io.decoding import read_bytes
from assay._io.fieldpath import FieldPathError, get_field, lookup
from assay._io.records import ParseFailure
from assay._io.strict import loads_lenient
from assay.errors import InputError

__all__ = ["inspect_available", "read_inspect"]

#: the log format versions read (``LOG_SCHEMA_VERSION`` is 2 in inspect_ai since 2024)
VERSIONS = (1, 2)
#: sample fields the library reader leaves out (large, and nothing here reads them)
EXCLUDE = frozenset({"events", "messages", "store", "attachments", "events_data"})
#: a sample member: ``samples/{id}_epoch_{n}.json`` or the chunked ``…/sample.json``
_SAMPLE_MEMBER = re.compile(r"^samples/(?:[^/]+\.json|[^/]+/sample\.json)$")
#: characters of a target or an output kept for display
DISPLAY_CHARS = 200

Parts = tuple[dict[str, Any], Iterator[tuple[str, Any]], list[Any] | None, str]


def inspect_available() -> bool:
    """True when ``inspect_ai`` is installed (checked without importing it)."""
    from importlib.util import find_spec

    try:
        return find_spec("inspect_ai") is not None
    except (ImportError, ValueError):
        return False


def read_inspect(path: Path, opts: BridgeOptions) -> BridgeRun:
    """One Inspect log as a bridge run (see the module docstring)."""
    use_library = opts.inspect_reader == "library" or (
        opts.inspect_reader == "auto" and inspect_available()
    )
    if opts.inspect_reader == "library" and not inspect_available():
        raise InputError(
            f"{path}: --inspect-reader library needs inspect_ai (the extra inspect: "
            "uv sync --extra inspect, or the wheel's [inspect])"
        )
    header, samples, reductions, fmt = (
        _library_parts(path, opts) if use_library else _builtin_parts(path, opts)
    )
    return _build(path, header, samples, reductions, fmt, opts)


# --------------------------------------------------------------------------- builtin reader


def _lenient(data: bytes | str, where: str) -> Any:
    """JSON as Inspect writes it (NaN and Infinity allowed); an ``InputError`` naming ``where``."""
    try:
        return loads_lenient(data)
    except ValueError as exc:  # not JSON, not UTF-8, beyond the depth or size limits
        raise InputError(f"{where}: not readable JSON ({exc})") from None


def _check_version(path: Path, header: Mapping[str, Any], fmt: str) -> int:
    version = header.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise InputError(f"{path}: not an Inspect log (no integer 'version' in its header)")
    if version not in VERSIONS or (fmt == "eval" and version != 2):
        raise InputError(
            f"{path}: Inspect log format version {version} is not one assay reads "
            f"(it reads version 2, and 1 in .json logs); read it with inspect_ai "
            "(the extra inspect: uv sync --extra inspect, or the wheel's [inspect]) or convert "
            "it with `inspect log convert`"
        )
    return version


def _builtin_parts(path: Path, opts: BridgeOptions) -> Parts:
    with path.open("rb") as fh:
        zipped = fh.read(4) == b"PK\x03\x04"
    if zipped:
        return _eval_parts(path, opts)
    return _json_parts(path, opts)


def _eval_parts(path: Path, opts: BridgeOptions) -> Parts:
    archive = Archive(path)
    member = "header.json" if "header.json" in archive else "_journal/start.json"
    if member not in archive:
        archive.close()
        raise InputError(f"{path}: a ZIP archive without header.json or _journal/start.json")
    header = _lenient(archive.read(member), f"{path}:{member}")
    if not isinstance(header, dict):
        archive.close()
        raise InputError(f"{path}:{member}: expected an object")
    if member != "header.json":
        header.setdefault("status", "started")
    _check_version(path, header, "eval")
    reductions = None
    if "reductions.json" in archive:
        found = _lenient(archive.read("reductions.json"), f"{path}:reductions.json")
        reductions = found if isinstance(found, list) else None

    def samples() -> Iterator[tuple[str, Any]]:
        with archive:
            for name in archive.names():
                if not _SAMPLE_MEMBER.match(name):
                    continue
                where = f"{path}:{name}"
                try:
                    yield where, _lenient(archive.read(name), where)
                except InputError as exc:
                    yield where, exc

    return header, samples(), reductions, "eval"


def _json_parts(path: Path, opts: BridgeOptions) -> Parts:
    try:
        data = read_bytes(path)  # at most the document limit (assay._io.limits)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    log = _lenient(data, str(path))
    if not isinstance(log, dict):
        raise InputError(f"{path}: an Inspect .json log is one object, found {type(log).__name__}")
    version = _check_version(path, log, "json")
    raw_samples = log.pop("samples", None) or []
    reductions = log.get("reductions")
    if reductions is None:  # logs of 2024 keep them under results
        reductions = (log.get("results") or {}).get("sample_reductions")
    if version == 1:
        _migrate_v1(log, raw_samples)

    def samples() -> Iterator[tuple[str, Any]]:
        for k, sample in enumerate(raw_samples):
            yield f"{path}:samples[{k}]", sample

    return log, samples(), reductions if isinstance(reductions, list) else None, "json"


def _migrate_v1(log: dict[str, Any], samples: list[Any]) -> None:
    """Version 1 → 2 as Inspect migrates it: ``results.scorer`` + ``results.metrics`` become
    ``results.scores[0]``; a sample's single ``score`` becomes ``scores`` under its name."""
    results = log.get("results")
    name = "score"
    if isinstance(results, dict):
        scorer = results.pop("scorer", None)
        metrics = results.pop("metrics", None)
        if isinstance(scorer, dict) and "scores" not in results:
            name = str(scorer.get("name") or name)
            results["scores"] = [
                {"name": name, "scorer": name, "params": {}, "metrics": metrics or {}}
            ]
        elif results.get("scores"):
            name = str(results["scores"][0].get("name") or name)
    for sample in samples:
        if isinstance(sample, dict) and "score" in sample and not sample.get("scores"):
            sample["scores"] = {name: sample.pop("score")}


# --------------------------------------------------------------------------- library reader


def _library_parts(path: Path, opts: BridgeOptions) -> Parts:
    """The parts through ``inspect_ai.log`` (imported here: seconds of start-up)."""
    from inspect_ai.log import read_eval_log, read_eval_log_samples

    try:
        log = read_eval_log(str(path), header_only=True)
    except Exception as exc:  # the library's own refusal, named
        raise InputError(
            f"{path}: inspect_ai cannot read it ({type(exc).__name__}: {exc})"
        ) from None
    header: dict[str, Any] = log.model_dump(exclude={"samples"})
    fmt = "eval" if str(path).endswith(".eval") else "json"
    full: list[Any] = []
    try:
        first = list(
            read_eval_log_samples(
                str(path), all_samples_required=False, exclude_fields=set(EXCLUDE)
            )
        )
    except RuntimeError:  # a log without sample_ids: read whole
        whole = read_eval_log(str(path))
        first = list(whole.samples or [])
        full.append(whole)
    reductions = header.get("reductions")
    if reductions is None and not first:
        whole = full[0] if full else read_eval_log(str(path))
        reductions = [r.model_dump() for r in whole.reductions or []]

    def samples() -> Iterator[tuple[str, Any]]:
        for sample in first:
            where = f"{path}:samples/{sample.id}_epoch_{sample.epoch}.json"
            yield where, sample.model_dump(exclude=set(EXCLUDE))

    return header, samples(), reductions, fmt


# --------------------------------------------------------------------------- the run


def _text(value: Any) -> str:
    if isinstance(value, list):
        value = " | ".join(str(v) for v in value)
    text = "" if value is None else str(value)
    return text if len(text) <= DISPLAY_CHARS else text[: DISPLAY_CHARS - 1] + "…"


def _output(sample: Mapping[str, Any]) -> str:
    output = sample.get("output")
    if not isinstance(output, Mapping):
        return ""
    completion = output.get("completion")
    if completion:
        return _text(completion)
    return _text(get_field(output, "choices[0].message.content", ""))


def _sample_scores(raw: Any) -> tuple[dict[str, float | None], tuple[str, ...]]:
    """A sample's ``scores`` as floats by score name, and the values that are not scores."""
    scores: dict[str, float | None] = {}
    problems: list[str] = []

    def put(name: str, value: Any, field: str) -> None:
        try:
            scores[name] = to_score(value)
        except ScoreValueError as exc:
            scores[name] = None
            problems.append(f"{field}: {exc}")

    if not isinstance(raw, Mapping):
        return scores, ()
    for scorer, score in raw.items():
        value = score.get("value") if isinstance(score, Mapping) else score
        if isinstance(value, Mapping):
            for key, v in value.items():
                put(str(key), v, f"scores.{scorer}.value.{key}")
        else:
            put(str(scorer), value, f"scores.{scorer}.value")
    return scores, tuple(problems)


def _error(sample: Mapping[str, Any]) -> str | None:
    error = sample.get("error")
    if not error:
        return None
    if isinstance(error, Mapping):
        return str(error.get("message") or "error")
    return str(error)


def _item_id(sample: Mapping[str, Any], opts: BridgeOptions) -> str:
    """The sample's id (``id``, or the path ``opts.id_field``); a ``FieldPathError`` or
    ``ValueError`` when it has none."""
    value = lookup(sample, opts.id_field) if opts.id_field else sample.get("id")
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise ValueError(f"no usable id ({'id' if not opts.id_field else opts.id_field})")
    return str(value)


def _own_metrics(results: Mapping[str, Any]) -> list[OwnMetric]:
    own: list[OwnMetric] = []
    for entry in results.get("scores") or []:
        if not isinstance(entry, Mapping):
            continue
        name = str(entry.get("name"))
        metrics = entry.get("metrics") or {}
        stderr = None
        note = ""
        for key, metric in metrics.items():
            if "stderr" in str(key) and isinstance(metric, Mapping):
                stderr = _number(metric.get("value"))
                params = metric.get("params") or metric.get("options") or {}
                if isinstance(params, Mapping) and params.get("cluster"):
                    note = f"stderr clustered by {params['cluster']}"
        n = entry.get("scored_samples")
        for key, metric in metrics.items():
            if "stderr" in str(key) or not isinstance(metric, Mapping):
                continue
            own.append(
                OwnMetric(
                    score=name,
                    name=str(metric.get("name") or key),
                    value=_number(metric.get("value")),
                    stderr=stderr,
                    n=n if isinstance(n, int) else None,
                    note=note,
                )
            )
    return own


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _build(
    path: Path,
    header: Mapping[str, Any],
    samples: Iterator[tuple[str, Any]],
    reductions: list[Any] | None,
    fmt: str,
    opts: BridgeOptions,
) -> BridgeRun:
    ev = header.get("eval") or {}
    results = header.get("results") or {}
    config = ev.get("config") or {}
    dataset = ev.get("dataset") or {}
    task, model = ev.get("task"), ev.get("model")
    status = header.get("status")
    score_entries = [s for s in results.get("scores") or [] if isinstance(s, Mapping)]
    reducer = next((str(s["reducer"]) for s in score_entries if s.get("reducer")), None)
    if reducer is None and config.get("epochs_reducer"):
        reducers = config["epochs_reducer"]
        reducer = str(reducers[0] if isinstance(reducers, list) else reducers)
    run = BridgeRun(
        source="inspect",
        path=path,
        system=f"{task} · {model}",
        format=f"Inspect .{fmt} log, version {header.get('version')}",
        task=None if task is None else str(task),
        model=None if model is None else str(model),
        tool_version=(ev.get("packages") or {}).get("inspect_ai"),
        scores=[str(s.get("name")) for s in score_entries],
        own=_own_metrics(results),
        reducer=reducer or "mean",
    )
    run.provenance = {
        k: v
        for k, v in {
            "run_id": ev.get("run_id"),
            "eval_id": ev.get("eval_id"),
            "task_id": ev.get("task_id"),
            "task_version": ev.get("task_version"),
            "created": ev.get("created"),
            "status": status,
            "dataset": dataset.get("name"),
            "epochs": config.get("epochs"),
            "reducer": run.reducer,
            "inspect_ai": run.tool_version,
            "revision": (ev.get("revision") or {}).get("commit"),
        }.items()
        if v is not None
    }
    sample_ids = dataset.get("sample_ids")
    if isinstance(sample_ids, list) and not opts.id_field:
        run.expected = [str(x) for x in sample_ids]
    epochs = config.get("epochs")
    by_id: dict[str, dict[int, BridgeSample]] = {}
    display: dict[str, dict[str, str]] = {}
    clusters: dict[str, str] = {}
    use_reductions = opts.inspect_source == "reductions"
    n_samples = 0
    if not use_reductions:
        for where, sample in samples:
            if isinstance(sample, InputError):
                run.failures.append(ParseFailure(where, None, str(sample).split(": ", 1)[-1]))
                continue
            if not isinstance(sample, Mapping):
                run.failures.append(ParseFailure(where, None, "a sample is not an object"))
                continue
            n_samples += 1
            try:
                item_id = _item_id(sample, opts)
            except (FieldPathError, ValueError) as exc:
                run.failures.append(ParseFailure(where, None, str(exc)))
                continue
            epoch = sample.get("epoch")
            index = epoch if isinstance(epoch, int) and not isinstance(epoch, bool) else 1
            error = _error(sample)
            scores, problems = ({}, ()) if error else _sample_scores(sample.get("scores"))
            for name in scores:
                if name not in run.scores:
                    run.scores.append(name)
            by_id.setdefault(item_id, {})[index] = BridgeSample(
                index, scores, where, error, problems
            )
            if item_id not in display:
                display[item_id] = {
                    "target": _text(sample.get("target")),
                    "output": _output(sample),
                }
            if opts.cluster_field and item_id not in clusters:
                value = get_field(sample, opts.cluster_field)
                if value is not None:
                    clusters[item_id] = str(value)
        if n_samples == 0 and not run.failures:
            if opts.inspect_source == "samples" or not reductions:
                raise InputError(
                    f"{path}: the log holds no samples"
                    + (" and no reductions" if not reductions else "")
                    + f" (status {status}): nothing to score"
                    + (
                        "; --inspect-source reductions reads its per-id values"
                        if reductions
                        else ""
                    )
                )
            use_reductions = True
    if use_reductions:
        if not reductions:
            raise InputError(f"{path}: the log holds no reductions (per-id scores) to read")
        by_id = _from_reductions(path, reductions, run)
        run.format += ", its reductions"
        run.warnings.append(
            "scored from the log's reductions (one value per id, epochs already reduced by "
            "Inspect): its samples are not in the log"
        )
        epochs = 1
    for per_epoch in by_id.values():
        for sample in per_epoch.values():
            if sample.error is None:
                for name in run.scores:
                    sample.scores.setdefault(name, None)
    run.items = [
        BridgeItem(
            item_id,
            tuple(per_epoch[k] for k in sorted(per_epoch)),
            display.get(item_id, {}),
            clusters.get(item_id),
        )
        for item_id, per_epoch in by_id.items()
    ]
    run.provenance["samples_per_item"] = epochs if isinstance(epochs, int) else 1
    if status not in (None, "success"):
        run.warnings.append(
            f"the log's status is {status!r}: {n_samples} samples in it"
            + (f" of {results.get('total_samples')}" if results.get("total_samples") else "")
        )
    if header.get("invalidated"):
        run.warnings.append("the log is marked invalidated by Inspect")
    return run


def _from_reductions(
    path: Path, reductions: list[Any], run: BridgeRun
) -> dict[str, dict[int, BridgeSample]]:
    """Per-id values of the log's ``reductions`` (one per scorer and reducer): one sample per
    id; a scorer reduced several ways is read at its first reducer."""
    by_id: dict[str, dict[int, BridgeSample]] = {}
    seen: set[str] = set()
    for k, entry in enumerate(reductions):
        if not isinstance(entry, Mapping):
            continue
        scorer = str(entry.get("scorer"))
        if scorer in seen:
            continue
        seen.add(scorer)
        for j, s in enumerate(entry.get("samples") or []):
            where = f"{path}:reductions[{k}].samples[{j}]"
            if not isinstance(s, Mapping) or s.get("sample_id") is None:
                run.failures.append(ParseFailure(where, None, "a reduction without sample_id"))
                continue
            scores, problems = _sample_scores({scorer: s})
            for name in scores:
                if name not in run.scores:
                    run.scores.append(name)
            item_id = str(s["sample_id"])
            old = by_id.setdefault(item_id, {}).get(1)
            if old is not None:
                scores = {**old.scores, **scores}
                problems = old.problems + problems
            by_id[item_id][1] = BridgeSample(1, scores, where, None, problems)
    return by_id
