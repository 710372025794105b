"""Contract subtypes against CUAD's folder names (seed 000 §5, §6).

The subtype gold *is* the CUAD folder a contract was filed in ("License_Agreements",
"Affiliate_Agreements", "Joint Venture _ Filing", ...), while a sorter answers with a subtype
key or label ("license", "License Agreement"). Both sides go through ``normalize_subtype``:
lowercase, separators (spaces, hyphens, slashes, "&") as underscores, the folder aliases below,
then the plural / "Agreement(s)" / "Contract(s)" forms stripped, then a subtype key found at word
boundaries. Anything else keeps its cleaned key (and so counts as a miss, never as a match).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from assay._labels.normalize import normalize_label

#: the 25 contract subtype keys (seed 000 §6's families)
CONTRACT_SUBTYPE_KEYS: tuple[str, ...] = (
    "affiliate", "agency", "co_branding", "collaboration", "consulting", "development",
    "distributor", "endorsement", "franchise", "hosting", "ip", "joint_venture", "license",
    "maintenance", "manufacturing", "marketing", "non_compete_no_solicit", "outsourcing",
    "promotion", "reseller", "service", "sponsorship", "strategic_alliance", "supply",
    "transportation",
)  # fmt: skip
#: CUAD v1's 27 folder names (full_contract_txt/Part_*/), as keys
CUAD_FOLDERS: tuple[str, ...] = (
    "affiliate_agreements", "agency_agreements", "co_branding", "collaboration",
    "consulting_agreements", "development", "distributor", "endorsement",
    "endorsement_agreement", "franchise", "hosting", "ip", "joint_venture",
    "joint_venture_filing", "license_agreements", "maintenance", "manufacturing", "marketing",
    "non_compete_non_solicit", "outsourcing", "promotion", "reseller", "service", "sponsorship",
    "strategic_alliance", "supply", "transportation",
)  # fmt: skip
#: folder or label forms that are not a subtype key once "agreement(s)" and plurals are gone
SUBTYPE_ALIASES: dict[str, str] = {
    "non_compete_non_solicit": "non_compete_no_solicit",
    "non_compete": "non_compete_no_solicit",
    "non_competition": "non_compete_no_solicit",
    "non_compete_no_solicit_non_disparagement": "non_compete_no_solicit",
    "joint_venture_filing": "joint_venture",
    "intellectual_property": "ip",
    "cobranding": "co_branding",
    "licence": "license",
    "licensing": "license",
    "services": "service",
    "distribution": "distributor",
    "cooperation": "collaboration",
    "collaboration_cooperation": "collaboration",
}
_SEPARATORS = re.compile(r"[\s\-/&,.()]+")
_TAIL = re.compile(r"_(agreements?|contracts?)$")


def _clean(text: str) -> str:
    return _SEPARATORS.sub("_", text.strip().lower()).strip("_")


@lru_cache(maxsize=4096)
def _subtype_key(text: str) -> str:
    key = _clean(text)
    keys = set(CONTRACT_SUBTYPE_KEYS)
    for candidate in (key, _TAIL.sub("", key)):
        candidate = re.sub(r"_+", "_", candidate).strip("_")
        if candidate in keys:
            return candidate
        if candidate in SUBTYPE_ALIASES:
            return SUBTYPE_ALIASES[candidate]
        singular = candidate[:-1] if candidate.endswith("s") else candidate
        if singular in keys:
            return singular
        if singular in SUBTYPE_ALIASES:
            return SUBTYPE_ALIASES[singular]
    found = normalize_label(key.replace("_", " "), CONTRACT_SUBTYPE_KEYS)
    return found if found in keys else key


def normalize_subtype(value: Any) -> str:
    """The canonical subtype key of a CUAD folder name or a sorter's answer.

    "License_Agreements", "License Agreement", "licenses" and "license" → "license";
    "Non_Compete_Non_Solicit" → "non_compete_no_solicit"; "Joint Venture _ Filing" →
    "joint_venture"; a JSON object's ``contract_subtype`` / ``subtype`` is read first.
    """
    text = normalize_label(value, json_keys=("contract_subtype", "subtype", "label", "answer"))
    return _subtype_key(text) if text else text
