"""Issue 16, case 3: subtype gold written as CUAD folder names (seed 000 §6).

The folder names are CUAD v1's (full_contract_txt/Part_*/...); the predicted labels are the
agreement types CUAD's own file names end with ("..._Co-Branding Agreement.pdf"), read from
master_clauses.csv in ../shared (skipped when absent).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

import assay
from assay._labels import CONTRACT_SUBTYPE_KEYS, CUAD_FOLDERS, normalize_label, normalize_subtype
from tests.conftest import write_jsonl
from tests.fields.test_fields_cuad import MASTER, rows


def test_every_cuad_folder_name_is_a_subtype_key() -> None:
    keys = {normalize_subtype(f) for f in CUAD_FOLDERS}
    assert keys == set(CONTRACT_SUBTYPE_KEYS)
    # the plain label normalization leaves 7 of the 27 folder names on no subtype key
    plain = [f for f in CUAD_FOLDERS if normalize_label(f) not in CONTRACT_SUBTYPE_KEYS]
    assert len(plain) == 7
    for written in ("License_Agreements", "License Agreement", "licenses", "LICENSE"):
        assert normalize_subtype(written) == "license"
    assert normalize_subtype("Joint Venture _ Filing") == "joint_venture"
    assert normalize_subtype("Non_Compete_Non_Solicit") == "non_compete_no_solicit"
    assert normalize_subtype("Affiliate_Agreements") == normalize_subtype("Affiliate Agreement")


def test_subtype_accuracy_with_folder_gold(tmp_path: Path) -> None:
    """Gold = folder names; half the answers are the right family (as labels), half not."""
    records = [
        {"id": "a", "expected": "License_Agreements", "doc_type": "contract",
         "predicted": "License Agreement"},
        {"id": "b", "expected": "Affiliate_Agreements", "doc_type": "contract",
         "predicted": "supply"},
        {"id": "c", "expected": "Non_Compete_Non_Solicit", "doc_type": "contract",
         "predicted": "non_compete_no_solicit"},
        {"id": "d", "expected": "Consulting_Agreements", "doc_type": "contract",
         "predicted": "Service Agreement"},
    ]  # fmt: skip
    run = assay.score("subtype", pred=write_jsonl(tmp_path / "s.jsonl", records), ci=False)
    assert run.metrics["subtype_accuracy"].value == 0.5  # the seed's number (was 0.0)
    assert run.metrics["strict[license]"].value == 1.0


@pytest.mark.skipif(not MASTER.is_file(), reason=f"CUAD data not found at {MASTER}")
def test_cuad_file_name_types_normalize_to_their_family() -> None:
    tails = Counter(
        re.sub(
            r"\d+$", "", re.sub(r"\.pdf$", "", r["Filename"], flags=re.I).rsplit("_", 1)[-1]
        ).strip()
        for r in rows()
    )
    named = {t: n for t, n in tails.items() if re.fullmatch(r"[A-Za-z -]+ Agreement", t)}
    keys = {t: normalize_subtype(t) for t in named}
    resolved = sum(n for t, n in named.items() if keys[t] in CONTRACT_SUBTYPE_KEYS)
    assert keys["Co-Branding Agreement"] == "co_branding"
    assert keys["Content License Agreement"] == "license"
    assert keys["Affiliate Agreement"] == "affiliate"
    assert resolved / sum(named.values()) > 0.95
