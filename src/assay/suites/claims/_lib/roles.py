"""Role normalization: "Literature context", "literature_context" and "literature-context" agree."""

from __future__ import annotations

import re
from collections.abc import Mapping

from assay.suites.claims._lib.model import Agreement


def normalize_role(role: str | None, aliases: Mapping[str, str] | None = None) -> str | None:
    """Lowercase, separators as hyphens, then the configured alias ("interpretive" →
    "interpretation"); None for a missing or empty role."""
    if role is None:
        return None
    key = re.sub(r"[\s_\-]+", "-", role.strip().lower()).strip("-")
    if not key:
        return None
    if aliases:
        normalized = {re.sub(r"[\s_\-]+", "-", k.strip().lower()): v for k, v in aliases.items()}
        key = re.sub(r"[\s_\-]+", "-", normalized.get(key, key).strip().lower())
    return key


def roles_agree(
    reference: str | None, candidate: str | None, aliases: Mapping[str, str] | None = None
) -> Agreement:
    """Same role after normalization; "n/a" when the reference has none, False when only the
    candidate lacks one."""
    ref = normalize_role(reference, aliases)
    if ref is None:
        return "n/a"
    return ref == normalize_role(candidate, aliases)
