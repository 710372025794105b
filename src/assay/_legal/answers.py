"""Task-aware answer normalization (seed 000 §8): LegalBench Yes/No answers and MAUD
consideration types; everything else goes through ``normalize_label``."""

from __future__ import annotations

import re
import string
from collections.abc import Collection, Mapping
from typing import Any

from assay._labels import label_key, normalize_label

LEGALBENCH_BINARY_LABELS = ("yes", "no")
#: answer surface → canonical LegalBench answer
LEGALBENCH_YES_NO: Mapping[str, str] = {
    "yes": "yes",
    "y": "yes",
    "true": "yes",
    "1": "yes",
    "1.0": "yes",
    "no": "no",
    "n": "no",
    "false": "no",
    "0": "no",
    "0.0": "no",
}
_JSON_KEYS = ("answer", "label", "doc_type", "class")


def normalize_legalbench(value: Any, valid: Collection[str] | None = None) -> str:
    """A LegalBench answer: a yes/no alias ("Y", "true", "Yes.") → yes / no; otherwise the
    label normalization over ``valid`` (default: yes and no)."""
    key = normalize_label(value, json_keys=_JSON_KEYS)
    if key in LEGALBENCH_YES_NO:  # "1.0" / "0.0" before the trailing dots are stripped
        return LEGALBENCH_YES_NO[key]
    bare = key.strip("._!?,;:")
    if bare in LEGALBENCH_YES_NO:
        return LEGALBENCH_YES_NO[bare]
    return normalize_label(value, valid or LEGALBENCH_BINARY_LABELS, json_keys=_JSON_KEYS)


#: LegalBench's ``normalize``: every ASCII punctuation character (``string.punctuation``) deleted
_LEGALBENCH_PUNCTUATION = str.maketrans("", "", string.punctuation)


def legalbench_key(value: Any) -> str:
    """An answer or a gold label as LegalBench's own ``evaluation.py`` compares them (its
    ``normalize(text, stem=False)``, HazyResearch/legalbench@ce48244): ``str(value)``, every
    ASCII punctuation character deleted, stripped, lowercased. Nothing else: no aliases, no
    JSON, no search, so "Answer: Yes" → "answer yes" and "1.0" → "10".

    A missing answer (None: no prediction, an unreadable or failed one) is ``""``, what a caller
    of LegalBench's ``evaluate`` must pass in its place; a miss either way.
    """
    if value is None:
        return ""
    return str(value).translate(_LEGALBENCH_PUNCTUATION).strip().lower()


MAUD_CONSIDERATION_KEYS = (
    "all_cash",
    "all_stock",
    "mixed_cash_stock",
    "mixed_cash_stock_election",
    "other",
)
#: label surface (lowercase, separators as spaces) → canonical consideration key
MAUD_CONSIDERATION_ALIASES: Mapping[str, str] = {
    "all cash": "all_cash",
    "cash": "all_cash",
    "cash only": "all_cash",
    "all-cash": "all_cash",
    "all stock": "all_stock",
    "stock": "all_stock",
    "stock only": "all_stock",
    "all-stock": "all_stock",
    "mixed": "mixed_cash_stock",
    "mixed cash stock": "mixed_cash_stock",
    "mixed cash and stock": "mixed_cash_stock",
    "cash and stock": "mixed_cash_stock",
    "mixed cash/stock": "mixed_cash_stock",
    "mixed cash stock election": "mixed_cash_stock_election",
    "mixed cash/stock: election": "mixed_cash_stock_election",
    "mixed cash and stock election": "mixed_cash_stock_election",
    "cash or stock election": "mixed_cash_stock_election",
    "election": "mixed_cash_stock_election",
    "other": "other",
    "unspecified": "other",
    "other unspecified": "other",
    "none": "other",
}
#: MAUD's own answer surface (its "Type of Consideration" answers), folded like any alias
MAUD_CONSIDERATION_LABELS: Mapping[str, str] = {
    "all_cash": "All Cash",
    "all_stock": "All Stock",
    "mixed_cash_stock": "Mixed Cash & Stock",
    "mixed_cash_stock_election": "Mixed Cash & Stock (Election)",
    "other": "Other",
}


def _surface(text: str) -> str:
    """Lowercase, every run of non-alphanumerics (spaces, "&", "/", ":", brackets) one space:
    "Mixed Cash & Stock (Election)" → "mixed cash stock election"."""
    return re.sub(r"[^a-z0-9]+", " ", text.strip().lower()).strip()


_FOLDED_ALIASES: Mapping[str, str] = {
    **{_surface(k): v for k, v in MAUD_CONSIDERATION_ALIASES.items()},
    **{_surface(label): key for key, label in MAUD_CONSIDERATION_LABELS.items()},
}


def normalize_maud_consideration(value: Any) -> str:
    """Canonical MAUD consideration type: a canonical key, an alias, a canonical key found in
    the text, else ``other`` (the GT-gap convention: unknown values degrade to other)."""
    key = normalize_label(value, json_keys=("consideration", *_JSON_KEYS))
    if key in MAUD_CONSIDERATION_KEYS:
        return key
    surface = _surface(key)
    if surface in _FOLDED_ALIASES:
        return _FOLDED_ALIASES[surface]
    found = normalize_label(
        value, MAUD_CONSIDERATION_KEYS, json_keys=("consideration", *_JSON_KEYS)
    )
    return found if found in MAUD_CONSIDERATION_KEYS else "other"


def is_consideration_key(value: str) -> bool:
    return label_key(value) in MAUD_CONSIDERATION_KEYS
