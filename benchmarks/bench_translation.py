"""Benchmark: sacrebleu-style multi-system paired tests, assay vs the sacrebleu CLI.

3 systems × N = 10,000 segments, BLEU + chrF++, paired bootstrap B = 1000 (and approximate
randomization R = 10,000), end to end from plain-text files, each command in its own process,
wall time and peak RSS from ``/usr/bin/time -v`` (or ``wait4`` when absent):

    assay mt sacrebleu -r REF -i S1 S2 S3 -m bleu,chrf --paired-bs -j 2 --p-value sacrebleu
    sacrebleu REF -i S1 S2 S3 -m bleu chrf --chrf-word-order 2 --paired-bs -f text

The segments are built from the WMT22 de-en data (../shared/data): segment k joins reference
(and system) lines a_k and b_k for distinct pairs, so every segment is unique and realistic;
without the data, synthetic sentences are used. The p-values of the two tools are compared.
An in-process breakdown separates statistics extraction from the significance step, and a
second assay run with ``--cache-dir`` shows the warm (cached statistics) time.

``--wmt22`` instead analyses the real WMT22 systems: which differ significantly from a
baseline under each method, and how the chrF++ ranking correlates with the human DA ranking.

    uv run python benchmarks/bench_translation.py
    uv run python benchmarks/bench_translation.py --quick
    uv run python benchmarks/bench_translation.py --wmt22
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WMT = ROOT.parent / "shared" / "data" / "mt" / "wmt22"
SYSTEMS = ["Online-B", "LT22", "Online-W"]


def build_segments(n: int, out: Path) -> tuple[Path, list[Path]]:
    """Write REF and the three system files of n unique segments; return their paths."""
    import numpy as np

    base = WMT / "de-en" / "generaltest2022.de-en"
    rng = np.random.default_rng(2024)
    if (base.parent).is_dir():
        ref = (base.parent / f"{base.name}.ref.A.en").read_text("utf-8").splitlines()
        hyps = [
            (base.parent / f"{base.name}.hyp.{s}.en").read_text("utf-8").splitlines()
            for s in SYSTEMS
        ]
    else:  # synthetic sentences: three noisy copies of a random reference
        words = [f"w{i}" for i in range(3000)]
        ref = [" ".join(rng.choice(words, rng.integers(5, 30))) for _ in range(2000)]
        hyps = []
        for noise in (0.2, 0.35, 0.25):
            hyps.append(
                [
                    " ".join(w if rng.random() > noise else rng.choice(words) for w in r.split())
                    for r in ref
                ]
            )
    m = len(ref)
    pairs: set[tuple[int, int]] = set()
    while len(pairs) < n:
        a, b = (int(x) for x in rng.integers(0, m, 2))
        if a != b:
            pairs.add((a, b))
    order = sorted(pairs, key=lambda p: (rng.random(), p))
    ref_path = out / "ref.txt"
    ref_path.write_text("".join(f"{ref[a]} {ref[b]}\n" for a, b in order), "utf-8")
    paths = []
    for name, lines in zip(SYSTEMS, hyps, strict=True):
        p = out / f"{name}.txt"
        p.write_text("".join(f"{lines[a]} {lines[b]}\n" for a, b in order), "utf-8")
        paths.append(p)
    return ref_path, paths


def timed(cmd: list[str]) -> dict[str, Any]:
    """Run ``cmd``; wall seconds, peak RSS (MiB) of it and its children, and its stdout."""
    env = {**os.environ, "SACREBLEU_FORMAT": "text"}
    if Path("/usr/bin/time").exists():
        start = time.perf_counter()
        proc = subprocess.run(
            ["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, env=env, check=False
        )
        wall = time.perf_counter() - start
        rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
        peak = int(rss.group(1)) / 1024 if rss else float("nan")
    else:
        start = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        peak = usage.ru_maxrss / 1024
        proc = subprocess.CompletedProcess(cmd, status, child.stdout.read().decode(), "")  # type: ignore[union-attr]
    if proc.returncode:
        raise SystemExit(f"{cmd[0]} failed:\n{proc.stdout}\n{proc.stderr[-3000:]}")
    return {"wall_s": wall, "peak_mib": peak, "stdout": proc.stdout}


def sacrebleu_p_values(text: str) -> list[float]:
    return [round(float(x), 4) for x in re.findall(r"\(p = ([0-9.]+)\)", text)]


def assay_p_values(path: Path) -> list[float]:
    data = json.loads(path.read_text("utf-8"))
    return [
        round(r["p_value"], 4)
        for name in data["significance"]
        for metric in ("corpus_bleu", "corpus_chrf")
        for r in data["significance"][name]
        if r["metric_name"] == metric
    ]


def end_to_end(n: int, ar: bool, jobs: int) -> None:
    assay_bin = str(Path(sys.executable).parent / "assay")
    sacre_bin = str(Path(sys.executable).parent / "sacrebleu")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        ref, systems = build_segments(n, out)
        print(f"{len(SYSTEMS)} systems × N = {n} segments (BLEU + chrF++), jobs = {jobs}")
        print(f"{'test':<10} {'tool':<26} {'wall s':>8} {'peak MiB':>9}  p-values (BLEU, chrF++)")
        for test in ["bs", *(["ar"] if ar else [])]:
            flag = "--paired-bs" if test == "bs" else "--paired-ar"
            cache = out / f"cache-{test}"
            json_out = out / f"assay-{test}.json"
            assay_cmd = [
                assay_bin, "mt", "sacrebleu", "-r", str(ref), "-i", *map(str, systems),
                "-m", "bleu,chrf", flag, "--p-value", "sacrebleu", "-j", str(jobs),
                "-o", str(json_out),
            ]  # fmt: skip
            cold = timed(assay_cmd)
            ours = assay_p_values(json_out)
            warm = timed([*assay_cmd, "--cache-dir", str(cache)])
            warm = timed([*assay_cmd, "--cache-dir", str(cache)])
            sb = timed(
                [sacre_bin, str(ref), "-i", *map(str, systems), "-m", "bleu", "chrf",
                 "--chrf-word-order", "2", flag, "-f", "text"]
            )  # fmt: skip
            theirs = sacrebleu_p_values(sb["stdout"])
            rows = [
                ("assay (cold)", cold, ours),
                ("assay (cached statistics)", warm, ours),
                ("sacrebleu 2.x CLI", sb, theirs),
            ]
            for label, res, ps in rows:
                print(
                    f"{test:<10} {label:<26} {res['wall_s']:>8.2f} {res['peak_mib']:>9.0f}  "
                    + ", ".join(f"{p:.4f}" for p in ps)
                )
            print(
                f"{'':<10} speed-up {sb['wall_s'] / cold['wall_s']:.1f}× cold, "
                f"{sb['wall_s'] / warm['wall_s']:.1f}× cached; memory "
                f"{cold['peak_mib'] / sb['peak_mib']:.2f}× of sacrebleu's; "
                f"p-values equal: {ours == theirs}"
            )
        breakdown(ref, systems, jobs)


def breakdown(ref: Path, systems: list[Path], jobs: int) -> None:
    """In process: statistics extraction vs the significance step alone."""
    from assay.suites.translation import (
        bleu_metric,
        chrf_metric,
        compare_systems,
        score_text_systems,
    )

    metrics = [bleu_metric(), chrf_metric()]
    t0 = time.perf_counter()
    tables, specs = score_text_systems([ref], systems, metrics, jobs=jobs)
    t1 = time.perf_counter()
    names = [p.stem for p in systems]
    compare_systems(names, names, tables, specs, p_value="sacrebleu", n_bootstrap_ci=1000)
    t2 = time.perf_counter()
    compare_systems(names, names, tables, specs, method="ar", p_value="sacrebleu")
    t3 = time.perf_counter()
    print(
        f"in-process: statistics extraction {t1 - t0:.2f} s; significance step "
        f"(paired bootstrap B=1000 for 2 systems + per-system CIs) {t2 - t1:.2f} s; "
        f"AR R=10,000 {t3 - t2:.2f} s"
    )


# --------------------------------------------------------------------------- WMT22 analysis


def human_z(pair: str) -> dict[str, float]:
    """System → DA z-score from ad-sys-scores-<pair>.csv (the .N suffix stripped)."""
    lines = (WMT / "humaneval" / f"ad-sys-scores-{pair}.csv").read_text("utf-8").splitlines()
    out = {}
    for line in lines[1:]:
        parts = line.split()
        if len(parts) >= 4:
            out[re.sub(r"\.\d+$", "", parts[3])] = float(parts[1])
    return out


def wmt22(jobs: int) -> None:
    from scipy.stats import kendalltau, spearmanr

    from assay.suites.translation import (
        bleu_metric,
        chrf_metric,
        compare_systems,
        score_text_systems,
    )

    for pair, ref_name in (("cs-en", "B"), ("de-en", "A")):
        folder = WMT / pair
        tgt = pair.split("-")[1]
        ref = folder / f"generaltest2022.{pair}.ref.{ref_name}.{tgt}"
        paths = sorted(folder.glob(f"generaltest2022.{pair}.hyp.*.{tgt}"))
        names = [p.name.split(".hyp.")[1].rsplit(".", 1)[0] for p in paths]
        tables, specs = score_text_systems([ref], paths, [bleu_metric(), chrf_metric()], jobs=jobs)
        chrf = {n: specs[1].value(t) for n, t in zip(names, tables, strict=True)}
        bleu = {n: specs[0].value(t) for n, t in zip(names, tables, strict=True)}
        z = human_z(pair)
        both = [n for n in names if n in z]
        rho = spearmanr([chrf[n] for n in both], [z[n] for n in both])
        tau = kendalltau([chrf[n] for n in both], [z[n] for n in both])
        print(f"\n== {pair} (reference {ref_name}, {len(tables[0])} segments) ==")
        print(f"{'system':<22} {'chrF++':>7} {'BLEU':>6} {'DA z':>7}")
        for n in sorted(names, key=lambda n: -chrf[n]):
            print(f"{n:<22} {chrf[n]:>7.2f} {bleu[n]:>6.2f} {z.get(n, float('nan')):>7.3f}")
        print(
            f"chrF++ vs human DA z over {len(both)} systems: Spearman ρ = {rho.statistic:.3f} "
            f"(p = {rho.pvalue:.3f}), Kendall τ = {tau.statistic:.3f} (p = {tau.pvalue:.3f})"
        )
        best = max(names, key=lambda n: chrf[n])
        for baseline in dict.fromkeys([best, "Online-B"]):
            k = names.index(baseline)
            order = [k, *[i for i in range(len(names)) if i != k]]
            sub_names = [names[i] for i in order]
            sub_tables = [tables[i] for i in order]
            print(f"-- baseline {baseline}: systems whose chrF++ differs significantly (α = 0.05)")
            for label, method, rule in (
                ("bootstrap, assay two-sided p", "bootstrap", "assay"),
                ("approximate randomization", "ar", "assay"),
                ("bootstrap, sacrebleu rule", "bootstrap", "sacrebleu"),
            ):
                result = compare_systems(
                    sub_names, sub_names, sub_tables, specs, method=method,  # type: ignore[arg-type]
                    p_value=rule, n_bootstrap_ci=1000,  # type: ignore[arg-type]
                )  # fmt: skip
                sig = [
                    f"{n} ({r.delta:+.2f}, p={r.p_value:.3f})"
                    for n, results in result.significance.items()
                    for r in results
                    if r.metric_name == "corpus_chrf" and r.significant
                ]
                not_sig = [
                    n
                    for n, results in result.significance.items()
                    for r in results
                    if r.metric_name == "corpus_chrf" and not r.significant
                ]
                print(f"   {label:<30} significant: {', '.join(sig) or 'none'}")
                print(f"   {'':<30} not significant: {', '.join(not_sig) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="segments per system")
    parser.add_argument("--quick", action="store_true", help="N = 2000, bootstrap only")
    parser.add_argument("--no-ar", action="store_true", help="skip the --paired-ar comparison")
    parser.add_argument("--jobs", type=int, default=2, help="assay extraction processes")
    parser.add_argument("--wmt22", action="store_true", help="real-data analysis instead")
    args = parser.parse_args()
    if args.wmt22:
        if not WMT.is_dir():
            raise SystemExit(f"{WMT} is absent")
        wmt22(args.jobs)
        return
    if shutil.which("sacrebleu", path=str(Path(sys.executable).parent)) is None:
        raise SystemExit("the sacrebleu CLI is not installed beside this interpreter")
    end_to_end(2000 if args.quick else args.n, ar=not (args.quick or args.no_ar), jobs=args.jobs)


if __name__ == "__main__":
    main()
