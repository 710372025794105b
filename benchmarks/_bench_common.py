"""Shared plumbing for the benchmark scripts (not a test module, not part of the package).

Each measurement runs in a fresh interpreter: the parent re-invokes the calling script with a
hidden ``--_worker <json>`` argument and an environment that pins BLAS/OpenMP threads *before*
numpy is imported. The worker builds its data, then

1. runs the measured call once, cold, recording wall time and the peak-RSS delta
   (``getrusage(RUSAGE_SELF).ru_maxrss`` after the call minus the resident set before it; the
   kernel's high-water mark is reset first via ``/proc/self/clear_refs`` when allowed);
2. re-runs it until it has ``repeat`` timings: best/median wall time, and the process CPU time
   (user + system, all threads) of the cheapest call from ``getrusage``;
3. runs it once more under ``tracemalloc`` for the peak of traced allocations made by the call
   (numpy registers its data buffers with tracemalloc).

The parent process never imports numpy, so its own footprint does not leak into a child's
``ru_maxrss`` through fork/exec.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

WORKER_FLAG = "--_worker"
RESULT_MARK = "@@BENCH_RESULT@@ "
THREAD_VARS = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)
MIB = 2**20


# --------------------------------------------------------------------------- parent side


def thread_env(threads: str) -> dict[str, str]:
    """The child environment: ``"1"`` pins every BLAS/OpenMP pool to one thread, ``"default"``
    leaves the library defaults (the thread variables are removed)."""
    env = dict(os.environ)
    for var in THREAD_VARS:
        env.pop(var, None)
    if threads != "default":
        for var in THREAD_VARS:
            env[var] = str(int(threads))
    return env


def run_worker(script: str, job: dict[str, Any], threads: str) -> dict[str, Any]:
    """Run one measurement in a fresh interpreter and return its result dict."""
    cmd = [sys.executable, script, WORKER_FLAG, json.dumps(job)]
    proc = subprocess.run(cmd, env=thread_env(threads), capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        if line.startswith(RESULT_MARK):
            result: dict[str, Any] = json.loads(line[len(RESULT_MARK) :])
            result["threads"] = threads
            return result
    sys.stderr.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    raise RuntimeError(f"worker failed (exit {proc.returncode}) for job {job}")


def prefault(mib: int) -> float:
    """Touch ``mib`` MiB in a throwaway process; returns its wall time in seconds.

    On a freshly booted VM (this was written on a Firecracker guest) the first touch of guest
    memory the host has not backed yet is very slow — 256 MiB took 0.8 s instead of 0.05 s —
    which would inflate the first "cold" measurements only. Touching the memory once in a
    separate process (so no measured process inherits its peak RSS) removes that artefact.
    """
    if mib <= 0:
        return 0.0
    code = (
        f"n = {int(mib)} * 2**20\nb = bytearray(n)\nb[::4096] = b'\\x01' * len(range(0, n, 4096))\n"
    )
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - t0


def parse_threads(text: str) -> list[str]:
    out = []
    for part in text.split(","):
        part = part.strip().lower()
        if part in ("default", "all", "0"):
            out.append("default")
        elif part:
            out.append(str(int(part)))
    return out


def parse_int_list(text: str) -> list[int]:
    return [int(float(p)) for p in text.replace("_", "").split(",") if p.strip()]


def print_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], title: str = "") -> None:
    """A plain fixed-width table (also valid Markdown)."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    if title:
        print(f"\n{title}")
    line = "| " + " | ".join(h.ljust(w) for h, w in zip(cells[0], widths, strict=True)) + " |"
    print(line)
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in cells[1:]:
        print("| " + " | ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) + " |")
    sys.stdout.flush()


def fmt_s(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e3:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def fmt_mib(n_bytes: float | None) -> str:
    return "-" if n_bytes is None else f"{n_bytes / MIB:.0f}"


def fmt_rss(result: dict[str, Any]) -> str:
    """RSS delta in MiB; '≤' when the high-water mark could not be reset and was not exceeded."""
    text = fmt_mib(result["rss_delta_bytes"])
    return ("≤" + text) if result.get("rss_masked") else text


def machine_line() -> str:
    return (
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs "
        f"(affinity {len(os.sched_getaffinity(0))}), platform {sys.platform}; {load_line()}"
    )


def load_line() -> str:
    """Load averages: on a shared machine, wall times above ~1 thread of load are inflated."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


# --------------------------------------------------------------------------- worker side


def _rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _reset_hwm() -> bool:
    """Reset the kernel's peak-RSS mark (Linux ``clear_refs`` 5); False when not permitted."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _maxrss_bytes() -> int:
    # Linux reports kilobytes (macOS bytes; these scripts target Linux)
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _usage() -> tuple[float, float, int]:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime, r.ru_stime, r.ru_minflt


def measure(fn: Callable[[], Any], repeat: int) -> tuple[Any, dict[str, Any]]:
    """Cold run (time + RSS), ``repeat - 1`` more timings, then one tracemalloc run.

    CPU figures come from ``getrusage``: user + system seconds of the whole process (all
    threads); system time is mostly page faults (zeroing freshly mapped memory).
    """
    walls: list[float] = []
    cpus: list[tuple[float, float, int]] = []  # (user, sys, minor faults) per call

    def timed() -> Any:
        u0, s0, f0 = _usage()
        t0 = time.perf_counter()
        value = fn()
        walls.append(time.perf_counter() - t0)
        u1, s1, f1 = _usage()
        cpus.append((u1 - u0, s1 - s0, f1 - f0))
        return value

    rss_before = _rss_bytes()
    maxrss_before = _maxrss_bytes()
    reset = _reset_hwm()
    value = timed()
    maxrss_after = _maxrss_bytes()
    masked = (not reset) and maxrss_after <= maxrss_before
    del value
    for _ in range(max(0, repeat - 1)):
        del_me = timed()
        del del_me

    tracemalloc.start()
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    value = fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    best_cpu = min(range(len(cpus)), key=lambda i: cpus[i][0] + cpus[i][1])
    stats = {
        "cold_s": walls[0],
        "best_s": min(walls),
        "median_s": statistics.median(walls),
        "cpu_best_s": cpus[best_cpu][0] + cpus[best_cpu][1],
        "sys_of_best_s": cpus[best_cpu][1],
        "minflt_of_best": cpus[best_cpu][2],
        "cpu_over_wall": statistics.median(
            (u + s) / w for (u, s, _), w in zip(cpus, walls, strict=True)
        ),
        "n_timed": len(walls),
        "tracemalloc_peak_bytes": peak - base,
        "rss_delta_bytes": max(0, maxrss_after - rss_before),
        "rss_masked": masked,
        "hwm_reset": reset,
    }
    return value, stats


def emit(result: dict[str, Any]) -> None:
    print(RESULT_MARK + json.dumps(result), flush=True)


def worker_job(argv: Sequence[str]) -> dict[str, Any] | None:
    """The job dict when this interpreter was started as a worker, else None."""
    if len(argv) >= 3 and argv[1] == WORKER_FLAG:
        job: dict[str, Any] = json.loads(argv[2])
        return job
    return None
