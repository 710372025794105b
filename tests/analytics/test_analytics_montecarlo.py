"""Monte Carlo robustness (seed 000 §14): primitives and simulations with known answers."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from assay._analytics import (
    Corpus,
    committee_accuracy,
    decoy_mentioned,
    doc_failure_probability,
    draw_committee,
    escalation_table,
    failure_scenarios,
    knapsack,
    majority_margin,
    near_misses,
    normalize_dist,
    prompt_ablation,
    read_corpus,
    run_montecarlo,
    sample_from_record,
    select_exemplars,
    shannon_entropy,
    simulate_pipeline,
)
from assay._cli import main
from assay.errors import InputError, UsageError
from tests.conftest import write_jsonl


def rec(
    doc: str, label: str | None, gold: str = "a", model: str = "m", prompt: str = "p", **kw: Any
) -> dict[str, Any]:
    return {"doc": doc, "model": model, "prompt": prompt, "label": label, "gold": gold, **kw}


def corpus_of(rows: list[dict[str, Any]]) -> Corpus:
    return Corpus.of([sample_from_record(r) for r in rows])


def binary_corpus(n_docs: int, n_correct: int, n_samples: int, **kw: Any) -> list[dict[str, Any]]:
    """Every document: n_correct of n_samples samples say gold 'a', the rest 'b'."""
    return [
        rec(f"d{d}", "a" if s < n_correct else "b", **kw)
        for d in range(n_docs)
        for s in range(n_samples)
    ]


def test_distribution_primitives() -> None:
    p = normalize_dist({"a": 3, "b": 1, "c": 0})
    assert p == {"a": 0.75, "b": 0.25}
    assert shannon_entropy({"a": 0.5, "b": 0.5}) == pytest.approx(1.0)
    assert shannon_entropy({"a": 1.0}) == 0.0
    assert shannon_entropy(normalize_dist({x: 1 for x in "abcd"})) == pytest.approx(2.0)
    assert majority_margin(p) == pytest.approx(0.5)
    assert majority_margin({"a": 1.0}) == 1.0
    with pytest.raises(UsageError):
        normalize_dist({"a": -1, "b": 2})
    with pytest.raises(UsageError):
        normalize_dist({})
    rng = np.random.default_rng(0)
    assert draw_committee({"a": 1.0}, 5, rng) == "a"


@pytest.mark.parametrize(("k", "p"), [(1, 0.7), (3, 0.7), (5, 0.7), (9, 0.6), (4, 0.7)])
def test_committee_matches_binomial_closed_form(k: int, p: float) -> None:
    """Independent voters with P(correct) = p: P(majority correct) = P(Bin(k, p) > k/2)
    (+ half the tie mass for even k, ties broken at random)."""
    corpus = corpus_of(binary_corpus(100, round(10 * p), 10))
    # identical documents share one simulation: 100,000 draws, Monte Carlo sd ≤ 0.0016
    row = committee_accuracy(corpus, "m", "p", [k], n_sims=100_000, n_bootstrap=200)[0]
    exact = binom.sf(k // 2, k, p)
    if k % 2 == 0:
        exact = binom.sf(k // 2, k, p) + 0.5 * binom.pmf(k // 2, k, p)
    assert row.accuracy.value == pytest.approx(exact, abs=0.006)
    assert row.accuracy.n == 100 and row.n_samples == 1000
    assert row.gain_pp == pytest.approx(100 * (exact - p), abs=0.4)


def test_committee_ci_covers_a_mixture_and_saturates() -> None:
    rows = binary_corpus(60, 9, 10) + [
        rec(f"e{d}", "a" if s < 3 else "b") for d in range(40) for s in range(10)
    ]
    out = committee_accuracy(corpus_of(rows), "m", "p", [1, 25], n_sims=2000, n_bootstrap=500)
    k1, k25 = out
    assert k1.accuracy.value == pytest.approx(0.6 * 0.9 + 0.4 * 0.3, abs=0.01)
    # K=25: the 0.9 docs are ~always right, the 0.3 docs ~always wrong → 0.6
    assert k25.accuracy.value == pytest.approx(0.6, abs=0.01)
    lo, hi = k25.accuracy.ci_lower, k25.accuracy.ci_upper
    assert lo is not None and hi is not None and lo < 0.6 < hi


def test_prompt_ablation_known_winner_and_null() -> None:
    rows = [rec(f"d{d}", "a", prompt="v2") for d in range(80)]
    rows += [rec(f"d{d}", "a" if d % 2 else "b", prompt="v1") for d in range(80)]
    rows += [rec(f"d{d}", "a" if d % 2 else "b", prompt="v3") for d in range(80)]
    res = {(r.prompt_a, r.prompt_b): r for r in prompt_ablation(corpus_of(rows), n_bootstrap=500)}
    win = res[("v1", "v2")]
    assert win.delta == pytest.approx(0.5) and win.p_win == 1.0 and win.ci_excludes_zero
    assert win.n_docs == 80 and win.p_value < 0.01
    null = res[("v1", "v3")]
    assert null.delta == 0.0 and not null.ci_excludes_zero and null.p_win == 0.0
    loss = res[("v2", "v3")]
    assert loss.delta == pytest.approx(-0.5) and loss.ci_excludes_zero and loss.p_win == 0.0


def test_escalation_extremes_and_pareto() -> None:
    rows = []
    for d in range(50):
        hard = d < 20
        # cheap: wrong and unsure on hard docs, right and sure on easy ones
        rows.append(
            rec(
                f"d{d}",
                "b" if hard else "a",
                model="small",
                confidence=0.1 if hard else 0.9,
                cost=0.001,
            )
        )
        rows.append(rec(f"d{d}", "a", model="big", cost=0.01))
    res = escalation_table(
        corpus_of(rows), ("small", None), ("big", None), [0.0, 0.5, 1.0], n_bootstrap=300
    )
    by = {r.label: r for r in res.rows}
    assert res.confidence == "field" and res.n_docs == 50
    assert by["cheap only"].accuracy.value == pytest.approx(0.6)
    assert by["strong only"].accuracy.value == 1.0
    assert by["α=0"].accuracy.value == pytest.approx(0.6) and by["α=0"].escalation_rate == 0.0
    assert by["α=0.5"].accuracy.value == 1.0 and by["α=0.5"].escalation_rate == pytest.approx(0.4)
    assert by["α=0.5"].headroom_pp.value == pytest.approx(40.0)
    assert by["α=0.5"].cost_per_doc_usd == pytest.approx(0.001 + 0.4 * 0.01)
    assert by["α=0.5"].cost_multiplier == pytest.approx(5.0)
    assert by["α=1"].escalation_rate == 1.0
    assert by["α=0.5"].pareto and by["cheap only"].pareto and not by["α=1"].pareto
    assert by["strong only"].pareto is False  # α=0.5 is as accurate for half the cost


def test_escalation_without_prices_is_none_not_a_guess() -> None:
    rows = [
        rec("d1", "a", model="small"),
        rec("d1", "a", model="big", prompt_tokens=10, completion_tokens=1),
    ]
    res = escalation_table(corpus_of(rows), ("small", None), ("big", None), [0.5], n_bootstrap=50)
    assert res.confidence == "margin"
    assert all(r.cost_per_doc_usd is None or r.label == "strong only" for r in res.rows)
    assert all(r.pareto is None for r in res.rows)


def test_failure_simulation_matches_closed_form() -> None:
    p = 0.05
    for tries, fb, s in [(1, None, 0.0), (2, None, 0.0), (1, 0.1, 0.0), (3, 0.2, 0.5)]:
        sim, calls = simulate_pipeline(
            p, max_tries=tries, fallback_p=fb, persistent_share=s, n_docs=400_000, seed=3
        )
        exact = doc_failure_probability(p, tries, fb, s)
        assert sim.ci_lower is not None and sim.ci_upper is not None
        assert sim.ci_lower - 1e-4 <= exact <= sim.ci_upper + 1e-4
        expected_calls = sum(p**i for i in range(tries)) if s == 0 else None
        if expected_calls is not None:
            expected_calls += (p**tries) if fb is not None else 0
            assert calls == pytest.approx(expected_calls, rel=0.01)
    with pytest.raises(UsageError):
        simulate_pipeline(1.5)


def test_failure_scenarios_from_corpus() -> None:
    rows = [rec(f"d{i}", None if i < 5 else "a") for i in range(200)]
    rows += [rec(f"d{i}", "ERROR: timeout" if i < 2 else "a", model="fb") for i in range(200)]
    observed, fb, scen = failure_scenarios(
        corpus_of(rows), model="m", fallback="fb", max_tries=2, n_docs=50_000
    )
    assert (observed.k, observed.n) == (5, 200) and fb is not None and fb.k == 2
    assert len(scen) == 4
    one = scen[0]
    assert one.closed_form == pytest.approx(0.025)
    lo, hi = one.closed_form_ci
    assert lo is not None and hi is not None and lo < 0.025 < hi
    assert scen[3].closed_form == pytest.approx(0.025**2 * 0.01)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 10), st.integers(0, 12)), min_size=0, max_size=8),
    st.integers(0, 30),
)
def test_knapsack_is_optimal(items: list[tuple[float, int]], budget: int) -> None:
    values, weights = [v for v, _ in items], [w for _, w in items]
    chosen = knapsack(values, weights, budget)
    assert sum(weights[i] for i in chosen) <= budget
    best = max(
        (
            sum(values[i] for i in c)
            for r in range(len(items) + 1)
            for c in itertools.combinations(range(len(items)), r)
            if sum(weights[i] for i in c) <= budget
        ),
        default=0.0,
    )
    assert math.isclose(sum(values[i] for i in chosen), best, abs_tol=1e-9)


def test_near_misses_and_exemplar_selection() -> None:
    rows = []
    # d0: gold license_agreement, majority 'development', gold share 0.25 → near miss
    rows += [rec("d0", "development", gold="license_agreement", exemplar_tokens=300)] * 3
    rows += [rec("d0", "license_agreement", gold="license_agreement", exemplar_tokens=300)]
    # d1: same confusion, no gold share but the reasoning names the gold label → near miss
    rows += [
        rec(
            "d1",
            "development",
            gold="license_agreement",
            exemplar_tokens=900,
            reasoning="Could be a License Agreement, but development terms dominate.",
        )
    ] * 4
    # d2: plain miss, no signal → not a near miss
    rows += [rec("d2", "nda", gold="supply", prompt_tokens=50, completion_tokens=5)] * 4
    # d3: a different confusion, pricier
    rows += [rec("d3", "nda", gold="employment", exemplar_tokens=5000)] * 2
    rows += [rec("d3", "employment", gold="employment", exemplar_tokens=5000)] * 2
    corpus = corpus_of(rows)
    misses = {m.doc: m for m in near_misses(corpus, "m", "p", 0.2)}
    assert set(misses) == {"d0", "d1", "d3"}  # d3: a tie between gold and 'nda' is a miss
    assert misses["d1"].decoy_mentioned and not misses["d0"].decoy_mentioned
    sel = select_exemplars(corpus, "m", "p", budget_tokens=1000)
    cand, other = sel.candidates  # ordered by expected flips
    assert (other.doc, other.expected_flips, other.selected) == ("d3", 0.5, False)
    assert (cand.doc, cand.gold, cand.predicted) == ("d0", "license_agreement", "development")
    assert cand.expected_flips == pytest.approx(0.75 + 1.0) and cand.selected
    assert sel.tokens_used == 300
    assert select_exemplars(corpus, "m", "p", budget_tokens=100).tokens_used == 0
    assert decoy_mentioned("the court_opinion was", "court_opinion")
    assert not decoy_mentioned("a court ruled", "court_opinion")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"model": "m", "prompt": "p", "label": "a"}, "no field 'doc'"),
        ({"doc": "d", "model": "m", "prompt": "p"}, "no field 'label'"),
        ({"doc": "d", "model": "m", "prompt": "p", "label": "a", "confidence": 2}, "confidence"),
        ({"doc": "d", "model": "m", "prompt": "p", "label": "a", "prompt_tokens": -3}, "negative"),
        ({"doc": "d", "model": "m", "prompt": "p", "label": "a", "failed": "no"}, "failed"),
    ],
)
def test_bad_corpus_lines(tmp_path: Path, line: dict[str, Any], message: str) -> None:
    f = write_jsonl(tmp_path / "c.jsonl", [rec("d0", "a"), line])
    with pytest.raises(InputError, match=rf"c\.jsonl:2: .*{message}"):
        read_corpus(f)


def test_conflicting_gold_is_an_error(tmp_path: Path) -> None:
    f = write_jsonl(tmp_path / "c.jsonl", [rec("d0", "a", gold="a"), rec("d0", "a", gold="b")])
    with pytest.raises(InputError, match="two gold labels"):
        read_corpus(f)


def test_cli_writes_json_and_memo_deterministically(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    rows = []
    for d in range(40):
        for prompt, p_ok in (("v1", 0.6), ("v2", 0.85)):
            for _ in range(5):
                ok = rng.random() < p_ok
                rows.append(
                    rec(
                        f"d{d}",
                        "a" if ok else "b",
                        prompt=prompt,
                        model="small",
                        confidence=float(rng.random()),
                        cost=0.001,
                    )
                )
        rows.append(rec(f"d{d}", "a", model="big", prompt="v1", cost=0.02))
    corpus = write_jsonl(tmp_path / "corpus.jsonl", rows)
    args = [
        "montecarlo",
        str(corpus),
        "--sizes",
        "1,3",
        "--simulations",
        "200",
        "--n-bootstrap",
        "100",
        "--cheap",
        "small:v2",
        "--strong",
        "big",
        "--max-tries",
        "2",
        "--fallback",
        "big",
    ]
    texts = []
    for out in ("o1", "o2"):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert main([*args, "--out", str(tmp_path / out)]) == 0
        texts.append((tmp_path / out / "montecarlo.json").read_text())
    assert texts[0] == texts[1]
    data = json.loads(texts[0])
    assert {c["k"] for c in data["committee"]} == {1, 3}
    assert data["escalation"]["cheap"] == "small:v2" and len(data["ablation"]) == 1
    assert len(data["failures"]["scenarios"]) == 4
    memo = (tmp_path / "o1" / "montecarlo.md").read_text()
    for heading in (
        "Committee voting",
        "prompt ablation",
        "escalation",
        "Failure pipeline",
        "Exemplar mining",
    ):
        assert heading in memo
    api = run_montecarlo(
        read_corpus(corpus),
        sizes=[1, 3],
        n_simulations=200,
        n_bootstrap=100,
        cheap="small:v2",
        strong="big",
        max_tries=2,
        fallback="big",
    )
    assert api.committee[0].accuracy.value == data["committee"][0]["accuracy"]["value"]


def test_bad_sizes_are_usage_errors(tmp_path: Path) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", [rec("d0", "a")])
    with contextlib.redirect_stderr(io.StringIO()):
        assert main(["montecarlo", str(corpus), "--sizes", "1,x", "--out", str(tmp_path)]) == 2


def test_the_memo_does_not_depend_on_the_string_hash_seed(tmp_path: Path) -> None:
    """docs/analytics.md promises identical bytes: the exemplar selection's expected flips
    were summed over a set, whose order follows PYTHONHASHSEED."""
    import os
    import subprocess
    import sys

    from assay._cli.analytics_demo import write_demo

    write_demo(tmp_path)
    outs = []
    for seed in ("1", "2", "3"):
        out = tmp_path / f"r{seed}"
        subprocess.run(
            [sys.executable, "-m", "assay", "montecarlo", str(tmp_path / "corpus.jsonl"),
             "--out", str(out), "--cheap", "small:v3", "--strong", "big:v1", "--max-tries", "2",
             "--fallback", "big"],
            check=True, capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed},
        )  # fmt: skip
        outs.append((out / "montecarlo.json").read_bytes())
    assert outs[0] == outs[1] == outs[2]
