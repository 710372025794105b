"""The ``--judge`` pass (seed 000 §3, §11): ambiguous-band fields reviewed by an LLM judge.

Every field of a run whose score lies in the ambiguous band [0.5, 0.85] carries, in its row's
details, the expected and predicted values (``review``). Each such (row, field) is sent to an
OpenAI-compatible judge through ``assay._judge`` (its answer cache, cost cap and key from the
environment) with the shipped ``field_judge`` prompt; the judge rules on correctness
(accurate / inaccurate) and completeness (complete / partial / missing). Every verdict is
persisted as a calibration record ``{kind: calibration, row, field, score, verdict,
completeness, reason, model, prompt, cache_key, cost_usd}``, and the records are aggregated by
``assay._analytics.calibration.judge_calibration`` into ``judge_calibration``: n_judged,
n_scored, agree_rate, judge_strict, judge_lenient (strong ≥ 0.85, weak ≤ 0.5).

An unusable answer for one field (malformed, truncated or empty after the corrective retries, a
request the endpoint refused) is that field's unscored record with the error, listed by run
file, item and field; when more than half of the fields asked got no usable answer
(``assay._judge.outcome``), the pass is refused unless ``judge.allow_unusable_answers``. A
spent budget stops the pass, keeping what was judged. A dead endpoint (a request's retries or
the pass's retry budget spent) or one answering as another model stops it with nothing written
(JudgeRunStoppedError). Each record names the model that answered.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from assay._analytics import Calibration, Judgment, judge_calibration
from assay._engine.run import Run
from assay._judge import (
    FATAL_ERRORS,
    BudgetExceededError,
    JudgeClient,
    JudgeConfigError,
    JudgeError,
    PromptTemplate,
    check_usable,
    load_prompt,
    run_stopped,
    same_model,
)

PROMPT_PACKAGE = "assay.suites.extraction._lib"
PROMPT_NAME = "field_judge"


class FieldVerdict(BaseModel):
    """The judge's answer for one field."""

    correctness: Literal["accurate", "inaccurate"]
    completeness: Literal["complete", "partial", "missing"]
    reason: str = ""


@dataclass(frozen=True)
class ReviewRequest:
    """One ambiguous-band field of one row."""

    row: str
    field: str
    field_type: str
    score: float
    expected: Any
    predicted: Any


def field_judge_prompt(version: int | None = None) -> PromptTemplate:
    """The shipped judge prompt (the newest version unless ``version`` is given)."""
    return load_prompt(PROMPT_PACKAGE, PROMPT_NAME, version)


def review_requests(run: Run) -> Iterator[ReviewRequest]:
    """The (row, field) pairs of an extraction run whose field score is in the band, in item
    order and field order."""
    if run.task != "extraction":
        raise JudgeConfigError(f"run {run.run_id} is a {run.task!r} run, not an extraction run")
    for item in run.items:
        fields = (item.details or {}).get("fields") or {}
        for name in (item.details or {}).get("ambiguous_fields") or []:
            entry = fields.get(name) or {}
            review = entry.get("review")
            if not isinstance(review, dict) or entry.get("score") is None:
                continue
            yield ReviewRequest(
                row=item.id,
                field=name,
                field_type=str(entry.get("type")),
                score=float(entry["score"]),
                expected=review.get("expected"),
                predicted=review.get("predicted"),
            )


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def judge_field(
    client: JudgeClient, prompt: PromptTemplate, request: ReviewRequest
) -> dict[str, Any]:
    """One calibration record for ``request`` (unscored, with the error, when the answer could
    not be used; a fatal error — budget, dead endpoint, configuration, another model —
    propagates)."""
    record: dict[str, Any] = {
        "kind": "calibration",
        "row": request.row,
        "field": request.field,
        "field_type": request.field_type,
        "score": request.score,
    }
    try:
        result = client.complete_json(
            prompt,
            {
                "field": request.field,
                "field_type": request.field_type,
                "score": f"{request.score:.3f}",
                "expected": _text(request.expected),
                "predicted": _text(request.predicted),
            },
            FieldVerdict,
        )
    except FATAL_ERRORS:
        raise
    except JudgeError as err:
        return {**record, "verdict": None, "completeness": None, "error": str(err)}
    call = result.call
    return {
        **record,
        "verdict": result.value.correctness,
        "completeness": result.value.completeness,
        "reason": result.value.reason,
        "model": call.model,
        "prompt": f"{call.prompt}@v{call.prompt_version}",
        "cache_key": call.cache_key,
        "cached": call.cached,
        "cost_usd": call.cost_usd,
        "answered_model": call.answered_model,
    }


@dataclass(frozen=True)
class JudgePass:
    """The records of one pass, its calibration, why it stopped early (if it did), the fields
    whose answer could not be used ("RUN: item ID, field NAME: reason"), the models that
    answered and the pass's warnings."""

    records: list[dict[str, Any]]
    calibration: Calibration
    n_requested: int
    stopped: str | None
    failures: list[str] = field(default_factory=list)
    answered_by: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "n_requested": self.n_requested,
            "stopped": self.stopped,
            "n_unusable": len(self.failures),
            "answered_by": self.answered_by,
            "judge_calibration": self.calibration.to_json(),
        }


def judge_run(
    run: Run,
    client: JudgeClient,
    *,
    prompt: PromptTemplate | None = None,
    strong: float = 0.85,
    weak: float = 0.5,
    limit: int | None = None,
    source: str | Path | None = None,
) -> JudgePass:
    """Judge every ambiguous-band field of ``run`` (the first ``limit`` when given), in order;
    the client's ``concurrency`` bounds the requests in flight. ``source`` (the run's file)
    names where each failure is.

    Raises JudgeRunStoppedError when the endpoint died or answered as another model, and
    UnusableAnswersError when more than half of the fields got no usable answer (unless the
    client's settings allow it)."""
    prompt = prompt or field_judge_prompt()
    requests: Sequence[ReviewRequest] = list(review_requests(run))
    if limit is not None:
        requests = requests[:limit]
    records: list[dict[str, Any]] = []
    stopped = None
    step = max(1, client.settings.concurrency)
    for start in range(0, len(requests), step):
        chunk = requests[start : start + step]
        try:
            outcomes = client.map(lambda r: judge_field(client, prompt, r), chunk)
        except BudgetExceededError as err:
            stopped = f"budget spent after {len(records)} of {len(requests)} fields: {err}"
            break
        except FATAL_ERRORS as err:
            answered = sum(1 for r in records if r["verdict"] is not None)
            raise run_stopped(
                err, answered, len(requests), "fields", cache=client.settings.cache
            ) from err
        # judge_field turns every non-fatal JudgeError into an unscored record
        records.extend(out for out in outcomes if not isinstance(out, JudgeError))
    judgments = [
        Judgment(
            row=r["row"],
            field=r["field"],
            score=float(r["score"]),
            verdict=None if r["verdict"] is None else r["verdict"] == "accurate",
        )
        for r in records
    ]
    calibration = judge_calibration(
        judgments, strong=strong, weak=weak, run_ids=[it.id for it in run.items]
    )
    calibration = replace(
        calibration, run_id=run.run_id, run_name=run.name, source="assay extraction judge"
    )
    where = str(source) if source is not None else f"run {run.run_id}"
    failures = [
        f"{where}: item {r['row']}, field {r['field']}: {r['error']}"
        for r in records
        if r["verdict"] is None
    ]
    warning = check_usable(
        failures,
        len(records),
        allowed=client.settings.allow_unusable_answers,
        what="fields asked",
    )
    answered_by = sorted({r["answered_model"] for r in records if r.get("answered_model")})
    warnings = [warning] if warning else []
    others = [m for m in answered_by if not same_model(client.config.model, m)]
    if others:  # only with allow_model_mismatch: the client stops the pass otherwise
        warnings.append(
            f"the judge was answered by {', '.join(others)}, not {client.config.model!r} as "
            "asked (--allow-model-mismatch); each record names its answering model"
        )
    return JudgePass(
        records,
        calibration,
        len(requests),
        stopped,
        failures=failures,
        answered_by=answered_by,
        warnings=warnings,
    )
