"""The task-aware scoring dispatcher (seed 000 §8): a task key → a scoring kind, and one pure,
deterministic score function over (expected, predicted) pairs with bootstrap CIs, so offline
rescoring and live scoring never disagree. Failed rows (``ERROR: ``, blank) count as misses in
every denominator (exact match, per-class and macro accuracy, the per-class table) and are left
out of the confusion matrix only; the legalbench kind adds LegalBench's official figure,
``balanced_accuracy``."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from assay._engine.scorecard import aggregate
from assay._labels import (
    DOC_SUBCLASS_EQUIVALENCES,
    SUBTYPE_EQUIVALENCES,
    confusion,
    equivalence_set,
    equivalent,
    is_blank,
    is_error_output,
    normalize_label,
    normalize_subtype,
    per_class,
    top_confusions,
)
from assay._legal.answers import (
    LEGALBENCH_BINARY_LABELS,
    legalbench_key,
    normalize_legalbench,
    normalize_maud_consideration,
)
from assay._legal.aupr import maud_aupr
from assay._legal.contracteval import contracteval_outcome, pair_jaccard, said_no_related
from assay._legal.labelscore import NO_ANSWER, label_specs, label_stats
from assay.errors import UsageError
from assay.metrics.spec import MetricSpec, mean_columns, mean_metric
from assay.metrics.table import StatsTable

#: task key → scoring kind; an unknown key falls back to its own name (plain labels)
TASK_KINDS: Mapping[str, str] = {
    "subtype": "subtype",
    "doc_class": "doc_class",
    "docclass": "docclass",
    "maud_docclass": "maud_docclass",
    "maud_question": "maud_question",
    "maud": "maud_question",
    "legalbench": "legalbench",
    "multiclass": "multiclass",
    "court_opinion": "court_opinion",
    "chained": "chained",
    "contracteval": "contracteval",
}
LABEL_KINDS = ("doc_class", "multiclass", "court_opinion", "maud_question", "legalbench")


def task_kind(task: str) -> str:
    """The scoring kind of ``task``: TASK_KINDS, then a ``legalbench_*``/``maud_*`` prefix,
    else the task name itself (scored as plain label classification)."""
    key = task.strip().lower()
    if key in TASK_KINDS:
        return TASK_KINDS[key]
    for prefix in ("legalbench", "maud"):
        if key.startswith(prefix + "_") or key.startswith(prefix + "/"):
            return "legalbench" if prefix == "legalbench" else "maud_question"
    return key


def normalize_task_answer(task: str, value: Any, valid: Collection[str] | None = None) -> str:
    """Task-aware label normalization (seed 000 §1, §8): MAUD consideration answers and
    LegalBench answers through their own tables, subtypes against the CUAD folder names, and
    doc-class and every other task through ``normalize_label`` (over ``valid`` when given).

    ``normalize_task_answer("maud_docclass", "Mixed Cash & Stock")`` → "mixed_cash_stock";
    ``normalize_task_answer("legalbench_hearsay", "1.0")`` → "yes";
    ``normalize_task_answer("subtype", "License_Agreements")`` → "license".
    """
    kind = task_kind(task)
    if kind in ("maud_docclass", "maud_question") and not valid:
        return normalize_maud_consideration(value)
    if kind == "legalbench":
        return normalize_legalbench(value, valid)
    if kind in ("subtype", "chained") and not valid:
        return normalize_subtype(value)
    return normalize_label(value, valid)


def _usable(value: Any) -> bool:
    return not is_error_output(value) and not is_blank(value)


def _finish(
    rows: list[dict[str, float]], specs: list[MetricSpec], seed: int, n_boot: int
) -> dict[str, dict[str, float | int | None]]:
    ids = [f"{i:06d}" for i in range(len(rows))]
    columns = sorted({c for r in rows for c in r})
    table = StatsTable.from_rows(ids, rows, columns)
    results = aggregate(table, specs, ci=n_boot > 0, n_bootstrap=max(n_boot, 1), seed=seed)
    return {
        name: {"value": r.value, "ci_lower": r.ci_lower, "ci_upper": r.ci_upper, "n": r.n}
        for name, r in results.items()
    }


def _check_lengths(*seqs: Sequence[Any] | None) -> int:
    lengths = {len(s) for s in seqs if s is not None}
    if len(lengths) > 1:
        raise UsageError(f"expected and predicted sequences differ in length: {sorted(lengths)}")
    return lengths.pop() if lengths else 0


def _label_score(
    kind: str,
    expected: Sequence[Any],
    predicted: Sequence[Any],
    valid: Collection[str] | None,
    seed: int,
    n_boot: int,
) -> dict[str, Any]:
    norm: Callable[[Any, Collection[str] | None], str] = (
        normalize_legalbench if kind == "legalbench" else normalize_label
    )
    gold = [norm(e, valid) for e in expected]
    labels = sorted(set(valid) if valid else set(gold))
    positive = (
        "yes" if kind == "legalbench" and set(labels) <= set(LEGALBENCH_BINARY_LABELS) else None
    )
    pred = [norm(p, labels) if _usable(p) else None for p in predicted]
    official: list[tuple[str, str] | None] = (
        [(legalbench_key(e), legalbench_key(p)) for e, p in zip(expected, predicted, strict=True)]
        if kind == "legalbench"
        else [None] * len(gold)
    )
    rows = [
        label_stats(g, p, positive=positive, official=o)
        for g, p, o in zip(gold, pred, official, strict=True)
    ]
    official_classes = sorted({o[0] for o in official if o is not None})
    specs = label_specs(sorted(set(gold)), positive=positive, official_classes=official_classes)
    pairs = [(g, p) for g, p in zip(gold, pred, strict=True) if p is not None]
    every = [(g, NO_ANSWER if p is None else p) for g, p in zip(gold, pred, strict=True)]
    return {
        "metrics": _finish(rows, specs, seed, n_boot),
        "per_class": per_class(every),
        "confusion": confusion(pairs),
        "top_confusions": top_confusions(pairs),
        "n_failed": sum(p is None for p in pred),
    }


def _pair_score(
    kind: str,
    expected: Sequence[Any],
    predicted: Sequence[Any],
    expected_subclass: Sequence[Any] | None,
    predicted_subclass: Sequence[Any] | None,
    seed: int,
    n_boot: int,
) -> dict[str, Any]:
    """doc_type + subclass kinds (docclass, maud_docclass) and the subtype kind."""
    sub_norm: Callable[[Any], str] = (
        normalize_maud_consideration if kind == "maud_docclass" else normalize_label
    )
    if kind == "subtype":
        pairs = equivalence_set(SUBTYPE_EQUIVALENCES)
        gold = [normalize_subtype(e) for e in expected]
        pred = [normalize_subtype(p) if _usable(p) else None for p in predicted]
        rows = [
            {
                **mean_columns("subtype_accuracy", float(p == g)),
                **mean_columns("subtype_accuracy_equiv", float(equivalent(g, p, pairs))),
            }
            for g, p in zip(gold, pred, strict=True)
        ]
        specs = [mean_metric(n, n) for n in ("subtype_accuracy", "subtype_accuracy_equiv")]
        used = [(g, p) for g, p in zip(gold, pred, strict=True) if p is not None]
        every = [(g, NO_ANSWER if p is None else p) for g, p in zip(gold, pred, strict=True)]
        return {
            "metrics": _finish(rows, specs, seed, n_boot),
            "per_class": per_class(every),
            "confusion": confusion(used),
        }
    pairs = equivalence_set(DOC_SUBCLASS_EQUIVALENCES)
    n = len(expected)
    e_sub = list(expected_subclass) if expected_subclass is not None else [None] * n
    p_sub = list(predicted_subclass) if predicted_subclass is not None else [None] * n
    rows = []
    sub_pairs = []  # (gold, predicted) subclass of the rows with both: the confusion
    sub_every = []  # of every row with subclass gold: the per-subclass table
    for e, p, es, ps in zip(expected, predicted, e_sub, p_sub, strict=True):
        doc_ok = _usable(p) and normalize_label(p) == normalize_label(e)
        gold_sub = None if is_blank(es) else sub_norm(es)
        pred_sub = None if is_blank(ps) or not _usable(p) else sub_norm(ps)
        # the subclass alone (§7): a wrong doc_type costs exact_match only
        strict = None if gold_sub is None else float(pred_sub == gold_sub)
        equiv = None if gold_sub is None else float(equivalent(gold_sub, pred_sub, pairs))
        rows.append(
            {
                **mean_columns("doc_type_accuracy", float(doc_ok)),
                **mean_columns("subclass_accuracy", strict),
                **mean_columns("subclass_accuracy_equiv", equiv),
                **mean_columns("exact_match", float(doc_ok and strict != 0.0)),
            }
        )
        if gold_sub is not None and pred_sub is not None:
            sub_pairs.append((gold_sub, pred_sub))
        if gold_sub is not None:
            sub_every.append((gold_sub, NO_ANSWER if pred_sub is None else pred_sub))
    names = ("doc_type_accuracy", "subclass_accuracy", "subclass_accuracy_equiv", "exact_match")
    return {
        "metrics": _finish(rows, [mean_metric(m, m) for m in names], seed, n_boot),
        "subclass_confusion": confusion(sub_pairs),
        "per_subclass": per_class(sub_every),
    }


def _contracteval_score(
    expected: Sequence[Sequence[str]],
    predicted: Sequence[Any],
    categories: Sequence[str] | None,
    seed: int,
    n_boot: int,
) -> dict[str, Any]:
    from assay.metrics.spec import fbeta_metric, precision_metric, ratio_metric, recall_metric

    rows = []
    per_cat: dict[str, dict[str, int]] = {}
    for i, (spans, out) in enumerate(zip(expected, predicted, strict=True)):
        o = contracteval_outcome(list(spans), out)
        nr = said_no_related(out)
        rows.append(
            {
                **{k: float(o == k) for k in ("tp", "fn", "tn", "fp")},
                "correct": float(o in ("tp", "tn")),
                "pairs": 1.0,
                "positive": float(bool(spans)),
                "said_no_related": float(nr),
                "false_no_related": float(nr and bool(spans)),
                **mean_columns("jaccard", pair_jaccard(list(spans), out)),
            }
        )
        if categories is not None:
            d = per_cat.setdefault(categories[i], {"TP": 0, "FN": 0, "TN": 0, "FP": 0})
            d[o.upper()] += 1
    specs = [
        ratio_metric("accuracy", "correct", "pairs"),
        precision_metric("precision", "tp", "fp"),
        recall_metric("recall", "tp", "fn"),
        fbeta_metric("f1", "tp", "fp", "fn"),
        fbeta_metric("f2", "tp", "fp", "fn", beta=2.0),
        mean_metric("jaccard", "jaccard"),
        ratio_metric("no_related_rate", "said_no_related", "pairs"),
        ratio_metric("false_no_related_rate", "false_no_related", "positive"),
        MetricSpec(
            "false_no_related_rate_paper",
            "fixed_denominator",
            ("false_no_related",),
            params={"denominator": 1244.0},
        ),
    ]
    result: dict[str, Any] = {"metrics": _finish(rows, specs, seed, n_boot)}
    if categories is not None:
        result["per_category"] = dict(sorted(per_cat.items()))
    return result


def score_task(
    task: str,
    expected: Sequence[Any],
    predicted: Sequence[Any],
    *,
    valid: Collection[str] | None = None,
    expected_subclass: Sequence[Any] | None = None,
    predicted_subclass: Sequence[Any] | None = None,
    categories: Sequence[str] | None = None,
    seed: int = 42,
    n_boot: int = 2000,
) -> dict[str, Any]:
    """A task-appropriate score dict with bootstrap CIs (``n_boot`` = 0 skips them): exact
    match, per-class and confusion for the label kinds (+ binary P/R/F1 for LegalBench), the
    doc_type/subclass pair for the hierarchical kinds, the benchmark rubric for ContractEval."""
    kind = task_kind(task)
    n = _check_lengths(expected, predicted, expected_subclass, predicted_subclass, categories)
    if kind == "chained":
        raise UsageError(
            "the chained kind needs per-stage rows (sorter and extractor): score them with "
            "`assay score chained` or assay.suites.chained.chained_summary"
        )
    if kind == "contracteval":
        body = _contracteval_score(expected, predicted, categories, seed, n_boot)
    elif kind in ("subtype", "docclass", "maud_docclass"):
        body = _pair_score(
            kind, expected, predicted, expected_subclass, predicted_subclass, seed, n_boot
        )
    else:
        body = _label_score(kind, expected, predicted, valid, seed, n_boot)
    return {"task": task, "kind": kind, "n": n, **body}


def maud_docclass_score(
    expected: Sequence[Any],
    predicted: Sequence[Any],
    *,
    expected_subclass: Sequence[Any],
    predicted_subclass: Sequence[Any],
    seed: int = 42,
    n_boot: int = 2000,
) -> dict[str, Any]:
    """MAUD doc_type + consideration-type subclass, strict and equiv (``score_task`` kind
    ``maud_docclass``); subclasses normalized by ``normalize_maud_consideration``."""
    return score_task(
        "maud_docclass",
        expected,
        predicted,
        expected_subclass=expected_subclass,
        predicted_subclass=predicted_subclass,
        seed=seed,
        n_boot=n_boot,
    )


def maud_question_score(
    expected: Sequence[Any],
    predicted: Sequence[Any],
    *,
    scores: Sequence[Mapping[str, float] | None] | None = None,
    questions: Sequence[str] | None = None,
    seed: int = 42,
    n_boot: int = 2000,
) -> dict[str, Any]:
    """The MAUD per-question suite: answers as labels (``score_task`` kind ``maud_question``);
    with the model's class ``scores`` (one ``{label: score}`` per row, None for a row without
    them) also MAUD's official metric, ``aupr`` (:func:`assay._legal.aupr.maud_aupr`, per
    question when ``questions`` names each row's), labels and score keys normalized alike."""
    out = score_task("maud_question", expected, predicted, seed=seed, n_boot=n_boot)
    if scores is not None:
        _check_lengths(expected, scores, questions)
        gold = [normalize_label(e) for e in expected]
        keyed = [
            None if s is None else {normalize_label(k): float(v) for k, v in s.items()}
            for s in scores
        ]
        out["aupr"] = maud_aupr(gold, keyed, questions)
    return out


def legalbench_score(
    expected: Sequence[Any], predicted: Sequence[Any], *, seed: int = 42, n_boot: int = 2000
) -> dict[str, Any]:
    """LegalBench Yes/No: exact match, per-class, binary P/R/F1 with yes positive, confusion."""
    return score_task("legalbench", expected, predicted, seed=seed, n_boot=n_boot)


def multiclass_score(
    expected: Sequence[Any],
    predicted: Sequence[Any],
    *,
    valid: Collection[str] | None = None,
    seed: int = 42,
    n_boot: int = 2000,
) -> dict[str, Any]:
    """Macro accuracy, micro accuracy (= exact match), per-class and confusion."""
    return score_task("multiclass", expected, predicted, valid=valid, seed=seed, n_boot=n_boot)


def court_opinion_score(
    expected: Sequence[Any],
    predicted: Sequence[Any],
    *,
    valid: Collection[str] | None = None,
    seed: int = 42,
    n_boot: int = 2000,
) -> dict[str, Any]:
    """The court_opinion doc-class path: plain label classification."""
    return score_task("court_opinion", expected, predicted, valid=valid, seed=seed, n_boot=n_boot)
