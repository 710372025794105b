"""Benchmark: assay's start-up and short runs beside sacrebleu's, in one run, as ratios.

Each command runs in its own process, the assay and sacrebleu commands of a case interleaved
(A B A B …) so that a change in the machine's load hits both; per command the median wall time,
the median CPU time (user + system of the child and its children, from ``os.wait4``) and the
peak RSS over ``--repeat`` runs. CPU time is the steadier figure on a shared machine; the ratio
is assay's median over sacrebleu's. Children run with bytecode caching on
(``PYTHONDONTWRITEBYTECODE`` removed, as an installed package runs); otherwise every start-up
recompiles every module it imports.

Cases:

- ``assay --version`` against ``sacrebleu --version`` (target: within 1.5×);
- ``assay score classification --help`` and a tiny ``assay score classification`` run
  (12 items, no CI, no store, artifact to a file) against ``sacrebleu --version``;
- end to end on the WMT22 de-en files (``../shared/data/mt/wmt22``, first N segments of
  reference A, Online-A as baseline and Online-B), BLEU + chrF++ (the same scores on both
  sides), paired bootstrap B = 1000:

      assay mt sacrebleu -r REF -i BASE SYS -m bleu,chrf --paired-bs
      sacrebleu REF -i BASE SYS -m bleu chrf --chrf-word-order 2 --paired-bs -f text

  for each N of ``--sizes`` (target: assay faster at every size from 100 segments up); the
  last line prints the CPU ratio at every size side by side.

    uv run python benchmarks/bench_startup.py             # 7 runs per command (~2 min)
    uv run python benchmarks/bench_startup.py --quick     # 3 runs, sizes 100 and 800
    uv run python benchmarks/bench_startup.py --only-mt   # the WMT22 cases only
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

ROOT = Path(__file__).resolve().parents[1]
WMT = ROOT.parent / "shared" / "data" / "mt" / "wmt22" / "de-en" / "generaltest2022.de-en"
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    """The console script ``name`` of this environment (else the one on PATH)."""
    local = BIN / name
    found = str(local) if local.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} is not installed in this environment")
    return found


def child_env(extra: dict[str, str]) -> dict[str, str]:
    """This environment with bytecode caching on, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def run_once(cmd: Sequence[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS MiB) of one run; a failing command stops the run."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {err.decode()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def measure(
    assay_cmd: Sequence[str], ref_cmd: Sequence[str], repeat: int, env: dict[str, str]
) -> dict[str, float]:
    """Medians of both commands, interleaved, after one untimed warm-up run of each."""
    run_once(assay_cmd, env)
    run_once(ref_cmd, env)
    runs: dict[str, list[tuple[float, float, float]]] = {"assay": [], "ref": []}
    for _ in range(repeat):
        runs["assay"].append(run_once(assay_cmd, env))
        runs["ref"].append(run_once(ref_cmd, env))
    med = statistics.median
    out: dict[str, float] = {}
    for who, got in runs.items():
        out[f"{who}_wall"] = med(g[0] for g in got)
        out[f"{who}_cpu"] = med(g[1] for g in got)
        out[f"{who}_rss"] = med(g[2] for g in got)
    return out


def tiny_score_inputs(folder: Path) -> tuple[Path, Path]:
    labels = ["pos", "neg", "neu"]
    gold = [{"id": f"i{k}", "expected": labels[k % 3]} for k in range(12)]
    pred = [{"id": f"i{k}", "predicted": labels[(k * 7) % 3]} for k in range(12)]
    g, p = folder / "gold.jsonl", folder / "pred.jsonl"
    g.write_text("".join(json.dumps(r) + "\n" for r in gold), encoding="utf-8")
    p.write_text("".join(json.dumps(r) + "\n" for r in pred), encoding="utf-8")
    return g, p


def wmt_inputs(folder: Path, n: int) -> tuple[Path, Path, Path] | None:
    """REF, BASE and SYS files of the first ``n`` WMT22 de-en segments (None without data)."""
    sources = {
        "ref": WMT.with_name(WMT.name + ".ref.A.en"),
        "base": WMT.with_name(WMT.name + ".hyp.Online-A.en"),
        "sys": WMT.with_name(WMT.name + ".hyp.Online-B.en"),
    }
    if not all(p.is_file() for p in sources.values()):
        return None
    out = []
    for role, src in sources.items():
        lines = src.read_text(encoding="utf-8").splitlines()[:n]
        dst = folder / f"{role}.{n}.en"
        dst.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(dst)
    return out[0], out[1], out[2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7, help="timed runs per command")
    ap.add_argument("--sizes", default="100,200,400,800,1984", help="WMT22 segment counts")
    ap.add_argument("--quick", action="store_true", help="3 runs, sizes 100 and 800")
    ap.add_argument("--only-mt", action="store_true", help="the WMT22 cases only")
    args = ap.parse_args()
    repeat = 3 if args.quick else args.repeat
    sizes = [100, 800] if args.quick else [int(s) for s in args.sizes.split(",")]

    assay, sacrebleu = _tool("assay"), _tool("sacrebleu")
    version = [sacrebleu, "--version"]
    rows: list[tuple[str, str, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = child_env({"ASSAY_STORE": f"sqlite:///{folder / 'assay.db'}"})
        gold, pred = tiny_score_inputs(folder)
        cases: list[tuple[str, list[str], list[str]]] = [
            ("assay --version", [assay, "--version"], version),
            ("assay score classification -h", [assay, "score", "classification", "-h"], version),
            (
                "assay score classification (12 items)",
                [assay, "-q", "score", "classification", "--pred", str(pred), "--gold",
                 str(gold), "--no-ci", "--no-store", "-o", str(folder / "run.json")],
                version,
            ),
        ]  # fmt: skip
        if args.only_mt:
            cases = []
        for n in sizes:
            files = wmt_inputs(folder, n)
            if files is None:
                print(f"WMT22 data absent under {WMT.parent}: end-to-end cases skipped")
                break
            ref, base, system = (str(p) for p in files)
            cases.append(
                (
                    f"mt sacrebleu --paired-bs, {n} segments",
                    [assay, "mt", "sacrebleu", "-r", ref, "-i", base, system,
                     "-m", "bleu,chrf", "--paired-bs"],
                    [sacrebleu, ref, "-i", base, system, "-m", "bleu", "chrf",
                     "--chrf-word-order", "2", "--paired-bs", "-f", "text"],
                )
            )  # fmt: skip
        for label, assay_cmd, ref_cmd in cases:
            result = measure(assay_cmd, ref_cmd, repeat, env)
            reference = "sacrebleu --version" if ref_cmd is version else "sacrebleu"
            rows.append((label, reference, result))
            print(f"measured: {label}", file=sys.stderr)

    load = os.getloadavg()
    print(f"\npython {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {load[0]:.1f}; "
          f"median of {repeat} interleaved runs; ratio = assay / reference")  # fmt: skip
    header = (
        "case",
        "reference",
        "assay wall",
        "ref wall",
        "ratio",
        "assay CPU",
        "ref CPU",
        "ratio",
        "assay RSS",
        "ref RSS",
    )
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for label, reference, r in rows:
        cells = (
            label,
            reference,
            f"{r['assay_wall'] * 1e3:.0f} ms",
            f"{r['ref_wall'] * 1e3:.0f} ms",
            f"{r['assay_wall'] / r['ref_wall']:.2f}×",
            f"{r['assay_cpu'] * 1e3:.0f} ms",
            f"{r['ref_cpu'] * 1e3:.0f} ms",
            f"{r['assay_cpu'] / r['ref_cpu']:.2f}×",
            f"{r['assay_rss']:.0f} MiB",
            f"{r['ref_rss']:.0f} MiB",
        )
        print("| " + " | ".join(cells) + " |")
    by_size = [
        f"{label.rsplit(', ', 1)[1].split()[0]}: {r['assay_cpu'] / r['ref_cpu']:.2f}×"
        for label, _, r in rows
        if label.startswith("mt sacrebleu")
    ]
    if by_size:
        print("\nmt sacrebleu --paired-bs, CPU assay/sacrebleu by segments: " + ", ".join(by_size))


if __name__ == "__main__":
    main()
