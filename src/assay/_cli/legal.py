"""``assay legal``: the ContractEval benchmark commands and the chained suite's handoff ablation.
Scoring is the shared engine's (``score_and_report``); this module only wires the benchmark's
flags to it and, with ``--mapping-from``, maps an extraction run's spans to the rows'
categories first (the suites' public functions: ``assay.suites.contracteval``,
``assay.suites.chained``). :func:`write_demo` is ``assay demo legal``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from assay._cli.score import DEFAULT_RUN_DIR, score_and_report
from assay._cli.state import RESAMPLES, SEED, claims_stdout, err, out
from assay._io.readers import read_records
from assay._io.records import SourceRecord
from assay.errors import InputError
from assay.stats.statements import test_title
from assay.suites.contracteval import ContractEvalTask, mapping_rows, run_spans

_PATH = click.Path(path_type=Path)


@click.group(name="legal", help="Legal benchmarks: ContractEval (arXiv 2508.03080).")
def legal_group() -> None:
    """The ``assay legal`` command group."""


def _mapped_rows_file(rows: Path, run: Path, output: Path | None, threshold: float) -> Path:
    """Write the rows with outputs mapped from ``run``; return the new rows file."""
    records = []
    for res in read_records(rows, id_field="id"):
        if not isinstance(res, SourceRecord):
            raise InputError(f"{res.where()}: {res.reason}")
        records.append(res.record)
    mapped, bands, unmatched = mapping_rows(records, run_spans(run), min_containment=threshold)
    if unmatched:
        err().print(
            f"warning: {len(unmatched)} contract(s) have no document in {run} (scored as no "
            f"answer): {', '.join(unmatched[:5])}"
        )
    target = (output or DEFAULT_RUN_DIR / "contracteval.json").with_suffix(".mapped-rows.jsonl")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in mapped), "utf-8")
    out().print(
        "coverage bands (positive pairs): "
        + ", ".join(
            f"{k} {v:.3f}" if v is not None else f"{k} -"
            for k, v in bands.to_json().items()
            if k != "n_positive"
        )
        + f" over {bands.n_positive}"
    )
    out().print(f"mapped rows written to {target}")
    return target


@legal_group.command(name="contracteval")
@click.option(
    "--rows",
    type=_PATH,
    required=True,
    help="JSONL of {id, contract, category, gold_spans, output}, one (contract, category) "
    "pair per row",
)
@click.option(
    "--mapping-from",
    type=_PATH,
    help="an extraction run (stored with store_items): map its spans to the rows' categories "
    "instead of reading the rows' outputs",
)
@click.option(
    "--min-containment",
    type=float,
    default=0.5,
    show_default=True,
    help="with --mapping-from: containment that maps a span to a category",
)
@click.option(
    "--output", type=_PATH, callback=claims_stdout, help="where to write the run JSON ('-': stdout)"
)
@click.option("--name", "run_name", help="run name (default: derived from the inputs)")
@click.option("--paper-positives", type=int, help="fixed denominator of the paper's false rate")
@click.option("--no-per-category", is_flag=True, help="skip the per-category metrics")
@click.option(
    "--cluster-by",
    metavar="FIELD",
    help="the rows' field naming the resampling cluster (default: contract; item: iid rows)",
)
@click.option("--no-ci", is_flag=True, help="skip bootstrap confidence intervals")
@click.option("--n-bootstrap-ci", type=RESAMPLES, help="bootstrap resamples for the CIs")
@click.option("--seed", type=SEED, help="resampling seed")
@click.option("--all", "show_all", is_flag=True, help="show every metric, per category too")
@click.option("--no-store", is_flag=True, help="do not record the run in the run store")
@click.option("--store", metavar="URL", help="run store URL or SQLite file")
@click.option(
    "--allow-unusable-predictions", is_flag=True,
    help="exit 0, not 4, when more than half of the items could not be scored",
)  # fmt: skip
def contracteval_command(
    rows: Path,
    mapping_from: Path | None,
    min_containment: float,
    output: Path | None,
    run_name: str | None,
    paper_positives: int | None,
    no_per_category: bool,
    cluster_by: str | None,
    no_ci: bool,
    n_bootstrap_ci: int | None,
    seed: int | None,
    show_all: bool,
    no_store: bool,
    store: str | None,
    allow_unusable_predictions: bool,
) -> None:
    """Score ContractEval rows with the benchmark's exact rubric."""
    if mapping_from is not None:
        rows = _mapped_rows_file(rows, mapping_from, output, min_containment)
    run = score_and_report(
        ContractEvalTask(),
        pred=rows,
        output=output,
        run_name=run_name,
        no_ci=no_ci,
        n_bootstrap_ci=n_bootstrap_ci,
        seed=seed,
        show_all=show_all,
        no_store=no_store,
        store=store,
        allow_unusable_predictions=allow_unusable_predictions,
        paper_positives=paper_positives,
        per_category=False if no_per_category else None,
        cluster_by=cluster_by,
    )
    conf = run.summaries["confusion"]
    out().print("confusion: " + ", ".join(f"{k} {v}" for k, v in conf.items()))
    if "caveat" in run.summaries:
        out().print(run.summaries["caveat"])


@legal_group.command(name="contracteval-rows")
@click.argument("master", metavar="MASTER_CLAUSES.csv", required=False, type=_PATH)
@click.option(
    "--test-split",
    type=_PATH,
    help="CUAD's test split: the SQuAD-format test.json (rows from its questions), or a text "
    "file of contract names, one a line (master_clauses rows of those contracts only)",
)
@click.option("-o", "--output", type=_PATH, required=True, help="the rows JSONL to write")
def contracteval_rows_command(master: Path | None, test_split: Path | None, output: Path) -> None:
    """ContractEval rows {id, contract, category, gold_spans, output: null} from CUAD's
    master_clauses.csv (every contract x 41 categories) or CUAD's test split (seed 000 §17);
    fill `output` with the model's answers, or score an extraction run with --mapping-from."""
    from assay.suites.contracteval import contracteval_rows

    rows, missing = contracteval_rows(master, test_split)
    if missing:
        err().print(
            f"warning: {len(missing)} test-split contract(s) are not in {master}: "
            + ", ".join(missing[:5]),
            markup=False,
        )
    from assay._io.atomic import write_atomic

    lines = (json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)
    write_atomic(output, (line.encode("utf-8") for line in lines))  # whole or not at all
    contracts = len({r["contract"] for r in rows})
    positives = sum(1 for r in rows if r["gold_spans"])
    out().print(
        f"{len(rows)} rows ({contracts} contracts, {positives} with a labeled clause) "
        f"written to {output}",
        markup=False,
    )


@legal_group.command(name="handoff-ablation")
@click.argument("predicted_run", metavar="PREDICTED_RUN")
@click.argument("ground_truth_run", metavar="GROUND_TRUTH_RUN")
@click.option(
    "--metric",
    default="extractor_overall",
    show_default=True,
    help="the extractor metric compared (a metric of both chained runs)",
)
@click.option("--seed", type=SEED, help="resampling seed (default 12345)")
@click.option("--n-bootstrap", type=click.IntRange(min=100), help="paired bootstrap resamples")
@click.option("-o", "--output", type=_PATH, help="write the ablation JSON here")
@click.option("--store", metavar="URL", help="run store URL or SQLite file (for stored run ids)")
def handoff_ablation_command(
    predicted_run: str,
    ground_truth_run: str,
    metric: str,
    seed: int | None,
    n_bootstrap: int | None,
    output: Path | None,
    store: str | None,
) -> None:
    """The chained error-propagation ablation (seed 000 §12): the same documents scored with the
    predicted-subtype handoff (PREDICTED_RUN) and the ground-truth-subtype handoff
    (GROUND_TRUTH_RUN), run files or stored run ids; sorter_loss_pp is the gap, with its paired
    bootstrap CI."""
    from assay._cli.resolve import load_run_ref
    from assay.stats import DEFAULT_N_BOOTSTRAP, DEFAULT_SEED
    from assay.suites.chained import handoff_ablation

    pred = load_run_ref(predicted_run, store)
    truth = load_run_ref(ground_truth_run, store)
    result = handoff_ablation(
        pred,
        truth,
        metric=metric,
        n_resamples=n_bootstrap or DEFAULT_N_BOOTSTRAP,
        seed=DEFAULT_SEED if seed is None else seed,
    )

    def pct(v: float | None) -> str:
        return "—" if v is None else f"{v:.4f}"

    console = out()
    console.print(
        f"{metric}: predicted handoff {pct(result.predicted_handoff_overall)}, ground-truth "
        f"handoff {pct(result.ground_truth_handoff_overall)} on {result.n_shared} documents",
        markup=False,
    )
    lo, hi = result.ci_lower_pp, result.ci_upper_pp
    ci = "—" if lo is None or hi is None else f"[{lo:.2f}, {hi:.2f}]"
    loss = "—" if result.sorter_loss_pp is None else f"{result.sorter_loss_pp:.2f}"
    console.print(
        f"sorter_loss_pp {loss} pp, 95% CI {ci}, p = {result.p_value:.4f}"
        + (" (significant)" if result.significant else "")
        + (f" ({test_title(result.test)})" if result.test else ""),
        markup=False,
    )
    if result.mde_pp is not None:
        console.print(f"smallest detectable loss (power 0.8): {result.mde_pp:.2f} pp", markup=False)
    for w in result.warnings:
        err().print(f"warning: {w}", markup=False)
    if output is not None:
        payload = {
            "predicted_run": pred.run_id,
            "ground_truth_run": truth.run_id,
            **result.to_json(),
        }
        from assay._io.atomic import write_atomic

        write_atomic(output, [(json.dumps(payload, indent=2) + "\n").encode("utf-8")])
        console.print(f"written to {output}", markup=False)


def write_demo(out: Path) -> list[Path]:
    """Every legal suite's example data in one folder (``assay demo legal``: the legal suites'
    pages run on it), each suite's ``examples.write_demo`` in turn; a file two suites share
    (multiclass scores docclass's rows) is listed once."""
    from assay.suites.chained import examples as chained
    from assay.suites.contracteval import examples as contracteval
    from assay.suites.docclass import examples as docclass
    from assay.suites.legalbench import examples as legalbench
    from assay.suites.maud import examples as maud
    from assay.suites.multiclass import examples as multiclass
    from assay.suites.subtype import examples as subtype

    written: list[Path] = []
    for suite in (contracteval, legalbench, subtype, docclass, maud, multiclass, chained):
        written += [path for path in suite.write_demo(out) if path not in written]
    return written
