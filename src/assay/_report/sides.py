"""An item's two sides as display text: gold beside prediction, part by part where the item
is structured (extraction's fields, claims' matches, a paper's fields, a label and its
subclass). Shared by the HTML report's views (``assay._report.html``) and the item table
(``assay._report.triage``)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from assay._report.plain import fmt_value

GOLD_KEYS = (
    "gold",
    "expected",
    "reference",
    "references",
    "ref",
    "gold_value",
    "expected_text",
    "target",
)
PRED_KEYS = (
    "predicted",
    "prediction",
    "pred",
    "hypothesis",
    "output",
    "predicted_value",
    "predicted_text",
)
MAX_TEXT = 4000
#: details that hold what the model was given (a translation's source sentence)
SOURCE_KEYS = ("source",)


@dataclass(frozen=True)
class TableView:
    """A generic table from a summary: a mapping of mappings, or a list of records."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class FieldRow:
    """One field of a structured item: gold beside prediction, then the field's own score
    columns (``ItemView.field_columns``); ``differs`` marks a field that lost points (or,
    without a score, whose two sides read differently)."""

    field: str
    gold: str
    pred: str
    extra: tuple[str, ...] = ()
    differs: bool = False
    outcome: str = ""  # what two runs are compared on (a field's score, a match's verdict)


def display_text(value: Any) -> str:
    """A value as display text (JSON for structures), cut at MAX_TEXT characters."""
    if value is None:
        return "null"
    if isinstance(value, str):
        s = value
    elif isinstance(value, float):
        s = fmt_value(value) if math.isfinite(value) else str(value)
    elif isinstance(value, bool | int):
        s = str(value)
    else:
        s = json.dumps(value, ensure_ascii=False, indent=1, default=str)
    return s if len(s) <= MAX_TEXT else s[:MAX_TEXT] + f"… ({len(s) - MAX_TEXT} more characters)"


def is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def table_from_mapping(title: str, value: Mapping[str, Any]) -> TableView | None:
    if not value or not all(isinstance(v, Mapping) for v in value.values()):
        return None
    if not all(is_scalar(x) for v in value.values() for x in v.values()):
        return None
    columns: dict[str, None] = {}
    for v in value.values():
        for k in v:
            columns.setdefault(str(k), None)
    rows = tuple(
        (str(key), *(display_text(v.get(c)) if c in v else "" for c in columns))
        for key, v in value.items()
    )
    return TableView(title, ("", *columns), rows)


def table_from_list(title: str, value: Sequence[Any]) -> TableView | None:
    if not value or not all(isinstance(v, Mapping) for v in value):
        return None
    if not all(is_scalar(x) for v in value for x in v.values()):
        return None
    columns: dict[str, None] = {}
    for v in value:
        for k in v:
            columns.setdefault(str(k), None)
    rows = tuple(tuple(display_text(v.get(c)) if c in v else "" for c in columns) for v in value)
    return TableView(title, tuple(columns), rows)


def is_empty(value: Any) -> bool:
    if isinstance(value, Mapping):
        return all(is_empty(v) for v in value.values())
    if isinstance(value, list | tuple):
        return len(value) == 0
    return False


def first_of(details: Mapping[str, Any], keys: Sequence[str]) -> tuple[str | None, str | None]:
    """The first of ``keys`` in ``details`` and its display text: a list of texts (a
    translation's references) one a line, numbered when there are several, never JSON."""
    for k in keys:
        if k in details:
            v = details[k]
            if v is None:
                return k, None  # no prediction: shown as "—", not "null"
            if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
                if len(v) == 1:
                    return k, display_text(v[0])
                return k, display_text("\n".join(f"[{i}] {x}" for i, x in enumerate(v, 1)))
            return k, display_text(v)
    return None, None


def source_of(details: Mapping[str, Any]) -> str | None:
    """What the model was given (a translation's source), when the item keeps it and it is
    not blank."""
    for k in SOURCE_KEYS:
        v = details.get(k)
        if isinstance(v, str) and v.strip():
            return display_text(v)
    return None


def side_text(value: Any) -> str:
    """One side of a field: a list one element a line, anything else as display text."""
    if isinstance(value, list) and all(is_scalar(v) for v in value):
        return "\n".join(display_text(v) for v in value) if value else "(none)"
    return "—" if value is None else display_text(value)


def field_rows(gold: Any, pred: Any) -> tuple[FieldRow, ...]:
    """Gold beside prediction field by field, when either side is a mapping (a paper's title,
    authors and references)."""
    if not isinstance(gold, Mapping) and not isinstance(pred, Mapping):
        return ()
    g = gold if isinstance(gold, Mapping) else {}
    p = pred if isinstance(pred, Mapping) else {}
    keys = list(dict.fromkeys([*g, *p]))
    rows = []
    for k in keys:
        gv, pv = side_text(g.get(k)), side_text(p.get(k))
        rows.append(FieldRow(str(k), gv, pv, differs=gv != pv))
    return tuple(rows)


#: the per-field columns shown beside gold and prediction, in this order, when present
FIELD_COLUMNS = ("score", "reason")


#: per-field keys that hold the two sides (extraction keeps them compact, see
#: ``assay._fields.display.display_value``) or repeat them (the judge's review)
FIELD_SIDES = ("gold", "pred", "review")


def scored_fields(
    fields: Any,
) -> tuple[tuple[FieldRow, ...], tuple[str, ...], TableView | None]:
    """Per-field results that carry their own display values (extraction's ``fields``:
    ``{name: {"gold", "pred", "score", "reason", …}}``) as gold beside prediction with the
    score and reason beside them, plus a table of the fields' remaining scalar details
    (type, precision, recall…). Empty when the fields carry no values."""
    if not isinstance(fields, Mapping) or not fields:
        return (), (), None
    entries = {str(k): v for k, v in fields.items() if isinstance(v, Mapping)}
    if len(entries) != len(fields) or not any(
        side in v for v in entries.values() for side in ("gold", "pred")
    ):
        return (), (), None
    columns = tuple(c for c in FIELD_COLUMNS if any(c in v for v in entries.values()))
    rows = []
    rest: dict[str, dict[str, Any]] = {}
    for name, v in entries.items():
        score = v.get("score")
        gold, pred = v.get("gold"), v.get("pred")
        extra = tuple(
            "—" if v.get(c) is None else fmt_value(v[c]) if c == "score" else display_text(v[c])
            for c in columns
        )
        differs = (
            score < 1.0 if isinstance(score, int | float) else side_text(gold) != side_text(pred)
        )
        outcome = "" if score is None else fmt_value(score)
        rows.append(FieldRow(name, side_text(gold), side_text(pred), extra, differs, outcome))
        others = {
            k: x if is_scalar(x) else display_text(x)
            for k, x in v.items()
            if k not in FIELD_SIDES and k not in columns and not is_empty(x)
        }
        if others:
            rest[name] = others
    return tuple(rows), columns, table_from_mapping("field details", rest) if rest else None


#: the two sides of a matched pair in a list of match records (claims' ``matches``)
PAIR_SIDES = ("reference", "extracted")


def matched_rows(matches: Any) -> tuple[tuple[FieldRow, ...], tuple[str, ...]]:
    """Match records that carry both sides' text (claims: ``{"ref_slug", "cli_slug",
    "match_quality", …, "reference", "extracted"}``) as gold beside prediction, labelled by
    the record's first value, the record's other scalars beside them. A pair differs when its
    match is not exact or one of its yes/no checks failed."""
    if not isinstance(matches, list) or not matches:
        return (), ()
    records = [m for m in matches if isinstance(m, Mapping)]
    if len(records) != len(matches) or not all(PAIR_SIDES[0] in m for m in records):
        return (), ()
    label = next(iter(records[0]))
    columns = tuple(
        dict.fromkeys(
            str(k)
            for m in records
            for k, v in m.items()
            if k != label and k not in PAIR_SIDES and is_scalar(v)
        )
    )
    rows = []
    for m in records:
        extra = tuple("" if m.get(c) is None else display_text(m[c]) for c in columns)
        differs = m.get("match_quality", "exact") != "exact" or any(v is False for v in m.values())
        verdict = " ".join(
            display_text(v) for k, v in m.items() if k == "match_quality" or isinstance(v, bool)
        )  # a match's verdict: its quality and its yes/no checks, not its similarity
        rows.append(
            FieldRow(
                display_text(m.get(label)), side_text(m.get("reference")),
                side_text(m.get("extracted")), extra, differs, verdict,
            )
        )  # fmt: skip
    return tuple(rows), columns


#: the headers of a structured item's gold-beside-prediction table, by the detail it comes from
SIDE_HEADERS: dict[str, tuple[str, str, str]] = {
    "matches": ("reference claim", "reference", "extracted"),
}


def paired_labels(
    details: Mapping[str, Any], gold_key: str | None, pred_key: str | None
) -> tuple[tuple[FieldRow, ...], tuple[str, ...]]:
    """A label beside its gold with second-level labels kept as ``expected_X`` /
    ``predicted_X`` (docclass and MAUD's subclass): one row per level, and the keys shown."""
    if gold_key is None or pred_key is None:
        return (), ()
    levels = [
        k[len("expected_") :]
        for k in details
        if k.startswith("expected_") and f"predicted_{k[len('expected_') :]}" in details
    ]
    if not levels:
        return (), ()
    rows = [("label", details.get(gold_key), details.get(pred_key))]
    rows += [(n, details[f"expected_{n}"], details[f"predicted_{n}"]) for n in levels]
    sides = ("expected", "predicted")
    shown = (gold_key, pred_key, *(f"{side}_{n}" for n in levels for side in sides))
    return tuple(
        FieldRow(n, side_text(g), side_text(pv), differs=side_text(g) != side_text(pv))
        for n, g, pv in rows
    ), shown


def structured(
    details: Mapping[str, Any],
) -> tuple[str | None, tuple[FieldRow, ...], tuple[str, ...], TableView | None]:
    """The detail that holds an item's two sides part by part — extraction's ``fields`` or
    claims' ``matches`` — as (its key, gold-beside-prediction rows, their extra columns, a
    table of what else it holds); (None, (), (), None) when there is none."""
    rows, columns, rest = scored_fields(details.get("fields"))
    if rows:
        return "fields", rows, columns, rest
    rows, columns = matched_rows(details.get("matches"))
    if rows:
        return "matches", rows, columns, None
    return None, (), (), None


def disagree_sides(
    da: Mapping[str, Any], db: Mapping[str, Any]
) -> tuple[str | None, str | None, str | None]:
    """Gold, A's and B's prediction of one item as display text. Items scored part by part
    with their values kept (extraction's fields, claims' matches) show the parts the two runs
    answered or scored differently, one ``part: value`` a line."""
    gold = first_of(da, GOLD_KEYS)[1]
    if gold is None:
        gold = first_of(db, GOLD_KEYS)[1]
    pred_a, pred_b = first_of(da, PRED_KEYS)[1], first_of(db, PRED_KEYS)[1]
    if gold is not None or pred_a is not None or pred_b is not None:
        return gold, pred_a, pred_b
    _, rows_a, _, _ = structured(da)
    _, rows_b, _, _ = structured(db)
    if not rows_a and not rows_b:
        return None, None, None
    a = {r.field: r for r in rows_a}
    b = {r.field: r for r in rows_b}

    def outcome(row: FieldRow | None) -> tuple[str, str] | None:
        return None if row is None else (row.pred, row.outcome)

    names = [n for n in dict.fromkeys([*a, *b]) if outcome(a.get(n)) != outcome(b.get(n))] or list(
        dict.fromkeys([*a, *b])
    )

    def lines(side: dict[str, FieldRow], attr: str) -> str:
        return "\n".join(
            f"{n}: {getattr(side[n], attr).replace(chr(10), '; ') if n in side else '—'}"
            for n in names
        )

    return lines(a or b, "gold"), lines(a, "pred"), lines(b, "pred")


def item_parts(
    details: Mapping[str, Any],
) -> tuple[str | None, str | None, str | None, tuple[FieldRow, ...]]:
    """An item's sides as ``item_views`` shows them: (the key its parts come from, or None;
    gold text, prediction text, the parts) — gold and prediction None when the item is shown
    part by part."""
    gold_key, gold = first_of(details, GOLD_KEYS)
    pred_key, pred = first_of(details, PRED_KEYS)
    rows = field_rows(
        details.get(gold_key) if gold_key else None,
        details.get(pred_key) if pred_key else None,
    )
    if rows:
        return gold_key, None, None, rows
    rows, _shown = paired_labels(details, gold_key, pred_key)
    if rows:
        return "levels", None, None, rows
    key, rows, _, _ = structured(details)
    if key is not None:
        return key, None, None, rows
    return None, gold, pred, ()
