"""Panel normalization: "fig3B–G, 3K", "fig2—supplement 1B–C", "figs 1-13" become sets of panels.

A panel is a :class:`Panel` (figure kind and number, supplement or video number, panel letter,
roman sub-panel); a whole figure leaves the lower levels empty. Parts that name no figure
("hypothesis", "all figures", "fig (arcuate body)") contribute nothing and are reported as
unparsed, so a claim whose panel text yields no panel has an empty set and its panel agreement
is "n/a".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

PanelRule = Literal["equal", "overlap"]
PanelMatch = bool | Literal["n/a"]

_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii")
_ROMAN_INDEX = {r: i for i, r in enumerate(_ROMAN)}
#: the largest figure range expanded ("figs 1-13"); anything larger is left unparsed
MAX_FIGURE_RANGE = 100


@dataclass(frozen=True)
class Panel:
    """One figure, table, supplement, video or panel; unset lower levels mean "the whole"."""

    kind: str  # "fig", "sfig" (supplementary figure) or "table"
    number: int
    supplement: int | None = None
    video: int | None = None
    letter: str | None = None
    sub: str | None = None  # sub-panel: roman "ii" in fig3Bii, arabic "1" in fig6a1

    def sort_key(self) -> tuple[str, int, int, int, str, int]:
        """Figure order: fig2 < fig2a < fig2b < fig2b.ii < fig2-s1 < fig10."""
        return (
            self.kind,
            self.number,
            -1 if self.supplement is None else self.supplement,
            -1 if self.video is None else self.video,
            self.letter or "",
            -1
            if self.sub is None
            else int(self.sub)
            if self.sub.isdigit()
            else _ROMAN_INDEX.get(self.sub, len(_ROMAN)),
        )

    def label(self) -> str:
        """Canonical text: fig3b, fig3b.ii, fig2-s1b, fig6-v1, sfig2, table1."""
        text = f"{self.kind}{self.number}"
        if self.supplement is not None:
            text += f"-s{self.supplement}"
        if self.video is not None:
            text += f"-v{self.video}"
        if self.letter is not None:
            text += self.letter
        if self.sub is not None:
            text += f".{self.sub}"
        return text

    def covers(self, other: Panel) -> bool:
        """True when ``other`` is this panel or lies inside it (fig2 covers fig2b and fig2b.ii).

        A figure's supplements and videos are figures of their own: fig2 does not cover fig2-s1.
        """
        if (self.kind, self.number, self.supplement, self.video) != (
            other.kind,
            other.number,
            other.supplement,
            other.video,
        ):
            return False
        if self.letter is None:
            return True
        return self.letter == other.letter and (self.sub is None or self.sub == other.sub)


@dataclass(frozen=True)
class PanelSet:
    """The panels a panel text names, and the parts of it that named none."""

    panels: frozenset[Panel]
    unparsed: tuple[str, ...] = ()
    text: str = ""  # the panel text, lowercased with whitespace collapsed

    def labels(self) -> list[str]:
        return [p.label() for p in sorted(self.panels, key=Panel.sort_key)]


_PARENS = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_DASHES = str.maketrans({"–": "-", "—": "-", "―": "-", "‐": "-", "‑": "-", "−": "-"})
_SUBSTITUTIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    # "Figure 1—source data 1", "fig2-figure supplement 1-source data 2": the data of a figure
    (re.compile(r"-?\s*source\s*data\s*\d*"), " "),
    # PLOS style "S2 Fig", "S1 Figure"
    (re.compile(r"\bs(\d+)\s*fig(?:ure)?s?\b\.?"), r" sfig\1 "),
    (re.compile(r"supplementary\s+fig(?:ure)?s?\.?\s*s?(\d+)"), r" sfig\1 "),
    (re.compile(r"\bsupp(?:l)?\.?\s+fig(?:ure)?s?\.?\s*s?(\d+)"), r" sfig\1 "),
    (re.compile(r"\bfig(?:ure)?\.?\s?s(\d+)"), r" sfig\1 "),
    (
        re.compile(r"-?\s*(?:figure[\s-]*)?supplement(?:ary)?[\s-]*(?:figure[\s-]*)?(\d+)"),
        r" s\1 ",
    ),
    (re.compile(r"-?\s*(?:video|movie)[\s-]*(\d+)"), r" v\1 "),
    (re.compile(r"\bfig(?:ure)?s?\b\.?"), " fig "),
    (re.compile(r"\btab(?:le)?s?\b\.?"), " table "),
)
_SPLIT = re.compile(r"[,;&+/]|\band\b")
_PART = re.compile(
    r"^(?P<kind>sfig|fig|table)?\s*"
    r"(?P<num>\d+)?(?:\s*-\s*(?P<num2>\d+)(?![a-z]))?\s*"
    r"(?:s(?P<sup>\d+))?\s*"
    r"(?:v(?P<vid>\d+))?\s*"
    r"(?P<panels>[a-z](?:[ivx]+|\d{1,2})?(?:\s*-\s*[a-z]?(?:[ivx]+|\d{1,2})?)?)?$"
)
#: a part that starts like a panel and goes on in words ("fig10 synthesis"): the panel, the rest
_LEADING = re.compile(r"^((?:sfig|fig|table)\s*\d+[a-z0-9.\s-]*?)\s+([a-z][a-z\s]{2,})$")


def _letters(first: str, last: str) -> list[str]:
    lo, hi = ord(first), ord(last)
    return [chr(c) for c in range(lo, hi + 1)] if lo <= hi else [first, last]


def _romans(first: str, last: str) -> list[str]:
    lo, hi = _ROMAN_INDEX.get(first), _ROMAN_INDEX.get(last)
    if lo is None or hi is None or lo > hi:
        return [first, last]
    return list(_ROMAN[lo : hi + 1])


def _expand_panels(text: str) -> list[tuple[str, str | None]]:
    """'b' → [(b, None)]; 'b-g' → b..g; 'bii' → [(b, ii)]; 'bi-x' → b with i..x."""
    text = text.replace(" ", "")
    head, _, tail = text.partition("-")
    letter, sub = head[0], head[1:] or None
    if sub is not None and sub.isdigit():  # arabic sub-panels: fig6a1, fig6a1-3
        if not tail:
            return [(letter, sub)]
        last = tail[1:] if tail[:1] == letter else tail
        if last.isdigit() and int(sub) <= int(last) <= int(sub) + 50:
            return [(letter, str(k)) for k in range(int(sub), int(last) + 1)]
        return [(letter, sub)]
    if not tail:
        return [(letter, sub)]
    if sub is not None and re.fullmatch(r"[ivx]+", tail):
        return [(letter, r) for r in _romans(sub, tail)]
    if sub is None and len(tail) == 1:
        return [(x, None) for x in _letters(letter, tail)]
    tail_letter, tail_sub = tail[0], tail[1:] or None
    if tail_letter == letter and sub is not None and tail_sub is not None:
        return [(letter, r) for r in _romans(sub, tail_sub)]
    return [(x, None) for x in _letters(letter, tail_letter)]


def _preprocess(text: str) -> str:
    text = _PARENS.sub(" ", text.lower().translate(_DASHES))
    for pattern, repl in _SUBSTITUTIONS:
        text = pattern.sub(repl, text)
    return text


def parse_panels(text: object) -> PanelSet:
    """The set of panels a panel field names (a string, a list of strings or None).

    Parts are split on commas, semicolons, "and", "&", "+" and "/"; a part without a figure
    number inherits the previous part's ("fig3B, C, 3K" → fig3b, fig3c, fig3k), a bare number
    starts a figure ("1H" → fig1h). Ranges expand: "B–G" letters, "Bi-x" roman sub-panels,
    "figs 1-13" figures. An en or em dash before "supplement" or "video" is a separator.
    """
    if text is None:
        return PanelSet(frozenset())
    if isinstance(text, list | tuple):
        sets = [parse_panels(t) for t in text]
        return PanelSet(
            frozenset().union(*(p.panels for p in sets)),
            tuple(u for p in sets for u in p.unparsed),
            ", ".join(p.text for p in sets if p.text),
        )
    raw = str(text)
    panels: set[Panel] = set()
    unparsed: list[str] = []
    kind, number, supplement, video = "fig", None, None, None
    parts = _SPLIT.split(_preprocess(raw))
    originals = _SPLIT.split(raw)
    if len(originals) != len(parts):  # a bracketed aside held a separator
        originals = parts
    for original, part in zip(originals, parts, strict=True):
        part = " ".join(part.split())
        if not part:
            continue
        m = _PART.match(part)
        if m is None and (lead := _LEADING.match(part)) is not None:
            m = _PART.match(lead[1].strip())  # "fig10 synthesis": fig10, the words unparsed
            if m is not None:
                unparsed.append(lead[2].strip())
        if m is None or not (m["num"] or m["panels"] or m["sup"] or m["vid"]):
            unparsed.append(original.strip())
            continue
        if m["num"] is not None:
            kind = m["kind"] or kind
            number, supplement, video = int(m["num"]), None, None
        elif m["kind"] is not None or number is None:
            unparsed.append(original.strip())
            continue
        if m["sup"] is not None:
            supplement, video = int(m["sup"]), None
        if m["vid"] is not None:
            video = int(m["vid"])
        if m["num2"] is not None:
            last = int(m["num2"])
            if last < number or last - number > MAX_FIGURE_RANGE or m["panels"]:
                unparsed.append(original.strip())
                continue
            panels.update(Panel(kind, n) for n in range(number, last + 1))
            number = last
            continue
        if m["panels"] is None:
            panels.add(Panel(kind, number, supplement, video))
            continue
        for letter, sub in _expand_panels(m["panels"]):
            panels.add(Panel(kind, number, supplement, video, letter, sub))
    return PanelSet(frozenset(panels), tuple(unparsed), " ".join(raw.lower().split()))


def panels_agree(reference: PanelSet, candidate: PanelSet, rule: PanelRule = "equal") -> PanelMatch:
    """Whether two claims cite the same panels. Seed 003's matcher counts "both null /
    synthesis-level" as a panel match: when neither names a figure panel (no panel, or
    "hypothesis", "scope", "all figures") they agree; when only one does, "n/a".

    ``equal``: the two sets are the same. ``overlap``: some reference panel and some candidate
    panel are the same or one lies inside the other (fig2 and fig2b agree; fig2b and fig2c do not).
    """
    if not reference.panels and not candidate.panels:
        return True
    if not reference.panels or not candidate.panels:
        return "n/a"
    if rule == "equal":
        return reference.panels == candidate.panels
    return any(r.covers(c) or c.covers(r) for r in reference.panels for c in candidate.panels)
