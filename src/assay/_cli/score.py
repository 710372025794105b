"""``assay score <suite>``: one command per registered suite, with the shared cohort, CI and
output options plus the suite's own settings fields as options."""

from __future__ import annotations

import re
import types
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Union, get_args, get_origin

import click

from assay._cli.lazy import LazyCommand, LazyGroup
from assay._cli.state import (
    EXIT_UNUSABLE,
    POSITIVE,
    RESAMPLES,
    SEED,
    STATE,
    STDOUT,
    LazyProgress,
    claims_format,
    claims_stdout,
    err,
    out,
    warn,
    write_output,
)

if TYPE_CHECKING:  # the scoring flow loads when a suite's command runs, not for --help
    from pydantic import BaseModel
    from pydantic.fields import FieldInfo

    from assay._engine.run import CohortSummary, Run
    from assay._engine.task import Task
    from assay._io.atomic import Written

DEFAULT_RUN_DIR = Path(".assay") / "runs"


def _unwrap_optional(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def field_option(name: str, info: FieldInfo, *, prefix: str = "") -> click.Option:
    """A click option for one settings field; default None so the settings file still wins.

    ``prefix`` goes before the flag's name (``--translation-format``) where the plain flag is
    a shared option's (``--format``, the output format).
    """
    extra = info.json_schema_extra
    own = extra.get("flag") if isinstance(extra, dict) else None
    flag = str(own) if own else "--" + prefix + name.replace("_", "-")
    annotation = _unwrap_optional(info.annotation)
    help_text = info.description or ""
    if info.default is not None and not isinstance(info.default, list):
        help_text += f" [settings default: {info.default}]"
    if annotation is bool:
        return click.Option([f"{flag}/--no-{flag[2:]}", name], default=None, help=help_text)
    if get_origin(annotation) is Literal:
        choices = [str(a) for a in get_args(annotation)]
        return click.Option([flag, name], type=click.Choice(choices), default=None, help=help_text)
    if get_origin(annotation) is list:
        return click.Option(
            [flag, name],
            multiple=True,
            default=None,
            help=help_text + " (repeat, or separate with commas)",
        )
    click_type: Any = {int: int, float: float}.get(annotation, str)
    return click.Option([flag, name], type=click_type, default=None, help=help_text)


def _is_flag(info: FieldInfo) -> bool:
    """False for fields marked ``json_schema_extra={"cli": False}`` (mappings, sub-sections)."""
    extra = info.json_schema_extra
    return not (isinstance(extra, dict) and extra.get("cli") is False)


def _task_options(task: Task[Any], taken: set[str]) -> list[click.Option]:
    """The suite's settings fields as options; a flag in ``taken`` is prefixed by the suite."""
    model: type[BaseModel] = task.settings_model
    options = []
    for name, info in model.model_fields.items():
        if not _is_flag(info):
            continue
        clash = "--" + name.replace("_", "-") in taken
        options.append(field_option(name, info, prefix=f"{task.name}-" if clash else ""))
    return options


def common_options() -> list[click.Parameter]:
    """The options every scoring command shares (inputs, cohort, CIs, outputs, store, executor),
    fresh objects each call so a command group can add them to its own commands."""
    path = click.Path(path_type=Path)
    return [
        click.Option(["--pred", "pred"], type=path, required=True, help="predictions file or dir"),
        click.Option(
            ["--gold", "gold"],
            type=path,
            multiple=True,
            help="gold file or dir, if separate (repeat for suites that take several)",
        ),
        click.Option(
            ["--expected-ids", "expected_ids"],
            type=path,
            help="JSON list (or {members|ids: [...]}) of ids that must be scored; "
            "those without a prediction count as missing",
        ),
        click.Option(
            ["--ids-file", "ids_file"], type=path, help="score only these ids (one a line)"
        ),
        click.Option(
            ["--output", "-o", "output"],
            type=path,
            callback=claims_stdout,
            help="where to write the run JSON ('-': stdout, alone)",
        ),
        click.Option(
            ["--format", "fmt"],
            type=click.Choice(["text", "json", "markdown"]),
            default="text",
            show_default=True,
            callback=claims_format,
            help="text: the scorecard for people; json: the run artifact alone on stdout; "
            "markdown: the scorecard as markdown on stdout",
        ),
        click.Option(["--name", "run_name"], help="run name (default: the prediction file stem)"),
        click.Option(["--config", "config"], type=path, help="settings YAML (else ASSAY_CONFIG)"),
        click.Option(["--no-ci", "no_ci"], is_flag=True, help="skip bootstrap CIs"),
        click.Option(
            ["--n-bootstrap-ci", "n_bootstrap_ci"],
            type=RESAMPLES,
            help="bootstrap resamples for CIs",
        ),
        click.Option(["--seed", "seed"], type=SEED, help="resampling seed (default 12345)"),
        click.Option(["--alpha", "alpha"], type=float, help="1 − CI level (default 0.05)"),
        click.Option(["--jobs", "-j", "jobs"], type=POSITIVE, help="score items on N processes"),
        click.Option(
            ["--resampling", "resampling"],
            type=click.Choice(["multinomial", "poisson"]),
            metavar="SCHEME",
            help="bootstrap weights: multinomial (default; exactly N draws) or poisson "
            "(keyed by seed, item id and replicate: the same for any partitioning)",
        ),
        click.Option(
            ["--executor", "executor"],
            metavar="WHERE",
            help="where items are scored: process or thread (with --jobs), or "
            "dask://HOST:PORT, a Dask scheduler (extra [dask]; with --resampling poisson the "
            "bootstrap runs on the workers too)",
        ),
        click.Option(
            ["--partitions", "partitions"],
            type=click.IntRange(min=1),
            metavar="N",
            help="item partitions on a Dask cluster (default: 4 per worker, at most 5,000 "
            "items each)",
        ),
        click.Option(
            ["--spill/--no-spill", "spill"],
            default=None,
            help="score out of core: per-item data in temporary files, only the statistics "
            "table in memory (default: from 100,000 gold records up)",
        ),
        click.Option(
            ["--spill-dir", "spill_dir"],
            type=click.Path(file_okay=False, path_type=Path),
            metavar="DIR",
            help="folder for the out-of-core files (default: the system's temporary folder)",
        ),
        clusters_option(),
        click.Option(["--all", "show_all"], is_flag=True, help="show diagnostic metrics too"),
        click.Option(
            ["--no-store", "no_store"], is_flag=True, help="do not record the run in the run store"
        ),
        allow_unusable_option(),
        click.Option(
            ["--store", "store"],
            metavar="URL",
            help="run store: SQLAlchemy URL or SQLite file (default: $ASSAY_STORE, "
            "else .assay/assay.db)",
        ),
        *sample_options(),
    ]


def sample_options() -> list[click.Option]:
    """``--samples``, ``--sample-field``, ``--pass-at``: several predictions per id read as
    samples of one item (``assay._engine.samples``); the ``run`` settings' ``samples``,
    ``sample_field`` and ``pass_at`` when not given."""
    return [
        click.Option(
            ["--samples/--no-samples", "samples"],
            default=None,
            help="several predictions per id are samples of one item: each is scored, the "
            "item's row is their mean, with pass@k and the within-item variance share "
            "(without it a repeated id is a listed duplicate)",
        ),
        click.Option(
            ["--sample-field", "sample_field"],
            metavar="FIELD",
            help="the predictions' sample index field (implies --samples; default: sample, "
            "sample_index, sample_idx or epoch when the predictions have one, else each "
            "repeated id is a sample, in file order)",
        ),
        click.Option(
            ["--pass-at", "pass_at"],
            type=click.IntRange(min=1),
            multiple=True,
            metavar="K",
            help="pass@K with --samples (repeat; default: 1 and the most samples of an item)",
        ),
    ]


def clusters_option() -> click.Option:
    """``--clusters FILE``: each item's cluster from a file (CIs and tests resample clusters)."""
    return click.Option(
        ["--clusters", "clusters"],
        type=click.Path(path_type=Path),
        metavar="FILE",
        help="each item's cluster (document, contract): a JSON object id → cluster, an "
        "id<TAB>cluster TSV (WMT's docids.tsv) or one cluster a line for line-aligned inputs; "
        "CIs and tests then resample clusters (--cluster-by NAME names them)",
    )


def allow_unusable_option() -> click.Option:
    """``--allow-unusable-predictions``: exit 0, not 4, for a run in which more than half of the
    items were not scored (``unscored_warning``)."""
    return click.Option(
        ["--allow-unusable-predictions", "allow_unusable_predictions"],
        is_flag=True,
        help="exit 0, not 4, when more than half of the items could not be scored (failed or "
        "missing); the run is kept and the warning printed either way",
    )


def _normalize_task_values(task: Task[Any], values: dict[str, Any]) -> dict[str, Any]:
    out_values: dict[str, Any] = {}
    fields = task.settings_model.model_fields
    for name, value in values.items():
        if name not in fields or value is None:
            continue
        if isinstance(value, tuple):
            if not value:
                continue
            value = [part.strip() for v in value for part in str(v).split(",") if part.strip()]
        out_values[name] = value
    return out_values


def score_and_report(
    task: Task[Any],
    *,
    pred: Path,
    gold: tuple[Path, ...] = (),
    output: Path | None = None,
    show_all: bool = False,
    config: Path | None = None,
    run_name: str | None = None,
    expected_ids: Path | None = None,
    ids_file: Path | None = None,
    no_ci: bool = False,
    n_bootstrap_ci: int | None = None,
    seed: int | None = None,
    alpha: float | None = None,
    jobs: int | None = None,
    no_store: bool = False,
    store: str | None = None,
    resampling: str | None = None,
    executor: str | None = None,
    partitions: int | None = None,
    spill: bool | None = None,
    spill_dir: Path | None = None,
    fmt: str = "text",
    allow_unusable_predictions: bool = False,
    samples: bool | None = None,
    sample_field: str | None = None,
    pass_at: tuple[int, ...] = (),
    clusters: Path | None = None,
    **options: Any,
) -> Run:
    """Score, save the artifact, record it in the run store (unless ``no_store``), print the
    scorecard and warnings: what every suite's CLI does.

    ``output`` ``-`` or ``fmt`` ``json`` writes the artifact to stdout, alone (everything else
    goes to stderr); ``fmt`` ``markdown`` writes the markdown scorecard there. A run in which
    more than half of the items were not scored (`unscored_warning`) ends with a warning and
    exit code 4 (``EXIT_UNUSABLE``), 0 with ``allow_unusable_predictions``; it is kept either
    way.
    """
    from assay._cli.allocator import keep_freed_memory
    from assay._engine.scoring import score
    from assay._settings import get_settings, load_settings

    keep_freed_memory([pred, *gold])

    to_stdout = str(output) == STDOUT or (fmt == "json" and output is None)
    STATE.stdout_is_artifact = STATE.stdout_is_artifact or to_stdout or fmt != "text"
    settings = load_settings(config) if config else get_settings()
    with LazyProgress(task.name) as progress:
        run = score(
            task,
            pred=pred,
            gold=gold,
            name=run_name,
            expected_ids=expected_ids,
            ids_file=ids_file,
            ci=False if no_ci else None,
            n_bootstrap_ci=n_bootstrap_ci,
            seed=seed,
            alpha=alpha,
            jobs=jobs,
            settings=settings,
            progress=progress,
            resampling=resampling,
            executor=executor,
            partitions=partitions,
            spill=spill,
            spill_dir=spill_dir,
            samples=samples,
            sample_field=sample_field,
            pass_at=list(pass_at) or None,
            clusters=clusters,
            **options,
        )
        if not to_stdout:
            progress.stage("writing")
        written = None if to_stdout else _save(run, output, progress.advance)
        # stored before anything is printed: a rendering error can never lose a scored run
        if not no_store:
            progress.stage("storing")
        stored = None if no_store else store_run(run, store)
    if to_stdout:
        write_output(STDOUT, run.iter_json(), "run")
    path = None if written is None else written.path
    _report(run, path, fmt=fmt, show_all=show_all)
    if written is not None:
        _say_written(run, written, stored=stored is not None)
    if stored is not None and not STATE.quiet:
        out().print(stored, markup=False)
    closing = unscored_warning(run, allowed=allow_unusable_predictions)
    if closing is not None:
        warn(closing)
        if not allow_unusable_predictions:
            STATE.exit_code = EXIT_UNUSABLE
    return run


#: reasons named in the closing warning (the rest are counted)
_SHOWN_REASONS = 3


def unscored_warning(run: Run, *, allowed: bool) -> str | None:
    """The warning that ends a run in which more than half of the items were not scored
    (failed or missing; the share is the LLM family's ``UNUSABLE_LIMIT``), else None: how many,
    the commonest reasons with where each first occurs, and what the exit code says.

    Such a run measures its inputs (an empty predictions file, a misspelled field, the wrong
    files), not the system: it is kept (written and stored) with every item listed, and the
    exit code 4 tells a script so."""
    from assay._judge.outcome import too_many_unusable

    cohort = run.cohort
    unscored = cohort.failed + cohort.missing
    if not too_many_unusable(unscored, cohort.attempted):
        return None
    groups: dict[str, list[str]] = {}
    for issue in cohort.failures:
        groups.setdefault(issue.reason, []).append(issue.where)
    reasons = sorted(groups.items(), key=lambda kv: -len(kv[1]))
    lines = [
        f"  {places[0]}" + (f" and {len(places) - 1} more" if len(places) > 1 else "") + f": {why}"
        for why, places in reasons
    ]
    lines = lines[:_SHOWN_REASONS] + (
        [f"  … and {len(lines) - _SHOWN_REASONS} other reason(s)"]
        if len(lines) > _SHOWN_REASONS
        else []
    )
    if cohort.missing:
        lines.append(f"  {cohort.missing} missing: {_missing_reason(cohort)}")
    verdict = (
        "The run is kept (--allow-unusable-predictions)."
        if allowed
        else "The run is kept; exit code 4 (--allow-unusable-predictions: 0)."
    )
    head = (
        f"warning: {unscored} of {cohort.attempted} items were not scored ({cohort.failed} "
        f"failed, {cohort.missing} missing): the numbers above measure the inputs, not the "
        f"system. {verdict}"
    )
    return "\n".join([head, *lines])


def _missing_reason(cohort: CohortSummary) -> str:
    """Why items are missing: no prediction was read at all, the predictions name other ids,
    or some ids have none."""
    if cohort.unmatched and cohort.unmatched_records:
        stray = cohort.unmatched_records[0]
        return (
            f"no prediction; {cohort.unmatched} predictions matched no gold id (e.g. "
            f"{stray.id!r} at {stray.where}): the wrong files, or the wrong id field?"
        )
    if not cohort.failed and cohort.missing == cohort.attempted and not cohort.parse_failures:
        return "no prediction: no prediction records were read (an empty predictions file?)"
    first = cohort.missing_ids[0] if cohort.missing_ids else "?"
    return f"no prediction (e.g. id {first!r})"


def _save(run: Run, output: Path | None, progress: Callable[[int], None] | None = None) -> Written:
    """Write the artifact to ``output``, else to ``DEFAULT_RUN_DIR`` under a name made of the
    task, the run's name and its id, whole or not at all (``Run.write_artifact``; ``progress``
    hears the bytes written)."""
    path = Path(output or DEFAULT_RUN_DIR / f"{run.task}-{_file_name(run.name)}-{run.run_id}.json")
    return run.write_artifact(path, progress=progress)


def _say_written(run: Run, written: Written, *, stored: bool) -> None:
    """Where the artifact went: "run ID written to PATH", or, when another process renamed its
    own artifact over it since (of concurrent writers of one path the last rename wins, each
    file whole), a warning naming the run the file holds now and where this one is kept."""
    if written.is_ours():
        if not STATE.quiet:
            out().print(f"run {run.run_id} written to {written.path}", markup=False)
        return
    holder = _run_on_disk(written.path)
    kept = (
        f"this run is in the run store: assay report {run.run_id}"
        if stored
        else "this run was not stored (--no-store): score it again to keep it"
    )
    err().print(
        f"warning: {written.path} was replaced by another process after run {run.run_id} "
        f"was written there; it holds {holder} (of concurrent writers of one path the last "
        f"one wins); {kept}",
        style="yellow",
    )


def _run_on_disk(path: Path) -> str:
    """Which run the artifact at ``path`` is, from its first bytes (every writer puts the run
    id in its envelope, near the top)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return "no file now"
    m = re.search(rb'"run_id":\s*"([0-9a-f]{1,64})"', head)
    return f"run {m[1].decode()}" if m else "another file"


def _report(run: Run, path: Path | None, *, fmt: str, show_all: bool) -> None:
    """The scorecard and warnings for people (none with --quiet: rich is not even loaded
    then); then the artifact (``fmt`` json) or the markdown scorecard (``fmt`` markdown)
    on stdout."""
    if not STATE.quiet:
        from assay._report.console import print_run, print_warnings

        print_run(out(), run, show_all=show_all)
        if run.task == "scores":  # another tool's own figures beside assay's
            from assay.suites.scores import figure_lines

            for line in figure_lines(run):
                out().print(line, markup=False, highlight=False, soft_wrap=True)
        print_warnings(err(), run.warnings)
    if path is not None and fmt == "json":
        write_output(STDOUT, run.iter_json(), "run")
    if fmt == "markdown":
        from assay._report.html import render_markdown

        write_output(STDOUT, render_markdown([run]), "markdown")


def _file_name(name: str) -> str:
    """A run name as a file name's part: path separators and reserved characters
    made ``_`` (``inspect:capitals · demo/candidate`` stays one file in the runs folder)."""
    return re.sub(r'[\\/:*?"<>|]+', "_", name).strip("_ ") or "run"


def store_run(run: Run, store: str | None = None) -> str:
    """Record ``run`` in the run store; returns the line saying where. A failure raises."""
    from assay._store import RunStore

    with RunStore(store) as st:
        result = st.add(run)
        where = st.display_url
    verb = "replaced" if result.replaced else "stored"
    return f"run {verb} as {run.run_id} in {where}"


def make_score_command(task: Task[Any]) -> click.Command:
    def callback(**kwargs: Any) -> None:
        options = _normalize_task_values(task, kwargs)
        common = {k: v for k, v in kwargs.items() if k not in task.settings_model.model_fields}
        score_and_report(task, **common, **options)

    common = common_options()
    taken = {flag for param in common for flag in param.opts}
    return click.Command(
        name=task.name,
        params=[*common, *_task_options(task, taken)],
        callback=callback,
        help=f"Score predictions with the {task.name} suite ({task.description}).",
        short_help=task.description,
    )


def _suite_command(name: str) -> click.Command:
    """``assay score NAME``: imports that suite only (its settings model makes the options)."""
    from assay._engine.registry import get_task

    return make_score_command(get_task(name))


def _suite_commands() -> dict[str, LazyCommand]:
    """One command per registered suite, known by name from the entry points: listing them
    imports none (``assay tasks`` prints their descriptions)."""
    from assay._engine.registry import task_names

    return {name: LazyCommand(partial(_suite_command, name), "") for name in task_names()}


class _ScoreGroup(LazyGroup):
    """``assay score``: a built-in suite's command is found by name, without listing the
    entry points (reading every distribution's metadata) as the table of all suites does."""

    noun = "suite"

    def lookup(self, cmd_name: str) -> LazyCommand | None:
        from assay._engine.registry import BUILTIN_TASKS

        if cmd_name in BUILTIN_TASKS:
            return LazyCommand(partial(_suite_command, cmd_name), "")
        return super().lookup(cmd_name)


def score_group() -> click.Group:
    return _ScoreGroup(
        name="score",
        lazy=_suite_commands,
        help="Score predictions against gold with a registered suite (see `assay tasks`).",
        epilog="`assay tasks` describes each suite; `assay score SUITE --help` lists its options.",
    )
