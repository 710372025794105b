"""The scores suite's example data (``assay demo scores``): two runs of each tool, written in
that tool's own layout from data of our own.

* ``inspect/baseline.eval``, ``inspect/candidate.eval``: Inspect ``.eval`` logs (ZIP, format
  version 2) of a 60-question task, 2 epochs, scorer ``match`` (``C``/``I``), with the log's own
  ``accuracy`` and ``stderr`` computed as Inspect does (mean over ids of the epochs' mean);
* ``lm-eval/org__model-a/``, ``lm-eval/org__model-b/``: ``--log_samples`` output of a
  generation task ``qa_mini`` (80 docs, filters ``strict-match`` and ``flexible-extract``,
  metric ``exact_match``) with each ``results_<date>.json``; model b skipped doc 17;
* ``promptfoo/before.json``, ``promptfoo/after.json``: ``promptfoo eval -o`` outputs (results
  version 3) of 50 tests, one provider and a prompt before and after a change, with ``pass``,
  a partial ``score`` and two metric tags; one provider error in ``after.json``.

The values are drawn from a seeded generator; every figure a tool would report is computed from
the rows with that tool's rule, so the docs page can show assay's mean equal to it.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import zipfile
from pathlib import Path
from typing import Any

N_INSPECT, EPOCHS = 60, 2
N_LM_EVAL, MISSING_DOC = 80, 17
N_PROMPTFOO = 50


def _stderr(values: list[float]) -> float:
    """Sample standard deviation / √n (Inspect's ``stderr``, lm-eval's ``mean_stderr``)."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) / math.sqrt(n)


def _json(value: Any) -> bytes:
    return json.dumps(value, indent=2, ensure_ascii=False).encode("utf-8")


# --------------------------------------------------------------------------- Inspect


def _inspect_log(out: Path, model: str, skill: float, seed: int) -> Path:
    rng = random.Random(seed)
    ids = list(range(1, N_INSPECT + 1))
    eval_spec = {
        "eval_id": f"demo{seed}",
        "run_id": f"run{seed}",
        "created": "2026-03-01T12:00:00+00:00",
        "task": "capitals",
        "task_id": "capitals-demo",
        "task_version": 0,
        "dataset": {"name": "capitals_demo", "samples": N_INSPECT, "sample_ids": ids},
        "model": model,
        "config": {"epochs": EPOCHS},
        "packages": {"inspect_ai": "0.3.285"},
        "scorers": [
            {
                "name": "match",
                "options": {},
                "metrics": [
                    {"name": "inspect_ai/accuracy", "options": {}},
                    {"name": "inspect_ai/stderr", "options": {}},
                ],
            }
        ],
    }
    samples: list[dict[str, Any]] = []
    per_id: dict[int, list[float]] = {}
    for epoch in range(1, EPOCHS + 1):
        for i in ids:
            difficulty = (i % 10) / 10
            correct = rng.random() < skill - 0.4 * difficulty
            answer = f"City {i}" if correct else f"City {i + 1}"
            samples.append(
                {
                    "id": i,
                    "epoch": epoch,
                    "input": f"What is the capital of country {i}?",
                    "target": f"City {i}",
                    "output": {"model": model, "completion": answer},
                    "scores": {"match": {"value": "C" if correct else "I", "answer": answer}},
                    "metadata": {"region": ["north", "south", "east", "west"][i % 4]},
                }
            )
            per_id.setdefault(i, []).append(1.0 if correct else 0.0)
    reduced = [sum(v) / len(v) for v in per_id.values()]
    results = {
        "total_samples": len(samples),
        "completed_samples": len(samples),
        "scores": [
            {
                "name": "match",
                "scorer": "match",
                "scored_samples": N_INSPECT,
                "unscored_samples": 0,
                "params": {},
                "metrics": {
                    "accuracy": {"name": "accuracy", "value": sum(reduced) / len(reduced)},
                    "stderr": {"name": "stderr", "value": _stderr(reduced)},
                },
            }
        ],
    }
    header = {
        "version": 2,
        "status": "success",
        "eval": eval_spec,
        "plan": {"name": "plan", "steps": []},
        "results": results,
        "stats": {},
    }
    reductions = [
        {
            "scorer": "match",
            "samples": [{"value": v, "sample_id": i} for i, v in zip(ids, reduced, strict=True)],
        }
    ]
    path = out / f"{model.split('/')[-1]}.eval"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("_journal/start.json", _json({"version": 2, "eval": eval_spec, "plan": {}}))
        for s in samples:
            z.writestr(f"samples/{s['id']}_epoch_{s['epoch']}.json", _json(s))
        summaries = [{k: s[k] for k in ("id", "epoch", "target", "scores")} for s in samples]
        z.writestr("summaries.json", _json(summaries))
        z.writestr("reductions.json", _json(reductions))
        z.writestr("header.json", _json(header))
    return path


def write_inspect_demo(out: Path) -> list[Path]:
    """Two Inspect logs: ``inspect/baseline.eval`` and ``inspect/candidate.eval``."""
    folder = out / "inspect"
    folder.mkdir(parents=True, exist_ok=True)
    return [
        _inspect_log(folder, "demo/baseline", 0.64, 1),
        _inspect_log(folder, "demo/candidate", 0.90, 2),
    ]


# --------------------------------------------------------------------------- lm-eval

_FILTERS = ("strict-match", "flexible-extract")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _lm_eval_run(out: Path, model: str, skill: float, seed: int, date_id: str) -> list[Path]:
    rng = random.Random(seed)
    folder = out / model.replace("/", "__")
    folder.mkdir(parents=True, exist_ok=True)
    skipped = {MISSING_DOC} if model.endswith("b") else set()
    lines: dict[str, list[dict[str, Any]]] = {f: [] for f in _FILTERS}
    for doc_id in range(N_LM_EVAL):
        if doc_id in skipped:
            continue
        a, b = doc_id % 9 + 2, doc_id % 7 + 3
        gold = str(a * b)
        right = rng.random() < skill
        formatted = rng.random() < 0.75  # the answer after "####", which strict-match needs
        said = gold if right else str(a * b + 1)
        text = f"{a} times {b} is {said}." + (f"\n#### {said}" if formatted else "")
        doc = {"question": f"What is {a} times {b}?", "answer": f"{a} * {b} = {gold}\n#### {gold}"}
        prompt = f"Question: {doc['question']}\nAnswer:"
        for name in _FILTERS:
            extracted = said if (formatted or name == "flexible-extract") else "[invalid]"
            lines[name].append(
                {
                    "doc_id": doc_id,
                    "doc": doc,
                    "target": doc["answer"],
                    "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": {"until": ["\n\n"]}}},
                    "resps": [[text]],
                    "filtered_resps": [extracted],
                    "filter": name,
                    "metrics": ["exact_match"],
                    "doc_hash": _sha(json.dumps(doc, indent=2, ensure_ascii=False)),
                    "prompt_hash": _sha(prompt),
                    "target_hash": _sha(doc["answer"]),
                    "exact_match": 1.0 if extracted == gold else 0.0,
                }
            )
    samples = folder / f"samples_qa_mini_{date_id}.jsonl"
    with samples.open("w", encoding="utf-8") as fh:
        for name in _FILTERS:
            for line in lines[name]:
                fh.write(json.dumps(line, ensure_ascii=False) + "\n")
    figures: dict[str, Any] = {"name": "qa_mini", "alias": "qa_mini"}
    for name in _FILTERS:
        values = [line["exact_match"] for line in lines[name]]
        figures[f"exact_match,{name}"] = sum(values) / len(values)
        figures[f"exact_match_stderr,{name}"] = _stderr(values)
    effective = N_LM_EVAL - len(skipped)
    results = {
        "results": {"qa_mini": figures},
        "group_subtasks": {"qa_mini": []},
        "configs": {
            "qa_mini": {
                "task": "qa_mini",
                "output_type": "generate_until",
                "metric_list": [{"metric": "exact_match", "aggregation": "mean"}],
                "filter_list": [{"name": n} for n in _FILTERS],
                "metadata": {"version": 1.0},
            }
        },
        "versions": {"qa_mini": 1.0},
        "n-shot": {"qa_mini": 0},
        "higher_is_better": {"qa_mini": {"exact_match": True}},
        "n-samples": {"qa_mini": {"original": N_LM_EVAL, "effective": effective}},
        "config": {"model": "hf", "model_args": f"pretrained={model}", "limit": None},
        "lm_eval_version": "0.4.12",
        "model_name": model,
        "model_name_sanitized": model.replace("/", "__"),
    }
    path = folder / f"results_{date_id}.json"
    path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return [path, samples]


def write_lm_eval_demo(out: Path) -> list[Path]:
    """Two lm-eval ``--log_samples`` outputs under ``lm-eval/``: models a and b."""
    folder = out / "lm-eval"
    return [
        *_lm_eval_run(folder, "org/model-a", 0.62, 3, "2026-03-02T10-00-00.000001"),
        *_lm_eval_run(folder, "org/model-b", 0.74, 4, "2026-03-03T10-00-00.000002"),
    ]


# --------------------------------------------------------------------------- promptfoo


def _promptfoo_output(
    path: Path, label: str, skill: float, seed: int, error_at: int | None
) -> Path:
    rng = random.Random(seed)
    provider = "openai:chat:demo-model"
    raw = (
        "Answer briefly: {{question}}" if label == "v1" else "Answer in one sentence: {{question}}"
    )
    rows: list[dict[str, Any]] = []
    counts = {"pass": 0, "fail": 0, "error": 0}
    score_sum = 0.0
    named_sum = {"correct": 0.0, "style": 0.0}
    named_n = {"correct": 0, "style": 0}
    for t in range(N_PROMPTFOO):
        case: dict[str, Any] = {
            "vars": {"id": f"q{t:03d}", "question": f"Question {t}?"},
            "assert": [
                {"type": "icontains", "value": f"answer {t}", "metric": "correct"},
                {"type": "llm-rubric", "value": "short and polite", "metric": "style"},
            ],
            "options": {},
            "metadata": {},
        }
        row: dict[str, Any] = {
            "cost": 0.0,
            "id": f"row-{label}-{t}",
            "latencyMs": 400 + t,
            "prompt": {
                "raw": raw.replace("{{question}}", case["vars"]["question"]),
                "label": label,
            },
            "promptId": _sha(raw),
            "promptIdx": 0,
            "provider": {"id": provider},
            "testCase": case,
            "testIdx": t,
            "vars": case["vars"],
            "metadata": {},
        }
        if t == error_at:
            row |= {
                "error": "API error: 503 Service Unavailable",
                "gradingResult": None,
                "namedScores": {},
                "response": {"error": "API error: 503 Service Unavailable"},
                "score": 0,
                "success": False,
                "failureReason": 2,
            }
            counts["error"] += 1
            rows.append(row)
            continue
        correct = 1.0 if rng.random() < skill else 0.0
        style = round(min(1.0, max(0.0, rng.gauss(0.75 + 0.1 * (label == "v2"), 0.15))), 2)
        score = round((correct + style) / 2, 4)
        passed = correct == 1.0 and style >= 0.5
        components = [
            {
                "pass": correct == 1.0,
                "score": correct,
                "reason": "Assertion passed" if correct else "Expected output to contain",
                "assertion": case["assert"][0],
            },
            {
                "pass": style >= 0.5,
                "score": style,
                "reason": "graded",
                "assertion": case["assert"][1],
            },
        ]
        row |= {
            "gradingResult": {
                "pass": passed,
                "score": score,
                "reason": "All assertions passed" if passed else "An assertion failed",
                "namedScores": {"correct": correct, "style": style},
                "componentResults": components,
            },
            "namedScores": {"correct": correct, "style": style},
            "response": {"output": f"The answer {t}." if correct else "Not sure."},
            "score": score,
            "success": passed,
            "failureReason": 0 if passed else 1,
        }
        counts["pass" if passed else "fail"] += 1
        score_sum += score
        for k, v in (("correct", correct), ("style", style)):
            named_sum[k] += v
            named_n[k] += 1
        rows.append(row)
    prompt = {
        "raw": raw,
        "label": label,
        "id": _sha(raw),
        "provider": provider,
        "metrics": {
            "score": score_sum,
            "testPassCount": counts["pass"],
            "testFailCount": counts["fail"],
            "testErrorCount": counts["error"],
            "namedScores": named_sum,
            "namedScoresCount": named_n,
        },
    }
    output = {
        "evalId": f"eval-demo-{label}",
        "results": {
            "version": 3,
            "timestamp": "2026-03-04T09:00:00.000Z",
            "prompts": [prompt],
            "results": rows,
            "stats": {
                "successes": counts["pass"],
                "failures": counts["fail"],
                "errors": counts["error"],
            },
        },
        "config": {"prompts": [raw], "providers": [provider]},
        "shareableUrl": None,
        "metadata": {"promptfooVersion": "0.123.1", "exportedAt": "2026-03-04T09:00:05.000Z"},
    }
    path.write_text(json.dumps(output, indent=2) + "\n", encoding="utf-8")
    return path


def write_promptfoo_demo(out: Path) -> list[Path]:
    """Two promptfoo outputs: ``promptfoo/before.json`` (prompt v1), ``promptfoo/after.json``
    (prompt v2, one provider error)."""
    folder = out / "promptfoo"
    folder.mkdir(parents=True, exist_ok=True)
    return [
        _promptfoo_output(folder / "before.json", "v1", 0.72, 5, None),
        _promptfoo_output(folder / "after.json", "v2", 0.84, 6, 7),
    ]


def write_demo(out: Path) -> list[Path]:
    """``assay demo scores``: two runs of each tool under ``inspect/``, ``lm-eval/`` and
    ``promptfoo/`` in ``out``; returns the files written."""
    return [*write_inspect_demo(out), *write_lm_eval_demo(out), *write_promptfoo_demo(out)]
