"""Build extracted-claim copies of the real claim trees: paraphrased, split, dropped, re-roled
claims and spurious extras, with the outcome each reference claim should get."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from assay._io.records import SourceRecord
from assay.suites.claims import Claim, Paper, read_papers
from tests.conftest import SHARED

CLAIM_TREE = SHARED / "data" / "claims" / "claims"

_SYNONYMS = {
    "increase": "rise",
    "increases": "rises",
    "shows": "demonstrates",
    "higher": "greater",
    "lower": "smaller",
    "reduces": "decreases",
    "significantly": "markedly",
    "approximately": "roughly",
    "during": "throughout",
    "observed": "seen",
}

SPURIOUS = [
    "Animals were housed under a twelve hour light and dark cycle with food ad libitum.",
    "All statistical tests were two-sided and corrected with the Benjamini-Hochberg procedure.",
]


def paraphrase(text: str) -> str:
    """Rotate the clauses and swap a few words for synonyms (a mild, deterministic rewording)."""
    parts = [p for p in re.split(r"(?<=[;,])\s+", text) if p]
    if len(parts) > 1:
        parts = parts[1:] + parts[:1]
    return " ".join(_SYNONYMS.get(w.lower(), w) for w in " ".join(parts).split())


def split(text: str) -> tuple[str, str]:
    words = text.split()
    half = len(words) // 2
    return " ".join(words[:half]), " ".join(words[half:])


def load_reference() -> list[Paper]:
    return [
        Paper.from_record(r.record) for r in read_papers(CLAIM_TREE) if isinstance(r, SourceRecord)
    ]


@dataclass
class Expected:
    """What the deterministic matcher should find for one paper."""

    n_reference: int
    dropped: set[str] = field(default_factory=set)
    exact: set[str] = field(default_factory=set)
    partial: set[str] = field(default_factory=set)
    panel_true: set[str] = field(default_factory=set)
    role_true: set[str] = field(default_factory=set)
    n_extracted: int = 0

    @property
    def recovery(self) -> float:
        return (self.n_reference - len(self.dropped)) / self.n_reference


def first_panel(panel: str | None) -> str | None:
    return panel.split(",")[0].strip() if panel else panel


def make_copy(
    paper: Paper, *, drop_every: int = 7, split_every: int = 5, reroll_every: int = 4
) -> tuple[list[Claim], Expected]:
    """Claim i is dropped when i % drop_every == 3, split in two when i % split_every == 1,
    else paraphrased; its role changes when i % reroll_every == 0. Two spurious claims follow."""
    out: list[Claim] = []
    exp = Expected(n_reference=len(paper.claims))
    for i, c in enumerate(paper.claims):
        role = c.role
        if i % reroll_every == 0:
            role = "interpretation" if c.role != "interpretation" else "empirical"
        if i % drop_every == 3:
            exp.dropped.add(c.slug)
            continue
        if i % split_every == 1:
            a, b = split(c.text)
            panel = first_panel(c.panel)
            out.append(Claim(f"{c.slug}-part-a", a, role, panel))
            out.append(Claim(f"{c.slug}-part-b", b, role, panel))
            exp.partial.add(c.slug)
            if panel == c.panel and c.panel:
                exp.panel_true.add(c.slug)
        else:
            out.append(Claim(f"x-{c.slug}", paraphrase(c.text), role, c.panel))
            exp.exact.add(c.slug)
            if c.panel:
                exp.panel_true.add(c.slug)
        if role == c.role:
            exp.role_true.add(c.slug)
    for k, text in enumerate(SPURIOUS):
        out.append(Claim(f"spurious-{k}", text, "methodological", "fig1"))
    exp.n_extracted = len(out)
    return out, exp


def write_paper_dir(root: Path, paper: str, claims: list[Claim], doi: str | None = None) -> Path:
    """A claim-tree paper directory: index.md plus one markdown file a claim."""
    d = root / paper
    d.mkdir(parents=True, exist_ok=True)
    meta: dict[str, Any] = {"paper-slug": paper, "title": f"Copy of {paper}"}
    if doi:
        meta["doi"] = doi
    (d / "index.md").write_text(f"---\n{yaml.safe_dump(meta)}---\n\n# {paper}\n")
    for c in claims:
        front: dict[str, Any] = {"slug": c.slug, "claim": c.text, "role": c.role}
        if c.panel is not None:
            front["panel"] = c.panel
        (d / f"{c.slug}.md").write_text(f"---\n{yaml.safe_dump(front, sort_keys=False)}---\n")
    return d
