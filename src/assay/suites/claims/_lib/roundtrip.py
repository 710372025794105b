"""Known-answer round trips for calibrating and checking a claims matcher.

Built from a curated claim tree and a rewrite of every claim (the corpus's plain-language LLM
rewrites, ``plain-claims/<paper>.json``), an "extraction" whose true alignment is known:

- claim i is **dropped** when i % 7 == 3 (truth: ``none``);
- **split** in two when i % 5 == 1: its rewrite cut at the clause boundary nearest the middle
  (truth: ``partial``, either half is a right pairing);
- **merged** with claim i + 1 when i % 9 == 5 and neither is dropped or split: one extracted
  claim holding both rewrites (truth: ``partial`` for both);
- otherwise its rewrite alone (truth: ``exact``);
- the role of every 4th claim is changed, panels are kept;
- ``distractors`` × n topic-related extra claims: texts (curated or rewritten) of the *other*
  papers' claims, most similar to this paper's claims first (truth: they match nothing);
- ``near_copies``: that share of the claims rewritten whole get, beside the rewrite, a
  **near-copy**: the first half of the curated claim word for word (at least 3 words), with
  another role and panel (truth: it matches nothing) — an extraction that copied part of a
  sentence next to the one that states it (issue 34). Which claims get one is fixed by their
  order (every claim at 1.0, every other at 0.5).

:func:`score_alignment` compares a matcher's alignment with the truth: recovery, pairings right,
match labels right, and panel and role agreement measured on the matcher's pairs against the
same on the true pairs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay._fields.embedding import Embedder
from assay._io.decoding import read_bytes
from assay._io.strict import loads_lenient
from assay.suites.claims._lib.model import Alignment, Claim, MatchQuality, Paper
from assay.suites.claims._lib.panels import PanelRule, panels_agree, parse_panels
from assay.suites.claims._lib.roles import roles_agree
from assay.suites.claims.scorer import paper_counts
from assay.suites.claims.settings import ClaimsSettings

DROP_EVERY, DROP_AT = 7, 3
SPLIT_EVERY, SPLIT_AT = 5, 1
MERGE_EVERY, MERGE_AT = 9, 5
REROLE_EVERY = 4

_BOUNDARY = re.compile(r"(?:[;,:]?\s+(?:and|but|while|whereas|so|because|with|which)\s+|[;,:]\s+)")


def read_rewrites(path: Path) -> dict[str, str]:
    """``{slug: rewrite}`` from a plain-claims JSON file (a mapping of slug to text)."""
    try:
        data = loads_lenient(read_bytes(path))
    except (OSError, ValueError) as err:  # unreadable, not UTF-8, not JSON, beyond the limits
        raise ValueError(f"{path}: not a readable JSON file ({err})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a JSON object of slug → text")
    return {str(k): " ".join(str(v).split()) for k, v in data.items()}


def split_text(text: str) -> tuple[str, str]:
    """Cut a sentence at the clause boundary nearest its middle (else at the middle word)."""
    middle = len(text) / 2
    cuts = [(abs(m.start() - middle), m) for m in _BOUNDARY.finditer(text)]
    cuts = [(d, m) for d, m in cuts if 0.2 * len(text) < m.start() < 0.8 * len(text)]
    if cuts:
        m = min(cuts, key=lambda t: t[0])[1]
        first, second = text[: m.start()], text[m.end() :]
    else:
        words = text.split()
        half = len(words) // 2
        first, second = " ".join(words[:half]), " ".join(words[half:])
    first = first.rstrip(" ,;:") + "."
    second = second[:1].upper() + second[1:]
    return first, second


def _other_role(role: str | None) -> str:
    return "interpretation" if role != "interpretation" else "empirical"


@dataclass
class Truth:
    """The true alignment of one built extraction."""

    paper: str
    #: reference slug → the extracted slugs that are a right pairing (empty: dropped)
    targets: dict[str, set[str]] = field(default_factory=dict)
    #: reference slug → the right label (exact, partial, none)
    quality: dict[str, MatchQuality] = field(default_factory=dict)
    distractors: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class RoundTrip:
    """A reference paper, the extraction built from it, and the truth."""

    reference: Paper
    extracted: Paper
    truth: Truth


def _topic_related(paper: Paper, pool: Sequence[tuple[str, str]], k: int) -> list[tuple[str, str]]:
    """The ``k`` pool texts most similar to any claim of ``paper`` (token F1), in pool order
    among equals; ``(slug, text)`` pairs."""
    if k <= 0 or not pool:
        return []
    from assay.suites.claims._lib.similarity import similarity_matrix

    scores = similarity_matrix([c.text for c in paper.claims], [t for _, t in pool])
    best = scores.max(axis=0)
    order = sorted(range(len(pool)), key=lambda j: (-round(float(best[j]), 9), j))
    return [pool[j] for j in order[:k]]


def build_round_trip(
    paper: Paper,
    rewrites: Mapping[str, str],
    *,
    others: Sequence[tuple[Paper, Mapping[str, str]]] = (),
    distractors: float = 0.0,
    drop: bool = True,
    split: bool = True,
    merge: bool = True,
    near_copies: float = 0.0,
) -> RoundTrip:
    """The extraction and truth described in the module docstring. ``drop``, ``split`` and
    ``merge`` off turn those edits off (every claim is then rewritten whole)."""
    claims = paper.claims
    missing = [c.slug for c in claims if c.slug not in rewrites]
    if missing:
        raise ValueError(f"{paper.paper}: no rewrite for {', '.join(missing[:5])}")
    truth = Truth(paper.paper)
    out: list[Claim] = []
    n = len(claims)
    dropped = {i for i in range(n) if drop and i % DROP_EVERY == DROP_AT}
    splits = {i for i in range(n) if split and i % SPLIT_EVERY == SPLIT_AT and i not in dropped}
    merged_with: dict[int, int] = {}
    if merge:
        for i in range(n - 1):
            plain = {i, i + 1}.isdisjoint(dropped | splits)
            if i % MERGE_EVERY == MERGE_AT and plain and i not in merged_with.values():
                merged_with[i] = i + 1
    second_of = set(merged_with.values())
    for i, c in enumerate(claims):
        role = _other_role(c.role) if i % REROLE_EVERY == 0 else c.role
        text = rewrites[c.slug]
        if i in dropped:
            truth.targets[c.slug], truth.quality[c.slug] = set(), "none"
        elif i in splits:
            a, b = split_text(text)
            out += [Claim(f"{c.slug}-a", a, role, c.panel), Claim(f"{c.slug}-b", b, role, c.panel)]
            truth.targets[c.slug], truth.quality[c.slug] = {f"{c.slug}-a", f"{c.slug}-b"}, "partial"
        elif i in merged_with:
            nxt = claims[merged_with[i]]
            slug = f"{c.slug}+{nxt.slug}"
            panels = ", ".join(p for p in (c.panel, nxt.panel) if p) or None
            out.append(Claim(slug, f"{text} {rewrites[nxt.slug]}", role, panels))
            truth.targets[c.slug], truth.quality[c.slug] = {slug}, "partial"
            truth.targets[nxt.slug], truth.quality[nxt.slug] = {slug}, "partial"
        elif i in second_of:
            continue
        else:
            out.append(Claim(f"x-{c.slug}", text, role, c.panel))
            truth.targets[c.slug], truth.quality[c.slug] = {f"x-{c.slug}"}, "exact"
    whole = [c for c in claims if truth.quality.get(c.slug) == "exact"]
    for k, c in enumerate(whole):
        if int((k + 1) * near_copies) > int(k * near_copies):
            words = c.text.split()
            half = " ".join(words[: max(3, round(len(words) / 2))])
            out.append(Claim(f"copy-{c.slug}", half, _other_role(c.role), "fig9"))
            truth.distractors.add(f"copy-{c.slug}")
    pool: list[tuple[str, str]] = []
    for k, (other, other_rewrites) in enumerate(others):
        if other.paper == paper.paper:
            continue
        for j, c in enumerate(other.claims):
            text = other_rewrites.get(c.slug, c.text) if (j + k) % 2 else c.text
            pool.append((f"d-{other.paper}-{c.slug}", text))
    roles = [c.role for c in claims] or [None]
    for j, (slug, text) in enumerate(_topic_related(paper, pool, round(distractors * n))):
        out.append(Claim(slug, text, roles[j % len(roles)], f"fig{j % 6 + 1}"))
        truth.distractors.add(slug)
    extracted = Paper(paper.paper, tuple(out), doi=paper.doi, title=paper.title)
    return RoundTrip(paper, extracted, truth)


@dataclass(frozen=True)
class RoundTripScore:
    """A matcher's alignment of one round trip against the truth."""

    paper: str
    n_reference: int
    recovery: float
    true_recovery: float
    pairings_right: int
    labels_right: int
    labels_checked: int
    panel_agreement: float | None
    true_panel_agreement: float | None
    role_agreement: float | None
    true_role_agreement: float | None
    wrong: tuple[str, ...]


def _true_alignment(trip: RoundTrip, panel_rule: PanelRule) -> Alignment:
    """The truth as an alignment (first right target; its panel and role agreement)."""
    from assay.suites.claims._lib.model import ClaimMatch

    by_slug = {c.slug: c for c in trip.extracted.claims}
    matches = []
    for ref in trip.reference.claims:
        targets = sorted(trip.truth.targets[ref.slug])
        if not targets:
            matches.append(ClaimMatch(ref_slug=ref.slug, match_quality="none"))
            continue
        cand = by_slug[targets[0]]
        matches.append(
            ClaimMatch(
                ref_slug=ref.slug,
                cli_slug=cand.slug,
                match_quality=trip.truth.quality[ref.slug],
                panel_match=panels_agree(
                    parse_panels(ref.panel), parse_panels(cand.panel), panel_rule
                ),
                role_match=roles_agree(ref.role, cand.role),
            )
        )
    return Alignment(matcher="truth", matches=matches)


def score_alignment(
    trip: RoundTrip, alignment: Alignment, *, panel_rule: PanelRule = "equal"
) -> RoundTripScore:
    """Recovery, pairings and labels of ``alignment`` against the round trip's truth."""
    n = len(trip.reference.claims)
    got = paper_counts(alignment, n, trip.extracted.claims)
    true = paper_counts(_true_alignment(trip, panel_rule), n, trip.extracted.claims)
    right = labels = checked = 0
    wrong: list[str] = []
    for m in alignment.matches:
        targets = trip.truth.targets[m.ref_slug]
        ok = (m.cli_slug in targets) if targets else m.match_quality == "none"
        right += ok
        if ok and targets:
            checked += 1
            labels += m.match_quality == trip.truth.quality[m.ref_slug]
        if not ok:
            wrong.append(f"{m.ref_slug} → {m.cli_slug or 'none'}")
    return RoundTripScore(
        paper=trip.reference.paper,
        n_reference=n,
        recovery=got.recovery or 0.0,
        true_recovery=true.recovery or 0.0,
        pairings_right=right,
        labels_right=labels,
        labels_checked=checked,
        panel_agreement=got.panel_agreement,
        true_panel_agreement=true.panel_agreement,
        role_agreement=got.role_agreement,
        true_role_agreement=true.role_agreement,
        wrong=tuple(wrong),
    )


def round_trip_figures(scores: Sequence[RoundTripScore]) -> dict[str, float]:
    """Corpus figures: mean recovery and its truth, pairings and labels right (pooled)."""

    def mean(values: Sequence[float | None]) -> float:
        vals = [v for v in values if v is not None]
        return float(np.mean(vals)) if vals else float("nan")

    n = sum(s.n_reference for s in scores)
    checked = sum(s.labels_checked for s in scores)
    return {
        "recovery": mean([s.recovery for s in scores]),
        "true_recovery": mean([s.true_recovery for s in scores]),
        "pairings_right": sum(s.pairings_right for s in scores) / n if n else float("nan"),
        "labels_right": sum(s.labels_right for s in scores) / checked if checked else float("nan"),
        "panel_agreement": mean([s.panel_agreement for s in scores]),
        "true_panel_agreement": mean([s.true_panel_agreement for s in scores]),
        "role_agreement": mean([s.role_agreement for s in scores]),
        "true_role_agreement": mean([s.true_role_agreement for s in scores]),
    }


def figures_row(label: str, f: Mapping[str, float]) -> str:
    """One line of :func:`round_trip_figures`, as the docs' table and the benchmark show it."""
    return (
        f"{label:<24} recovery {f['recovery']:.3f} (truth {f['true_recovery']:.3f})  "
        f"pairings {f['pairings_right']:.3f}  labels {f['labels_right']:.3f}  "
        f"panel {f['panel_agreement']:.3f} ({f['true_panel_agreement']:.3f})  "
        f"role {f['role_agreement']:.3f} ({f['true_role_agreement']:.3f})"
    )


# --- the public round trips: the scenarios, their evaluation, and the threshold calibration --

#: scenario name → the build_round_trip options (``distractors`` × n extra claims)
SCENARIOS: dict[str, dict[str, Any]] = {
    "rewrites": {"drop": False, "split": False, "merge": False, "distractors": 0.0},
    "edited": {"distractors": 0.0},
    "edited+2x distractors": {"distractors": 2.0},
}


#: the near-copy scenario (issue 34): the edited extraction with a half-copy of the curated
#: claim beside every claim rewritten whole; apart from ``SCENARIOS``, which calibrate the
#: thresholds
NEAR_COPIES: dict[str, dict[str, Any]] = {"edited+near-copies": {"near_copies": 1.0}}


def load_corpus(root: Path) -> list[tuple[Paper, dict[str, str]]]:
    """The curated papers under ``root/claims`` with their rewrites from ``root/plain-claims``
    (the layout of ../shared/data/claims); papers without a rewrite file are left out."""
    from assay._io.records import SourceRecord
    from assay.suites.claims._lib.loading import read_papers

    out = []
    for r in read_papers(root / "claims"):
        if isinstance(r, SourceRecord):
            paper = Paper.from_record(r.record)
            path = root / "plain-claims" / f"{paper.paper}.json"
            if path.is_file():
                out.append((paper, read_rewrites(path)))
    return out


def build_scenarios(
    corpus: Sequence[tuple[Paper, Mapping[str, str]]],
    scenarios: Mapping[str, Mapping[str, Any]] = SCENARIOS,
) -> dict[str, list[RoundTrip]]:
    """Every scenario's round trip of every paper (distractors from the other papers)."""
    return {
        name: [build_round_trip(p, rw, others=corpus, **opts) for p, rw in corpus]
        for name, opts in scenarios.items()
    }


class MemoEmbedder:
    """An embedder that encodes each distinct text once: calibration scores the same texts for
    every grid point, and the vectors are the wrapped embedder's, so the figures are too."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self._cache: dict[str, NDArray[np.float64]] = {}

    def encode(self, sentences: Sequence[str]) -> NDArray[np.float64]:
        if not sentences:
            return np.zeros((0, 0))
        missing = [t for t in dict.fromkeys(sentences) if t not in self._cache]
        if missing:
            vectors = np.asarray(self._inner.encode(missing), dtype=np.float64)
            self._cache.update(zip(missing, vectors, strict=True))
        return np.stack([self._cache[t] for t in sentences])


def evaluate_matcher(
    trips: Sequence[RoundTrip], settings: ClaimsSettings, embedder: Embedder | None
) -> list[RoundTripScore]:
    """The deterministic matcher's alignment of each round trip, scored against its truth."""
    from assay.suites.claims._lib.matcher import match_deterministic

    return [
        score_alignment(
            t,
            match_deterministic(
                t.reference.claims, t.extracted.claims, settings, embedder=embedder
            ),
            panel_rule=settings.panel_rule,
        )
        for t in trips
    ]


def _objective(scores: Sequence[RoundTripScore]) -> tuple[float, float]:
    """Pairings right (pooled), then the smaller recovery error: what calibration maximizes."""
    s = round_trip_figures(scores)
    return s["pairings_right"], -abs(s["recovery"] - s["true_recovery"])


#: one calibration candidate: settings fields and their values (thresholds, lexical weight)
Candidate = Mapping[str, float]


def calibrate(
    scenarios: Mapping[str, Sequence[RoundTrip]],
    base: ClaimsSettings,
    embedder: Embedder | None,
    grid: Sequence[Candidate],
    papers: Sequence[str] | None = None,
) -> Candidate:
    """The settings of ``grid`` with the most pairings right over all scenarios of ``papers``
    (all papers when None), then the smallest recovery error; the first of equals."""
    best: tuple[Candidate, tuple[float, float]] | None = None
    for candidate in grid:
        s = base.model_copy(update=dict(candidate))
        scores = [
            sc
            for trips in scenarios.values()
            for sc in evaluate_matcher(
                [t for t in trips if papers is None or t.reference.paper in papers], s, embedder
            )
        ]
        value = _objective(scores)
        if best is None or value > best[1]:
            best = (candidate, value)
    if best is None:
        raise ValueError("calibrate: the grid is empty")
    return best[0]


def cross_validate(
    scenarios: Mapping[str, Sequence[RoundTrip]],
    base: ClaimsSettings,
    embedder: Embedder | None,
    grid: Sequence[Candidate],
) -> tuple[dict[str, dict[str, float]], dict[str, Candidate]]:
    """Leave one paper out: settings calibrated on the other papers, scored on the held-out
    one; per scenario, the pooled figures of the held-out scores, and each fold's choice."""
    papers = [t.reference.paper for t in next(iter(scenarios.values()))]
    held: dict[str, list[RoundTripScore]] = {name: [] for name in scenarios}
    chosen: dict[str, Candidate] = {}
    for paper in papers:
        candidate = calibrate(scenarios, base, embedder, grid, [p for p in papers if p != paper])
        chosen[paper] = candidate
        s = base.model_copy(update=dict(candidate))
        for name, trips in scenarios.items():
            held[name] += evaluate_matcher(
                [t for t in trips if t.reference.paper == paper], s, embedder
            )
    return {name: round_trip_figures(scores) for name, scores in held.items()}, chosen
