"""assay's own sacrebleu preprocessing and signatures (assay.metrics.corpus.options) against
sacrebleu's objects: hypothesis-generated strings, every WMT22 line, every option, and the lazy
fallback to sacrebleu for the options not implemented here."""

from __future__ import annotations

import itertools
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.base import Metric
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER

from assay.metrics.corpus.options import BleuOptions, ChrfOptions, TerOptions
from assay.metrics.corpus.sufficient import extract_statistics, ter_metric
from tests.suites.translation.wmt22 import NEEDS_WMT22, WMT22

# ASCII punctuation (chrF's and 13a's), non-ASCII punctuation, Unicode whitespace that
# str.split() splits on, case pairs whose lowercase changes length, CJK, newlines, 13a escapes
ALPHABET = (
    "aZ1 .,;:!?()[]{}'\"-_/\\&<>@#$%^*+=|~`\t\n\r\u00a0\u2009\u3000"
    "\u00bf\u00ab\u00bb\u2014\u201c\u3002\u00e9\u00c9\u0130\u1e9e\u4e2d\u6587"
)
texts = st.one_of(
    st.text(alphabet=ALPHABET, max_size=40),
    st.text(max_size=20),  # anything Unicode
    st.lists(st.sampled_from(["&quot;", "&amp;", "&lt;", "x.", "(hi)", "-\n", "9,5", " "])).map(
        "".join
    ),
)


def wmt22_lines() -> list[str]:
    out: list[str] = []
    for path in sorted(WMT22.glob("*/*.*")):
        out += path.read_text(encoding="utf-8").split("\n")
    return out


@pytest.mark.parametrize("lowercase", [False, True])
@settings(max_examples=300, deadline=None)
@given(sent=texts)
def test_chrf_preprocessing_equals_sacrebleu(lowercase: bool, sent: str) -> None:
    ours, theirs = ChrfOptions(word_order=2, lowercase=lowercase), CHRF(2, lowercase=lowercase)
    assert ours.preprocess(sent) == theirs._preprocess_segment(sent)
    assert ours.words(sent) == theirs._remove_punctuation(sent)


@pytest.mark.parametrize(
    ("tokenize", "lowercase"), [("13a", False), ("13a", True), ("none", False), ("none", True)]
)
@settings(max_examples=300, deadline=None)
@given(sent=texts)
def test_bleu_preprocessing_equals_sacrebleu(tokenize: str, lowercase: bool, sent: str) -> None:
    ours = BleuOptions(tokenize=tokenize, lowercase=lowercase)
    theirs = BLEU(tokenize=tokenize, lowercase=lowercase)
    assert ours.preprocess(sent) == theirs._preprocess_segment(sent)


def grid(**axes: list[Any]) -> list[dict[str, Any]]:
    """Every combination of the axes' values, as keyword dicts."""
    return [dict(zip(axes, values, strict=True)) for values in itertools.product(*axes.values())]


FLAGS = [False, True]
TER_OPTIONS = grid(normalized=FLAGS, no_punct=FLAGS, asian_support=FLAGS, case_sensitive=FLAGS)


@pytest.mark.parametrize("options", TER_OPTIONS, ids=str)
@settings(max_examples=100, deadline=None)
@given(sent=texts)
def test_ter_preprocessing_equals_sacrebleu(options: dict[str, bool], sent: str) -> None:
    """Native for the tercom defaults (and case sensitivity), sacrebleu's tokenizer otherwise."""
    assert TerOptions(**options).preprocess(sent) == TER(**options)._preprocess_segment(sent)


@NEEDS_WMT22
def test_preprocessing_equals_sacrebleu_on_every_wmt22_line() -> None:
    chrf, sacre_chrf = ChrfOptions(word_order=2), CHRF(word_order=2)
    bleu, sacre_bleu = BleuOptions(), BLEU()
    ter, sacre_ter = TerOptions(), TER()
    for line in wmt22_lines():
        assert chrf.words(line) == sacre_chrf._remove_punctuation(line), line
        assert bleu.preprocess(line) == sacre_bleu._preprocess_segment(line), line
        assert ter.preprocess(line) == sacre_ter._preprocess_segment(line), line


def sacrebleu_signature(metric: Metric, n_refs: int) -> str:
    return str(metric._SIGNATURE_TYPE({**metric.__dict__, "num_refs": n_refs}).format())


@pytest.mark.parametrize("n_refs", [1, 2, -1])
def test_signatures_equal_sacrebleu(n_refs: int) -> None:
    for kw in grid(
        char_order=[6, 4], word_order=[0, 2], lowercase=FLAGS, whitespace=FLAGS, eps_smoothing=FLAGS
    ):
        assert ChrfOptions(**kw).signature(n_refs) == sacrebleu_signature(CHRF(**kw), n_refs)
    for kw in grid(
        tokenize=["13a", "none", "intl", "char"],
        smooth_method=["exp", "none", "floor", "add-k"],
        smooth_value=[None, 0.5],
        effective_order=FLAGS,
        lowercase=FLAGS,
    ):
        assert BleuOptions(**kw).signature(n_refs) == sacrebleu_signature(BLEU(**kw), n_refs)
    for options in TER_OPTIONS:
        assert TerOptions(**options).signature(n_refs) == sacrebleu_signature(
            TER(**options), n_refs
        )


def test_unknown_bleu_options_are_refused() -> None:
    with pytest.raises(ValueError, match="smooth_method"):
        BleuOptions(smooth_method="laplace")
    with pytest.raises(Exception, match="nope"):  # sacrebleu's own error, from the fallback
        BleuOptions(tokenize="nope")


def test_ter_rows_with_sacrebleus_tokenizer_equal_sacrebleu() -> None:
    """The fallback (TER normalized / no_punct) through extract_statistics: sacrebleu's rows."""
    hyps = ["The cat, sat!", "Ein HUND.", "a b c d"]
    refs = [("the cat sat",), ("ein Hund", "Der Hund."), ("a-b c d",)]
    for options in TER_OPTIONS:
        metric = ter_metric(**options)
        sacre = TER(**options)
        got = extract_statistics(metric, hyps, refs)
        for i, (hyp, segment_refs) in enumerate(zip(hyps, refs, strict=True)):
            cache = sacre._extract_reference_info(list(segment_refs))
            want = sacre._compute_segment_statistics(sacre._preprocess_segment(hyp), cache)
            np.testing.assert_array_equal(got[i], want)


def imported_after(code: str) -> set[str]:
    """The top-level packages a fresh interpreter holds after running ``code``."""
    probe = f"{code}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return set(out.split())


def test_sacrebleu_is_imported_only_for_the_options_it_alone_implements() -> None:
    native = """
from assay.metrics.corpus.sufficient import bleu_metric, chrf_metric, ter_metric
for m in (bleu_metric(), chrf_metric(word_order=2), ter_metric(case_sensitive=True)):
    m.extract(["The cat sat."] * 10, [("the cat sat",)] * 10)
    m.signature(1)
"""
    assert "sacrebleu" not in imported_after(native)
    for metric in ('bleu_metric(tokenize="intl")', "ter_metric(normalized=True)"):
        fallback = f"""
from assay.metrics.corpus.sufficient import bleu_metric, ter_metric
m = {metric}
m.extract(["The cat sat."] * 10, [("the cat sat",)] * 10)
"""
        assert "sacrebleu" in imported_after(fallback)
