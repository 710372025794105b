"""Common properties of every metric kind assay registers, in the spirit of scikit-learn's
``test_common``: no hand-written list. The kinds are read from the registry after every built-in
suite is imported (a suite registers its own kinds), and each runs through the same checks
(``assay._engine.checks``, which ``assay.suite.check_kinds`` runs for a plugin) on tables of the
example statistics its ``sample`` draws, the tables drawn by hypothesis:

* declared: a range, and example statistics;
* range: the point value and every bootstrap replicate lie in the declared range, or are NaN;
* order: the value does not depend on the item order;
* point: the value is the kind on the column sums, and a stack of sums gives each row's value;
* ci: the percentile bootstrap CI contains the point estimate (15 items or more);
* fast path: ``finalize(W @ S)`` equals the generic path (tables rebuilt) draw for draw;
* a paired test of a table against itself finds nothing; an empty table cannot be resampled.

Adding a kind means registering it with its declarations; every check then applies.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._engine import checks
from assay._engine.registry import load_task_plugins
from assay.errors import UsageError
from assay.metrics import MetricSpec, StatsTable, register_kind
from assay.metrics.kinds import Kind, kind_info, proportion_kinds, registered_kinds
from assay.registry.model import PROPORTION_KINDS
from assay.stats import (
    approximate_randomization_test,
    bootstrap_distributions,
    paired_bootstrap_test,
)

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)


def assay_kinds() -> list[Kind]:
    """Every kind registered by assay's own modules, once every built-in suite is imported
    (kinds other tests register, from ``tests.``, are theirs)."""
    load_task_plugins()
    return [k for k in registered_kinds().values() if k.function.__module__.startswith("assay.")]


KINDS = assay_kinds()
every_kind = pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)


@st.composite
def example_tables(draw: st.DrawFn, kind: Kind, min_size: int = 1) -> tuple[MetricSpec, StatsTable]:
    """A spec of ``kind`` and a table of 1 to 40 items' statistics from its ``sample``."""
    assert kind.sample is not None
    n = draw(st.integers(min_size, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    return checks.example_table(kind, kind.sample(np.random.default_rng(seed), n))


def test_the_registry_holds_every_kind_of_assay() -> None:
    names = {k.name for k in KINDS}
    builtin = {"mean", "ratio", "precision", "recall", "fbeta", "macro", "macro_fbeta"}
    corpus = {"sacrebleu_bleu", "sacrebleu_chrf", "sacrebleu_ter", "rate_or_zero"}
    assert builtin | corpus | {"extraction.total", "fixed_denominator"} <= names


@every_kind
def test_declares_its_range_and_example_statistics(kind: Kind) -> None:
    assert checks.check_declared(kind) is None


def test_declared_ranges_and_directions() -> None:
    """The ranges of the issue: rates in [0, 1], BLEU and chrF in [0, 100], TER >= 0 and lower
    is better."""
    for name in ("mean", "ratio", "precision", "recall", "fbeta", "macro", "macro_fbeta"):
        assert kind_info(name).is_proportion, name
    for name in ("sacrebleu_bleu", "sacrebleu_chrf"):
        assert (kind_info(name).lower, kind_info(name).upper) == (0.0, 100.0)
        assert kind_info(name).higher_is_better is True
    ter = kind_info("sacrebleu_ter")
    assert (ter.lower, ter.upper, ter.higher_is_better) == (0.0, math.inf, False)


def test_proportion_kinds_are_the_declared_unit_interval() -> None:
    """The registry's unit: the kinds declared in [0, 1], read when a metric is registered (a
    suite's own kinds, such as MAUD's AUPR, are registered by then); ``PROPORTION_KINDS`` is the
    built-in ones, as ``assay.registry`` is imported."""
    assert {k.name for k in KINDS if k.is_proportion} <= proportion_kinds()
    assert proportion_kinds() >= PROPORTION_KINDS
    assert "maud_aupr" in proportion_kinds()
    assert {"mean", "ratio", "macro_fbeta", "rate_or_zero"} <= PROPORTION_KINDS
    assert not {"sacrebleu_bleu", "sacrebleu_ter", "extraction.total"} & PROPORTION_KINDS


@every_kind
@SETTINGS
@given(data=st.data())
def test_values_lie_in_the_declared_range(kind: Kind, data: st.DataObject) -> None:
    spec, table = data.draw(example_tables(kind))
    assert checks.check_range(kind, spec, table, seed=data.draw(st.integers(0, 99))) is None


@every_kind
@SETTINGS
@given(data=st.data())
def test_invariant_to_item_order(kind: Kind, data: st.DataObject) -> None:
    spec, table = data.draw(example_tables(kind))
    assert checks.check_order(spec, table, seed=data.draw(st.integers(0, 99))) is None
    # and through take(), which re-aligns rows by id
    perm = data.draw(st.permutations(table.ids))
    assert checks._same(spec.value(table.take(perm)), spec.value(table))


@every_kind
@SETTINGS
@given(data=st.data())
def test_the_value_is_the_kind_on_the_sums_and_vectorized(kind: Kind, data: st.DataObject) -> None:
    spec, table = data.draw(example_tables(kind))
    assert checks.check_point(kind, spec, table) is None


@every_kind
@SETTINGS
@given(data=st.data())
def test_the_bootstrap_ci_contains_the_point_estimate(kind: Kind, data: st.DataObject) -> None:
    spec, table = data.draw(example_tables(kind, min_size=checks.MIN_ITEMS_CI))
    assert checks.check_ci(spec, table, seed=data.draw(st.integers(0, 2**32 - 1))) is None


@every_kind
@SETTINGS
@given(data=st.data())
def test_fast_path_equals_generic_path(kind: Kind, data: st.DataObject) -> None:
    spec, table = data.draw(example_tables(kind))
    assert checks.check_fast_path(spec, table, seed=data.draw(st.integers(0, 2**32 - 1))) is None


@every_kind
@settings(max_examples=10, deadline=None, derandomize=True)
@given(data=st.data())
def test_paired_tests_of_a_table_with_itself_find_nothing(kind: Kind, data: st.DataObject) -> None:
    spec, table = data.draw(example_tables(kind))
    value = spec.value(table)
    (boot,) = paired_bootstrap_test(table, table, [spec], n_resamples=100, seed=3)
    (ar,) = approximate_randomization_test(
        table, table, [spec], n_trials=64, n_bootstrap_ci=50, seed=3
    )
    for result in (boot, ar):
        assert result.p_value == 1.0
        assert result.significant is False
        assert result.winner is None
        if math.isnan(value):
            assert result.delta is None
        else:
            assert result.delta == 0.0


@every_kind
def test_an_empty_table_cannot_be_resampled(kind: Kind) -> None:
    assert kind.sample is not None
    spec, _ = checks.example_table(kind, kind.sample(np.random.default_rng(0), 1))
    empty = StatsTable.empty((*spec.columns, "other"))
    with pytest.raises(UsageError):
        bootstrap_distributions(empty, [spec], n_resamples=10)


def test_check_kinds_passes_on_every_kind() -> None:
    """The public helper runs the same checks: on every registered kind at once."""
    checks.check_kinds(*(k.name for k in KINDS))


# ---------------------------------------------------------------- the checks catch what they say


def _unit_rows(rng: np.random.Generator, n: int) -> np.ndarray:
    return np.column_stack([rng.random(n), np.ones(n)])


def test_check_kinds_names_each_failed_check() -> None:
    """A kind that leaves its range, is not vectorized and declares no sample: each failed
    check is named, with the kind."""

    @register_kind("test_common_kinds.doubled", lower=0.0, upper=1.0, sample=_unit_rows)
    def doubled(sums: np.ndarray, /) -> np.ndarray:
        return 2 * sums[..., 0] / sums[..., 1]  # a mean, twice: up to 2

    @register_kind("test_common_kinds.scalar", lower=0.0, upper=1.0, sample=_unit_rows)
    def scalar(sums: np.ndarray, /) -> np.ndarray:
        return np.asarray(float(sums.reshape(-1)[0] / sums.reshape(-1)[1]))  # one number

    @register_kind("test_common_kinds.undeclared")
    def undeclared(sums: np.ndarray, /) -> np.ndarray:
        return sums[..., 0]

    with pytest.raises(checks.CheckFailed) as caught:
        checks.check_kinds(
            "test_common_kinds.doubled", "test_common_kinds.scalar", "test_common_kinds.undeclared"
        )
    found = {(f.subject, f.check) for f in caught.value.failures}
    assert ("kind 'test_common_kinds.doubled'", "range") in found
    assert ("kind 'test_common_kinds.scalar'", "point") in found
    assert ("kind 'test_common_kinds.undeclared'", "declared") in found
    assert isinstance(caught.value, AssertionError)
    report = str(caught.value)
    assert "outside the declared range [0, 1] of kind 'test_common_kinds.doubled'" in report
    assert "declares no range (lower=, upper=) and no sample=" in report


@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_all_specs_share_one_set_of_resamples(data: st.DataObject, seed: int) -> None:
    """Several specs in one call give the same distributions as each spec alone."""
    rows = data.draw(
        st.lists(st.lists(st.integers(0, 3).map(float), min_size=3, max_size=3), min_size=1)
    )
    columns = ("tp", "fp", "fn")
    specs = [
        MetricSpec("precision", "precision", ("tp", "fp")),
        MetricSpec("recall", "recall", ("tp", "fn")),
        MetricSpec("f1", "fbeta", columns),
        MetricSpec("f2", "fbeta", columns, params={"beta": 2.0}),
        MetricSpec("tp_per_fp", "ratio", ("tp", "fp")),
    ]
    ids = tuple(str(i) for i in range(len(rows)))
    table = StatsTable(ids, columns, np.array(rows, dtype=np.float64).reshape(len(rows), 3))
    together = bootstrap_distributions(table, specs, n_resamples=30, seed=seed)
    assert list(together) == [s.name for s in specs]
    for spec in specs:
        alone = bootstrap_distributions(table, [spec], n_resamples=30, seed=seed)[spec.name]
        np.testing.assert_array_equal(together[spec.name], alone)
