"""Resampling plans: count matrices, and a random stream that does not depend on the chunking.

The chunked generators must reproduce numpy's one-shot draws exactly, because that is what makes
assay's p-values equal to sacrebleu's (which draws everything at once) and makes results
independent of the memory budget.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.errors import UsageError
from assay.metrics import (
    MetricSpec,
    StatsTable,
    fbeta_metric,
    macro_metric,
    mean_metric,
    ratio_metric,
)
from assay.stats import (
    bootstrap_distributions,
    bootstrap_index_chunks,
    bootstrap_weight_chunks,
    counts_from_indices,
    paired_bootstrap_deltas,
    randomization_mask_chunks,
    randomization_statistics,
    resampling,
)
from assay.stats.resampling import chunk_sizes

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)

# budgets small enough to force one row per chunk (or 32 for masks), and odd sizes in between
_TINY_BUDGETS = [1, 8, 8 * 7 * 3, 8 * 33 * 5 + 3]


@SETTINGS
@given(
    n_items=st.integers(1, 60),
    n_resamples=st.integers(1, 40),
    seed=st.integers(0, 2**32 - 1),
)
def test_counts_from_indices_rows_sum_to_n(n_items: int, n_resamples: int, seed: int) -> None:
    indices = np.random.default_rng(seed).choice(n_items, size=(n_resamples, n_items))
    counts = counts_from_indices(indices, n_items)
    assert counts.shape == (n_resamples, n_items)
    assert counts.dtype == np.float64
    np.testing.assert_array_equal(counts.sum(axis=1), np.full(n_resamples, n_items))
    for row, idx in zip(counts, indices, strict=True):
        np.testing.assert_array_equal(row, np.bincount(idx, minlength=n_items))


def test_counts_from_indices_hand_example() -> None:
    counts = counts_from_indices(np.array([[0, 0, 2], [1, 2, 1]]), 3)
    np.testing.assert_array_equal(counts, [[2, 0, 1], [0, 2, 1]])


@pytest.mark.parametrize("n_items", [1, 5, 31, 32, 33, 100])
@pytest.mark.parametrize("chunk_bytes", [*_TINY_BUDGETS, 48 * 2**20])
def test_bootstrap_index_chunks_equal_one_shot_choice(n_items: int, chunk_bytes: int) -> None:
    for n_resamples in [1, 37, 200]:
        seed = 12345 + n_items
        chunks = list(bootstrap_index_chunks(n_items, n_resamples, seed, chunk_bytes=chunk_bytes))
        expected = np.random.default_rng(seed).choice(
            n_items, size=(n_resamples, n_items), replace=True
        )
        np.testing.assert_array_equal(np.concatenate(chunks), expected)
        if chunk_bytes == 1:
            assert len(chunks) == n_resamples  # one row per chunk: the stream really was split


@pytest.mark.parametrize("n_items", [1, 5, 31, 32, 33, 100, 250])
@pytest.mark.parametrize("chunk_bytes", [*_TINY_BUDGETS, 48 * 2**20])
def test_randomization_mask_chunks_equal_one_shot_integers(n_items: int, chunk_bytes: int) -> None:
    for n_trials in [1, 31, 32, 33, 100, 1000]:
        seed = 777 + n_trials
        chunks = list(randomization_mask_chunks(n_items, n_trials, seed, chunk_bytes=chunk_bytes))
        expected = np.random.default_rng(seed).integers(2, size=(n_trials, n_items), dtype=bool)
        got = np.concatenate(chunks)
        assert got.dtype == np.bool_
        np.testing.assert_array_equal(got, expected)
        # every chunk but the last has a multiple of 32 rows (numpy's bool draws use 32-bit words)
        assert all(len(c) % 32 == 0 for c in chunks[:-1])
        if chunk_bytes == 1 and n_trials > 32:
            assert len(chunks) > 1


def test_bootstrap_weight_chunks_are_counts_of_the_index_chunks() -> None:
    weights = np.concatenate(list(bootstrap_weight_chunks(17, 50, 4, chunk_bytes=8 * 17 * 6)))
    indices = np.random.default_rng(4).choice(17, size=(50, 17))
    np.testing.assert_array_equal(weights, counts_from_indices(indices, 17))


@SETTINGS
@given(
    total=st.integers(0, 500),
    n_items=st.integers(1, 300),
    chunk_bytes=st.integers(1, 10_000),
    multiple=st.sampled_from([1, 32]),
)
def test_chunk_sizes_partition_the_total(
    total: int, n_items: int, chunk_bytes: int, multiple: int
) -> None:
    sizes = chunk_sizes(total, n_items, chunk_bytes=chunk_bytes, multiple=multiple)
    assert sum(sizes) == total
    assert all(s > 0 for s in sizes)
    assert all(s % multiple == 0 for s in sizes[:-1])
    # within the budget, unless a single row (or a single 32-row block) is already over it
    floor_rows = multiple
    assert all(s * n_items * 8 <= max(chunk_bytes, floor_rows * n_items * 8) for s in sizes)


def test_chunk_rows_are_capped_for_small_item_counts_only() -> None:
    """A small N gets MAX_CHUNK_ROWS rows a chunk (its chunk shrinks with N); a large N keeps
    the rows its byte budget holds."""
    budget = resampling.DEFAULT_CHUNK_BYTES
    cap = resampling.MAX_CHUNK_ROWS
    full = 1000 // cap
    assert chunk_sizes(1000, 2000, chunk_bytes=budget) == [cap] * full + [1000 - full * cap]
    large = 100_000
    assert chunk_sizes(1000, large, chunk_bytes=budget)[0] == budget // (8 * large) < cap
    assert resampling.chunk_rows(10, chunk_bytes=budget, multiple=32) == cap


def test_chunk_sizes_reject_negative_totals() -> None:
    with pytest.raises(UsageError):
        chunk_sizes(-1, 10, chunk_bytes=1000)


def test_empty_item_sets_cannot_be_resampled() -> None:
    with pytest.raises(UsageError):
        list(bootstrap_index_chunks(0, 10, 1))
    with pytest.raises(UsageError):
        list(randomization_mask_chunks(0, 10, 1))


# ---------------------------------------------------------------- chunking invariance end to end


def _random_table(n: int, seed: int) -> StatsTable:
    rng = np.random.default_rng(seed)
    tp, fp, fn = rng.integers(0, 4, size=(3, n))
    score = rng.random(n)
    defined = rng.random(n) < 0.8
    label = rng.integers(0, 3, size=n)
    correct = rng.random(n) < 0.6
    cols: dict[str, np.ndarray] = {
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "s": np.where(defined, score, 0.0),
        "s#n": defined,
        "d": np.where(defined, np.floor(score * 8) / 8, 0.0),
        "d#n": defined,
    }
    for c in range(3):
        cols[f"c{c}"] = (label == c) & correct
        cols[f"n{c}"] = label == c
    values = np.column_stack([np.asarray(v, dtype=np.float64) for v in cols.values()])
    return StatsTable(tuple(f"i{i}" for i in range(n)), tuple(cols), values)


_SPECS = [
    fbeta_metric("f1", "tp", "fp", "fn"),
    fbeta_metric("f2", "tp", "fp", "fn", beta=2.0),
    ratio_metric("precision_as_ratio", "tp", "fp"),
    mean_metric("score", "s"),
    macro_metric("macro", [(f"c{c}", f"n{c}") for c in range(3)]),
    mean_metric("dyadic", "d"),  # scores k/8 and their sums are exact in binary floating point
]
_FLOAT_SPECS = {"score"}


def _assert_chunking_invariant(spec: MetricSpec, chunked: np.ndarray, whole: np.ndarray) -> None:
    """Bit-identical for integer-valued statistics (every count metric).

    For the mean of non-integer per-item scores the draws are identical too, but the matrix
    product W @ S goes through different BLAS kernels for a (1, N) and a (B, N) W (gemv vs gemm),
    which add the same numbers in a different order: the resampled values then differ in the
    last bit (measured: up to 2.2e-16 absolute). ``resampling.py`` promises results "identical
    whatever the memory budget"; that holds for counts, and to 1 ulp for float scores.
    """
    if spec.name in _FLOAT_SPECS:
        np.testing.assert_allclose(chunked, whole, rtol=1e-14, atol=1e-15)
    else:
        np.testing.assert_array_equal(chunked, whole)


@pytest.mark.parametrize("n_items", [1, 7, 33, 120])
@pytest.mark.parametrize("chunk_bytes", _TINY_BUDGETS)
def test_bootstrap_distributions_do_not_depend_on_chunking(n_items: int, chunk_bytes: int) -> None:
    table = _random_table(n_items, seed=n_items)
    one = bootstrap_distributions(table, _SPECS, n_resamples=150, seed=99)
    many = bootstrap_distributions(table, _SPECS, n_resamples=150, seed=99, chunk_bytes=chunk_bytes)
    for spec in _SPECS:
        _assert_chunking_invariant(spec, many[spec.name], one[spec.name])


@pytest.mark.parametrize("n_items", [1, 7, 33, 120])
@pytest.mark.parametrize("chunk_bytes", _TINY_BUDGETS)
def test_paired_statistics_do_not_depend_on_chunking(n_items: int, chunk_bytes: int) -> None:
    table_a = _random_table(n_items, seed=n_items)
    table_b = StatsTable(
        table_a.ids, table_a.columns, _random_table(n_items, seed=1000 + n_items).values
    )
    kw = {"seed": 5}
    deltas_one = paired_bootstrap_deltas(table_a, table_b, _SPECS, n_resamples=100, **kw)
    deltas_many = paired_bootstrap_deltas(
        table_a, table_b, _SPECS, n_resamples=100, chunk_bytes=chunk_bytes, **kw
    )
    ar_one = randomization_statistics(table_a, table_b, _SPECS, n_trials=100, **kw)
    ar_many = randomization_statistics(
        table_a, table_b, _SPECS, n_trials=100, chunk_bytes=chunk_bytes, **kw
    )
    for spec in _SPECS:
        _assert_chunking_invariant(spec, deltas_many[spec.name], deltas_one[spec.name])
        _assert_chunking_invariant(spec, ar_many[spec.name], ar_one[spec.name])


def test_zero_resamples_give_empty_distributions() -> None:
    table = _random_table(5, seed=1)
    out = bootstrap_distributions(table, _SPECS, n_resamples=0)
    assert all(v.shape == (0,) for v in out.values())


def test_randomization_statistics_follow_the_swap_mask() -> None:
    """T_r = f(A_r) − f(B_r) where mask False swaps the item's rows (sacrebleu's pos_sel)."""
    table_a = _random_table(20, seed=3)
    table_b = StatsTable(table_a.ids, table_a.columns, _random_table(20, seed=4).values)
    spec = _SPECS[0]
    stats = randomization_statistics(table_a, table_b, [spec], n_trials=40, seed=11)[spec.name]
    keep = np.random.default_rng(11).integers(2, size=(40, 20), dtype=bool)
    sa, sb = table_a.select(spec.columns), table_b.select(spec.columns)
    for r in range(40):
        k = keep[r][:, None]
        shuf_a = np.where(k, sa, sb).sum(axis=0)
        shuf_b = np.where(k, sb, sa).sum(axis=0)
        expected = float(spec.finalize(shuf_a)) - float(spec.finalize(shuf_b))
        assert stats[r] == pytest.approx(expected, rel=1e-12, abs=1e-12)


# ---------------------------------------------------------------- kernels (draws, gathered sums)


@pytest.mark.parametrize("n", [1, 7, 1000, 2**20 + 3])
def test_int32_draws_are_the_choice_stream(n: int) -> None:
    from assay.stats.resampling import bootstrap_index_chunks

    want = np.random.default_rng(9)
    width = min(n, 3000)
    drawn = np.vstack(list(bootstrap_index_chunks(n, 5, 9, chunk_bytes=8 * n * 2)))
    assert drawn.dtype == np.int32 and drawn.shape == (5, n)
    expected = want.choice(n, size=(5, n))
    assert np.array_equal(drawn[:, :width], expected[:, :width])


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 60),
    k=st.integers(1, 7),
    rows=st.integers(1, 9),
    block=st.sampled_from([8, 64, 1 << 20]),
    seed=st.integers(0, 2**16),
)
def test_resampled_sums_are_w_times_s(n: int, k: int, rows: int, block: int, seed: int) -> None:
    import assay.stats.resampling as resampling_module

    rng = np.random.default_rng(seed)
    matrix = rng.integers(0, 3, size=(n, k)).astype(np.float64)
    matrix[:, 0] = 1.0  # a constant count column (summed without drawing)
    if k > 1:
        matrix[:, 1] = rng.random(n)  # a continuous column
    indices = rng.integers(0, n, size=(rows, n), dtype=np.int32)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(resampling_module, "GATHER_BLOCK_BYTES", block)
        got = resampling_module.resampled_sums(indices, matrix)
    want = resampling_module.counts_from_indices(indices, n) @ matrix
    assert got.shape == (rows, k)
    whole = [j for j in range(k) if j != 1]
    assert np.array_equal(got[:, whole], want[:, whole])  # whole numbers: exact
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("cap", [1, 2, 32, 10**9])
def test_statistics_do_not_depend_on_the_row_cap(cap: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """MAX_CHUNK_ROWS only splits the same draws differently (2,000 items: the cap applies)."""
    table_a = _random_table(2000, seed=3)
    table_b = StatsTable(table_a.ids, table_a.columns, _random_table(2000, seed=4).values)
    one = bootstrap_distributions(table_a, _SPECS, n_resamples=300, seed=99)
    deltas_one = paired_bootstrap_deltas(table_a, table_b, _SPECS, n_resamples=300, seed=5)
    ar_one = randomization_statistics(table_a, table_b, _SPECS, n_trials=300, seed=5)
    monkeypatch.setattr(resampling, "MAX_CHUNK_ROWS", cap)
    many = bootstrap_distributions(table_a, _SPECS, n_resamples=300, seed=99)
    deltas_many = paired_bootstrap_deltas(table_a, table_b, _SPECS, n_resamples=300, seed=5)
    ar_many = randomization_statistics(table_a, table_b, _SPECS, n_trials=300, seed=5)
    for spec in _SPECS:
        _assert_chunking_invariant(spec, many[spec.name], one[spec.name])
        _assert_chunking_invariant(spec, deltas_many[spec.name], deltas_one[spec.name])
        _assert_chunking_invariant(spec, ar_many[spec.name], ar_one[spec.name])


@settings(max_examples=120, deadline=None)
@given(
    n=st.integers(1, 50),
    k=st.integers(1, 9),
    rows=st.integers(1, 6),
    scale=st.sampled_from([1, 3, 2**18, 2**24, 2**47]),
    kinds=st.lists(st.sampled_from(["whole", "constant", "negative", "zero", "real"]), min_size=9),
    seed=st.integers(0, 2**16),
)
def test_sums_matrix_is_the_float64_product(
    n: int, k: int, rows: int, scale: int, kinds: list[str], seed: int
) -> None:
    """``SumsMatrix`` (constant columns as c·N, the rest in Fortran order, float32 when every
    partial sum is a whole number below 2²⁴) gives exactly the bits of the plain float64
    product ``counts_from_indices(...) @ S``; a matrix with a non-whole cell is that product."""
    from assay.stats.resampling import SumsMatrix, counts_from_indices

    rng = np.random.default_rng(seed)
    matrix = np.empty((n, k), dtype=np.float64)
    for j in range(k):
        kind = kinds[j]
        if kind == "whole":
            matrix[:, j] = rng.integers(0, scale, size=n, endpoint=True)
        elif kind == "negative":
            matrix[:, j] = rng.integers(-scale, scale, size=n, endpoint=True)
        elif kind == "constant":
            matrix[:, j] = float(rng.integers(-scale, scale, endpoint=True))
        elif kind == "zero":
            matrix[:, j] = rng.choice([0.0, -0.0], size=n)
        else:
            matrix[:, j] = rng.random(n) * scale
    indices = rng.integers(0, n, size=(rows, n), dtype=np.int32)
    prepared = SumsMatrix.of(matrix)
    got = prepared.sums(indices)
    want = counts_from_indices(indices, n) @ matrix
    assert got.dtype == np.float64 and got.shape == (rows, k)
    assert np.array_equal(got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want + 0.0)) or "real" in kinds[:k]
    whole = bool(np.array_equal(matrix, np.round(matrix)))
    bound = n * float(np.abs(matrix).max())  # no partial sum of whole cells exceeds it
    assert prepared.dtype is (np.float32 if whole and bound < 2**24 else np.float64)
    if not whole or bound >= 2**53:
        assert prepared.matrix is matrix  # multiplied as given


def test_few_distinct_rows_are_counted_per_distinct_row_with_the_same_sums() -> None:
    """A whole-number table with few distinct rows (classification flags) is resampled by
    counting draws per distinct row: the sums are the per-item product's, bit for bit."""
    from assay.stats.resampling import DISTINCT_MIN_ITEMS, SumsMatrix, counts_from_indices

    rng = np.random.default_rng(7)
    n = DISTINCT_MIN_ITEMS + 123
    patterns = np.array([[1, 1, 0, 2, 5], [0, 1, 1, 0, 5], [1, 0, 0, 1, 5], [0, 0, 0, 3, 5]])
    matrix = patterns[rng.integers(0, len(patterns), n)].astype(np.float64)
    prepared = SumsMatrix.of(matrix)
    assert prepared.codes is not None and len(prepared.matrix) == len(patterns)
    indices = rng.integers(0, n, size=(5, n), dtype=np.int32)
    expected = counts_from_indices(indices, n) @ matrix
    assert np.array_equal(prepared.sums(indices), expected)
    many = rng.integers(0, 1000, size=(n, 3)).astype(np.float64)  # ~n distinct rows: as before
    assert SumsMatrix.of(many).codes is None
    assert np.array_equal(SumsMatrix.of(many).sums(indices), counts_from_indices(indices, n) @ many)
