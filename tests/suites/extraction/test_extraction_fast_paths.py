"""The per-document fast paths of the extraction suite against their plain definitions: the
simple-date parser, the batched label tokenization, the partial-GT rest matching, the unique
assignment, the list items of plain strings, the stats columns, the source's date search,
the judge's view of a value and the field types of a batch."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from assay._fields import (
    DEFAULT_FIELD_SETTINGS,
    FieldSettings,
    as_items,
    date_candidates,
    entity_list,
    parse_date,
    score_date_field,
)
from assay._fields import dates as dates_module
from assay._fields.entity_list import _instantiated, _rest_matching
from assay._fields.names import normalized_name
from assay._fields.text import STOPWORDS, as_text, is_blank, token_lists, tokens
from assay._matching import optimal_assignment
from assay.metrics import mean_columns
from assay.suites.extraction._lib import audit
from assay.suites.extraction._lib.audit import SourceIndex, _find
from assay.suites.extraction._lib.documents import FieldTypes, field_types_of
from assay.suites.extraction._lib.rows import _columns, _put_mean, _reviewable, resolve_types
from assay.suites.extraction.settings import ExtractionSettings

MONTHS = ["January", "february", "MARCH", "May", "Sept", "September", "Dec", "Foo", "junE"]
NUMBER = st.integers(0, 40).map(str) | st.integers(0, 3100).map(str) | st.just("07")
SIMPLE_DATE = st.one_of(
    st.tuples(NUMBER, NUMBER, NUMBER).map(lambda t: f"{t[0]}-{t[1]}-{t[2]}"),
    st.tuples(NUMBER, NUMBER, NUMBER).map(lambda t: f"{t[0]}/{t[1]}/{t[2]}"),
    st.tuples(st.sampled_from(MONTHS), NUMBER, NUMBER).map(lambda t: f"{t[0]} {t[1]}, {t[2]}"),
)


@given(text=SIMPLE_DATE | st.text(max_size=20))
@settings(max_examples=400, deadline=None)
def test_simple_dates_parse_as_the_general_parser_reads_them(text: str) -> None:
    simple = dates_module._simple_date(text)
    if simple is not None:
        assert simple.full
        assert simple == dates_module._parse_general(text)
        # what the regular expressions find in the cleaned text: that date alone
        found = dates_module._candidates(dates_module._clean(text))
        assert [c[0] for c in found] == [simple]
    assert parse_date(text) == dates_module._parse_general(text)
    assert date_candidates(text) == (
        [c[0] for c in dates_module._candidates(dates_module._clean(text))]
        if any(ch.isdigit() for ch in text) or simple is not None
        else []
    )


def test_simple_dates_examples() -> None:
    assert str(dates_module._simple_date("3/14/2005")) == "2005-03-14"
    assert str(dates_module._simple_date("2005-7-01")) == "2005-07-01"
    assert str(dates_module._simple_date("December 31, 2008")) == "2008-12-31"
    assert dates_module._simple_date("2/30/2005") is None  # not a date: the general parser
    assert dates_module._simple_date("Dec 31, 2008") is None  # abbreviations: general parser
    assert dates_module._simple_date(" 3/14/2005") is None


ITEM = st.one_of(
    st.text(st.characters(min_codepoint=0, max_codepoint=127), max_size=30),
    st.text(max_size=12),
    st.sampled_from(["Acme Corp.", "the Seller", "ÉCOLE normale", "a\0b", "", " ", "--"]),
)


@given(items=st.lists(ITEM, max_size=6), limit=st.integers(0, 4))
@settings(max_examples=300, deadline=None)
def test_token_lists_equal_tokens(items: list[str], limit: int) -> None:
    assert [list(t) for t in token_lists(items)] == [list(tokens(x)) for x in items]
    for head, item in zip(token_lists(items, limit), items, strict=True):
        full = list(tokens(item))
        if len(head) <= limit:
            assert list(head) == full
        else:
            assert list(head[:limit]) == full[:limit] and len(full) > limit


def _plain_instantiated(
    pred: list[str], gold: list[str], s: FieldSettings
) -> list[tuple[int, str]]:
    """The partial-GT rules label by label, each label tokenized in full."""
    roles = {w.lower() for w in s.role_words}
    joined = [" " + " ".join(tokens(p)) + " " for p in pred]
    aliases = {
        normalized_name(m.group(1)) for p in pred for m in entity_list._QUOTED.finditer(p)
    } - {""}
    found = []
    for j, label in enumerate(gold):
        words = tokens(label)
        lo, hi = s.contained_label_min_tokens, s.contained_label_max_tokens
        if lo <= len(words) <= hi and any(" " + " ".join(words) + " " in x for x in joined):
            found.append((j, "contained label"))
        elif not words:
            continue
        elif normalized_name(label) in aliases:
            found.append((j, "contained label (defined-term alias)"))
        elif pred and set(words) <= roles | STOPWORDS and not set(words) <= STOPWORDS:
            found.append((j, "role-word label"))
    return found


LABEL_WORD = st.sampled_from(
    ["the", "Seller", "buyer", "of", "Acme", "Corp.", "inc", '"Consultant"', "(", "é", "x-y"]
)
LABEL = st.lists(LABEL_WORD, max_size=9).map(" ".join)


@given(
    pred=st.lists(LABEL, max_size=4),
    gold=st.lists(LABEL, max_size=6),
    bounds=st.sampled_from([(3, 6), (1, 2), (0, 0), (2, -1)]),
)
@settings(max_examples=400, deadline=None)
def test_instantiated_equals_the_plain_rules(
    pred: list[str], gold: list[str], bounds: tuple[int, int]
) -> None:
    s = DEFAULT_FIELD_SETTINGS.model_copy(
        update={
            "role_words": ["Seller", "Buyer", "Consultant"],
            "contained_label_min_tokens": bounds[0],
            "contained_label_max_tokens": bounds[1],
        }
    )
    assert _instantiated(pred, gold, range(len(gold)), s) == _plain_instantiated(pred, gold, s)


@pytest.mark.parametrize("limit", [0, 16])
@given(
    sim=arrays(
        np.float64,
        st.tuples(st.integers(1, 9), st.integers(2, 9)),
        elements=st.one_of(st.sampled_from([0.0, 0.59, 0.6, 0.7, 1.0]), st.floats(0, 1)),
    ),
    data=st.data(),
)
@settings(max_examples=300, deadline=None)
def test_rest_matching_equals_a_fresh_assignment(
    sim: np.ndarray, data: st.DataObject, limit: int
) -> None:
    n_cols = sim.shape[1]
    instantiated = set(data.draw(st.lists(st.integers(0, n_cols - 1), max_size=n_cols - 1)))
    rest = [j for j in range(n_cols) if j not in instantiated]
    threshold = DEFAULT_FIELD_SETTINGS.bipartite_match_threshold
    full = optimal_assignment(sim, threshold)
    plain = optimal_assignment(sim[:, rest], threshold).matched
    with pytest.MonkeyPatch.context() as mp:
        # limit 0: every augmentation is left to the solver
        mp.setattr(entity_list, "AUGMENT_LIMIT", limit)
        got = _rest_matching(sim, full.pairs, rest, instantiated, DEFAULT_FIELD_SETTINGS)
    assert got == plain


@given(
    sparse=arrays(np.bool_, st.tuples(st.integers(1, 7), st.integers(1, 7))),
    values=st.floats(0.6, 1.0),
)
@settings(max_examples=200, deadline=None)
def test_assignment_of_isolated_pairs_equals_the_solver(sparse: np.ndarray, values: float) -> None:
    from scipy.optimize import linear_sum_assignment

    # at most one eligible pair per row and column: the fast path; otherwise the solver
    sim = np.where(sparse, values, 0.1)
    ok = sim >= 0.6
    rows, cols = linear_sum_assignment(np.where(ok, 8.0 + sim, 0.0), maximize=True)
    plain = tuple(
        (int(r), int(c), float(sim[r, c])) for r, c in zip(rows, cols, strict=True) if ok[r, c]
    )
    assert optimal_assignment(sim, 0.6).pairs == plain


@given(
    value=st.one_of(
        st.none(),
        st.lists(st.text(max_size=5), max_size=5),
        st.lists(st.one_of(st.text(max_size=5), st.integers(), st.none()), max_size=5),
        st.tuples(st.text(max_size=3)),
        st.text(max_size=5),
        st.integers(),
    )
)
@settings(max_examples=300, deadline=None)
def test_as_items_equals_its_definition(value: object) -> None:
    if is_blank(value):
        plain: list[str] = []
    elif isinstance(value, list | tuple):
        plain = [as_text(v) for v in value if not is_blank(v)]
    else:
        plain = [as_text(value)]
    assert as_items(value) == plain


@given(
    name=st.text(max_size=8),
    value=st.one_of(st.none(), st.floats(allow_nan=True), st.integers(-5, 5), st.booleans()),
)
@settings(max_examples=200, deadline=None)
def test_put_mean_writes_what_mean_columns_returns(name: str, value: float | None) -> None:
    cols = _columns(name)
    stats: dict[str, float] = {}
    _put_mean(stats, cols.score, cols.score_n, value)
    plain = mean_columns(f"{name}_score", value)
    assert list(stats.items()) == list(plain.items())
    assert cols.verified_n == f"{name}_verified_precision#n" and cols.tp == f"{name}.tp"


YEAR_TEXT = st.lists(
    st.sampled_from(
        ["2005", "05", "3/14/2005", "2005-03-14", "x", " ", "/", "1", "March 14,", "MAY 1, ", "é"]
    ),
    max_size=12,
).map("".join)


def _plain_has_date(text: str, date: dates_module.ParsedDate) -> bool:
    lower = text.lower()
    for key in (str(date.year), f"{date.year % 100:02d}"):
        start = lower.find(key)
        while start != -1:
            if date in date_candidates(lower[max(0, start - 40) : start + len(key) + 2]):
                return True
            # a four-digit year may come first ("2005-03-14"): the 6 characters after it
            if len(key) == 4 and date in date_candidates(lower[start : start + 10]):
                return True
            start = lower.find(key, start + 1)
    return False


@given(text=YEAR_TEXT, pad=st.integers(0, 50))
@settings(max_examples=300, deadline=None)
def test_has_date_equals_the_search_of_both_year_forms(text: str, pad: int) -> None:
    text = "w " * pad + text
    for date in (dates_module.ParsedDate(2005, 3, 14), dates_module.ParsedDate(2005, 5, 1)):
        assert SourceIndex(text).has_date(date) == _plain_has_date(text, date)


@pytest.mark.parametrize("year", [1005, 2000, 2999])
def test_has_date_at_the_start_of_the_text(year: int) -> None:
    date = dates_module.ParsedDate(year, 1, 2)
    for text in (f"{year}-01-02 and more", f"1/2/{year} and more", f"{year % 100:02d}/1/2/{year}"):
        assert SourceIndex(text).has_date(date) == _plain_has_date(text, date)
    assert SourceIndex(f"on 1/2/{year}").has_date(date)
    assert not SourceIndex(f"on 1/3/{year}").has_date(date)
    # year first, as ISO dates are written
    assert SourceIndex(f"signed {year}-01-02 by").has_date(date)
    assert SourceIndex(f"{year}-1-2").has_date(date)
    assert not SourceIndex(f"signed {year}-01-03 by").has_date(date)


@pytest.mark.parametrize("tries", [0, 1, 64])
@given(
    text=st.text(st.sampled_from("0125 ab"), max_size=40),
    key=st.text(st.sampled_from("0125 ab"), max_size=3),
    start=st.integers(0, 45),
)
@settings(max_examples=200, deadline=None)
def test_find_equals_str_find(text: str, key: str, start: int, tries: int) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(audit, "FIRST_CHAR_TRIES", tries)
        assert _find(text, key, start) == text.find(key, start)


DATE_TEXT = st.lists(
    st.sampled_from(
        [
            *("2/20/2009", "20", "2", "02", "2009", "09", "-", "/", " ", "of", "day", "the"),
            *("twentieth", "second", "Feb", "February", "2O", "l", "th", "_", "[]", "x", "é"),
        ]
    ),
    max_size=10,
).map(" ".join)
DATES = st.sampled_from(
    [
        dates_module.ParsedDate(2009, 2, 20),
        dates_module.ParsedDate(2009, 2, 2),
        dates_module.ParsedDate(2009, 2),
        dates_module.ParsedDate(2009),
        dates_module.ParsedDate(2020, 9, 2),
    ]
)


def _plain_clean(text: str) -> str:
    """``_clean`` without its shortcut: every substitution on every text."""
    d = dates_module
    text = d._OCR_TOKEN.sub(lambda m: m.group(0).translate(d._OCR_MAP), text)
    text = re.sub(r"\s+", " ", text.lower())
    text = d._SPLIT_ORDINAL.sub(lambda m: m.group(1).replace(" ", ""), text)
    return d._ORDINAL_DAY.sub(lambda m: str(d._ORDINAL_WORDS[m.group(1)]), text)


@given(text=DATE_TEXT | st.text(max_size=30), date=DATES)
@settings(max_examples=400, deadline=None)
def test_writes_date_equals_membership_in_the_candidates(
    text: str, date: dates_module.ParsedDate
) -> None:
    assert dates_module._clean(text) == _plain_clean(text)
    assert dates_module.writes_date(text, date) == (date in date_candidates(text))


SCAN_DOC = st.lists(
    st.sampled_from(["co", "corp", "ACME", "acme.co", "10", "2019", "Pay", "payment", " ", ", "]),
    max_size=30,
).map("".join)
SCAN_QUERY = st.sampled_from(["co", "corp", "acme", "10", "2019", "pay", "payment", "x", "0"])


@given(doc=SCAN_DOC, queries=st.lists(SCAN_QUERY, max_size=8))
@settings(max_examples=300, deadline=None)
def test_word_search_equals_token_membership(doc: str, queries: list[str]) -> None:
    plain = frozenset(tokens(doc))
    with pytest.MonkeyPatch.context() as mp:
        # every look-up a search of the separated words, never the token set
        mp.setattr(audit, "SCAN_MISSES", 10**6)
        index = SourceIndex(doc)
        for q in queries:
            assert index.has_token(q) == (q in plain)
        assert "token_set" not in vars(index)


@given(pred=SIMPLE_DATE, gold=SIMPLE_DATE | st.sampled_from(["March 2005", "perpetual", "2005"]))
@settings(max_examples=300, deadline=None)
def test_date_score_of_two_simple_dates_equals_the_general_rules(pred: str, gold: str) -> None:
    fast = score_date_field(pred, gold)
    dates_module._parse.cache_clear()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(dates_module, "_simple_date", lambda text: None)
            general = score_date_field(pred, gold)
    finally:
        dates_module._parse.cache_clear()
    assert (fast.score, fast.reason) == (general.score, general.reason)


def _reviewable_definition(value: object) -> object:
    """What the judge sees of a value: strings, numbers and lists as they are (element by
    element), anything else as its text."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list):
        return [_reviewable_definition(v) for v in value]
    return as_text(value)


class _Text(str):
    """A str subclass: not of a plain type, so it takes the element-by-element path."""


REVIEWED = st.recursive(
    st.none()
    | st.text(max_size=5)
    | st.integers()
    | st.floats(allow_nan=False)
    | st.booleans()
    | st.text(max_size=3).map(_Text),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=3), inner, max_size=2)
        | st.tuples(inner)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(REVIEWED)
def test_reviewable_equals_its_definition(value: object) -> None:
    got = _reviewable(value)
    expected = _reviewable_definition(value)
    assert got == expected
    assert type(got) is type(expected)
    if isinstance(value, list):
        assert got is not value  # a new list: the row never shares the gold's or prediction's


FIELD_NAMES = st.sampled_from(["a", "b", "term", "parties", "effective_date", "x_amount"])
DECLARABLE = st.sampled_from(["name", "date", "money", "entity_list:name", "duration", "id"])


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(FIELD_NAMES, DECLARABLE, max_size=4),
    st.dictionaries(FIELD_NAMES, DECLARABLE, max_size=2),
    st.lists(FIELD_NAMES, unique=True, max_size=5),
    st.lists(
        st.dictionaries(FIELD_NAMES, st.none() | st.text(max_size=4) | st.lists(st.text())),
        min_size=1,
        max_size=4,
    ),
    st.lists(FIELD_NAMES, max_size=2),
)
def test_field_types_of_a_batch_equal_each_documents_own(
    declared: dict[str, str],
    by_class: dict[str, str],
    fields: list[str],
    golds: list[dict[str, object]],
    contained: list[str],
) -> None:
    """``field_types_of`` with one cache for the batch: each document's types, schema types and
    known names are those computed for it alone (``resolve_types``)."""
    s = ExtractionSettings(
        field_types=declared, doc_classes={"c": by_class}, containment_fields=contained
    )
    cache: dict[tuple[str | None, tuple[str, ...]], FieldTypes] = {}
    for gold in golds:
        for doc_class in (None, "c"):
            names = fields or list(gold)
            got = field_types_of(names, gold, doc_class, s, cache)
            types = resolve_types(names, gold, doc_class, s)
            own = {**s.field_types, **s.doc_classes.get(doc_class or "", {})}
            assert got.types == types
            assert got.schema_types == {**types, **{k: v for k, v in own.items() if k not in types}}
            assert got.known.union(gold) == set(gold) | set(own) | set(names)
