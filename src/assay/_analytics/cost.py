"""Token and cost accounting (seed 000 §13).

A usage record is one model call for one row: ``{row, model?, stage?, prompt_tokens,
completion_tokens, cost? (billed USD), replayed?}``. Prices are USD per 1M tokens per model,
resolved exactly, else by the longest configured key that prefixes the model id (case-folded);
an unresolved model has price None and its estimate is None — never a guess.

    cost_estimated_usd = prompt_tokens · input / 1e6 + completion_tokens · output / 1e6

The default table is the seed's verified per-model prices (``DEFAULT_COST_MODELS``, §13: qwen
$0.03 / $0.13, deepseek-v4-flash $0.05 / $0.25, deepseek-v4-pro $0.435 / $0.87 per 1M tokens
in / out); ``analytics.prices`` entries are added to it and win over it.

A record's cost is its billed cost when present, else its estimate. Replayed rows (paid for in
an earlier run) and rows without usage are left out of every summary and counted apart.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from rapidfuzz import process

from assay._analytics.jsonl import read_objects
from assay._settings.model import ModelPrice
from assay.errors import InputError

#: seed 000 §13's verified prices, USD per 1M tokens (input, output), by OpenRouter slug and by
#: bare model name
DEFAULT_COST_MODELS: dict[str, ModelPrice] = {
    name: ModelPrice(input=i, output=o)
    for names, (i, o) in (
        (("qwen/qwen3.7-flash", "qwen3.7-flash"), (0.03, 0.13)),
        (("deepseek/deepseek-v4-flash", "deepseek-v4-flash"), (0.05, 0.25)),
        (("deepseek/deepseek-v4-pro", "deepseek-v4-pro"), (0.435, 0.87)),
    )
    for name in names
}


def with_default_prices(prices: Mapping[str, ModelPrice]) -> dict[str, ModelPrice]:
    """The seed's default table with ``prices`` added (a configured key wins, case-folded)."""
    configured = {k.casefold() for k in prices}
    base = {k: v for k, v in DEFAULT_COST_MODELS.items() if k.casefold() not in configured}
    return {**base, **prices}


@dataclass(frozen=True)
class UsageRecord:
    """One call's usage; tokens None when the call carried no usage payload."""

    row: str
    model: str | None
    stage: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    billed_usd: float | None = None
    replayed: bool = False
    cost_estimated_usd: float | None = None
    price_key: str | None = None

    @property
    def has_usage(self) -> bool:
        return not self.replayed and self.prompt_tokens is not None

    @property
    def cost_usd(self) -> float | None:
        """Billed cost when present, else the estimate (None when neither is known)."""
        return self.billed_usd if self.billed_usd is not None else self.cost_estimated_usd


def resolve_price(
    model: str | None, prices: Mapping[str, ModelPrice]
) -> tuple[str, ModelPrice] | None:
    """(key, price) for ``model``: exact (case-folded) match, else the longest prefix key."""
    if not model:
        return None
    folded = model.casefold()
    by_fold = {k.casefold(): k for k in prices}
    if folded in by_fold:
        key = by_fold[folded]
        return key, prices[key]
    matches = [k for f, k in by_fold.items() if folded.startswith(f)]
    if not matches:
        return None
    key = max(matches, key=len)
    return key, prices[key]


def estimate_cost(record: UsageRecord, price: ModelPrice | None) -> float | None:
    """Tokens × price per 1M; None without usage or without a price."""
    if price is None or record.prompt_tokens is None or record.completion_tokens is None:
        return None
    return (record.prompt_tokens * price.input + record.completion_tokens * price.output) / 1e6


def _tokens(rec: Mapping[str, Any], key: str, where: str) -> int | None:
    value = rec.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{where}: {key}: expected a token count, found {value!r}")
    if not math.isfinite(value) or value != int(value):
        raise InputError(f"{where}: {key}: expected a whole number of tokens, found {value}")
    if value < 0:
        raise InputError(f"{where}: {key}: negative token count {int(value)}")
    return int(value)


def usage_from_record(rec: Mapping[str, Any], where: str = "<record>") -> UsageRecord:
    """Validate one usage record (nested ``usage: {...}`` is accepted too)."""
    usage = rec.get("usage")
    src: Mapping[str, Any] = {**rec, **usage} if isinstance(usage, Mapping) else rec
    row = src.get("row", src.get("id"))
    if row is None or isinstance(row, bool | dict | list):
        raise InputError(f"{where}: row: expected the row id (string or number)")
    prompt = _tokens(src, "prompt_tokens", where)
    completion = _tokens(src, "completion_tokens", where)
    if (prompt is None) != (completion is None):
        raise InputError(f"{where}: prompt_tokens and completion_tokens must be given together")
    billed = src.get("cost")
    if billed is not None:
        if isinstance(billed, bool) or not isinstance(billed, int | float):
            raise InputError(f"{where}: cost: expected billed USD, found {billed!r}")
        if not math.isfinite(billed) or billed < 0:
            raise InputError(f"{where}: cost: must be a non-negative amount, found {billed}")
    for key in ("model", "stage"):
        if src.get(key) is not None and not isinstance(src[key], str):
            raise InputError(f"{where}: {key}: expected a string, found {src[key]!r}")
    replayed = src.get("replayed", False)
    if not isinstance(replayed, bool):
        raise InputError(f"{where}: replayed: expected true or false, found {replayed!r}")
    return UsageRecord(
        row=str(row),
        model=src.get("model"),
        stage=src.get("stage"),
        prompt_tokens=prompt,
        completion_tokens=completion,
        billed_usd=float(billed) if billed is not None else None,
        replayed=replayed,
    )


def read_usage(path: str | os.PathLike[str]) -> list[UsageRecord]:
    """A JSONL file of usage records; a bad line is an error naming the file, line and field."""
    return [usage_from_record(rec, where) for where, rec in read_objects(path, "usage")]


def stamp_costs(
    records: Sequence[UsageRecord],
    prices: Mapping[str, ModelPrice],
    *,
    model: str | None = None,
) -> list[UsageRecord]:
    """Every record with ``cost_estimated_usd`` (and the price key used) filled in.

    ``model`` is the default for records that name none.
    """
    out = []
    for r in records:
        m = r.model or model
        found = resolve_price(m, prices)
        price = found[1] if found else None
        est = estimate_cost(r, price) if not r.replayed else None
        out.append(
            replace(r, model=m, cost_estimated_usd=est, price_key=found[0] if found else None)
        )
    return out


@dataclass(frozen=True)
class TokensSummary:
    """§13's tokens_summary over the rows with usage (replayed and usage-less rows apart)."""

    stage: str
    rows: int
    rows_with_usage: int
    rows_replayed: int
    rows_without_usage: int
    rows_unpriced: int
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    cost_usd: float | None
    cost_total_usd: float | None
    cost_source: str | None
    billed_total_usd: float | None
    rows_billed: int
    estimated_total_usd: float | None
    unpriced_models: list[str] = field(default_factory=list)


def tokens_summary(records: Sequence[UsageRecord], stage: str = "total") -> TokensSummary:
    """Sums and costs over stamped records; a total is None when any counted row lacks a cost.

    ``rows`` counts distinct row ids; cost_usd is cost_total_usd / rows_with_usage (per row,
    all of its calls in the records given).
    """
    used = [r for r in records if r.has_usage]
    rows_used = {r.row for r in used}
    replayed = {r.row for r in records if r.replayed} - rows_used
    without = {r.row for r in records if not r.replayed and r.prompt_tokens is None} - rows_used
    unpriced = [r for r in used if r.billed_usd is None and r.cost_estimated_usd is None]
    costs = [r.cost_usd for r in used]
    total = math.fsum(c for c in costs if c is not None) if used and not unpriced else None
    billed = [r.billed_usd for r in used if r.billed_usd is not None]
    estimated = [r.cost_estimated_usd for r in used]
    n_billed = len(billed)
    source = None
    if total is not None:
        source = "billed" if n_billed == len(used) else "estimated" if n_billed == 0 else "mixed"
    prompt = sum(r.prompt_tokens or 0 for r in used)
    completion = sum(r.completion_tokens or 0 for r in used)
    return TokensSummary(
        stage=stage,
        rows=len({r.row for r in records}),
        rows_with_usage=len(rows_used),
        rows_replayed=len(replayed),
        rows_without_usage=len(without),
        rows_unpriced=len({r.row for r in unpriced}),
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=prompt + completion,
        cost_usd=total / len(rows_used) if total is not None and rows_used else None,
        cost_total_usd=total,
        cost_source=source,
        billed_total_usd=math.fsum(billed) if used and n_billed == len(used) else None,
        rows_billed=n_billed,
        estimated_total_usd=(
            math.fsum(e for e in estimated if e is not None)
            if used and all(e is not None for e in estimated)
            else None
        ),
        unpriced_models=sorted({r.model or "<no model>" for r in unpriced}),
    )


@dataclass(frozen=True)
class CostReport:
    """Per-stage rows (chained runs) and the total, plus every stamped record."""

    stages: list[TokensSummary]
    total: TokensSummary
    records: list[UsageRecord]
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "tokens_summary": asdict(self.total),
            "stages": [asdict(s) for s in self.stages],
            "records": [{**asdict(r), "cost_usd": r.cost_usd} for r in self.records],
            "warnings": self.warnings,
        }


def cost_report(
    records: Sequence[UsageRecord],
    prices: Mapping[str, ModelPrice],
    *,
    model: str | None = None,
    run_ids: Sequence[str] | None = None,
) -> CostReport:
    """Stamp every record, summarize per stage (when stages are named) and in total; prices
    are ``with_default_prices(prices)``."""
    prices = with_default_prices(prices)
    stamped = stamp_costs(records, prices, model=model)
    stages = sorted({r.stage for r in stamped if r.stage is not None})
    rows = [tokens_summary([r for r in stamped if r.stage == s], s) for s in stages]
    if stages and any(r.stage is None for r in stamped):
        rows.append(tokens_summary([r for r in stamped if r.stage is None], "<no stage>"))
    total = tokens_summary(stamped)
    warnings = []
    for name in total.unpriced_models:
        hint = process.extractOne(name, list(prices)) if prices and name != "<no model>" else None
        guess = f" (did you mean {hint[0]!r}?)" if hint and hint[1] >= 80 else ""
        warnings.append(f"no price for model {name!r}: its cost is unknown{guess}")
    if run_ids is not None:
        known = set(run_ids)
        stray = sorted({r.row for r in stamped if r.row not in known})
        if stray:
            warnings.append(
                f"{len(stray)} usage row(s) are not items of the run: {', '.join(stray[:5])}"
            )
    return CostReport(stages=rows, total=total, records=stamped, warnings=warnings)
