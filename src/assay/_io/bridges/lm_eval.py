"""lm-evaluation-harness ``--log_samples`` output as a bridge run.

``lm_eval --log_samples --output_path DIR`` writes, per model, ``results_<date_id>.json`` and one
``samples_<task>_<date_id>.jsonl`` per task. A samples line is one document under one filter
(``doc_id``, ``doc``, ``target``, ``resps``, ``filtered_resps``, ``filter``, ``metrics``, and one
key per metric): a task with a ``filter_list`` (gsm8k's ``strict-match``, ``flexible-extract``)
writes every document once per filter, filters outermost. So:

* one filter is read: ``filter`` (``--filter``), by default the file's first; the others are
  named in a warning. A file older than lm-eval 0.4.7 has no ``filter`` key: its k-th line of a
  ``doc_id`` is the k-th ``filter_list`` entry of the sibling results file, or the file is
  refused when that cannot be known;
* the id is ``doc_id`` (``<task>/<doc_id>`` when a directory's several task files are read);
* each metric key is a score; a null (``bypass``, ``--predict_only``) is unscored; the corpus
  metrics whose per-line value is a tuple (f1, mcc, perplexities, bleu…) have no per-item mean and
  are left out by name;
* the sibling ``results_<date_id>.json`` (same ``date_id``) gives the model, the direction of
  each metric (``higher_is_better``), the split size (``n-samples.original``: the doc ids
  ``0 … original−1`` are expected, a doc the run skipped counts 0) and lm-eval's own
  ``<metric>,<filter>`` ± ``<metric>_stderr,<filter>``.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from assay._io.bridges.model import BridgeItem, BridgeOptions, BridgeRun, BridgeSample, OwnMetric
from assay._io.bridges.values import ScoreValueError, to_score
from assay._io.decoding import open_lines, read_bytes
from assay._io.fieldpath import FieldPathError, get_field, lookup
from assay._io.records import ParseFailure
from assay._io.strict import loads_lenient
from assay.errors import InputError

__all__ = ["read_lm_eval", "samples_files", "split_name"]

#: the keys of a samples line that are not metrics (lm-eval's ``evaluate()`` and its logger)
LINE_FIELDS = frozenset(
    {
        "doc_id",
        "doc",
        "target",
        "arguments",
        "resps",
        "filtered_resps",
        "filter",
        "metrics",
        "doc_hash",
        "prompt_hash",
        "target_hash",
    }
)
DISPLAY_CHARS = 200


def split_name(path: Path) -> tuple[str | None, str | None]:
    """(task, date_id) of ``samples_<task>_<date_id>.jsonl``, as lm-eval's own helpers split it
    (the task between the first and the last ``_``); (None, None) for another name."""
    name = path.name
    if not name.startswith("samples_") or not name.endswith(".jsonl"):
        return None, None
    stem = name[: -len(".jsonl")]
    first, last = stem.find("_"), stem.rfind("_")
    if last <= first:
        return None, None
    return stem[first + 1 : last], stem[last + 1 :]


def samples_files(folder: Path) -> list[Path]:
    """The samples files of a model folder: those of its latest ``date_id``."""
    found = sorted(folder.glob("samples_*.jsonl"))
    dated = [(split_name(p)[1] or "", p) for p in found]
    if not dated:
        raise InputError(f"{folder}: no lm-eval samples_<task>_<date>.jsonl file in it")
    latest = max(d for d, _ in dated)
    return [p for d, p in dated if d == latest]


def _results_file(path: Path, date_id: str | None) -> Path | None:
    if date_id is None:
        return None
    exact = path.parent / f"results_{date_id}.json"
    if exact.is_file():
        return exact
    others = [
        p
        for p in sorted(path.parent.glob(f"*_{date_id}.json"))
        if not p.name.startswith("samples_")
    ]
    return others[0] if len(others) == 1 else None


def _short(value: Any) -> str:
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= DISPLAY_CHARS else text[: DISPLAY_CHARS - 1] + "…"


def _read_lines(path: Path) -> tuple[list[tuple[int, dict[str, Any]]], list[ParseFailure]]:
    lines: list[tuple[int, dict[str, Any]]] = []
    failures: list[ParseFailure] = []
    with open_lines(path) as fh:  # lines bounded by the record limit (assay._io.limits)
        for n, raw in enumerate(fh, start=1):
            if not raw.strip():
                if n in fh.oversized:
                    failures.append(ParseFailure(str(path), n, fh.oversized[n].reason))
                continue
            try:
                value = loads_lenient(raw)  # lm-eval may write NaN for an undefined metric
            except ValueError as exc:  # not JSON, not UTF-8, beyond the depth or size limits
                failures.append(ParseFailure(str(path), n, f"not readable JSON ({exc})"))
                continue
            if not isinstance(value, dict):
                failures.append(ParseFailure(str(path), n, "a samples line is not an object"))
                continue
            lines.append((n, value))
    return lines, failures


def read_lm_eval(path: Path, opts: BridgeOptions) -> BridgeRun:
    """A samples file, or a model folder's samples files taken together (ids ``task/doc_id``)."""
    if path.is_dir():
        files = samples_files(path)
        runs = [_read_file(p, opts, qualify=len(files) > 1) for p in files]
        return _merge(path, runs) if len(runs) > 1 else runs[0]
    return _read_file(path, opts, qualify=False)


def _merge(folder: Path, runs: list[BridgeRun]) -> BridgeRun:
    first = runs[0]
    merged = BridgeRun(
        source="lm-eval",
        path=folder,
        system=f"{first.model} · {len(runs)} tasks",
        format=first.format,
        task=",".join(r.task or "?" for r in runs),
        model=first.model,
        tool_version=first.tool_version,
        expected=[] if all(r.expected is not None for r in runs) else None,
    )
    for r in runs:
        merged.scores += [s for s in r.scores if s not in merged.scores]
        merged.lower |= r.lower
        merged.items += r.items
        if merged.expected is not None and r.expected is not None:
            merged.expected += r.expected
        merged.own += [
            OwnMetric(o.score, f"{r.task} {o.name}", o.value, o.stderr, o.n, o.note) for o in r.own
        ]
        merged.failures += r.failures
        merged.warnings += [f"{r.task}: {w}" for w in r.warnings]
        merged.provenance[str(r.task)] = r.provenance
    return merged


def _read_file(path: Path, opts: BridgeOptions, *, qualify: bool) -> BridgeRun:
    task, date_id = split_name(path)
    lines, failures = _read_lines(path)
    if not lines and not failures:
        raise InputError(f"{path}: an empty lm-eval samples file")
    results_path = _results_file(path, date_id)
    results: dict[str, Any] = {}
    if results_path is not None:
        try:
            loaded = loads_lenient(read_bytes(results_path))
            results = loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError) as exc:  # unreadable, not JSON, beyond the limits
            raise InputError(f"{results_path}: not readable JSON ({exc})") from None
    if task is None:
        tasks = list(results.get("results") or {})
        task = tasks[0] if len(tasks) == 1 else None
    filters = _filters(path, lines, results, task)
    chosen = _choose_filter(path, filters, opts.filter)
    model = results.get("model_name") or (
        path.parent.name.replace("__", "/") if path.parent.name else None
    )
    run = BridgeRun(
        source="lm-eval",
        path=path,
        system=" · ".join(str(x) for x in (model, task, chosen) if x),
        format="lm-evaluation-harness samples JSONL"
        + (f" + {results_path.name}" if results_path else ""),
        task=task,
        model=None if model is None else str(model),
        tool_version=results.get("lm_eval_version"),
        failures=failures,
    )
    if results_path is None:
        run.warnings.append(
            f"no sibling results_{date_id or '<date>'}.json: the model name is the folder's, "
            "lm-eval's own figures and the split size are unknown"
        )
    others = [f for f in filters if f != chosen]
    if others:
        run.warnings.append(
            f"filter {chosen!r} read; the file also holds {', '.join(map(repr, others))} "
            "(--filter NAME)"
        )
    higher = ((results.get("higher_is_better") or {}).get(task) or {}) if task else {}
    refused: dict[str, str] = {}
    by_id: dict[str, BridgeSample] = {}
    display: dict[str, dict[str, str]] = {}
    clusters: dict[str, str] = {}
    prefix = f"{task}/" if qualify and task else ""
    for (n, line), name in zip(lines, _line_filters(path, lines, filters), strict=True):
        if name != chosen:
            continue
        where = f"{path}:{n}"
        try:
            value = lookup(line, opts.id_field) if opts.id_field else line.get("doc_id")
        except FieldPathError as exc:
            run.failures.append(ParseFailure(str(path), n, str(exc)))
            continue
        if isinstance(value, bool) or not isinstance(value, int | str):
            run.failures.append(
                ParseFailure(str(path), n, f"no usable id ({opts.id_field or 'doc_id'})")
            )
            continue
        item_id = prefix + str(value)
        keys = line.get("metrics")
        metric_keys = (
            [str(k) for k in keys]
            if isinstance(keys, list)
            else [k for k in line if k not in LINE_FIELDS]
        )
        scores: dict[str, float | None] = {}
        problems: list[str] = []
        for key in metric_keys:
            if key in refused:
                continue
            raw = line.get(key)
            if isinstance(raw, list | dict):
                refused[key] = (
                    f"metric {key!r} holds {type(raw).__name__}s per line (a corpus metric "
                    "lm-eval aggregates over the whole split): it has no per-item mean and is "
                    "not read"
                )
                continue
            try:
                scores[key] = to_score(raw)
            except ScoreValueError as exc:
                scores[key] = None
                problems.append(f"{key}: {exc}")
            if key not in run.scores:
                run.scores.append(key)
        if item_id in by_id:
            run.failures.append(
                ParseFailure(str(path), n, f"doc {item_id} again under filter {chosen!r}", item_id)
            )
            continue
        by_id[item_id] = BridgeSample(1, scores, where, None, tuple(problems))
        display[item_id] = {
            "target": _short(line.get("target")),
            "output": _short(line.get("filtered_resps")),
        }
        if opts.cluster_field:
            cluster = get_field(line, opts.cluster_field)
            if cluster is not None:
                clusters[item_id] = str(cluster)
    for key in refused:
        if key in run.scores:
            run.scores.remove(key)
    run.warnings += list(refused.values())
    run.lower = {m for m, up in higher.items() if up is False and m in run.scores}
    run.items = [BridgeItem(i, (s,), display[i], clusters.get(i)) for i, s in by_id.items()]
    _results_part(run, results, task, chosen, prefix, opts)
    return run


def _results_part(
    run: BridgeRun,
    results: Mapping[str, Any],
    task: str | None,
    chosen: str,
    prefix: str,
    opts: BridgeOptions,
) -> None:
    """lm-eval's own figures, the split size and the provenance from the results file."""
    if not results or task is None:
        return
    figures = (results.get("results") or {}).get(task) or {}
    counts = (results.get("n-samples") or {}).get(task) or {}
    config = results.get("config") or {}
    effective = counts.get("effective")
    for score in run.scores:
        value = figures.get(f"{score},{chosen}")
        if value is None:
            continue
        stderr = figures.get(f"{score}_stderr,{chosen}")
        run.own.append(
            OwnMetric(
                score=score,
                name=f"{score},{chosen}",
                value=_finite(value),
                stderr=_finite(stderr),
                n=effective if isinstance(effective, int) else None,
            )
        )
    original = counts.get("original")
    limit = config.get("limit")
    if isinstance(original, int) and not opts.id_field:
        if limit is None:
            run.expected = [f"{prefix}{i}" for i in range(original)]
            if isinstance(effective, int) and effective < original:
                run.warnings.append(
                    f"n-samples: lm-eval ran {effective} of the split's {original} docs; the "
                    f"{original - effective} others count 0 as missing"
                )
        else:
            run.warnings.append(
                f"the run was limited (--limit {limit}): only the docs in the file are expected"
            )
    run.provenance = {
        k: v
        for k, v in {
            "model": config.get("model"),
            "model_args": config.get("model_args"),
            "model_sha": config.get("model_sha") or None,
            "lm_eval_version": results.get("lm_eval_version"),
            "git_hash": results.get("git_hash"),
            "date": results.get("date"),
            "task_version": (results.get("versions") or {}).get(task),
            "n_shot": (results.get("n-shot") or {}).get(task),
            "task_hash": (results.get("task_hashes") or {}).get(task),
            "filter": chosen,
            "n_samples": counts or None,
        }.items()
        if v is not None
    }


def _finite(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None  # lm-eval writes "N/A" for an undefined stderr
    return float(value) if math.isfinite(value) else None


def _filters(
    path: Path,
    lines: list[tuple[int, dict[str, Any]]],
    results: Mapping[str, Any],
    task: str | None,
) -> list[str]:
    """The file's filters in order: from its lines' ``filter`` keys, else (lm-eval < 0.4.7) the
    task's ``filter_list`` in the results file."""
    named = list(dict.fromkeys(str(line["filter"]) for _, line in lines if "filter" in line))
    if named:
        return named
    counts = Counter(str(line.get("doc_id")) for _, line in lines)
    repeats = max(counts.values(), default=1)
    if repeats <= 1:
        return ["none"]
    config = ((results.get("configs") or {}).get(task) or {}) if task else {}
    listed = [str(f.get("name")) for f in config.get("filter_list") or [] if isinstance(f, Mapping)]
    if len(listed) == repeats:
        return listed
    raise InputError(
        f"{path}: every doc appears {repeats} times (one line per filter) but the lines name no "
        "filter (lm-eval before 0.4.7) and no sibling results file lists the task's "
        "filter_list: which line is which filter cannot be known"
    )


def _line_filters(
    path: Path, lines: list[tuple[int, dict[str, Any]]], filters: list[str]
) -> list[str]:
    """Each line's filter: its ``filter`` key, else the k-th filter for a doc's k-th line."""
    seen: dict[str, int] = {}
    out: list[str] = []
    for _, line in lines:
        if "filter" in line:
            out.append(str(line["filter"]))
            continue
        key = str(line.get("doc_id"))
        k = seen.get(key, 0)
        seen[key] = k + 1
        out.append(filters[k] if k < len(filters) else f"#{k + 1}")
    return out


def _choose_filter(path: Path, filters: list[str], wanted: str | None) -> str:
    if wanted is None or (len(filters) == 1 and wanted not in filters):
        return filters[0]
    if wanted in filters:
        return wanted
    raise InputError(f"{path}: no filter {wanted!r} in it (filters: {', '.join(filters)})")
