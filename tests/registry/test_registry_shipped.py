"""What seed 000 §0.1 ships: nine task bundles, 23 agent profiles, eight document-type bundles,
as package data validated against the registry, with the honesty rule."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from assay.errors import ConfigError
from assay.registry import build_registry, get_bundle, get_profile, validate_registry
from assay.registry.build import SHIPPED

TASK_BUNDLES = {"classification", "extraction", "extraction_open", "cost", "factuality",
                "laziness_detection", "audit", "reporter", "transcription"}  # fmt: skip
DOC_TYPES = {"contract", "merger_agreement", "corporate_record", "due_diligence",
             "correspondence", "compliance_filing", "court_opinion", "insurance_claim"}  # fmt: skip
SPECIALISTS = {"contracts_specialist", "corporate_records_specialist", "due_diligence_specialist",
               "correspondence_specialist", "compliance_specialist", "court_opinions_specialist",
               "insurance_claims_specialist"}  # fmt: skip
REVIEW_SET = {"sorter_reviewer", "contract_auditor", "corporate_records_auditor",
              "due_diligence_auditor", "correspondence_auditor", "compliance_auditor",
              "court_opinions_auditor", "arbiter"}  # fmt: skip
OTHERS = {"sorter", "judge", "boss", "reporter", "pdf_transcriber", "image_extractor",
          "archivist", "audit_agent"}  # fmt: skip


def _shipped(section: str) -> dict[str, object]:
    from importlib import resources

    out: dict[str, object] = {}
    for name in SHIPPED:
        data = yaml.safe_load(resources.files("assay.registry").joinpath(name).read_text("utf-8"))
        out.update(data.get(section) or {})
    return out


def test_the_shipped_files_hold_what_the_seed_names() -> None:
    assert set(_shipped("bundles")) == TASK_BUNDLES
    assert set(_shipped("doc_bundles")) == DOC_TYPES
    profiles = set(_shipped("profiles"))
    assert profiles == SPECIALISTS | REVIEW_SET | OTHERS
    assert len(profiles) == 23


def test_every_shipped_bundle_and_profile_resolves_against_the_registry() -> None:
    reg = build_registry()
    validate_registry(reg)  # also done by build_registry; explicit here
    for name in TASK_BUNDLES:
        bundle = get_bundle(reg, name)
        assert all(reg.lookup(m) is not None for m in bundle.metrics)
    assert "overall_extraction_score" in get_bundle(reg, "extraction").metrics
    assert get_bundle(reg, "laziness_detection").metrics == (
        "no_related_rate", "false_no_related_rate", "false_no_related_rate_paper",
    )  # fmt: skip
    for name in REVIEW_SET - {"sorter_reviewer"} | {"archivist", "audit_agent"}:
        assert get_profile(reg, name).ground_truth is False
    assert get_profile(reg, "sorter").ground_truth is True


@pytest.mark.parametrize("doc_type", sorted(DOC_TYPES))
def test_honesty_rule(doc_type: str) -> None:
    """A pending type declares its gap and lists no metric; a profile falls back explicitly."""
    reg = build_registry()
    bundle = get_bundle(reg, doc_type, doc=True)
    resolved = get_profile(reg, "sorter").resolve_doc_bundle(doc_type, reg)
    if bundle.pending:
        assert bundle.metrics == ()
        assert resolved.used_fallback and resolved.bundle.name == "classification"
        assert "pending" in resolved.reason
    else:
        assert bundle.metrics
        assert not resolved.used_fallback and resolved.bundle.name == doc_type
    real = {"contract", "merger_agreement", "court_opinion"}
    assert (bundle.pending is None) == (doc_type in real)


def test_a_specialist_resolves_its_document_type() -> None:
    reg = build_registry()
    contracts = get_profile(reg, "contracts_specialist")
    hit = contracts.resolve_doc_bundle("merger_agreement", reg)
    assert not hit.used_fallback and "subclass_accuracy" in hit.bundle.metrics
    claims = get_profile(reg, "insurance_claims_specialist").resolve_doc_bundle(
        "insurance_claim", reg
    )
    assert claims.used_fallback and claims.bundle.name == "extraction"
    other = contracts.resolve_doc_bundle("court_opinion", reg)
    assert other.used_fallback and "no bundle for 'court_opinion'" in other.reason


def test_a_bad_override_is_refused_at_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "r.yaml"
    bad.write_text("profiles:\n  sorter: {bundle: classification, doc_bundles: {x: nope}}\n")
    monkeypatch.setenv("ASSAY_REGISTRY", str(bad))
    with pytest.raises(ConfigError, match=r"doc_bundles\.x: unknown doc bundle 'nope'"):
        build_registry()
