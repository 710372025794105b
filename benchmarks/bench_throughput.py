"""Benchmark: end-to-end throughput of the CLI against a floor, suite by suite (issue 21).

Every command runs in its own process and is measured with ``os.wait4``: CPU seconds (user +
system, the process and the children it waited for) and peak RSS. The machine is shared, so
wall times say little; compare the CPU columns and the ratios. Commands that are compared are
run alternately (A B A B ...) and the least CPU of each is kept.

* classification, N items (``--sizes``, default 10⁴, 10⁵, 10⁶): ``assay score classification``
  with its 1,000-resample CIs, artifact written, store off; against the **floor**, a pandas +
  numpy script contained here (``--_floor``): read both JSONL files, join on id, accuracy and its
  percentile bootstrap CI (1,000 resamples, gathered 20 at a time as scipy does);
  ``BENCH_CLASSIFICATION_BASELINE=<src dir>`` alternates it with another checkout's code too;
* extraction, N documents (``--sizes``, default 10³, 10⁴): ``assay score extraction`` end to
  end, artifact included (the documents of bench_extraction.py), with a digest of every score;
  ``BENCH_EXTRACTION_BASELINE=<src dir>`` alternates it with another checkout's code and says
  whether the scores are identical;
* translation, N segments (default 2k, 10k, built from WMT22 de-en as bench_translation.py
  does): ``assay mt test`` (chrF++, BLEU, TER, CIs, artifact) and ``assay mt sacrebleu`` (3
  systems, paired bootstrap) against the sacrebleu 2.x CLI doing the same scores, and ``assay mt
  compare A.json B.json --significance`` of two N-segment artifacts.

    uv run python benchmarks/bench_throughput.py --quick                 # every suite, small N
    uv run python benchmarks/bench_throughput.py --suite classification  # 10⁴, 10⁵, 10⁶
    uv run python benchmarks/bench_throughput.py --suite extraction      # 10³, 10⁴
    uv run python benchmarks/bench_throughput.py --suite translation     # 2k, 10k

The children run with bytecode caching on (``PYTHONDONTWRITEBYTECODE`` removed), as an installed
package does; otherwise every start-up recompiles every module it imports.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FLOOR = "--_floor"
LABELS = ("contract", "invoice", "memo", "letter")


# ----------------------------------------------------------------------------- measuring


def child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return env


def measure(cmd: Sequence[str], cwd: Path) -> dict[str, float]:
    """CPU seconds, wall seconds and peak RSS (MiB) of one command; fails loudly."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        list(cmd), cwd=cwd, env=child_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err.decode()[-2000:]}")
    return {
        "cpu": usage.ru_utime + usage.ru_stime,
        "wall": wall,
        "rss": usage.ru_maxrss / 1024.0,
    }


def alternate(commands: dict[str, Sequence[str]], cwd: Path, repeat: int) -> dict[str, Any]:
    """Each command ``repeat`` times, interleaved; the least CPU (and its RSS) per command, with
    the median CPU of its runs beside it (``median_cpu``: the machine's speed drifts)."""
    best: dict[str, dict[str, float]] = {}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, cmd in commands.items():
            got = measure(cmd, cwd)
            cpus[name].append(got["cpu"])
            if name not in best or got["cpu"] < best[name]["cpu"]:
                best[name] = got
    for name, runs in cpus.items():
        best[name]["median_cpu"] = statistics.median(runs)
    return best


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], title: str) -> None:
    print(f"\n{title}")
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows, strict=True)]
    print("| " + " | ".join(str(h).ljust(w) for h, w in zip(headers, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(str(x).ljust(w) for x, w in zip(row, widths, strict=True)) + " |")


def assay_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "assay", *args] if _module_cli() else ["assay", *args]


def _module_cli() -> bool:
    return shutil.which("assay") is None


# ----------------------------------------------------------------------------- classification


def write_classification(folder: Path, n: int) -> tuple[Path, Path]:
    import numpy as np

    rng = np.random.default_rng(0)
    gold_labels = rng.integers(0, len(LABELS), size=n)
    right = rng.random(n) < 0.8
    other = rng.integers(0, len(LABELS), size=n)
    gold, pred = folder / "gold.jsonl", folder / "pred.jsonl"
    with gold.open("w") as g, pred.open("w") as p:
        for i in range(n):
            g.write(f'{{"id": "doc-{i}", "expected": "{LABELS[gold_labels[i]]}"}}\n')
            label = LABELS[gold_labels[i]] if right[i] else LABELS[other[i]]
            p.write(f'{{"id": "doc-{i}", "predicted": "{label}"}}\n')
    return gold, pred


def floor_script(gold: str, pred: str) -> None:
    """The floor: pandas reads and joins, numpy resamples (accuracy + 95% percentile CI)."""
    import numpy as np
    import pandas as pd

    g = pd.read_json(gold, lines=True, dtype={"id": str})
    p = pd.read_json(pred, lines=True, dtype={"id": str})
    both = g.merge(p, on="id", how="left")
    correct = (both["expected"] == both["predicted"]).to_numpy(dtype=np.float64)
    rng = np.random.default_rng(12345)
    n = correct.size
    means = np.empty(1000)
    for lo in range(0, 1000, 20):
        idx = rng.integers(0, n, size=(20, n))
        means[lo : lo + 20] = correct[idx].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    print(json.dumps({"accuracy": correct.mean(), "ci": [low, high]}))


def _baseline(cmd: list[str], baseline: str) -> list[str]:
    """``cmd`` run on another checkout's ``src`` folder (first on ``PYTHONPATH``)."""
    if cmd[0] == "assay":  # the console script would not see PYTHONPATH first
        cmd = [sys.executable, "-m", "assay", *cmd[1:]]
    return ["env", f"PYTHONPATH={baseline}", *cmd]


def bench_classification(sizes: Sequence[int], repeat: int) -> None:
    """``assay score classification`` per size against the floor; with
    ``BENCH_CLASSIFICATION_BASELINE=<src dir>`` (as for extraction) that checkout's code runs
    in the same rounds: its CPU, the ratio, and whether the scored content is identical."""
    baseline = os.environ.get("BENCH_CLASSIFICATION_BASELINE")
    rows = []
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            gold, pred = write_classification(folder, n)

            def cmd(out: str, gold: Path = gold, pred: Path = pred) -> list[str]:
                return assay_cmd(
                    "-q", "score", "classification", "--pred", str(pred), "--gold", str(gold),
                    "-o", out, "--no-store",
                )  # fmt: skip

            floor = [sys.executable, __file__, FLOOR, str(gold), str(pred)]
            commands = {"assay": cmd("run.json"), "floor": floor}
            if baseline:
                commands["baseline"] = _baseline(cmd("run-baseline.json"), baseline)
            got = alternate(commands, folder, repeat if n < 10**6 else 1)
            size = (folder / "run.json").stat().st_size
            same = baseline and scores_digest(folder / "run.json") == scores_digest(
                folder / "run-baseline.json"
            )
        a, f = got["assay"], got["floor"]
        row = [
            f"{n:,}",
            f"{a['cpu']:.2f}",
            f"{n / a['cpu']:,.0f}",
            f"{a['rss']:.0f}",
            f"{f['cpu']:.2f}",
            f"{f['rss']:.0f}",
            f"{a['cpu'] / f['cpu']:.2f}",
            f"{size / n:.0f}",
        ]
        if baseline:
            b = got["baseline"]
            row += [f"{b['cpu']:.2f}", f"{b['cpu'] / a['cpu']:.2f}", "yes" if same else "NO"]
        rows.append(row)
    headers = ["N", "assay CPU s", "items/CPU-s", "assay RSS MiB", "floor CPU s",
               "floor RSS MiB", "CPU ratio", "artifact B/item"]  # fmt: skip
    if baseline:
        headers += ["baseline CPU s", "baseline/assay CPU", "same scores"]
    table(headers, rows, "classification: assay score classification vs the pandas + numpy floor")
    if len(rows) >= 2:
        first, last = float(rows[0][1]), float(rows[-1][1])
        print(f"CPU growth {sizes[0]:,} → {sizes[-1]:,} items: ×{last / first:.1f}")


# ----------------------------------------------------------------------------- extraction


#: the scoring content of a run artifact (what a speed-up must leave byte-identical)
SCORED_KEYS = ("cohort", "metrics", "summaries", "warnings", "specs", "stats", "items")


def scores_digest(artifact: Path) -> str:
    """sha256 of a run's scored content (``SCORED_KEYS``): no run id, time stamp, provenance
    or signature, which differ from run to run and between checkouts."""
    import hashlib

    run = json.loads(artifact.read_text("utf-8"))
    content = json.dumps({k: run.get(k) for k in SCORED_KEYS}, sort_keys=True)
    return hashlib.sha256(content.encode()).hexdigest()[:16]


def bench_extraction(sizes: Sequence[int], repeat: int) -> None:
    """``assay score extraction`` per size; with ``BENCH_EXTRACTION_BASELINE=<dir>`` (the
    ``src`` folder of another checkout, e.g. ``git archive <commit> src | tar -x -C /tmp/b``)
    the same command on that code alternates with it: CPU ratio, and whether every score of the
    two artifacts is the same (``scores_digest``)."""
    sys.path.insert(0, str(HERE))
    from bench_extraction import TYPES, write_data

    baseline = os.environ.get("BENCH_EXTRACTION_BASELINE")
    rows = []
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            pred, gold, src = write_data(folder, n)
            config = folder / "assay.yaml"
            config.write_text(
                json.dumps({"extraction": {"field_types": TYPES, "source": str(src)}}), "utf-8"
            )

            inputs = ["--config", str(config), "--pred", str(pred), "--gold", str(gold)]

            def cmd(out: str, inputs: list[str] = inputs) -> list[str]:
                return assay_cmd("-q", "score", "extraction", *inputs, "-o", out, "--no-store")

            commands = {"assay": cmd("run.json")}
            if baseline:
                commands["baseline"] = _baseline(cmd("run-baseline.json"), baseline)
            got = alternate(commands, folder, repeat if n < 10**4 else 1)
            size = (folder / "run.json").stat().st_size
            digest = scores_digest(folder / "run.json")
            row = [
                f"{n:,}", f"{got['assay']['cpu']:.2f}", f"{n / got['assay']['cpu']:,.0f}",
                f"{n / got['assay']['median_cpu']:,.0f}", f"{got['assay']['rss']:.0f}",
                f"{size / n / 1024:.1f}", digest,
            ]  # fmt: skip
            if baseline:
                same = scores_digest(folder / "run-baseline.json") == digest
                row += [
                    f"{got['baseline']['cpu']:.2f}",
                    f"{got['baseline']['cpu'] / got['assay']['cpu']:.2f}",
                    "yes" if same else "NO",
                ]
        rows.append(row)
    headers = ["documents", "CPU s", "documents/CPU-s", "median of runs", "peak RSS MiB"]
    headers.append("artifact KiB/doc")
    headers.append("scores digest")
    if baseline:
        headers += ["baseline CPU s", "baseline/assay CPU", "same scores"]
    table(headers, rows, "extraction: assay score extraction end to end (artifact included)")


# ----------------------------------------------------------------------------- translation


def bench_translation(sizes: Sequence[int], repeat: int) -> None:
    sys.path.insert(0, str(HERE))
    from bench_translation import build_segments

    sacrebleu = shutil.which("sacrebleu") or str(Path(sys.executable).with_name("sacrebleu"))
    rows = []
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            ref, systems = build_segments(n, folder)
            s1, s2, s3 = (str(p) for p in systems)
            commands = {
                "assay mt test (chrF++, BLEU, TER, CIs, artifact)": assay_cmd(
                    "-q", "mt", "test", s1, "-r", str(ref), "-o", "a.json", "--no-store",
                    "--comet", "off",
                ),
                "sacrebleu -m bleu chrf ter (one system)": [
                    sacrebleu, str(ref), "-i", s1, "-m", "bleu", "chrf", "ter",
                    "--chrf-word-order", "2", "-f", "text",
                ],
                "assay mt sacrebleu 3 systems -m bleu,chrf,ter --paired-bs": assay_cmd(
                    "-q", "mt", "sacrebleu", "-r", str(ref), "-i", s1, s2, s3,
                    "-m", "bleu,chrf,ter", "--paired-bs",
                ),
                "sacrebleu 3 systems -m bleu chrf ter --paired-bs": [
                    sacrebleu, str(ref), "-i", s1, s2, s3, "-m", "bleu", "chrf", "ter",
                    "--chrf-word-order", "2", "--paired-bs", "-f", "text",
                ],
            }  # fmt: skip
            got = alternate(commands, folder, repeat if n <= 2000 else 1)
            # a second artifact, then the comparison of the two
            measure(
                assay_cmd("-q", "mt", "test", s2, "-r", str(ref), "-o", "b.json", "--no-store",
                          "--comet", "off"),
                folder,
            )  # fmt: skip
            compare = alternate(
                {"compare": assay_cmd("-q", "mt", "compare", "a.json", "b.json", "--significance"),
                 "start-up": assay_cmd("mt", "--help")},
                folder,
                repeat,
            )  # fmt: skip
            artifact = (folder / "a.json").stat().st_size
        names = list(commands)
        for mine, theirs in ((names[0], names[1]), (names[2], names[3])):
            a, s = got[mine], got[theirs]
            rows.append(
                [f"{n:,}", mine, f"{a['cpu']:.2f}", f"{a['rss']:.0f}", f"{s['cpu']:.2f}",
                 f"{s['rss']:.0f}", f"{s['cpu'] / a['cpu']:.2f}", f"{a['rss'] / s['rss']:.2f}"]
            )  # fmt: skip
        c, st = compare["compare"], compare["start-up"]
        rows.append(
            [f"{n:,}", "assay mt compare a.json b.json --significance", f"{c['cpu']:.2f}",
             f"{c['rss']:.0f}", "", "", f"start-up alone {st['cpu']:.2f} s",
             f"artifact {artifact / n:.0f} B/segment"]
        )  # fmt: skip
    table(
        ["N", "command", "assay CPU s", "assay RSS MiB", "sacrebleu CPU s", "sacrebleu RSS MiB",
         "sacrebleu/assay CPU", "assay/sacrebleu RSS"],
        rows,
        "translation: assay vs the sacrebleu 2.x CLI (same scores)",
    )  # fmt: skip


# ----------------------------------------------------------------------------- main


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == FLOOR:
        floor_script(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=["classification", "extraction", "translation"])
    parser.add_argument("--sizes", help="comma-separated sizes for --suite")
    parser.add_argument("--quick", action="store_true", help="every suite at small sizes")
    parser.add_argument("--repeat", type=int, default=2, help="alternated runs per command")
    args = parser.parse_args()
    defaults = {
        "classification": [10**4, 10**5, 10**6],
        "extraction": [10**3, 10**4],
        "translation": [2000, 10000],
    }
    quick = {"classification": [10**4], "extraction": [200], "translation": [500]}
    suites = [args.suite] if args.suite else list(defaults)
    measure(assay_cmd("--version"), ROOT)  # bytecode written once, outside the figures
    print(f"load average {os.getloadavg()[0]:.1f}; CPU s = user + system of each process")
    for suite in suites:
        sizes = (
            [int(x) for x in args.sizes.split(",")]
            if args.sizes
            else (quick if args.quick else defaults)[suite]
        )
        {"classification": bench_classification, "extraction": bench_extraction,
         "translation": bench_translation}[suite](sizes, args.repeat)  # fmt: skip
    print(f"\nload average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
