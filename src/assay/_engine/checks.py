"""The common checks every metric kind and every suite is held to, in the spirit of
scikit-learn's ``test_common``: assay's own tests run them over every registered kind and every
built-in suite, and a plugin runs them on its own with ``assay.suite.check_kinds`` and
``check_suite``.

A kind, on tables of the example statistics its ``sample`` draws (``register_kind``):

- ``declared``: it declares a range and example statistics;
- ``range``: the point value and every bootstrap replicate lie in the declared range (NaN,
  undefined, is allowed);
- ``order``: the value does not depend on the order of the items;
- ``point``: the value on a table is the kind on the table's column sums, and a (B, k) stack
  of sums gives each row's own value (kinds are vectorized over leading axes);
- ``ci``: the percentile bootstrap CI contains the point estimate (15 items or more, defined);
- ``fast path``: the bootstrap's matrix product, ``finalize(W @ S)``, equals the generic path,
  the resampled table rebuilt and ``MetricSpec.value`` called, draw for draw.

A suite, scored on example data:

- ``columns``: every column a MetricSpec names is emitted by some item (the run stops
  otherwise: "unknown stats column(s)");
- ``batch``: ``score_batch`` gives what ``score_item`` gives, item by item (a suite with
  ``batch_size`` above 1);
- ``direction``: a spec's ``higher_is_better`` agrees with its kind's, where the kind fixes it;
- ``reported``: the run's value of each metric is its spec finalized on the column sums;
- and ``range``, ``order``, ``ci``, ``fast path`` on each of its specs, as for a kind.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assay._engine.registry import get_task, registered
from assay._engine.task import Task
from assay.errors import UsageError
from assay.metrics.kinds import FloatArray, Kind, kind_info, registered_kinds
from assay.metrics.spec import MetricSpec
from assay.metrics.table import StatsTable

#: relative and absolute tolerance between two computations of one value in another order of
#: floating-point additions (integer counts add exactly; scores in [0, 1] do not)
TOLERANCE = 1e-9
#: items below which a bootstrap CI is not expected to contain the point estimate
MIN_ITEMS_CI = 15
#: example tables drawn per kind by ``check_kinds``, and their sizes in turn
EXAMPLE_SIZES = (1, 2, 5, 15, 40, 3, 25, 8)


@dataclass(frozen=True)
class Failure:
    """One failed check: what failed it (``kind 'fbeta'``, ``suite 'words', metric 'f1'``),
    the check's name and what was seen."""

    subject: str
    check: str
    detail: str

    def __str__(self) -> str:
        return f"{self.subject}: {self.check}: {self.detail}"


class CheckFailed(AssertionError):
    """The common checks that failed, one line each (``AssertionError``: a test that calls
    ``check_kinds`` or ``check_suite`` fails with this report)."""

    def __init__(self, failures: Sequence[Failure]) -> None:
        self.failures = list(failures)
        lines = "\n".join(f"  {f}" for f in self.failures)
        super().__init__(f"{len(self.failures)} common check(s) failed:\n{lines}")


# ---------------------------------------------------------------- one check each


def _same(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def _fmt(value: float) -> str:
    return f"{value:.6g}"


def check_declared(kind: Kind) -> str | None:
    """What the kind leaves undeclared (its range, its example statistics), or None."""
    missing = [
        what
        for what, ok in (("range (lower=, upper=)", kind.has_range), ("sample=", kind.sample))
        if not ok
    ]
    if not missing:
        return None
    return f"register_kind({kind.name!r}, ...) declares no {' and no '.join(missing)}"


def check_range(kind: Kind, spec: MetricSpec, table: StatsTable, *, seed: int = 0) -> str | None:
    """The point value and 100 bootstrap replicates inside the kind's declared range."""
    from assay.stats import bootstrap_distributions

    if kind.lower is None or kind.upper is None:
        return None  # no range declared: ``check_declared`` says so
    value = spec.value(table)
    values = np.array([value])
    if len(table):
        dist = bootstrap_distributions(table, [spec], n_resamples=100, seed=seed)[spec.name]
        values = np.concatenate([values, dist])
    outside = kind.outside(values)
    if outside.size == 0:
        return None
    return (
        f"{outside.size} of {values.size} values (the point value, 100 bootstrap replicates) "
        f"outside the declared range [{_fmt(kind.lower)}, {_fmt(kind.upper)}] of kind "
        f"{kind.name!r}, e.g. {_fmt(float(outside[0]))}"
    )


def check_order(spec: MetricSpec, table: StatsTable, *, seed: int = 0) -> str | None:
    """The same value with the items in another order (a seeded permutation, and reversed)."""
    value = spec.value(table)
    rng = np.random.default_rng(seed)
    for order in (rng.permutation(len(table)), np.arange(len(table))[::-1]):
        shuffled = StatsTable(
            tuple(table.ids[i] for i in order), table.columns, table.values[order]
        )
        other = spec.value(shuffled)
        if not _same(other, value):
            return f"{_fmt(value)} in item order, {_fmt(other)} in another"
    return None


def check_point(kind: Kind, spec: MetricSpec, table: StatsTable) -> str | None:
    """The value is the kind on the column sums, and a stack of sums gives each row's value."""
    sums = table.select(spec.columns).sum(axis=0)
    value, direct = spec.value(table), float(kind.function(sums, **spec.params))
    if not _same(value, direct):
        return f"MetricSpec.value gives {_fmt(value)}, the kind on the column sums {_fmt(direct)}"
    rows = table.select(spec.columns)
    stack = np.vstack([sums, np.cumsum(rows, axis=0), rows]) if len(rows) else sums[None, :]
    together = np.asarray(kind.function(stack, **spec.params), dtype=np.float64)
    if together.shape != stack.shape[:-1]:
        return f"sums of shape {stack.shape} give scores of shape {together.shape}"
    for k, row in enumerate(stack):
        alone = float(kind.function(row, **spec.params))
        if not _same(float(together[k]), alone):
            return (
                f"not vectorized: row {k} of a stack of sums scores {_fmt(float(together[k]))}, "
                f"alone {_fmt(alone)}"
            )
    return None


def check_ci(spec: MetricSpec, table: StatsTable, *, seed: int = 0) -> str | None:
    """The 95% percentile bootstrap CI (300 resamples) contains the point estimate."""
    from assay.stats import bootstrap_ci

    value = spec.value(table)
    if len(table) < MIN_ITEMS_CI or math.isnan(value):
        return None
    ci = bootstrap_ci(table, spec, n_resamples=300, seed=seed)
    if ci.lower is None or ci.upper is None:
        return f"no CI around the defined value {_fmt(value)}"
    slack = TOLERANCE * max(1.0, abs(value))  # W @ S and S.sum(0) add in another order
    if ci.lower - slack <= value <= ci.upper + slack:
        return None
    return (
        f"the point estimate {_fmt(value)} lies outside its CI [{_fmt(ci.lower)}, {_fmt(ci.upper)}]"
    )


def check_fast_path(spec: MetricSpec, table: StatsTable, *, seed: int = 0) -> str | None:
    """The bootstrap's ``finalize(W @ S)`` equals the generic path draw for draw (40 draws)."""
    from assay.stats import bootstrap_distribution_generic, bootstrap_distributions

    if not len(table):
        return None
    n = 40
    fast = bootstrap_distributions(table, [spec], n_resamples=n, seed=seed)[spec.name]
    columns = table.columns

    def generic(sample: Sequence[FloatArray]) -> float:
        values = np.array(sample, dtype=np.float64).reshape(len(sample), len(columns))
        return spec.value(StatsTable(tuple(map(str, range(len(sample)))), columns, values))

    slow = bootstrap_distribution_generic(list(table.values), generic, n_resamples=n, seed=seed)
    for k, (a, b) in enumerate(zip(fast, slow, strict=True)):
        if not _same(float(a), float(b)):
            fast_value, slow_value = _fmt(float(a)), _fmt(float(b))
            return f"draw {k}: finalize(W @ S) gives {fast_value}, the generic path {slow_value}"
    return None


def check_direction(kind: Kind, spec: MetricSpec) -> str | None:
    """A spec's direction agrees with its kind's, where the kind fixes one."""
    if kind.higher_is_better is None or kind.higher_is_better == spec.higher_is_better:
        return None
    return (
        f"higher_is_better={spec.higher_is_better}, but kind {kind.name!r} declares "
        f"higher_is_better={kind.higher_is_better}"
    )


# ---------------------------------------------------------------- kinds


def example_table(kind: Kind, rows: FloatArray) -> tuple[MetricSpec, StatsTable]:
    """A spec of ``kind`` (default parameters) over ``rows``, and their table: columns
    ``c0…``, ids ``item0…``, and a last column the metric must ignore."""
    rows = np.asarray(rows, dtype=np.float64)
    columns = tuple(f"c{j}" for j in range(rows.shape[1]))
    spec = MetricSpec(kind.name, kind.name, columns)
    noise = (1e6 * (np.arange(len(rows)) % 3)).reshape(-1, 1)
    values = np.hstack([rows, noise])
    return spec, StatsTable(
        tuple(f"item{i}" for i in range(len(rows))), (*columns, "other"), values
    )


def table_problems(
    kind: Kind, spec: MetricSpec, table: StatsTable, *, seed: int = 0
) -> dict[str, str]:
    """Every check of a spec on one table: check name → what failed (a check that raises
    fails, naming the exception)."""
    runs: dict[str, Callable[[], str | None]] = {
        "point": lambda: check_point(kind, spec, table),
        "range": lambda: check_range(kind, spec, table, seed=seed),
        "order": lambda: check_order(spec, table, seed=seed),
        "ci": lambda: check_ci(spec, table, seed=seed),
        "fast path": lambda: check_fast_path(spec, table, seed=seed),
    }
    found: dict[str, str] = {}
    for check, run in runs.items():
        try:
            problem = run()
        except Exception as err:  # a kind that raises fails the check, it does not stop them
            problem = f"raised {type(err).__name__}: {err}"
        if problem is not None:
            found[check] = problem
    return found


def kind_failures(name: str, *, examples: int = len(EXAMPLE_SIZES), seed: int = 0) -> list[Failure]:
    """The common checks of kind ``name`` on ``examples`` tables drawn from its ``sample``; the
    first failure of each check."""
    kind = kind_info(name)
    subject = f"kind {name!r}"
    declared = check_declared(kind)
    failures = [] if declared is None else [Failure(subject, "declared", declared)]
    if kind.sample is None:
        return failures
    seen: set[str] = set()
    for k in range(examples):
        n = EXAMPLE_SIZES[k % len(EXAMPLE_SIZES)]
        rows = kind.sample(np.random.default_rng([seed, k]), n)
        spec, table = example_table(kind, rows)
        for check, problem in table_problems(kind, spec, table, seed=seed + k).items():
            if check not in seen:
                seen.add(check)
                failures.append(Failure(subject, check, f"{problem} (example {k}, {n} items)"))
    return failures


def check_kinds(*names: str, examples: int = len(EXAMPLE_SIZES), seed: int = 0) -> None:
    """Run the common checks on the metric kinds ``names`` (every registered kind when none is
    named); raise :class:`CheckFailed` listing each failed check."""
    failures = [
        f
        for name in (names or tuple(registered_kinds()))
        for f in kind_failures(name, examples=examples, seed=seed)
    ]
    if failures:
        raise CheckFailed(failures)


# ---------------------------------------------------------------- suites


def suite_failures(
    task: str | Task[Any],
    *,
    pred: Any,
    gold: Any = None,
    seed: int = 0,
    **options: Any,
) -> list[Failure]:
    """The common checks of suite ``task`` scored on ``pred`` and ``gold`` (paths or records,
    as ``assay.score`` takes them; ``options`` override its settings section)."""
    from assay._engine.scoring import score

    t = get_task(task) if isinstance(task, str) else task
    subject = f"suite {t.name!r}"
    with registered(t):  # an instance not registered yet: its settings section is found
        try:
            run = score(t, pred=pred, gold=gold, ci=False, **options)
        except UsageError as err:
            if "unknown stats column" not in str(err):
                raise
            return [Failure(subject, "columns", str(err).removeprefix(f"{subject}: "))]
        single = None
        if t.batch_size > 1:
            one = copy.copy(t)
            vars(one)["batch_size"] = 1  # the same suite, item by item
            single = score(one, pred=pred, gold=gold, ci=False, **options)
    failures: list[Failure] = []
    table, specs = run.table(), run.metric_specs()
    if single is not None:
        batch = _batch_problem(table, single.table())
        if batch is not None:
            failures.append(Failure(subject, "batch", batch))
    for spec in specs:
        kind = kind_info(spec.kind)
        metric = f"{subject}, metric {spec.name!r}"
        direction = check_direction(kind, spec)
        if direction is not None:
            failures.append(Failure(metric, "direction", direction))
        reported = run.metrics[spec.name].value
        value = spec.value(table)
        if not _same(math.nan if reported is None else reported, value):
            detail = (
                f"the run reports {reported}, the spec finalized on the sums gives {_fmt(value)}"
            )
            failures.append(Failure(metric, "reported", detail))
        for check, problem in table_problems(kind, spec, table, seed=seed).items():
            failures.append(Failure(metric, check, problem))
    return failures


def _batch_problem(batched: StatsTable, single: StatsTable) -> str | None:
    """Where the table scored in batches differs from the one scored item by item."""
    if batched.ids != single.ids or set(batched.columns) != set(single.columns):
        return "score_batch and score_item give rows of different items or columns"
    other = single.select(batched.columns)
    close = np.isclose(batched.values, other, rtol=TOLERANCE, atol=TOLERANCE)
    if close.all():
        return None
    i, j = (int(x[0]) for x in np.nonzero(~close))
    return (
        f"item {batched.ids[i]!r}, column {batched.columns[j]!r}: score_batch gives "
        f"{_fmt(float(batched.values[i, j]))}, score_item {_fmt(float(other[i, j]))}"
    )


def check_suite(
    task: str | Task[Any], *, pred: Any, gold: Any = None, seed: int = 0, **options: Any
) -> None:
    """Run the common checks on suite ``task`` scored on ``pred`` and ``gold`` (see
    :func:`suite_failures`); raise :class:`CheckFailed` listing each failed check."""
    failures = suite_failures(task, pred=pred, gold=gold, seed=seed, **options)
    if failures:
        raise CheckFailed(failures)
