"""Extraction-suite throughput: documents per second for a 12-field schema with two entity
lists of 20–50 items and a 20-page source document per document, on 1 and 2 processes.

    uv run python benchmarks/bench_extraction.py            # 2,000 documents
    uv run python benchmarks/bench_extraction.py --quick    # 300 documents
    uv run python benchmarks/bench_extraction.py --quick --profile   # + where the time goes

Prints the time of the item scoring alone (``score_items``: the part that scales with jobs)
and of the whole ``assay.score`` run (reading, pairing, 1,000-resample CIs, the artifact).
The data are synthetic and written to a temporary directory. Every measurement starts from
empty per-string caches (``assay._fields`` memoizes tokens and parses; a second pass over the
same documents would be a cache hit), after a warm-up on other documents that pays the
one-off imports and regex compilations. Each figure is the best of ``--repeat`` runs (3),
with the median beside it; CPU seconds (the pool workers' included) are printed beside wall
seconds: on a shared machine the wall time of a busy core is inflated, its CPU time much less.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _bench_common import load_line

WORDS = [
    "agreement",
    "party",
    "supplier",
    "customer",
    "product",
    "service",
    "license",
    "grant",
    "territory",
    "exclusive",
    "fee",
    "royalty",
    "payment",
    "invoice",
    "term",
    "renewal",
    "notice",
    "termination",
    "breach",
    "cure",
    "confidential",
    "information",
    "intellectual",
    "property",
    "warranty",
    "indemnify",
    "liability",
    "insurance",
    "audit",
    "record",
    "deliver",
    "quality",
    "standard",
    "forecast",
    "order",
    "price",
    "minimum",
    "purchase",
    "volume",
    "market",
    "distribution",
    "trademark",
    "software",
    "source",
    "code",
    "escrow",
    "support",
    "maintenance",
    "update",
]
#: ~400 distinct name words, built deterministically from syllables
NAMES = [
    (a + b + c).capitalize()
    for a in ("ac", "bel", "cor", "dun", "el", "far", "gal", "hol", "ir", "jen")
    for b in ("me", "ro", "ta", "vi")
    for c in ("", "x", "n", "ton", "ford", "ley", "dale", "wick", "berg", "mont")
]
SUFFIX = ["Inc.", "LLC", "Ltd", "Corporation", "GmbH", "S.A."]
TYPES = {
    "document_name": "name",
    "parties": "entity_list:name",
    "effective_date": "date",
    "expiration_date": "date",
    "governing_law": "containment",
    "contract_value": "money",
    "renewal_term": "duration",
    "notice_period": "duration",
    "agreement_number": "id",
    "summary": "free_text",
    "payment_terms": "free_text",
    "key_obligations": "entity_list:free_text",
}


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _party(rng: random.Random) -> str:
    return f"{rng.choice(NAMES)} {rng.choice(NAMES)} {rng.choice(SUFFIX)}"


def _perturb(rng: random.Random, text: str) -> str:
    words = text.split()
    if rng.random() < 0.5 and len(words) > 3:
        words[rng.randrange(len(words))] = rng.choice(WORDS)
    return " ".join(words)


def contract(
    rng: random.Random,
    i: int,
    parties: list[str],
    obligations: list[str],
    *,
    summary_words: int = 40,
    payment_words: int = 25,
    id_width: int = 5,
    extra_parties: int = 5,
    extra_obligations: int = 8,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A gold contract record over ``parties`` and ``obligations`` and its prediction: lists
    perturbed, shuffled, partly dropped and padded with made-up items, some values wrong."""
    year = rng.randint(1995, 2023)
    gold = {
        "document_name": "Master Supply Agreement",
        "parties": parties,
        "effective_date": f"{rng.randint(1, 12)}/{rng.randint(1, 28)}/{year}",
        "expiration_date": f"December 31, {year + 3}",
        "governing_law": "the laws of the State of New York",
        "contract_value": f"${rng.randint(1, 900) * 1000:,}",
        "renewal_term": "successive 1 year",
        "notice_period": f"{rng.choice([30, 60, 90])} days",
        "agreement_number": f"MSA-{i:0{id_width}d}",
        "summary": _sentence(rng, summary_words),
        "payment_terms": _sentence(rng, payment_words),
        "key_obligations": obligations,
    }
    pred = dict(gold)
    pred["document_name"] = "Acme Master Supply Agreement"
    pred["parties"] = [_perturb(rng, p) for p in parties if rng.random() < 0.85] + [
        _party(rng) for _ in range(rng.randint(0, extra_parties))
    ]
    rng.shuffle(pred["parties"])
    pred["key_obligations"] = [_perturb(rng, o) for o in obligations if rng.random() < 0.8]
    if extra_obligations:
        pred["key_obligations"] += [
            _sentence(rng, 15) for _ in range(rng.randint(0, extra_obligations))
        ]
    pred["effective_date"] = f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    pred["contract_value"] = gold["contract_value"] if rng.random() < 0.8 else "$1"
    pred["summary"] = _perturb(rng, gold["summary"])
    return gold, pred


def make_document(rng: random.Random, i: int) -> tuple[dict[str, Any], dict[str, Any], str]:
    """Gold, prediction and a ~10,000-word (20-page) source text for document ``i``."""
    parties = [_party(rng) for _ in range(rng.randint(20, 50))]
    obligations = [_sentence(rng, rng.randint(8, 25)) for _ in range(rng.randint(20, 50))]
    gold, pred = contract(rng, i, parties, obligations)
    source = "\n\n".join(_sentence(rng, 500) for _ in range(20))
    source += " " + " ".join(obligations[:10]) + f" effective {gold['effective_date']}"
    return gold, pred, source


def write_data(root: Path, n: int, seed: int = 7) -> tuple[Path, Path, Path]:
    rng = random.Random(seed)
    src = root / "source"
    src.mkdir()
    gold_lines, pred_lines = [], []
    for i in range(n):
        gold, pred, source = make_document(rng, i)
        gold_lines.append(json.dumps({"id": f"doc{i:05d}", "expected": gold}))
        pred_lines.append(json.dumps({"id": f"doc{i:05d}", "predicted": pred}))
        (src / f"doc{i:05d}.txt").write_text(source, encoding="utf-8")
    (root / "gold.jsonl").write_text("\n".join(gold_lines) + "\n", encoding="utf-8")
    (root / "pred.jsonl").write_text("\n".join(pred_lines) + "\n", encoding="utf-8")
    return root / "pred.jsonl", root / "gold.jsonl", src


def clear_caches() -> None:
    """Empty the bounded per-string caches of the extraction code path (tokens, parses,
    normalizations), so that no measurement reuses work done for the same documents."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(("assay._fields", "assay.suites.extraction", "assay._text")):
            continue
        for value in vars(module).values():
            params = getattr(value, "cache_parameters", None)
            if params is not None and (params().get("maxsize") or 0) >= 1024:
                value.cache_clear()


#: (module, function, label): the timed steps of the breakdown, in the order of the code path
PROFILE_ROWS = (
    ("assay.suites.extraction.scorer", "read_document", "reading one item (schema check...)"),
    ("assay.suites.extraction.scorer", "list_similarities", "list matrices, batch by batch"),
    ("assay._fields.batched", "name_similarity_matrices", "  names (TSR / JW)"),
    ("assay._fields.batched", "token_f1_matrices", "  free text (token F1)"),
    ("assay.suites.extraction.scorer", "score_document", "one document: fields, audit, row"),
    ("assay.suites.extraction._lib.rows", "entity_list_from_similarity", "  list scores"),
    ("assay._fields.entity_list", "optimal_assignment", "    Hungarian assignment (scipy)"),
    ("assay._fields.entity_list", "_instantiated", "    partial-GT label rules"),
    ("assay.suites.extraction._lib.rows", "audit_items", "  factuality audit (every field)"),
    ("assay.suites.extraction._lib.rows", "score_field", "  scalar field scorers"),
    ("assay.suites.extraction._lib.rows", "is_null_expectation", "  null-expectation dates"),
    ("assay.suites.extraction._lib.rows", "_regression_pair", "  regression pairs (parsing)"),
    ("assay.suites.extraction._lib.documents", "schema_errors", "  schema check"),
)


def profile(task: Any, items: Any, section: Any, n: int) -> None:
    """Where the CPU time of ``score_items`` (jobs=1) goes: each step of ``PROFILE_ROWS``
    timed by a wrapper (nested steps are included in their parents), then the top functions
    by own time under cProfile (which inflates Python-heavy code more than C calls)."""
    from assay._engine.scoring import score_items

    spent: dict[str, float] = dict.fromkeys((label for _, _, label in PROFILE_ROWS), 0.0)
    originals = []
    for module_name, func, label in PROFILE_ROWS:
        module = sys.modules[module_name]
        original = getattr(module, func)
        originals.append((module, func, original))

        def timed(*a: Any, _f: Any = original, _label: str = label, **k: Any) -> Any:
            t0 = time.process_time()
            try:
                return _f(*a, **k)
            finally:
                spent[_label] += time.process_time() - t0

        setattr(module, func, timed)
    try:
        clear_caches()
        c0 = time.process_time()
        score_items(task, items, section, jobs=1)
        total = time.process_time() - c0
    finally:
        for module, func, original in originals:
            setattr(module, func, original)
    print("\nwhere score_items jobs=1 spends its CPU time (steps timed by wrappers):")
    print(f"{'':42s} {'ms/doc':>7s} {'share':>6s}")
    for label, seconds in spent.items():
        print(f"{label:42s} {seconds / n * 1e3:7.3f} {seconds / total:6.1%}")
    print(f"{'score_items, total':42s} {total / n * 1e3:7.3f}")

    clear_caches()
    prof = cProfile.Profile(time.process_time)
    prof.enable()
    score_items(task, items, section, jobs=1)
    prof.disable()
    print("\ntop functions by own time (cProfile, CPU time):")
    pstats.Stats(prof).sort_stats("tottime").print_stats(15)


def repeated(times: int, work: Any) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds (this process and its finished children) of ``times`` runs of
    ``work``, each from empty caches."""
    walls, cpus = [], []
    for _ in range(times):
        clear_caches()
        c0, t0 = _cpu(), time.perf_counter()
        work()
        walls.append(time.perf_counter() - t0)
        cpus.append(_cpu() - c0)
    return walls, cpus


def _cpu() -> float:
    """CPU seconds of this process and of its terminated child processes (pool workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def rates(n: int, walls: list[float], cpus: list[float], jobs: int) -> str:
    """Documents per second (wall) and per CPU-second: best run, and the median."""
    wall, cpu = min(walls), min(cpus)
    med_wall, med_cpu = statistics.median(walls), statistics.median(cpus)
    return (
        f"{n / wall:5.0f} docs/s wall ({n / wall / jobs:4.0f} per process), "
        f"{n / cpu:4.0f} docs per CPU-second; median of {len(walls)}: "
        f"{n / med_wall:5.0f} docs/s, {n / med_cpu:4.0f} per CPU-second"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="300 documents instead of 2,000")
    parser.add_argument("--docs", type=int, help="number of documents")
    parser.add_argument("--profile", action="store_true", help="also profile score_items")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (best shown)")
    args = parser.parse_args()
    n = args.docs or (300 if args.quick else 2000)

    import assay
    from assay._engine.cohort import build_cohort
    from assay._engine.scoring import resolve_section, score_items
    from assay._settings import get_settings
    from assay.suites.extraction import task

    print(load_line())
    options: dict[str, Any] = {"field_types": TYPES, "source": None}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        pred, gold, src = write_data(root, n)
        (root / "warm").mkdir()
        warm = write_data(root / "warm", 20, seed=99)
        print(f"{n} documents written in {time.perf_counter() - t0:.1f} s (sources ~20 pages each)")

        def prepared(pred: Path, gold: Path, src: Path) -> tuple[Any, Any]:
            section = resolve_section(task, get_settings(), {**options, "source": str(src)})
            loaded = task.load(pred, (gold,), section)
            section = task.prepare(loaded, section)
            return build_cohort(loaded.predictions, loaded.gold).items, section

        score_items(task, *prepared(*warm), jobs=1)  # imports, regexes: paid once per process
        items, section = prepared(pred, gold, src)
        options["source"] = str(src)
        for jobs in (1, 2):
            walls, cpus = repeated(
                args.repeat, lambda jobs=jobs: score_items(task, items, section, jobs=jobs)
            )
            print(f"score_items jobs={jobs}: {rates(n, walls, cpus, jobs)}")
        for jobs in (1, 2):
            runs: list[Any] = []
            walls, cpus = repeated(
                args.repeat,
                lambda jobs=jobs, runs=runs: runs.append(
                    assay.score("extraction", pred=pred, gold=gold, jobs=jobs, **options)
                ),
            )
            m = runs[-1].metrics["overall_extraction_score"]
            print(f"assay.score jobs={jobs}: {rates(n, walls, cpus, jobs)}")
            print(
                f"  (overall_extraction_score {m.value:.3f}, {len(runs[-1].metrics)} metrics"
                " with 1,000-resample CIs)"
            )
        if args.profile:
            profile(task, items, section, n)
        print(load_line())


if __name__ == "__main__":
    main()
