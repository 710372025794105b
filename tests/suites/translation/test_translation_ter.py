"""TER edits (assay.metrics.corpus.ter) against sacrebleu's, segment by segment; the size
bound as a listed failure; a non-finite COMET score as a counted null; one scoring path."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.lib_ter import translation_edit_rate
from sacrebleu.metrics.ter import TER

import assay
import assay.metrics.corpus.ter as ter_module
from assay.errors import InputError
from assay.metrics.corpus.sufficient import extract_statistics, ter_metric
from assay.metrics.corpus.ter import TerTooLarge, edit_rate
from assay.suites.translation import TranslationTask
from tests.suites.translation.wmt22 import NEEDS_WMT22, WMT22

WMT = WMT22 / "de-en"

# few distinct words, so blocks match, shifts pay and ties between candidates are common
words = st.lists(st.sampled_from(["a", "b", "c", "d", "e", "the", "."]), max_size=40)


@settings(max_examples=400, deadline=None)
@given(hyp=words, ref=words)
def test_edit_rate_equals_sacrebleu(hyp: list[str], ref: list[str]) -> None:
    assert edit_rate(hyp, ref) == translation_edit_rate(hyp, ref)


@settings(max_examples=20, deadline=None)
@given(
    ref=st.lists(st.sampled_from(list("abcdefgh")), min_size=55, max_size=75),
    moves=st.lists(st.tuples(st.integers(0, 74), st.integers(0, 74)), max_size=6),
    cut=st.integers(0, 80),
)
def test_long_reordered_segments_equal_sacrebleu(
    ref: list[str], moves: list[tuple[int, int]], cut: int
) -> None:
    """Long segments: the beam, the shift distance and the candidate cap all come into play."""
    hyp = list(ref)
    for a, b in moves:
        a, b = a % len(hyp), b % len(hyp)
        hyp.insert(b, hyp.pop(a))
    hyp = hyp[cut // 2 :] + hyp[: cut // 4]
    assert edit_rate(hyp, ref) == translation_edit_rate(hyp, ref)


@settings(max_examples=60, deadline=None)
@given(
    ref=st.lists(st.sampled_from(list("abcdefgh")), min_size=20, max_size=60),
    moves=st.lists(st.tuples(st.integers(0, 59), st.integers(0, 59)), max_size=6),
    cells=st.sampled_from([0, 61, 500, 5_000]),
)
def test_memo_bound_changes_no_number(
    ref: list[str], moves: list[tuple[int, int]], cells: int
) -> None:
    """A memo bounded by cells (none at all, one row, a few) gives sacrebleu's edits; the
    trie never holds more rows than the bound allows."""
    hyp = list(ref)
    for a, b in moves:
        a, b = a % len(hyp), b % len(hyp)
        hyp.insert(b, hyp.pop(a))
    held: list[ter_module._BeamDistance] = []
    made = ter_module._BeamDistance.__init__

    def keep(self: ter_module._BeamDistance, ref: list[int], n_hyp: int) -> None:
        made(self, ref, n_hyp)
        held.append(self)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(ter_module, "MAX_CACHE_CELLS", cells)
        m.setattr(ter_module._BeamDistance, "__init__", keep)
        assert edit_rate(hyp, ref) == translation_edit_rate(hyp, ref)
    (distance,) = held
    assert distance.size <= distance.max_rows == min(10000, cells // (len(ref) + 1))


@NEEDS_WMT22
def test_wmt22_segments_equal_sacrebleu() -> None:
    """The first 500 segments of two WMT22 de-en systems, tokenized as sacrebleu's TER does
    (benchmarks/bench_translation.py --ter-check runs all of them)."""
    scorer = TER()
    base = "generaltest2022.de-en"
    ref = (WMT / f"{base}.ref.A.en").read_text(encoding="utf-8").split("\n")
    for system in ("Online-B", "LT22"):
        hyp = (WMT / f"{base}.hyp.{system}.en").read_text(encoding="utf-8").split("\n")
        for h, r in list(zip(hyp, ref, strict=True))[:500]:
            hw = scorer._preprocess_segment(h).split()
            rw = scorer._preprocess_segment(r).split()
            assert edit_rate(hw, rw) == translation_edit_rate(hw, rw), (system, h)


def test_extracted_rows_equal_sacrebleu_with_several_references() -> None:
    metric = ter_metric()
    scorer = TER()
    hyps = ["the cat sat on the mat", "a b c d", "", "x y z"]
    refs: list[Sequence[str]] = [
        ("the mat had a cat on it", "on the mat sat the cat"),
        ("d c b a",),
        ("q",),
        (),
    ]
    rows = extract_statistics(metric, hyps, refs)
    for i, (h, r) in enumerate(zip(hyps, refs, strict=True)):
        if not r:
            assert rows[i].tolist() == [0.0, 0.0]
            continue
        want = scorer._compute_segment_statistics(
            scorer._preprocess_segment(h), scorer._extract_reference_info(list(r))
        )
        assert rows[i].tolist() == [float(x) for x in want]


def test_too_large_segment_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ter_module, "MAX_CELLS", 100)
    with pytest.raises(TerTooLarge, match="exceeds the limit of 100 word pairs"):
        edit_rate(["w"] * 11, ["w"] * 10)
    assert edit_rate(["w"] * 10, ["w"] * 10) == (0, 10)
    with pytest.raises(InputError, match="segment 2:"):
        extract_statistics(ter_metric(), ["a", "w " * 11], [("a",), ("w " * 10,)])


def _report(tmp_path: Path, predicted: list[str], refs: list[str]) -> Path:
    entries = [
        {"id": f"s{i}", "source": "q", "expected": r, "predicted": p, "error": None}
        for i, (p, r) in enumerate(zip(predicted, refs, strict=True))
    ]
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"entries": entries}), encoding="utf-8")
    return path


def test_too_large_ter_segment_is_a_listed_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ter_module, "MAX_CELLS", 400)
    refs = ["one two three", " ".join(["long"] * 30), "five six"]
    preds = ["one two four", " ".join(["long"] * 29), "six five"]
    run = assay.score("translation", pred=_report(tmp_path, preds, refs), ci=False, comet="off")
    bad = run.items[1]
    assert "ter_failed" in bad.flags and bad.scores["ter"] is None
    assert "exceeds the limit of 400 word pairs" in bad.details["ter_error"]
    assert run.summaries["ter_failures"] == [{"id": "s1", "reason": bad.details["ter_error"]}]
    # the other segments are scored, and corpus TER is theirs alone
    ok = [run.items[0], run.items[2]]
    assert all(i.scores["ter"] is not None and "ter_failed" not in i.flags for i in ok)
    scorer = TER()
    want = scorer.corpus_score([preds[0], preds[2]], [[refs[0], refs[2]]]).score
    assert run.metrics["corpus_ter"].value == pytest.approx(want)


class _InfiniteComet:
    model_name = "fake"

    def score(
        self, sources: Sequence[str], hypotheses: Sequence[str], references: Sequence[str]
    ) -> list[float]:
        return [
            math.inf if i == 0 else (math.nan if i == 1 else 0.5) for i in range(len(hypotheses))
        ]


def test_non_finite_comet_is_a_counted_null(tmp_path: Path) -> None:
    refs = ["a b c", "d e f", "g h i", "j k l"]
    task = TranslationTask(comet_scorer=_InfiniteComet())
    run = assay.score(task, pred=_report(tmp_path, refs, refs), ci=False, ter=False)
    assert run.summaries["comet"]["n"] == 2 and run.summaries["comet"]["not_finite"] == 2
    assert [("comet_not_finite" in i.flags) for i in run.items] == [True, True, False, False]
    assert "comet" not in run.items[0].scores and run.items[2].scores["comet"] == 0.5
    assert run.metrics["comet"].value == pytest.approx(0.5) and run.metrics["comet"].n == 2
    # each is a listed failure of its entry, named in the run's warnings
    assert run.summaries["comet_failures"] == [
        {"id": "s0", "reason": "COMET score Infinity from fake: not a number, left out of comet"},
        {"id": "s1", "reason": "COMET score NaN from fake: not a number, left out of comet"},
    ]
    assert any("2 entries have no finite score" in w and "n 2 of 4" in w for w in run.warnings)

    def no_constant(name: str) -> None:
        raise AssertionError(f"{name} in the artifact")

    json.loads(run.to_json(), parse_constant=no_constant)  # no bare NaN or Infinity


def test_score_batch_equals_item_by_item(tmp_path: Path) -> None:
    refs = [f"the report number {i} was published on day {i % 7} ." for i in range(20)]
    preds = [r.replace("published", "out") if i % 3 else "" for i, r in enumerate(refs)]
    path = _report(tmp_path, preds, refs)
    task = TranslationTask()
    batched = assay.score(task, pred=path, ci=False, comet="off")
    one_by_one = TranslationTask()
    one_by_one.batch_size = 1  # type: ignore[misc]
    single = assay.score(one_by_one, pred=path, ci=False, comet="off")
    assert [i.model_dump() for i in batched.items] == [i.model_dump() for i in single.items]
    assert batched.stats == single.stats
