"""Benchmark: the claims suite (seed 003) on synthetic corpora and the real claim trees.

Measured, wall time with ``time.perf_counter`` (best of ``--repeat``):

1. reading the real claim trees (../shared/data/claims: 3 papers, 62 claims, markdown + YAML);
2. the deterministic matcher on one paper of R reference and E extracted claims (similarity
   matrix + scipy's linear_sum_assignment), for growing sizes;
3. ``assay.score("claims", ...)`` end to end on a synthetic corpus of P papers written as JSONL
   (R = 25 reference, E = 75 extracted claims a paper, as the seed's CLI emits ~3x), with
   B = 1000 bootstrap CIs;
4. the LLM matcher's overhead per paper against an in-process fake endpoint
   (``httpx.MockTransport``): a first pass (HTTP, validation, cache write) and a cached rerun.

``--accuracy`` measures instead how right the deterministic matcher is on known-answer round
trips built from the real claim trees and the corpus's plain-language LLM rewrites
(``assay.suites.claims._lib.roundtrip``; ../shared/data/claims): recovery against the truth,
pairings and exact/partial labels right, panel and role agreement against the same on the true
pairs — with the calibrated defaults (in-sample) and leave-one-paper-out (thresholds calibrated
on the other two papers), for the hybrid matcher with and without wordllama, the token-F1
matcher, and one-to-one assignment.

    uv run python benchmarks/bench_claims.py
    uv run python benchmarks/bench_claims.py --quick
    uv run python benchmarks/bench_claims.py --accuracy
    uv run python benchmarks/bench_claims.py --accuracy --quick   # the defaults, in-sample

``--type1`` prints the type-I error table of suites/claims/docs.md: how often the paired tests
call a change where there is none, at 3, 5, 10 and 30 papers
(``assay.stats.simulation.null_rejection_rates``, 2000 simulated pairs of scorecards each).

    uv run python benchmarks/bench_claims.py --type1
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

import assay
from assay._judge import JudgeClient, JudgeSettings, cost_line
from assay.suites.claims import Claim, ClaimsSettings, match_deterministic, read_papers
from assay.suites.claims._lib.llm_matcher import match_llm, matcher_prompt

SHARED_TREE = Path(__file__).resolve().parents[2] / "shared" / "data" / "claims" / "claims"
_VOCAB_TEXT = """
dopamine release striatum receptor occupancy burst tonic phasic model clearance transporter
neuropil serotonin sensor affinity kinetics cortex neuron firing rate increase decrease ventral
dorsal cluster nanoscale diffusion simulation imaging mouse fly spider layer inhibition
excitation synapse bouton retina direction selective expression variant
"""
VOCAB = _VOCAB_TEXT.split()


def best(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def sentence(rng: random.Random, n: int = 18) -> str:
    return " ".join(rng.choice(VOCAB) for _ in range(n))


def synthetic_paper(rng: random.Random, r: int, e: int) -> tuple[list[Claim], list[Claim]]:
    refs = [Claim(f"r{i}", sentence(rng), "empirical", f"fig{i % 6 + 1}") for i in range(r)]
    cands = []
    for i, c in enumerate(refs):
        if i % 10 == 9:
            continue  # 10% dropped
        words = c.text.split()
        rng.shuffle(words)
        cands.append(Claim(f"c{i}", " ".join(words[:15]), "empirical", c.panel))
    while len(cands) < e:
        cands.append(Claim(f"s{len(cands)}", sentence(rng), "methodological", "fig1"))
    return refs, cands


def write_corpus(root: Path, papers: int, r: int, e: int, seed: int = 7) -> tuple[Path, Path]:
    rng = random.Random(seed)
    gold, pred = [], []
    for p in range(papers):
        refs, cands = synthetic_paper(rng, r, e)
        gold += [{"paper": f"p{p}", **c.to_json()} for c in refs]
        pred += [{"paper": f"p{p}", **c.to_json()} for c in cands]
    for name, rows in (("reference.jsonl", gold), ("extracted.jsonl", pred)):
        (root / name).write_text("".join(json.dumps(x) + "\n" for x in rows))
    return root / "reference.jsonl", root / "extracted.jsonl"


def fake_transport() -> httpx.MockTransport:
    """Answers every matcher request with all reference claims unmatched (valid JSON)."""

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        user = body["messages"][1]["content"]
        block = user.split("REFERENCE", 1)[1].split("CLI (the system's claims):", 1)[0]
        slugs = [json.loads(x)["slug"] for x in block.splitlines() if x.startswith("{")]
        matches = [{"ref_slug": s, "cli_slug": None, "match_quality": "none"} for s in slugs]
        return httpx.Response(
            200,
            json={
                "choices": [{"message": {"content": json.dumps({"matches": matches})}}],
                "usage": {"prompt_tokens": 3000, "completion_tokens": 800},
            },
        )

    return httpx.MockTransport(handler)


#: the grid calibration searches: csls_threshold × mutual_threshold, and with embeddings also
#: lexical_weight (the blend)
GRID = [
    {"csls_threshold": tc, "mutual_threshold": tm}
    for tc in (0.05, 0.07, 0.09, 0.11, 0.13, 0.15)
    for tm in (0.0, 0.03, 0.05, 0.07)
]
GRID_BLEND = [{"lexical_weight": w, **g} for w in (0.5, 0.6, 0.7) for g in GRID]


def _row(label: str, figures: dict[str, float]) -> str:
    from assay.suites.claims._lib.roundtrip import figures_row

    return "   " + figures_row(label, figures)


def accuracy(quick: bool = False) -> None:
    """The matcher's accuracy on the public round trips (see the module docstring); ``quick``:
    the calibrated defaults of the hybrid matcher only (in-sample, seconds)."""
    from assay._fields.embedding import load_embedding_model
    from assay.suites.claims._lib.roundtrip import (
        NEAR_COPIES,
        MemoEmbedder,
        build_scenarios,
        calibrate,
        cross_validate,
        evaluate_matcher,
        load_corpus,
        round_trip_figures,
    )

    corpus = load_corpus(SHARED_TREE.parent)
    if not corpus:
        print("skipped: ../shared/data/claims (claims/ and plain-claims/) not found")
        return
    scenarios = build_scenarios(corpus)
    # shown, not calibrated on: a half-copy of the curated claim beside each whole rewrite
    near_copies = build_scenarios(corpus, NEAR_COPIES)
    n_claims = sum(len(p.claims) for p, _ in corpus)
    print(f"round trips of {len(corpus)} papers, {n_claims} reference claims; extracted claims:")
    for name, trips in scenarios.items():
        print(f"   {name}: {sum(len(t.extracted.claims) for t in trips)}")
    loaded, status = load_embedding_model("wordllama", None)
    print(f"wordllama: {status.line()}")
    embedder = MemoEmbedder(loaded) if loaded is not None else None  # each text encoded once
    no_grid: list[dict[str, float]] = []
    configs: list[tuple[str, ClaimsSettings, Any, list[dict[str, float]]]] = [
        ("hybrid + wordllama", ClaimsSettings(), embedder, GRID_BLEND),
        ("hybrid, lexical only", ClaimsSettings(embedding_model=None), None, GRID),
        (
            "hybrid + wordllama, no second pass",
            ClaimsSettings(second_pass=False),
            embedder,
            no_grid,
        ),
        (
            "hybrid + wordllama, one-to-one",
            ClaimsSettings(assignment="one_to_one"),
            embedder,
            no_grid,
        ),
        ("token_f1 (the earlier default)", ClaimsSettings(similarity="token_f1"), None, no_grid),
        (
            "token_f1, one-to-one (earlier)",
            ClaimsSettings(similarity="token_f1", assignment="one_to_one"),
            None,
            no_grid,
        ),
    ]
    if quick:
        configs = [(label, s, e, no_grid) for label, s, e, _ in configs[:2]]
    for label, settings, emb, grid in configs:
        if label.startswith("hybrid + wordllama") and emb is None:
            print(f"{label}: skipped, wordllama not installed")
            continue
        t0 = time.perf_counter()
        print(f"{label} — calibrated defaults (in-sample):")
        for name, trips in {**scenarios, **near_copies}.items():
            print(_row(name, round_trip_figures(evaluate_matcher(trips, settings, emb))))
        if grid:
            best_all = calibrate(scenarios, settings, emb, grid)
            print(f"   in-sample calibration over all papers: {best_all}")
            held, chosen = cross_validate(scenarios, settings, emb, grid)
            folds = "; ".join(
                f"{p.split('-')[0]} " + " ".join(f"{v:g}" for v in c.values())
                for p, c in chosen.items()
            )
            print(f"{label} — leave one paper out (chosen per held-out paper: {folds}):")
            for name, figures in held.items():
                print(_row(name, figures))
        if not quick:
            print(f"   ({time.perf_counter() - t0:.1f} s)")


def type1(n_datasets: int = 2000) -> None:
    """The type-I error table (see the module docstring)."""
    from assay.stats.simulation import null_rejection_rates

    print(f"type-I error at alpha = 0.05, {n_datasets} null datasets each, B = R = 1000:")
    print("| papers | percentile bootstrap | claims diff's test | which test |")
    print("|---|---|---|---|")
    for n in (3, 5, 10, 30):
        r = null_rejection_rates(n, n_datasets=n_datasets, seed=2026)
        print(f"| {n} | {r['bootstrap']:.3f} | {r['dispatched']:.3f} | {r['dispatched_method']} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one repeat")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--accuracy", action="store_true", help="the matcher's accuracy on the round trips"
    )
    parser.add_argument("--type1", action="store_true", help="the type-I error table")
    args = parser.parse_args()
    if args.type1:
        type1()
        return
    if args.accuracy:
        accuracy(quick=args.quick)
        return
    repeat = 1 if args.quick else args.repeat

    print("claims suite benchmark (wall time, best of", repeat, ")")
    if SHARED_TREE.is_dir():
        t = best(lambda: read_papers(SHARED_TREE), repeat)
        print(f"1. read real claim trees (3 papers, 62 claims): {t * 1000:.1f} ms")
        t = best(
            lambda: assay.score("claims", pred=SHARED_TREE, gold=SHARED_TREE, n_bootstrap_ci=1000),
            repeat,
        )
        print(f"   score the real trees against themselves (B=1000): {t * 1000:.1f} ms")
    else:
        print("1. skipped: ../shared/data/claims not found")

    settings = ClaimsSettings()
    rng = random.Random(1)
    sizes = [(25, 75), (50, 150)] if args.quick else [(25, 75), (50, 150), (100, 300), (200, 600)]
    print("2. deterministic matcher, one paper:")
    for r, e in sizes:
        refs, cands = synthetic_paper(rng, r, e)
        t = best(lambda refs=refs, cands=cands: match_deterministic(refs, cands, settings), repeat)
        print(f"   R={r:4d} E={e:4d}: {t * 1000:8.1f} ms")

    corpora = [10, 100] if args.quick else [10, 100, 1000]
    print("3. assay.score end to end (R=25, E=75 a paper, B=1000 CIs):")
    for papers in corpora:
        with tempfile.TemporaryDirectory() as tmp:
            gold, pred = write_corpus(Path(tmp), papers, 25, 75)
            t = best(
                lambda gold=gold, pred=pred: assay.score(
                    "claims", pred=pred, gold=gold, n_bootstrap_ci=1000
                ),
                repeat,
            )
            print(f"   P={papers:5d} papers: {t:7.2f} s ({t / papers * 1000:.1f} ms a paper)")

    print("4. LLM matcher overhead per paper (fake in-process endpoint, no network):")
    n = 20 if args.quick else 100
    papers = [synthetic_paper(rng, 25, 75) for _ in range(n)]
    prompt = matcher_prompt()
    with tempfile.TemporaryDirectory() as tmp:
        js = JudgeSettings(
            model="gpt-4o", base_url="http://fake.invalid/v1", cache_dir=tmp, concurrency=4
        )
        for label in ("first pass (HTTP + cache write)", "rerun (cache hits)"):
            with JudgeClient(js, env={}, transport=fake_transport()) as client:
                t0 = time.perf_counter()
                client.map(lambda p, c=client: match_llm(c, prompt, p[0], p[1]), papers)
                t = time.perf_counter() - t0
                s = client.ledger.summary()
            print(
                f"   {label}: {t / n * 1000:.2f} ms a paper; {s['http_requests']} requests, "
                f"{cost_line(s)}"
            )


if __name__ == "__main__":
    main()
