"""``assay mt ...``: seed 001's workflow — score a test report, compare reports with
significance, and sacrebleu-style multi-system tests on plain-text files."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from assay._cli.state import (
    RESAMPLES,
    SEED,
    claims_stdout,
    family_options,
    say,
    warn,
    with_family_options,
    write_output,
)
from assay._report.plain import box_table, fmt_fixed, fmt_p_eq, fmt_value, metric_decimals
from assay.errors import InputError

if TYPE_CHECKING:  # the run store and comparison load with `mt compare`, sacrebleu with
    # `mt sacrebleu` (never with `mt compare`: the runs hold their statistics)
    from assay._engine.run import Run
    from assay.stats.significance import Method, PValueRule
    from assay.suites.translation import SystemsComparison


def _task() -> Any:
    from assay.suites.translation import task

    return task


@click.group(name="mt", context_settings={"help_option_names": ["-h", "--help"]})
def mt_group() -> None:
    """Machine translation (seed 001): test reports, comparisons, sacrebleu-style tests."""


# --------------------------------------------------------------------------- mt test


@mt_group.command("test")
@click.argument("run_log", type=click.Path(path_type=Path))
@click.option(
    "--ref", "-r", "refs", multiple=True, type=click.Path(path_type=Path),
    help="reference file(s) for plain-text or JSONL hypotheses (repeat for several)",
)  # fmt: skip
@click.option("--no-ci", is_flag=True, help="skip bootstrap CIs")
@click.option("--n-bootstrap-ci", type=RESAMPLES, help="CI resamples (default 1000)")
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path),
    callback=claims_stdout,
    help="where to write the run JSON ('-': stdout)",
)
@click.option("--name", "run_name", help="run name (default: the file stem)")
@click.option("--seed", type=SEED, help="resampling seed (default 12345)")
@click.option("--alpha", type=float, help="1 − CI level (default 0.05)")
@click.option(
    "--comet", type=click.Choice(["auto", "on", "report", "off"]),
    help="COMET: the report's scores, else computed when installed (auto); on; report; off",
)  # fmt: skip
@click.option("--comet-model", help="COMET model name (local cache) or checkpoint path")
@click.option("--ter/--no-ter", default=None, help="compute corpus TER (default on)")
@click.option("--config", type=click.Path(path_type=Path), help="settings YAML")
@click.option(
    "--clusters", type=click.Path(path_type=Path), metavar="FILE",
    help="each segment's document: WMT's docids.tsv, id<TAB>doc, or one doc a line; CIs "
    "then resample documents",
)  # fmt: skip
@click.option(
    "--cluster-by", metavar="NAME",
    help="the JSONL field naming each segment's document (or the name of --clusters' labels)",
)  # fmt: skip
@click.option("--jobs", "-j", type=int, help="score entries on N processes")
@click.option("--all", "show_all", is_flag=True, help="show diagnostic metrics too")
@click.option("--no-store", "no_store", is_flag=True, help="do not record the run in the run store")
@click.option(
    "--store", metavar="URL", help="run store URL (default: $ASSAY_STORE, else .assay/assay.db)"
)
@click.option(
    "--allow-unusable-predictions", is_flag=True,
    help="exit 0, not 4, when more than half of the items could not be scored",
)  # fmt: skip
def test_command(
    run_log: Path,
    refs: tuple[Path, ...],
    comet: str | None,
    comet_model: str | None,
    ter: bool | None,
    cluster_by: str | None,
    **kw: Any,
) -> None:
    """Score RUN_LOG (a test report .json, JSONL, or hypotheses with -r) with 95% CIs."""
    from assay._cli.hashing import hash_without_openssl

    hash_without_openssl([run_log, *refs])  # before the suite loads hashlib (through pydantic)
    options: dict[str, Any] = {
        k: v
        for k, v in {
            "comet": comet,
            "comet_model": comet_model,
            "ter": ter,
            "cluster_by": cluster_by,
        }.items()
        if v is not None
    }
    from assay._cli.score import score_and_report

    run = score_and_report(_task(), pred=run_log, gold=refs, **kw, **options)
    comet_info = run.summaries.get("comet", {})
    # ``warn`` prints what rich's yellow line would, without loading rich (not even with -q)
    if not comet_info.get("computed") and comet_info.get("reason"):
        warn(comet_info["reason"])
    for w in comet_info.get("warnings", []):
        warn(f"warning: {w}")


# --------------------------------------------------------------------------- compare


def _load_or_score(path: Path) -> Run:
    """A translation run artifact as is; a test report (or JSONL) is scored first, without CIs."""
    from assay._engine.run import Run, looks_like_run

    if path.suffix.lower() == ".json":
        try:
            data = path.read_bytes()
        except OSError:
            data = b""
        if looks_like_run(data):
            # parsed once, straight into the models; the item records (their texts, most of
            # the bytes) only if something reads them
            run = Run.from_bytes(data, path, lazy_items=True)
            if run.task != "translation":
                raise InputError(f"{path}: a {run.task!r} run, not a translation run")
            return run
    from assay._engine.scoring import score  # the scoring engine only for a report to score

    return score(_task(), pred=path, ci=False, name=path.stem)


def _compare_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    options: list[Callable[..., Any]] = [
        click.argument("reports", nargs=-1, required=True, type=click.Path(path_type=Path)),
        click.option(
            "--n-bootstrap", type=click.IntRange(min=1),
            help="resamples (bootstrap, default 1000) or trials (ar, default 10000)",
        ),
        click.option(
            "--method", type=click.Choice(["bootstrap", "ar"]), default="bootstrap",
            show_default=True, help="paired bootstrap or approximate randomization",
        ),
        click.option(
            "--p-value", "p_value", type=click.Choice(["assay", "sacrebleu"]), default="assay",
            show_default=True,
            help="assay: two-sided; sacrebleu: reproduces sacrebleu 2.x's p-values",
        ),
        click.option(
            "--output",
            "-o",
            type=click.Path(path_type=Path),
            callback=claims_stdout,
            help="write JSON here ('-': stdout)",
        ),
        click.option("--seed", type=SEED, help="resampling seed (default 12345)"),
        click.option("--alpha", type=float, help="significance level (default 0.05)"),
        *family_options(),
        click.option(
            "--allow-gold-mismatch", is_flag=True,
            help="compare even where the references differ on shared ids",
        ),
        click.option("--all", "show_all", is_flag=True, help="show diagnostic metrics too"),
    ]  # fmt: skip
    for option in reversed(options):
        fn = option(fn)
    return fn


def _run_compare(reports: tuple[Path, ...], **options: Any) -> None:
    if len(reports) < 2:
        raise click.UsageError("give at least two reports")
    from assay._cli.compare import compare_loaded

    runs = [_load_or_score(p) for p in reports]
    compare_loaded(runs, after_table=_print_report_plugins, **options)


def _print_report_plugins(runs: Sequence[Run]) -> None:
    """Report-level plugin values present in every run: shown, but not testable."""
    values = [r.summaries.get("plugin_metrics", {}).get("report", {}) for r in runs]
    shared = sorted(set.intersection(*(set(v) for v in values))) if values else []
    for key in shared:
        shown = "  ".join(fmt_value(v[key]) for v in values)
        say(f"{key}: {shown} (report-level value: no per-entry values, so no paired test)")


@mt_group.command("compare")
@click.option("--significance", is_flag=True, help="add paired significance tests")
@_compare_options
def compare_command(reports: tuple[Path, ...], significance: bool, **kw: Any) -> None:
    """Compare test reports or translation runs: the first the candidate, the second its baseline.

    Δ = candidate − baseline, as in every assay command; for more than two, every pair, the
    earlier of the two its candidate.
    """
    _run_compare(reports, significance=significance, **kw)


@mt_group.command("significance")
@_compare_options
def significance_command(reports: tuple[Path, ...], **kw: Any) -> None:
    """Paired significance tests between test reports (the same as compare --significance)."""
    _run_compare(reports, significance=True, **kw)


# --------------------------------------------------------------------------- sacrebleu mode


@mt_group.command("sacrebleu")
@click.argument("more_systems", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--ref",
    "-r",
    "refs",
    multiple=True,
    required=True,
    type=click.Path(path_type=Path),
    help="reference file (repeat for several references)",
)
@click.option(
    "--input",
    "-i",
    "inputs",
    multiple=True,
    required=True,
    type=click.Path(path_type=Path),
    help="system files, the baseline first (`-i BASE SYS1 SYS2` or repeated -i)",
)
@click.option(
    "--metrics",
    "-m",
    "metric_names",
    multiple=True,
    help="bleu, chrf, ter (comma-separated or repeated; default bleu,chrf)",
)
@click.option(
    "--paired-bs",
    "method",
    flag_value="bootstrap",
    default=True,
    help="paired bootstrap resampling (default)",
)
@click.option("--paired-ar", "method", flag_value="ar", help="paired approximate randomization")
@click.option(
    "--paired-bs-n",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="bootstrap resamples",
)
@click.option(
    "--paired-ar-n",
    type=click.IntRange(min=1),
    default=10000,
    show_default=True,
    help="randomization trials",
)
@click.option(
    "--p-value",
    "p_value",
    type=click.Choice(["assay", "sacrebleu"]),
    default="assay",
    show_default=True,
    help="assay: two-sided; sacrebleu: sacrebleu 2.x's p-values",
)
@click.option(
    "--chrf-word-order",
    type=click.IntRange(min=0),
    default=2,
    show_default=True,
    help="chrF word n-gram order (2 = chrF++)",
)
@click.option("--seed", type=SEED, default=12345, show_default=True, help="resampling seed")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="significance level")
@with_family_options
@click.option(
    "--clusters",
    type=click.Path(path_type=Path),
    help="document of each line (WMT *.docids.tsv, id→document JSON/TSV, or one per line): "
    "CIs and tests resample documents",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="extract statistics on N processes",
)
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path),
    help="cache per-segment statistics here, keyed by content digest",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=Path),
    callback=claims_stdout,
    help="write JSON here ('-': stdout)",
)
def sacrebleu_command(
    more_systems: tuple[Path, ...],
    refs: tuple[Path, ...],
    inputs: tuple[Path, ...],
    metric_names: tuple[str, ...],
    method: str,
    paired_bs_n: int,
    paired_ar_n: int,
    p_value: str,
    chrf_word_order: int,
    seed: int,
    alpha: float,
    jobs: int,
    cache_dir: Path | None,
    output: Path | None,
    family: str = "headline",
    correction: str = "holm",
    clusters: Path | None = None,
) -> None:
    """Plain-text systems against references, the first the baseline, as sacrebleu's CLI.

    Every system × metric test against the baseline is one family, Holm-adjusted by default;
    with --clusters the CIs and tests resample documents."""
    from assay.metrics.corpus.sufficient import bleu_metric, chrf_metric, ter_metric
    from assay.suites.translation import compare_systems, score_text_systems

    systems = [*inputs, *more_systems]
    if len(systems) < 2:
        raise click.UsageError("give a baseline and at least one system: -i BASE SYS1 [SYS2 ...]")
    names = [n.strip().lower() for v in metric_names or ("bleu,chrf",) for n in v.split(",")]
    factories = {
        "bleu": bleu_metric,
        "chrf": lambda: chrf_metric(word_order=chrf_word_order),
        "ter": ter_metric,
    }
    unknown = [n for n in names if n not in factories]
    if unknown:
        raise click.UsageError(f"unknown metric(s) {unknown}; choose from bleu, chrf, ter")
    metrics = [factories[n]() for n in dict.fromkeys(names)]
    empty, min_items_test = _settings()
    tables, specs = score_text_systems(
        list(refs), systems, metrics, empty=empty, jobs=jobs, cache_dir=cache_dir
    )
    m: Method = "ar" if method == "ar" else "bootstrap"
    rule: PValueRule = "sacrebleu" if p_value == "sacrebleu" else "assay"
    labels = [_system_name(p) for p in systems]
    if len(set(labels)) < len(labels):
        labels = [str(p) for p in systems]
    units = _document_units(clusters, tables[0].ids) if clusters is not None else None
    result = compare_systems(
        labels,
        [str(p) for p in systems],
        tables,
        specs,
        method=m,
        p_value=rule,
        n_resamples=paired_bs_n if m == "bootstrap" else paired_ar_n,
        seed=seed,
        alpha=alpha,
        family=family,
        correction=correction,
        **({"units": units} if units is not None else {}),
    )
    say(systems_table(result))
    for line in _evidence_lines(result):
        say(line)
    spec_json = [spec.to_json() for spec in specs]
    for line in _signature_lines(result, spec_json):
        say(line)
    if rule == "sacrebleu":
        warn(
            "note: --p-value sacrebleu reproduces sacrebleu 2.x for comparability with "
            "published figures; its bootstrap rule over-rejects a true null."
        )
    if result.n_units < min_items_test:
        what = "segments" if result.unit == "item" else f"{result.unit}s"
        warn(f"warning: only {result.n_units} {what}: significance tests are unreliable")
    if output:
        signed = {**result.to_json(), "signature_lines": _signature_lines(result, spec_json)}
        write_output(output, json.dumps(signed, indent=2, ensure_ascii=False) + "\n", "comparison")


def _document_units(path: Path, ids: Sequence[str]) -> Any:
    """The document of each line (ids 1..N), read by `assay._io.clusters.read_cluster_map`."""
    from assay._io.clusters import read_cluster_map
    from assay.stats.units import Units

    return Units("document", read_cluster_map(path).labels_for(list(ids)))


def _evidence_lines(result: SystemsComparison) -> list[str]:
    """The family (every system × metric against the baseline), each Δ's smallest detectable
    size, and that the sample can never reject (when so)."""
    from assay.stats.statements import cannot_reject_line, family_line

    tests = result.tests
    n_tests = sum(1 for r in tests if r.delta is not None)
    lines = [
        family_line(result.family, result.correction, n_tests, n_pairs=len(result.significance))
    ]
    for name, results in result.significance.items():
        mdes = [f"{r.metric_name} {r.mde:.3g}" for r in results if r.mde is not None]
        if mdes:
            lines.append(f"smallest detectable Δ (power 0.8), {name}: " + ", ".join(mdes))
    stuck = cannot_reject_line(tests)
    if stuck is not None:
        lines.append(stuck)
    return lines


def _settings() -> tuple[str, int]:
    """(translation.empty_prediction, stats.min_items_test) from the settings in effect; with
    no settings file or override, the defaults without building the settings models (pydantic
    is most of this command's start-up on a short corpus)."""
    from assay._settings.sources import MIN_ITEMS_TEST, defaults_in_effect

    if defaults_in_effect():
        from assay.suites.translation import EMPTY

        return EMPTY, MIN_ITEMS_TEST
    from assay._settings import get_settings

    settings = get_settings()
    section = settings.section("translation")
    return str(getattr(section, "empty_prediction", "EMPTY")), settings.stats.min_items_test


def _signature_lines(result: SystemsComparison, specs: list[dict[str, Any]]) -> list[str]:
    """assay's signature of the paired tests, then sacrebleu's of each metric
    (_engine/signature)."""
    from assay._engine.signature import sacrebleu_signature, test_signature

    bs = result.n_resamples if result.method == "bootstrap" else None
    who = ("systems", len(result.systems))
    lines = [
        "signature: "
        + test_signature(
            method=result.method,
            task="translation",
            who=who,
            n=result.n_segments,
            extra=[] if result.unit == "item" else [("cl", result.unit), ("units", result.n_units)],
            n_resamples=result.n_resamples,
            seed=result.seed,
            alpha=result.alpha,
            p_value_rule=result.p_value_rule,
            decided=[r.method for r in result.tests],
            family=(result.family, result.correction),
        )
    ]
    for spec in specs:
        sig = sacrebleu_signature(spec, bs=bs, seed=result.seed)
        if sig is not None:
            lines.append(f"sacrebleu {spec['name']}: {sig}")
    return lines


def _system_name(path: Path) -> str:
    return path.name


def n_of(result: SystemsComparison) -> int:
    """The deciding test's count: resamples, trials or the 2^n swaps enumerated."""
    return result.tests[0].n_bootstrap if result.tests else result.n_resamples


def systems_table(result: SystemsComparison) -> str:
    """System | per metric: score [95% CI] and, against the baseline, Δ and p-value (a plain
    boxed table: no console library to import)."""
    from assay.stats.statements import decided_by

    title = "paired bootstrap" if result.method == "bootstrap" else "approximate randomization"
    if result.tests:
        title = decided_by(result.tests)
    metric_names = list(result.systems[0].scores)
    decimals = {
        name: metric_decimals(
            *(s.scores[name][k] for s in result.systems for k in ("value", "ci_lower", "ci_upper"))
        )
        for name in metric_names
    }  # one count of decimals per metric, in every row
    rows = []
    for k, system in enumerate(result.systems):
        cells = []
        sig = {r.metric_name: r for r in result.significance.get(system.name, [])}
        for name in metric_names:
            sc, d = system.scores[name], decimals[name]
            text = fmt_fixed(sc["value"], d)
            if sc["ci_lower"] is not None and sc["ci_upper"] is not None:
                text += f" [{fmt_fixed(sc['ci_lower'], d)}, {fmt_fixed(sc['ci_upper'], d)}]"
            r = sig.get(name)
            if r is not None:  # "p<0.001", never "p=0.0000"
                text += f"  p{fmt_p_eq(r.p_value).replace(' ', '')}"
                if r.p_adjusted is not None:
                    text += f" p-adj{fmt_p_eq(r.p_adjusted).replace(' ', '')}"
                text += r.stars
            cells.append(text)
        label = f"{system.name} (baseline)" if k == 0 else system.name
        rows.append([label, *cells])
    return box_table(
        ["system", *metric_names],
        rows,
        right=[False, *(True for _ in metric_names)],
        title=f"{title}, n={n_of(result)}, seed={result.seed}, p-value rule: "
        f"{result.p_value_rule} · baseline {result.baseline} · Δ = system − baseline",
    )
