"""The scores suite's settings section (``scores:`` in assay.yaml)."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, PrivateAttr, field_validator

from assay._settings.model import SuiteSection

#: ``SCORE>=T`` or ``SCORE<=T``: a pass-rate metric at a threshold
THRESHOLD = re.compile(r"^\s*(?P<score>.+?)\s*(?P<op>>=|<=)\s*(?P<value>[-+0-9.eE]+)\s*$")

Reducer = Literal["mean", "median", "max", "min"]


class ScoresSettings(SuiteSection):
    """Which file, which scores, and how an item's samples make its value."""

    source: Literal["inspect", "lm-eval", "promptfoo"] | None = Field(
        None,
        description="the tool that wrote the file: inspect, lm-eval or promptfoo "
        "(default: told by its content)",
        json_schema_extra={"flag": "--from"},
    )
    scores: list[str] | None = Field(
        None, description="the scores read (default: every score in the file)"
    )
    threshold: list[str] = Field(
        [],
        description='pass-rate metrics at a threshold, "SCORE>=T" or "SCORE<=T" (e.g. rubric>=0.5)',
    )
    lower: list[str] = Field(
        [],
        description="scores where lower is better (besides those the tool marks so)",
    )
    reducer: Reducer = Field(
        "mean",
        description="an item's value from its samples (Inspect epochs, promptfoo repeats): "
        "mean (Inspect's default reducer), median, max or min of the scored ones",
    )
    cluster_field: str | None = Field(
        None,
        description="path to the item's cluster in the tool's record (Inspect: metadata.topic); "
        "CIs and paired tests resample these clusters",
    )
    id_field: str | None = Field(
        None,
        description="path to the item id in the tool's record (default: Inspect's id, "
        "lm-eval's doc_id, promptfoo's testIdx; e.g. vars.id)",
    )
    filter: str | None = Field(
        None, description="lm-eval: the filter read (default: the file's first)"
    )
    system: str | None = Field(
        None,
        description='promptfoo: the column scored, "provider · prompt" or its index '
        "(required when the file has several)",
    )
    inspect_reader: Literal["auto", "library", "builtin"] = Field(
        "auto",
        description="Inspect logs: inspect_ai's reader (extra [inspect]; auto: when installed) "
        "or assay's built-in one",
    )
    inspect_source: Literal["auto", "samples", "reductions"] = Field(
        "auto",
        description="Inspect logs: the samples, or the per-id values the log reduced "
        "(auto: the samples, the reductions when the log has none)",
    )

    #: what the tool's file said of the run (read by ScoresTask.prepare; see _lib/reading.py)
    _bridge: Any = PrivateAttr(None)

    @field_validator("threshold")
    @classmethod
    def _check_thresholds(cls, value: list[str]) -> list[str]:
        for text in value:
            match = THRESHOLD.match(text)
            if match is None:
                raise ValueError(f'{text!r}: expected "SCORE>=T" or "SCORE<=T"')
            float(match["value"])
        return value

    def thresholds(self) -> list[tuple[str, str, float]]:
        """(score, ``>=`` or ``<=``, T) of each threshold."""
        out = []
        for text in self.threshold:
            match = THRESHOLD.match(text)
            assert match is not None  # checked by the validator
            out.append((match["score"], match["op"], float(match["value"])))
        return out
