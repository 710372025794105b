"""_report/plain: the boxed table is drawn as rich draws the same table (the other commands'
tables), so `mt sacrebleu` looks like the rest of assay without importing rich."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table

from assay._report.plain import box_table, cell_width, fmt_delta, fmt_p, fmt_value


def rich_render(headers: list[str], rows: list[list[str]], right: list[bool]) -> str:
    table = Table()
    for header, r in zip(headers, right, strict=True):
        table.add_column(header, justify="right" if r else "left")
    for row in rows:
        table.add_row(*row)
    buf = io.StringIO()
    Console(file=buf, width=500, highlight=False, markup=False).print(table)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines())


def test_the_translation_table_matches_rich() -> None:
    headers = ["system", "corpus_bleu", "corpus_chrf"]
    rows = [
        ["hyp.Online-A.100 (baseline)", "33.76 [29.55, 37.92]", "57.27 [54.52, 60.08]"],
        ["hyp.Online-B.100", "34.51 [30.53, 38.52]  p=0.5140", "57.46 [54.24, 60.47]  p=0.8160*"],
    ]
    right = [False, True, True]
    assert box_table(headers, rows, right=right) == rich_render(headers, rows, right)


cells = st.text(
    alphabet=st.sampled_from([*"abcXYZ019 .-[]/", "é", "Δ", "漢", "字", "ß"]),
    min_size=1,
    max_size=12,
).filter(lambda s: s.strip() == s)


@given(
    st.integers(1, 4).flatmap(
        lambda n: st.tuples(
            st.lists(cells, min_size=n, max_size=n),
            st.lists(st.lists(cells, min_size=n, max_size=n), min_size=0, max_size=4),
            st.lists(st.booleans(), min_size=n, max_size=n),
        )
    )
)
def test_any_table_matches_rich(case: tuple[list[str], list[list[str]], list[bool]]) -> None:
    headers, rows, right = case
    assert box_table(headers, rows, right=right) == rich_render(headers, rows, right)


def test_the_title_is_one_line_above_and_never_wrapped() -> None:
    title = "t" * 300
    text = box_table(["a"], [["1"]], title=title)
    assert text.splitlines()[0] == title
    assert text.splitlines()[1].startswith("┏")


def test_rows_must_have_every_cell() -> None:
    with pytest.raises(ValueError, match="2 cells"):
        box_table(["a", "b"], [["only one"]])


def test_cell_width_counts_wide_characters_twice() -> None:
    assert cell_width("abc") == 3
    assert cell_width("漢字") == 4
    assert cell_width("e\u0301") == 1  # e + combining acute


def test_number_formats() -> None:
    assert fmt_value(None) == "—" and fmt_value(33.756) == "33.76" and fmt_value(0.5) == "0.500"
    assert fmt_delta(1.5) == "+1.50" and fmt_delta(-0.25) == "-0.250" and fmt_delta(None) == "—"
    assert fmt_p(0.0004) == "< 0.001" and fmt_p(0.0123) == "0.012" and fmt_p(None) == "—"
