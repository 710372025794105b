"""The compact per-field values extraction keeps for the report (``display_value``)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from assay._fields._text import as_text, is_blank
from assay._fields.display import DISPLAY_CHARS, DISPLAY_ELEMENTS, display_value


def test_display_value_is_compact_text() -> None:
    assert display_value(None) is None and display_value("  ") is None and display_value([]) is None
    assert display_value("$359,000") == "$359,000"
    assert display_value(12.0) == "12"
    long = "x" * (DISPLAY_CHARS + 10)
    shown = display_value(long)
    assert shown is not None and len(shown) == DISPLAY_CHARS and shown.endswith("…")
    many = [f"party {i}" for i in range(DISPLAY_ELEMENTS + 3)]
    lines = (display_value(many) or "").split("\n")
    assert lines[:2] == ["party 0", "party 1"] and lines[-1] == "… 3 more"
    assert len(lines) == DISPLAY_ELEMENTS + 1


def test_every_scored_field_carries_its_values(tmp_path: Path) -> None:
    import assay
    from assay._settings.loader import load_settings
    from assay.suites.extraction.examples import write_demo

    write_demo(tmp_path)
    run = assay.score(
        "extraction", pred=tmp_path / "preds.jsonl", gold=tmp_path / "gold.jsonl", ci=False,
        settings=load_settings(tmp_path / "extraction.yaml"),
    )  # fmt: skip
    item = next(it for it in run.items if it.status == "ok")
    fields = item.details["fields"]
    assert fields["parties"]["gold"] == "Harbor Ltd\nOrchid LLC"
    assert all("gold" in f for f in fields.values())  # every field of the demo has gold
    assert sum("pred" in f for f in fields.values()) >= len(fields) - 1


@given(st.text(max_size=2 * DISPLAY_CHARS))
def test_a_string_is_shown_as_the_generic_rule_shows_it(value: str) -> None:
    # the generic rule: None when blank, else the value's text cut at DISPLAY_CHARS
    text = as_text(value)
    cut = text if len(text) <= DISPLAY_CHARS else text[: DISPLAY_CHARS - 1] + "…"
    assert display_value(value) == (None if is_blank(value) else cut)
