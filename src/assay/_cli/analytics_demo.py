"""``assay demo analytics``: scored runs and side files for the experiment analytics.

On the synthetic document-classification benchmark (``doc_classification``):

- ``baseline.json`` and ``candidate.json``: the demo's two runs, scored;
- ``rerun1.json`` … ``rerun3.json``: three reruns of the baseline configuration — each the
  baseline's predictions with a few items re-drawn, as a non-deterministic model would — for
  ``assay noise-floor``;
- ``judgments.jsonl``: judge verdicts on ambiguous-band rows (``assay judge-calibration``);
- ``usage.jsonl``: one usage record per model call of a two-stage pipeline (``assay cost``);
- ``corpus.jsonl``: label samples of two models × prompts per document (``assay montecarlo``).

Everything is drawn from fixed seeds: the same files every time. It lives with the command
line, not in ``assay._analytics``: it scores the classification suite's example data, and the
analytics library sits below the suites (docs/architecture.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from assay.suites.classification.examples import CLASSES, CONFUSED_WITH, write_classification_demo

#: share of the baseline's items a rerun re-draws
RERUN_FLIP = 0.03


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _reruns(
    rng: np.random.Generator, rows: list[dict[str, Any]], gold: dict[str, str], k: int
) -> Iterator[list[dict[str, Any]]]:
    """k copies of the baseline's predictions, each with RERUN_FLIP of the items re-drawn."""
    for _ in range(k):
        out = []
        for row in rows:
            label = gold[row["id"]]
            if rng.random() < RERUN_FLIP and not str(row["predicted"]).startswith("ERROR"):
                row = {**row, "predicted": label if rng.random() < 0.5 else CONFUSED_WITH[label]}
            out.append(row)
        yield out


def _judgments(rng: np.random.Generator, ids: list[str]) -> list[dict[str, Any]]:
    """Verdicts that agree with strong and weak scores, with a lean to leniency."""
    rows = []
    for doc in ids[:120]:
        score = float(np.round(rng.uniform(0.2, 1.0), 2))
        field = ["parties", "effective_date", "governing_law"][int(rng.integers(3))]
        if rng.random() < 0.05:
            verdict = None
        elif score >= 0.85:
            verdict = "accurate" if rng.random() < 0.9 else "inaccurate"
        elif score <= 0.5:
            verdict = "inaccurate" if rng.random() < 0.7 else "accurate"
        else:
            verdict = "accurate" if rng.random() < 0.6 else "inaccurate"
        rows.append({"row": doc, "field": field, "score": score, "verdict": verdict})
    return rows


def _usage(rng: np.random.Generator, ids: list[str]) -> list[dict[str, Any]]:
    """A sorter call and an extractor call per row; a few rows replayed from cache."""
    rows: list[dict[str, Any]] = []
    for doc in ids:
        if rng.random() < 0.04:
            rows.append({"row": doc, "replayed": True})
            continue
        rows.append(
            {
                "row": doc,
                "model": "qwen/qwen3-8b",
                "stage": "sorter",
                "prompt_tokens": int(rng.integers(600, 1000)),
                "completion_tokens": int(rng.integers(20, 60)),
            }
        )
        rows.append(
            {
                "row": doc,
                "model": "deepseek-v4-flash",
                "stage": "extractor",
                "prompt_tokens": int(rng.integers(3000, 7000)),
                "completion_tokens": int(rng.integers(300, 900)),
            }
        )
    return rows


def _corpus(rng: np.random.Generator, gold: dict[str, str]) -> list[dict[str, Any]]:
    """Per document: 5 samples of a cheap model, 3 of a strong one, with confidences."""
    rows: list[dict[str, Any]] = []
    configs = (("small", "v3", 5, 0.78, 0.0001), ("big", "v1", 3, 0.93, 0.0012))
    for doc, label in list(gold.items())[:200]:
        hard = rng.random() < 0.25
        for model, prompt, n, acc, cost in configs:
            p = acc - (0.25 if hard else 0.0)
            for r in range(n):
                if rng.random() < 0.02:
                    rows.append(
                        {"doc": doc, "model": model, "prompt": prompt, "run": f"r{r + 1}",
                         "label": None, "failed": True, "gold": label}
                    )  # fmt: skip
                    continue
                right = rng.random() < p
                if right:
                    out = label
                elif rng.random() < 0.7:
                    out = CONFUSED_WITH[label]
                else:
                    out = str(rng.choice([c for c in CLASSES if c != label]))
                conf = float(
                    np.round(rng.uniform(0.6, 0.99) if right else rng.uniform(0.3, 0.8), 2)
                )
                row: dict[str, Any] = {
                    "doc": doc, "model": model, "prompt": prompt, "run": f"r{r + 1}",
                    "label": out, "gold": label, "confidence": conf, "cost": cost,
                    "prompt_tokens": 900, "completion_tokens": 35,
                }  # fmt: skip
                if not right and r == 0:
                    row["reasoning"] = f"Looks like a {out}, though it could be a {label}."
                    row["exemplar_tokens"] = int(rng.integers(200, 900))
                rows.append(row)
    return rows


def write_demo(out: Path) -> list[Path]:
    """Write the files listed in the module docstring into ``out``; return their paths."""
    from assay._engine.scoring import score

    rng = np.random.default_rng(13)
    inputs = out / "inputs"
    files = write_classification_demo(inputs)
    gold = {r["id"]: r["expected"] for r in _read(files.gold)}
    ids = list(gold)
    written = []

    def run(pred: Path, name: str) -> Any:
        return score(
            "classification",
            pred=pred,
            gold=files.gold,
            expected_ids=files.expected_ids,
            positive="contract",
            name=name,
        )

    for name, pred in (("baseline", files.baseline), ("candidate", files.candidate)):
        path = out / f"{name}.json"
        run(pred, name).save(path)
        written.append(path)
    for k, rows in enumerate(_reruns(rng, _read(files.baseline), gold, 3), start=1):
        pred = _jsonl(inputs / f"rerun{k}.jsonl", rows)
        path = out / f"rerun{k}.json"
        run(pred, f"rerun{k}").save(path)
        written.append(path)
    written.append(_jsonl(out / "judgments.jsonl", _judgments(rng, ids)))
    written.append(_jsonl(out / "usage.jsonl", _usage(rng, ids)))
    written.append(_jsonl(out / "corpus.jsonl", _corpus(rng, gold)))
    return written
