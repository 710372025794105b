"""``assay biblio``: evaluate exports (metadata or section text), run GROBID, convert TEI and
JATS. The scoring itself is the shared engine's (``score_and_report``); this module wires the
seed's flags to it and writes the seed-shaped JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from assay._cli.score import DEFAULT_RUN_DIR, score_and_report
from assay._cli.state import RESAMPLES, SEED, LazyProgress, claims_stdout, err, out, write_output
from assay._engine.run import Run
from assay._io.idlists import read_ids_file
from assay.suites.biblio import (
    PRIMARY,
    export_json_schema,
    metadata_view,
    sections_view,
    write_view,
)

_PATH = click.Path(path_type=Path)


class _ManyValues(click.Option):
    """An option taking one or more values after one flag (``--gold-dirs A B C``), as well as
    the flag repeated; values run until the next token that starts with ``-``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("multiple", True)
        super().__init__(*args, **kwargs)

    def add_to_parser(self, parser: Any, ctx: click.Context) -> None:
        super().add_to_parser(parser, ctx)
        for name in self.opts:
            option = parser._long_opt.get(name) or parser._short_opt.get(name)
            if option is None:
                continue
            original = option.process

            def process(value: Any, state: Any, _original: Any = original) -> None:
                _original(value, state)
                while state.rargs and not str(state.rargs[0]).startswith("-"):
                    _original(state.rargs.pop(0), state)

            option.process = process


def gate_primary(run: Run, threshold: float) -> list[str]:
    """Primary metrics whose non-null mean is below ``threshold`` (missing, abstention and
    pass-rate figures are not gated)."""
    below = []
    for name in PRIMARY:
        value = run.metrics[name].value
        if value is not None and value < threshold:
            below.append(name)
    return below


@click.group(
    "biblio",
    context_settings={
        "help_option_names": ["-h", "--help"],
        "max_content_width": 100,
        "terminal_width": 100,
    },
)
def biblio_group() -> None:
    """Scholarly-paper metadata (seed 002): evaluate, GROBID runs, TEI and JATS conversion."""


@biblio_group.command("evaluate")
@click.option("--results-dir", type=_PATH, required=True, help="predictions: one export a paper")
@click.option(
    "--gold-dirs",
    cls=_ManyValues,
    type=_PATH,
    help="gold export directories (one or more after the flag)",
)
@click.option(
    "--expected-ids",
    type=_PATH,
    help="JSON list (or {members|ids: [...]}, e.g. a GROBID manifest.json) of the cohort; "
    "those without a prediction count as missing",
)
@click.option("--ids-file", type=_PATH, help="score only these paper ids (one a line, # comments)")
@click.option(
    "--output",
    "-o",
    type=_PATH,
    callback=claims_stdout,
    help="write the evaluation JSON (seed shape) here ('-': stdout)",
)
@click.option(
    "--run-output",
    type=_PATH,
    callback=claims_stdout,
    help="where to write the run artifact (default .assay/runs/)",
)
@click.option(
    "--threshold",
    type=float,
    help="exit 1 when a primary metric's non-null mean is below this value",
)
@click.option("--sections", is_flag=True, help="score section text against *.sectiongold.json")
@click.option(
    "--section-gold-dirs",
    cls=_ManyValues,
    type=_PATH,
    help="directories of *.sectiongold.json (one or more)",
)
@click.option("--name", "run_name", help="run name (default: the results dir name)")
@click.option("--config", type=_PATH, help="settings YAML (else ASSAY_CONFIG)")
@click.option("--no-ci", is_flag=True, help="skip bootstrap CIs")
@click.option("--n-bootstrap-ci", type=RESAMPLES, help="bootstrap resamples for CIs")
@click.option("--seed", type=SEED, help="resampling seed (default 12345)")
@click.option("--jobs", "-j", type=int, help="score papers on N processes")
@click.option("--no-store", is_flag=True, help="do not record the run in the run store")
@click.option("--all", "show_all", is_flag=True, help="show diagnostic metrics too")
@click.option(
    "--allow-unusable-predictions", is_flag=True,
    help="exit 0, not 4, when more than half of the items could not be scored",
)  # fmt: skip
def evaluate_command(
    results_dir: Path,
    gold_dirs: tuple[Path, ...],
    expected_ids: Path | None,
    ids_file: Path | None,
    output: Path | None,
    run_output: Path | None,
    threshold: float | None,
    sections: bool,
    section_gold_dirs: tuple[Path, ...],
    run_name: str | None,
    config: Path | None,
    no_ci: bool,
    n_bootstrap_ci: int | None,
    seed: int | None,
    jobs: int | None,
    no_store: bool,
    show_all: bool,
    allow_unusable_predictions: bool,
) -> None:
    """Score exports in --results-dir against gold; write the seed's JSON and the run artifact."""
    from assay.suites.biblio import task

    if sections and not section_gold_dirs:
        raise click.UsageError("--sections needs --section-gold-dirs")
    if not sections and not gold_dirs:
        raise click.UsageError("give --gold-dirs (gold export directories)")
    gold = section_gold_dirs if sections else gold_dirs
    missing = [str(g) for g in gold if not g.is_dir()]
    if missing:
        raise click.UsageError(f"no such gold directory: {', '.join(missing)}")
    name = run_name or results_dir.name
    run = score_and_report(
        task,
        pred=results_dir,
        gold=tuple(gold),
        output=run_output,
        show_all=show_all,
        config=config,
        run_name=name + ("-sections" if sections else ""),
        expected_ids=expected_ids,
        ids_file=ids_file,
        no_ci=no_ci,
        n_bootstrap_ci=n_bootstrap_ci,
        seed=seed,
        jobs=jobs,
        no_store=no_store,
        allow_unusable_predictions=allow_unusable_predictions,
        mode="sections" if sections else "metadata",
    )
    view_fn = sections_view if sections else metadata_view
    view = view_fn(run, predictions_dir=str(results_dir))
    if output is not None:
        if str(output) == "-":
            write_output(
                output, json.dumps(view, indent=2, ensure_ascii=False, allow_nan=False) + "\n", ""
            )
        else:
            write_view(view, output)
            out().print(f"evaluation written to {output}")
    if sections:
        return  # section text returns before the metadata gate
    s = run.summaries
    out().print(
        f"pass_rate {_fmt(s.get('pass_rate'))} (n={s.get('pass_rate_n')}) · "
        f"abstention_rate {_fmt(s.get('abstention_rate'))} (n_abstained={s.get('n_abstained')})"
    )
    if threshold is not None:
        below = gate_primary(run, threshold)
        if below:
            err().print(
                f"threshold {threshold}: primary metric(s) below it: "
                + ", ".join(f"{m}={float(run.metrics[m].value or 0):.4f}" for m in below)
            )
            raise click.exceptions.Exit(1)
        out().print(f"threshold {threshold}: every non-null primary metric mean is at or above it")


def _fmt(value: Any) -> str:
    return "—" if value is None else f"{float(value):.4f}"


@biblio_group.command("grobid-run")
@click.option("--grobid-url", required=True, help="GROBID server, e.g. http://localhost:8070")
@click.option("--pdf-dir", type=_PATH, required=True, help="directory of <paper id>.pdf files")
@click.option("--ids-file", type=_PATH, help="the cohort's paper ids (PDF stems), one a line")
@click.option("--out", "out_dir", type=_PATH, required=True, help="TEI output directory")
@click.option("--resume", is_flag=True, help="continue the interrupted run in --out")
@click.option("--grobid-image", help="the server's image name, recorded and checked on --resume")
@click.option(
    "--concurrency",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="requests at once",
)
@click.option(
    "--retries",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    help="retries of a failed request (timeouts, 429, 5xx)",
)
@click.option("--backoff", type=float, default=2.0, show_default=True, help="first wait (s)")
@click.option("--timeout", type=float, default=180.0, show_default=True, help="per request (s)")
def grobid_run_command(
    grobid_url: str,
    pdf_dir: Path,
    ids_file: Path | None,
    out_dir: Path,
    resume: bool,
    grobid_image: str | None,
    concurrency: int,
    retries: int,
    backoff: float,
    timeout: float,
) -> None:
    """Send each PDF to GROBID's processFulltextDocument; one TEI a paper and a manifest."""
    from assay.suites.biblio import run_grobid

    ids = read_ids_file(ids_file) if ids_file is not None else None
    with LazyProgress("GROBID", after=0.0) as progress:
        result = run_grobid(
            grobid_url,
            pdf_dir,
            out_dir,
            ids=ids,
            resume=resume,
            grobid_image=grobid_image,
            concurrency=concurrency,
            retries=retries,
            backoff=backoff,
            timeout=timeout,
            progress=progress,
        )
    out().print(
        f"converted {len(result.converted)}, failed {len(result.failed)}, "
        f"already done {len(result.skipped)}; manifest {result.manifest}"
    )
    if result.failed:
        err().print(f"failed: {', '.join(result.failed[:20])}")


_FORMAT = click.option(
    "--format",
    "output_format",
    type=click.Choice(["assay", "bibr-12"]),
    default="assay",
    show_default=True,
    help="export shape: assay's, or bibr's 12.2 (producer and converter named)",
)


def _bibr_finisher(kind: str) -> Callable[[dict[str, Any], str, Path, bytes], dict[str, Any]]:
    import hashlib

    from assay._version import __version__
    from assay.suites.biblio import to_bibr12

    def finish(export: dict[str, Any], pid: str, path: Path, data: bytes) -> dict[str, Any]:
        return to_bibr12(
            export,
            paper_id=pid,
            # bibr joins gold and predictions by the PDF's name: the paper's PDF is
            # <paper id>.pdf for both (grobid-run's naming; bibr's gold convention)
            file_name=f"{pid}.pdf",
            input_format="tei" if kind == "tei" else "jats",
            sha256=hashlib.sha256(data).hexdigest(),
            converter=("assay", __version__),
        )

    return finish


def _convert(
    kind: str,
    in_dir: Path,
    out_dir: Path,
    patterns: tuple[str, ...],
    producer: str | None,
    output_format: str = "assay",
) -> None:
    from assay.suites.biblio import (
        JATS_CONVERTER,
        TEI_CONVERTER,
        TEI_PRODUCER,
        convert_dir,
        jats_to_export,
        tei_to_export,
    )

    name = producer or "JATS"

    def jats(data: bytes) -> dict[str, Any]:
        return jats_to_export(data, producer=name)

    fn: Callable[[bytes], dict[str, Any]] = tei_to_export if kind == "tei" else jats
    converter = TEI_CONVERTER if kind == "tei" else JATS_CONVERTER
    prod = TEI_PRODUCER if kind == "tei" else name
    with LazyProgress(f"converting {kind}") as progress:
        report = convert_dir(
            in_dir,
            out_dir,
            fn,
            patterns=patterns,
            converter=converter,
            producer=prod,
            progress=progress,
            finish=_bibr_finisher(kind) if output_format == "bibr-12" else None,
            output_format="bibr-12" if output_format == "bibr-12" else "assay-11",
        )
    out().print(
        f"converted {len(report.converted)} file(s), {len(report.failures)} failure(s) "
        f"→ {out_dir} (failures in failures.jsonl)"
    )
    for f in report.failures[:20]:
        err().print(f"failed: {f.file}: {f.reason}")


@biblio_group.command("grobid-tei")
@click.option("--tei-dir", type=_PATH, required=True, help="GROBID TEI files (searched in depth)")
@click.option("--out", "out_dir", type=_PATH, required=True, help="export output directory")
@click.option(
    "--glob",
    "patterns",
    multiple=True,
    default=("*.tei.xml",),
    show_default=True,
    help="file patterns to convert (repeat)",
)
@_FORMAT
def grobid_tei_command(
    tei_dir: Path, out_dir: Path, patterns: tuple[str, ...], output_format: str
) -> None:
    """Convert GROBID TEI to exports (producer GROBID); unreadable files become failure records."""
    _convert("tei", tei_dir, out_dir, patterns, None, output_format)


@biblio_group.command("jats-gold")
@click.option("--jats-dir", type=_PATH, required=True, help="JATS files (searched in depth)")
@click.option("--out", "out_dir", type=_PATH, required=True, help="gold export directory")
@click.option(
    "--glob",
    "patterns",
    multiple=True,
    default=("*.nxml", "*.xml"),
    show_default=True,
    help="file patterns to convert (repeat)",
)
@click.option(
    "--producer",
    default="JATS",
    show_default=True,
    help="extraction.producer (e.g. CERMINE for its JATS output)",
)
@_FORMAT
def jats_gold_command(
    jats_dir: Path, out_dir: Path, patterns: tuple[str, ...], producer: str, output_format: str
) -> None:
    """Convert JATS articles to gold exports; unreadable files become failure records."""
    _convert("jats", jats_dir, out_dir, patterns, producer, output_format)


@biblio_group.command("schema")
@click.option("--output", "-o", type=_PATH, help="write the schema here instead of stdout")
def schema_command(output: Path | None) -> None:
    """Print the JSON Schema of the paper export."""
    text = json.dumps(export_json_schema(), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


__all__ = ["DEFAULT_RUN_DIR", "biblio_group", "gate_primary"]
