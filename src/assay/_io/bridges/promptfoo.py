"""promptfoo ``eval -o results.json`` (or ``results.jsonl``) as bridge runs, one per column.

The JSON output is an ``OutputFile``: ``{evalId, results, config, shareableUrl, metadata}``.
``results.version`` 3 (every eval promptfoo stores today) holds ``results.results`` (one
``EvaluateResult`` per test × column) and ``results.prompts`` (one per column: provider ×
prompt, with promptfoo's own counts); version 2 (evals stored before its v4 result table) holds
the rows and a ``table`` whose ``head.prompts`` are the columns. The JSONL output is the rows
alone. Any other ``results.version`` is refused by name.

* **systems**: a column is ``provider · prompt`` (``haiku · careful``, the provider's label or
  id); every column is a run, ``systems`` picks some by name or column index;
* **ids**: ``testIdx``, or a path into the row (``vars.id``, required for version-2 rows, which
  have no ``testIdx``). Rows of one column with the same ``testCase`` are repeats (``--repeat``
  gives each a new ``testIdx``): samples of one item, as promptfoo's own repeat pass rate
  groups them;
* **scores**: ``pass`` (``success``), ``score`` (the grading score: partial credit, not a pass),
  each ``namedScores`` metric tag, and each top-level component assertion as
  ``assert:<metric or type>`` (a repeated name numbered ``#2``…). A tag or assertion a test does
  not use does not apply to it. A row that errored (``failureReason`` 2, no ``gradingResult``) has
  no score and keeps the provider's error;
* **own figures** (``results.prompts[i].metrics``): the pass rate
  ``testPassCount / (testPassCount + testFailCount + testErrorCount)`` (errors in the
  denominator, as assay counts them), the mean score ``metrics.score / rows`` and each tag's
  ``namedScores / namedScoresCount``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from assay._io.bridges.model import BridgeItem, BridgeOptions, BridgeRun, BridgeSample, OwnMetric
from assay._io.bridges.values import ScoreValueError, to_score
from assay._io.decoding import open_lines, read_bytes
from assay._io.fieldpath import FieldPathError, get_field, lookup
from assay._io.records import ParseFailure
from assay._io.strict import loads_lenient
from assay.errors import InputError, UsageError

__all__ = ["RESULT_VERSIONS", "read_promptfoo", "row_system"]

#: ``results.version`` values read
RESULT_VERSIONS = (2, 3)
#: ``failureReason`` of a row whose provider or grader errored (``ResultFailureReason.ERROR``)
ERROR = 2
DISPLAY_CHARS = 200


def _text(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= DISPLAY_CHARS else text[: DISPLAY_CHARS - 1] + "…"


def row_system(row: Mapping[str, Any]) -> str:
    """A row's column as promptfoo labels it: ``provider label or id · prompt label``."""
    provider = row.get("provider")
    if isinstance(provider, Mapping):
        who = provider.get("label") or provider.get("id") or "?"
    else:
        who = provider or "?"
    prompt = row.get("prompt")
    label = prompt.get("label") if isinstance(prompt, Mapping) else None
    return f"{who} · {label}" if label else str(who)


def _load(path: Path) -> tuple[list[tuple[str, Any]], list[Any], dict[str, Any], str]:
    """(rows with where, columns, the file's header, format) of a JSON or JSONL output."""
    data = read_bytes(path)
    head = data.lstrip()[:1]
    if head == b"{":
        try:
            whole = loads_lenient(data)
        except ValueError:  # JSONL whose first line is an object (or beyond the limits)
            whole = None
        if isinstance(whole, dict):
            return _from_object(path, whole)
    rows: list[tuple[str, Any]] = []
    with open_lines(path) as fh:  # lines bounded by the record limit (assay._io.limits)
        for n, raw in enumerate(fh, start=1):
            if not raw.strip():
                if n in fh.oversized:
                    reason = fh.oversized[n].reason
                    rows.append((f"{path}:{n}", ParseFailure(str(path), n, reason)))
                continue
            try:
                rows.append((f"{path}:{n}", loads_lenient(raw)))
            except ValueError as exc:  # not JSON, not UTF-8, beyond the depth or size limits
                rows.append(
                    (f"{path}:{n}", ParseFailure(str(path), n, f"not readable JSON ({exc})"))
                )
    return rows, [], {}, "promptfoo results JSONL"


def _from_object(
    path: Path, whole: dict[str, Any]
) -> tuple[list[tuple[str, Any]], list[Any], dict[str, Any], str]:
    results = whole.get("results")
    if not isinstance(results, dict) or not isinstance(results.get("results"), list):
        raise InputError(f"{path}: not a promptfoo output (no results.results list)")
    version = results.get("version")
    if version not in RESULT_VERSIONS:
        raise InputError(
            f"{path}: promptfoo results version {version!r} is not one assay reads "
            f"(it reads {', '.join(map(str, RESULT_VERSIONS))})"
        )
    if version == 3:
        columns = results.get("prompts") or []
    else:
        columns = ((results.get("table") or {}).get("head") or {}).get("prompts") or []
    rows = [(f"{path}:results.results[{k}]", r) for k, r in enumerate(results["results"])]
    return rows, list(columns), whole, f"promptfoo results.json, results version {version}"


def read_promptfoo(path: Path, opts: BridgeOptions) -> list[BridgeRun]:
    """Every column of the output (or those ``opts.systems`` names) as a run."""
    rows, columns, whole, fmt = _load(path)
    failures = [r for _, r in rows if isinstance(r, ParseFailure)]
    good = [(w, r) for w, r in rows if isinstance(r, Mapping)]
    for where, r in rows:
        if not isinstance(r, ParseFailure | Mapping):
            failures.append(ParseFailure(where, None, "a result row is not an object"))
    # the columns in order: by promptIdx when the rows have it, else by first appearance
    order: dict[str, int] = {}
    keyed: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
    for where, row in good:
        idx = row.get("promptIdx")
        system = row_system(row)
        key = system
        if isinstance(idx, int) and not isinstance(idx, bool):
            if idx < len(columns) and isinstance(columns[idx], Mapping):
                col = columns[idx]
                label = col.get("label")
                system = f"{col.get('provider') or '?'} · {label}" if label else system
            key = system
            order.setdefault(key, idx)
        else:
            order.setdefault(key, 10**9 + len(order))
        keyed.setdefault(key, []).append((where, row))
    names = sorted(keyed, key=lambda k: order[k])
    chosen = _choose(path, names, opts.systems)
    meta = whole.get("metadata") or {}
    runs = []
    for position, system in enumerate(names):
        if system not in chosen:
            continue
        column = _column(columns, system, order[system])
        run = _run(path, system, keyed[system], column, opts, fmt)
        run.tool_version = meta.get("promptfooVersion") if isinstance(meta, Mapping) else None
        run.provenance.update(
            {
                k: v
                for k, v in {
                    "evalId": whole.get("evalId"),
                    "promptfooVersion": run.tool_version,
                    "timestamp": (whole.get("results") or {}).get("timestamp"),
                    "column": position,
                }.items()
                if v is not None
            }
        )
        run.failures = failures + run.failures
        runs.append(run)
    return runs


def _choose(path: Path, names: list[str], wanted: tuple[str, ...]) -> list[str]:
    if not names:
        raise InputError(f"{path}: no result rows")
    if not wanted:
        return names
    out = []
    for w in wanted:
        if w in names:
            out.append(w)
        elif w.isdigit() and int(w) < len(names):
            out.append(names[int(w)])
        else:
            listed = "; ".join(f"{k}: {n}" for k, n in enumerate(names))
            raise UsageError(f"{path}: no system {w!r} (systems: {listed})")
    return out


def _column(columns: list[Any], system: str, idx: int) -> Mapping[str, Any] | None:
    column = columns[idx] if 0 <= idx < len(columns) else None
    if isinstance(column, Mapping):
        return column
    for col in columns:
        if isinstance(col, Mapping) and f"{col.get('provider')} · {col.get('label')}" == system:
            return col
    return None


def _row_scores(
    row: Mapping[str, Any],
) -> tuple[dict[str, float | None], str | None, tuple[str, ...]]:
    """(scores, error, problems) of one row (see the module docstring)."""
    grading = row.get("gradingResult")
    failure = row.get("failureReason")
    response = row.get("response")
    if failure == ERROR or not isinstance(grading, Mapping):
        error = row.get("error") or (
            response.get("error") if isinstance(response, Mapping) else None
        )
        return {}, str(error or "no gradingResult"), ()
    scores: dict[str, float | None] = {}
    problems: list[str] = []

    def put(name: str, value: Any, field: str) -> None:
        try:
            scores[name] = to_score(value)
        except ScoreValueError as exc:
            scores[name] = None
            problems.append(f"{field}: {exc}")

    put("pass", row.get("success", grading.get("pass")), "success")
    put("score", row.get("score", grading.get("score")), "score")
    named = row.get("namedScores") or grading.get("namedScores") or {}
    if isinstance(named, Mapping):
        for key, value in named.items():
            put(str(key), value, f"namedScores.{key}")
    for k, comp in enumerate(grading.get("componentResults") or []):
        if not isinstance(comp, Mapping):
            continue
        assertion = comp.get("assertion")
        tag = (
            assertion.get("metric") or assertion.get("type")
            if isinstance(assertion, Mapping)
            else None
        )
        base = f"assert:{tag or f'#{k + 1}'}"
        name, j = base, 1
        while name in scores:
            j += 1
            name = f"{base}#{j}"
        put(name, comp.get("score", comp.get("pass")), f"gradingResult.componentResults[{k}].score")
    return scores, None, tuple(problems)


def _run(
    path: Path,
    system: str,
    rows: list[tuple[str, Mapping[str, Any]]],
    column: Mapping[str, Any] | None,
    opts: BridgeOptions,
    fmt: str,
) -> BridgeRun:
    run = BridgeRun(source="promptfoo", path=path, system=system, format=fmt)
    by_id: dict[str, list[BridgeSample]] = {}
    display: dict[str, dict[str, str]] = {}
    clusters: dict[str, str] = {}
    by_case: dict[str, str] = {}
    for where, row in rows:
        if opts.id_field:
            try:
                value = lookup(row, opts.id_field)
            except FieldPathError as exc:
                run.failures.append(ParseFailure(where, None, str(exc)))
                continue
        else:
            value = row.get("testIdx")
            if value is None:
                raise InputError(
                    f"{where}: the rows have no testIdx (promptfoo before results version 3): "
                    "name the id with --id-field (e.g. vars.id)"
                )
            case = row.get("testCase")
            if isinstance(case, Mapping):  # repeats of one test share its testCase
                value = by_case.setdefault(
                    json.dumps(case, sort_keys=True, default=str), str(value)
                )
        if isinstance(value, bool) or not isinstance(value, int | str):
            run.failures.append(ParseFailure(where, None, f"no usable id ({opts.id_field})"))
            continue
        item_id = str(value)
        scores, error, problems = _row_scores(row)
        for name in scores:
            if name not in run.scores:
                run.scores.append(name)
        samples = by_id.setdefault(item_id, [])
        samples.append(BridgeSample(len(samples) + 1, scores, where, error, problems))
        if item_id not in display:
            response = row.get("response")
            output = response.get("output") if isinstance(response, Mapping) else None
            display[item_id] = {
                "vars": _text(row.get("vars") or {}),
                "output": "" if output is None else _text(output),
            }
        if opts.cluster_field and item_id not in clusters:
            cluster = get_field(row, opts.cluster_field)
            if cluster is not None:
                clusters[item_id] = str(cluster)
    run.items = [BridgeItem(i, tuple(s), display[i], clusters.get(i)) for i, s in by_id.items()]
    if column is not None:
        run.own = _own(column, len(rows))
        run.provenance = {
            k: v
            for k, v in {"prompt_id": column.get("id"), "provider": column.get("provider")}.items()
            if v is not None
        }
    return run


def _own(column: Mapping[str, Any], n_rows: int) -> list[OwnMetric]:
    metrics = column.get("metrics")
    if not isinstance(metrics, Mapping):
        return []
    own = []
    counts = [metrics.get(k) for k in ("testPassCount", "testFailCount", "testErrorCount")]
    if all(isinstance(c, int) for c in counts[:2]):
        passed, failed, errors = (int(c or 0) for c in counts)
        total = passed + failed + errors
        if total:
            own.append(OwnMetric("pass", "pass rate", passed / total, n=total))
    score = metrics.get("score")
    if isinstance(score, int | float) and n_rows:
        own.append(OwnMetric("score", "mean score", float(score) / n_rows, n=n_rows))
    named = metrics.get("namedScores") or {}
    named_n = metrics.get("namedScoresCount") or {}
    for key, total_score in named.items() if isinstance(named, Mapping) else ():
        n = named_n.get(key) if isinstance(named_n, Mapping) else None
        if isinstance(total_score, int | float) and isinstance(n, int) and n:
            own.append(OwnMetric(str(key), f"{key} (mean)", float(total_score) / n, n=n))
    return own
