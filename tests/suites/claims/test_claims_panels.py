"""Panel normalization and agreement; role normalization."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay.suites.claims import normalize_role, panels_agree, parse_panels, roles_agree

CASES = {
    "fig1H, fig1I": ["fig1h", "fig1i"],
    "fig3B–G, 3K, 3L": ["fig3b", "fig3c", "fig3d", "fig3e", "fig3f", "fig3g", "fig3k", "fig3l"],
    "fig2—supplement 1B–C": ["fig2-s1b", "fig2-s1c"],
    "fig2—supplement 1A, fig2—supplement 1B": ["fig2-s1a", "fig2-s1b"],
    "fig4-supplement1, fig4-supplement2": ["fig4-s1", "fig4-s2"],
    "Figure 3—figure supplement 2": ["fig3-s2"],
    "fig1D, 1E, 1F": ["fig1d", "fig1e", "fig1f"],
    "fig3B, C": ["fig3b", "fig3c"],
    "fig3Bii, Cii": ["fig3b.ii", "fig3c.ii"],
    "fig4Eiv, fig4Ev, fig4Eiii": ["fig4e.iii", "fig4e.iv", "fig4e.v"],
    "fig10Bi-iii": ["fig10b.i", "fig10b.ii", "fig10b.iii"],
    "figs 1-3": ["fig1", "fig2", "fig3"],
    "fig2A (implied throughout)": ["fig2a"],
    "fig6c, fig6-video1": ["fig6c", "fig6-v1"],
    "Fig. 3A-C and 4": ["fig3a", "fig3b", "fig3c", "fig4"],
    "Supplementary Figure 2": ["sfig2"],
    "fig S2": ["sfig2"],
    "Table 1": ["table1"],
    "1H": ["fig1h"],
    "fig1I": ["fig1i"],
}


@pytest.mark.parametrize(("text", "labels"), CASES.items())
def test_panel_texts_become_sets(text: str, labels: list[str]) -> None:
    assert parse_panels(text).labels() == labels


@pytest.mark.parametrize(
    "text", ["hypothesis", "all figures (assessment)", "fig (arcuate body)", "", None]
)
def test_non_figure_panels_are_empty(text: str | None) -> None:
    assert parse_panels(text).panels == frozenset()


def test_agreement_rules() -> None:
    multi, single = parse_panels("fig4, fig5"), parse_panels("fig4")
    assert panels_agree(multi, single) is False  # seed 003's multi-panel limitation
    assert panels_agree(multi, single, "overlap") is True
    assert panels_agree(parse_panels("fig2"), parse_panels("fig2B"), "overlap") is True
    assert panels_agree(parse_panels("fig2B"), parse_panels("fig2C"), "overlap") is False
    assert panels_agree(parse_panels("fig2"), parse_panels("fig2—supplement 1"), "overlap") is False
    assert panels_agree(parse_panels("fig1B, fig1C"), parse_panels("Figure 1B–C")) is True
    assert panels_agree(parse_panels("hypothesis"), parse_panels("fig2")) == "n/a"
    assert panels_agree(parse_panels("hypothesis"), parse_panels("Hypothesis")) is True
    # seed 003: "both null / synthesis-level" is a panel match
    assert panels_agree(parse_panels("hypothesis"), parse_panels("scope")) is True
    assert panels_agree(parse_panels(None), parse_panels(None)) is True
    assert panels_agree(parse_panels(None), parse_panels("all figures (assessment)")) is True
    assert panels_agree(parse_panels(None), parse_panels("fig1")) == "n/a"


@pytest.mark.parametrize(
    ("text", "labels", "unparsed"),
    [
        ("fig4-figure-supplement-1", ["fig4-s1"], ()),
        ("fig6a1", ["fig6a.1"], ()),
        ("fig6a1-3", ["fig6a.1", "fig6a.2", "fig6a.3"], ()),
        ("fig10 synthesis / discussion", ["fig10"], ("synthesis", "discussion")),
        ("S2 Fig", ["sfig2"], ()),
        ("S1 Figure, S3 Fig", ["sfig1", "sfig3"], ()),
        ("Figure 1—source data 1", ["fig1"], ()),
        ("Figure 2—figure supplement 1—source data 2", ["fig2-s1"], ()),
    ],
)
def test_real_panel_strings(text: str, labels: list[str], unparsed: tuple[str, ...]) -> None:
    """The panel strings issue 17 found unparsed in real claim files and extractions."""
    p = parse_panels(text)
    assert p.labels() == labels
    assert p.unparsed == unparsed


def test_arabic_and_roman_sub_panels_sort_in_order() -> None:
    assert parse_panels("fig6a10, fig6a2").labels() == ["fig6a.2", "fig6a.10"]
    assert parse_panels("fig3Bii, fig3Bi").labels() == ["fig3b.i", "fig3b.ii"]


def test_list_panels() -> None:
    assert parse_panels(["fig1a", "fig1b"]).labels() == ["fig1a", "fig1b"]


_PANEL = st.builds(
    lambda f, letter: f"fig{f}{letter}",
    st.integers(1, 12),
    st.sampled_from(["", "a", "b", "c", "d", "k"]),
)


@given(st.lists(_PANEL, min_size=1, max_size=6), st.randoms())
def test_order_and_canonical_form_do_not_matter(panels: list[str], rnd: object) -> None:
    parsed = parse_panels(", ".join(panels))
    shuffled = list(panels)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert parse_panels(", ".join(shuffled)).panels == parsed.panels
    # the canonical labels parse back to the same set
    assert parse_panels(", ".join(parsed.labels())).panels == parsed.panels
    assert panels_agree(parsed, parse_panels(" , ".join(p.upper() for p in panels))) is True


@given(st.lists(_PANEL, min_size=1, max_size=4), st.lists(_PANEL, min_size=1, max_size=4))
def test_agreement_is_symmetric_and_equal_implies_overlap(a: list[str], b: list[str]) -> None:
    pa, pb = parse_panels(", ".join(a)), parse_panels(", ".join(b))
    for rule in ("equal", "overlap"):
        assert panels_agree(pa, pb, rule) == panels_agree(pb, pa, rule)
    if panels_agree(pa, pb, "equal") is True:
        assert panels_agree(pa, pb, "overlap") is True


def test_roles() -> None:
    assert normalize_role(" Literature context ") == "literature-context"
    assert roles_agree("literature_context", "Literature-Context") is True
    assert roles_agree("interpretation", "interpretive") is False
    assert roles_agree("interpretation", "interpretive", {"interpretive": "interpretation"}) is True
    assert roles_agree("empirical", None) is False
    assert roles_agree(None, "empirical") == "n/a"
