"""Names on real CUAD parties (issue 34): how often the name rule matches two different firms,
and how often it matches two spellings of one party.

The names are the "Parties" lists of ``master_clauses.csv`` (items of at most 8 tokens, not a
bare role word, not a "referred to as" sentence). Two measurements at the bipartite match
threshold (0.6), each beside the seed's token-set ratio on the same normalized strings:

- **false matches**: pairs of names from different contracts whose core names differ (the core:
  the tokens left without corporate suffixes, stopwords and role words, issue 16's list as it
  was, so the bands stay the same whatever the rule under test counts as evidence): 20,000
  pairs drawn with a fixed seed, and every such pair sharing a token, banded by what they share;
- **true matches**: variants of each real name that name the same party (its suffix dropped or
  spelled otherwise, "Holdings" or "Group" added, dots removed), and the alias of a
  "Parties-Answer" entry 'NAME ("Alias")' against the entry and against the name.

Used by ``tests/fields/test_fields_cuad_names.py`` and for the figures in the extraction
suite's docs page (``python -m tests.differential.cuad_names`` prints them).
"""

from __future__ import annotations

import ast
import csv
import random
import re
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache

from rapidfuzz import fuzz

from assay._fields._text import STOPWORDS
from assay._fields.names import name_similarity, normalized_name
from assay._fields.settings import DEFAULT_ROLE_WORDS
from tests.conftest import SHARED

CUAD = SHARED / "data" / "legal" / "cuad" / "master_clauses.csv"
THRESHOLD = 0.6
SEED = 20240534
N_PAIRS = 20_000
#: issue 16's non-evidence list (the suffixes it had, stopwords, role words): what a "core
#: name" leaves out, fixed so the bands do not move with the rule measured
BASE_SUFFIXES = frozenset({
    "inc", "incorporated", "corp", "corporation", "co", "company", "llc", "llp", "lp", "ltd",
    "limited", "plc", "gmbh", "ag", "sa", "nv", "bv", "pte", "pty",
})  # fmt: skip
BASE_NON_EVIDENCE = BASE_SUFFIXES | STOPWORDS | {w.lower() for w in DEFAULT_ROLE_WORDS}
_ROLE_OR_STOP = {w.lower() for w in DEFAULT_ROLE_WORDS} | STOPWORDS
_DOTTED = re.compile(r"\b(?:[A-Za-z]\.){2,}(?=\s|,|$)|\bp\.l\.c\.", re.I)
_JUNK = re.compile(
    r"referred|collectively|individually|\beach\b|hereinafter|together|herein|agreement", re.I
)
_ALIASED = re.compile(r'\s*(.+?),?\s*\((?:the\s+)?["“]([^"”]+)["”]\s*\)\s*$')
Similarity = Callable[[str, str], float]


def _rule(a: str, b: str) -> float:
    return name_similarity(a, b)[0]


def seed_tsr(a: str, b: str) -> float:
    """The seed's token-set ratio on the same normalized strings."""
    return float(fuzz.token_set_ratio(normalized_name(a), normalized_name(b), processor=None)) / 100


def core(name: str) -> frozenset[str]:
    return frozenset(t for t in re.findall(r"[^\W_]+", name.lower()) if t not in BASE_NON_EVIDENCE)


@cache
def _rows() -> list[dict[str, str]]:
    limit = csv.field_size_limit(sys.maxsize)  # CUAD's contract texts; restored after
    try:
        with CUAD.open(encoding="utf-8", newline="") as fh:
            return list(csv.DictReader(fh))
    finally:
        csv.field_size_limit(limit)


@cache
def party_names() -> dict[str, tuple[str, ...]]:
    """Contract file name → its party names."""
    out: dict[str, tuple[str, ...]] = {}
    for row in _rows():
        try:
            items = ast.literal_eval(row["Parties"])
        except (ValueError, SyntaxError):
            continue
        keep: list[str] = []
        for item in items:
            item = item.strip().strip('"“”').strip()
            words = re.findall(r"[^\W_]+", item.lower())
            if not words or len(words) > 8 or _JUNK.search(item) or set(words) <= _ROLE_OR_STOP:
                continue
            if item not in keep:
                keep.append(item)
        if keep:
            out[row["Filename"]] = tuple(keep)
    return out


def shared_kind(a: str, b: str) -> str:
    """What two names of different firms share (the bands of the false-match table)."""
    ta, tb = set(re.findall(r"[^\W_]+", a.lower())), set(re.findall(r"[^\W_]+", b.lower()))
    shared = ta & tb
    if not shared:
        return "no shared token"
    if not shared - BASE_NON_EVIDENCE:
        return "only suffixes, stopwords, role words"
    da, db = _DOTTED.findall(a), _DOTTED.findall(b)
    letters = {x.replace(".", "").lower() for x in da} & {x.replace(".", "").lower() for x in db}
    if da and db and shared <= {c for x in letters for c in x} | BASE_NON_EVIDENCE:
        return "only a dotted suffix's letters"
    if ".com" in (a + b).lower() and shared <= {"com"} | BASE_NON_EVIDENCE:
        return "only .com"
    named = shared - BASE_NON_EVIDENCE
    if len(named) == 1 and len(next(iter(named))) <= 2:
        return "only a 1-2 letter token"
    if core(a) <= core(b) or core(b) <= core(a):
        return "one core inside the other"
    return "a name word, cores differ"


@dataclass
class Band:
    """Pairs of one band and how many of them each rule matches."""

    n: int = 0
    rule: int = 0
    seed: int = 0
    examples: list[tuple[str, str, float]] = field(default_factory=list)

    def add(self, a: str, b: str, similarity: Similarity) -> None:
        score = similarity(a, b)
        self.n += 1
        self.rule += score >= THRESHOLD
        self.seed += seed_tsr(a, b) >= THRESHOLD
        if score >= THRESHOLD and len(self.examples) < 3:
            self.examples.append((a, b, round(score, 3)))

    def rates(self) -> tuple[float, float]:
        return (self.rule / self.n, self.seed / self.n) if self.n else (0.0, 0.0)


def _distinct_firms(a: tuple[str, str], b: tuple[str, str]) -> bool:
    (ca, na), (cb, nb) = a, b
    return ca != cb and bool(core(na)) and bool(core(nb)) and core(na) != core(nb)


def sampled_pairs() -> list[tuple[str, str]]:
    """``N_PAIRS`` cross-contract pairs of distinct firms, drawn with ``SEED``."""
    every = [(c, n) for c, names in sorted(party_names().items()) for n in names]
    rng = random.Random(SEED)
    pairs: list[tuple[str, str]] = []
    while len(pairs) < N_PAIRS:
        a, b = rng.choice(every), rng.choice(every)
        if _distinct_firms(a, b):
            pairs.append((a[1], b[1]))
    return pairs


def token_sharing_pairs() -> Iterator[tuple[str, str]]:
    """Every cross-contract pair of distinct firms sharing a token, each once."""
    every = sorted({(c, n) for c, names in party_names().items() for n in names})
    index: dict[str, set[int]] = defaultdict(set)
    for k, (_, name) in enumerate(every):
        for t in set(re.findall(r"[^\W_]+", name.lower())):
            index[t].add(k)
    seen: set[tuple[int, int]] = set()
    for members in index.values():
        ks = sorted(members)
        for i, a in enumerate(ks):
            for b in ks[i + 1 :]:
                if (a, b) not in seen:
                    seen.add((a, b))
                    if _distinct_firms(every[a], every[b]):
                        yield every[a][1], every[b][1]


def false_matches(
    pairs: Iterator[tuple[str, str]] | list[tuple[str, str]], similarity: Similarity = _rule
) -> dict[str, Band]:
    bands: dict[str, Band] = defaultdict(Band)
    for a, b in pairs:
        bands[shared_kind(a, b)].add(a, b, similarity)
    return dict(bands)


_SWAP = {
    "inc": "Incorporated", "incorporated": "Inc.", "corp": "Corporation", "corporation": "Corp.",
    "ltd": "Limited", "limited": "Ltd.", "llc": "L.L.C.", "lp": "L.P.", "co": "Company",
    "plc": "p.l.c.",
}  # fmt: skip


def true_pairs() -> dict[str, list[tuple[str, str]]]:
    """Same-party variants (prediction, expected) by kind, each pair once, sorted."""
    variants: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for names in party_names().values():
        for name in names:
            words = re.findall(r"[^\W_]+", name.lower())
            if len(words) >= 2 and words[-1] in _SWAP:
                base = re.sub(r"[,\s]+(?:[A-Za-z.]+)\s*$", "", name).strip()
                if base and core(base):
                    variants["suffix dropped"].add((base, name))
                    variants["suffix spelled otherwise"].add((f"{base}, {_SWAP[words[-1]]}", name))
                    variants["Holdings added"].add((f"{base} Holdings, {_SWAP[words[-1]]}", name))
                    variants["Group added"].add((f"{base} Group", name))
            if re.search(r"\b(?:[A-Za-z]\.){2,}", name):
                variants["dots removed"].add((name.replace(".", ""), name))
    for row in _rows():
        for part in row["Parties-Answer"].split(";"):
            m = _ALIASED.match(part)
            if not m:
                continue
            full, alias = m.group(1).strip(), m.group(2).strip()
            if len(full) > 120 or not core(full):
                continue
            entry = part.strip()
            variants["alias vs the entry defining it"].add((alias, entry))
            variants["the entry vs its alias"].add((entry, alias))
            variants["alias vs the bare name"].add((alias, full))
            variants["the bare name vs the entry"].add((full, entry))
    return {k: sorted(v) for k, v in variants.items()}


def true_matches(similarity: Similarity = _rule) -> dict[str, Band]:
    out: dict[str, Band] = {}
    for kind, pairs in true_pairs().items():
        band = out[kind] = Band()
        for p, g in pairs:
            band.add(p, g, similarity)
    return out


def _print(title: str, bands: dict[str, Band]) -> None:
    print(title)
    for kind, band in sorted(bands.items(), key=lambda kv: -kv[1].n):
        rule, seed = band.rates()
        print(f"  {kind:38s} n={band.n:7d}  assay {rule:6.1%}  seed-TSR {seed:6.1%}")


if __name__ == "__main__":
    sampled = false_matches(sampled_pairs())
    total = Band(
        n=sum(b.n for b in sampled.values()),
        rule=sum(b.rule for b in sampled.values()),
        seed=sum(b.seed for b in sampled.values()),
    )
    print(f"{sum(map(len, party_names().values()))} names in {len(party_names())} contracts")
    rule, seed = total.rates()
    print(f"{total.n} sampled pairs of distinct firms: assay {rule:.2%}, seed-TSR {seed:.2%}")
    _print("sampled, by what they share:", sampled)
    _print("every token-sharing pair of distinct firms:", false_matches(token_sharing_pairs()))
    _print("same-party variants:", true_matches())
