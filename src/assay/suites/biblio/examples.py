"""Small bibr-shaped examples for the biblio suite, written by assay (no bibr output is copied).

``write_demo(out)`` writes three invented papers as gold (assay's own export shape) and the same
predictions in every dialect the suite reads, so each can be scored and compared:

- ``gold/<id>.json``: gold exports (``assay-11``);
- ``pred-assay/``, ``pred-bibr12/``, ``pred-bibr11/``, ``pred-bibr10/``: one prediction a paper
  in assay's shape, bibr 12.2, bibr 11.0 and bibr before 11 (``info``), the same content each;
- ``section-gold/<id>.sectiongold.json``: bibr's section-gold artifacts;
- ``expected.json``: the cohort (``{"members": [...]}``), with one paper nobody predicted.

The predictions differ from gold the way extractors do (a dropped author, an abbreviated page
range, a lost reference), so the scores are not all 1.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["write_demo"]


@dataclass(frozen=True)
class _Author:
    given: str
    family: str
    affiliations: tuple[str, ...] = ()
    email: str | None = None
    corresponding: bool = False
    orcid: str | None = None


@dataclass(frozen=True)
class _Ref:
    printed: str  # the author list as printed
    families: tuple[str, ...]
    title: str
    year: int
    container: str
    volume: str
    first_page: str
    last_page: str
    doi: str | None = None


@dataclass(frozen=True)
class _Paper:
    id: str
    title: str
    doi: str
    abstract: str
    keywords: tuple[str, ...]
    authors: tuple[_Author, ...]
    refs: tuple[_Ref, ...]
    sections: tuple[tuple[str, str, tuple[str, ...]], ...] = field(default=())


_ORCID = "https://orcid.org/0000-0002-1825-0097"
_LAB = "Department of Soil Biology, University of Utrecht, The Netherlands"
_REFS = (
    _Ref(
        "Smith, J., & Okafor, C.",
        ("Smith", "Okafor"),
        "Nitrogen cycling in temperate grassland soils",
        2018,
        "Soil Biology and Biochemistry",
        "120",
        "45",
        "53",
        "10.5555/sbb.2018.045",
    ),
    _Ref(
        "Müller, A.",
        ("Müller",),
        "Earthworm activity and litter decomposition",
        2015,
        "Pedobiologia",
        "58",
        "161",
        "182",
    ),
    _Ref(
        "Tanaka, H., Ito, K., & Berg, M.",
        ("Tanaka", "Ito", "Berg"),
        "Fungal networks under drought",
        2020,
        "Ecology Letters",
        "23",
        "1001",
        "1012",
        "10.5555/ele.2020.1001",
    ),
)
_GOLD = (
    _Paper(
        "soil-001",
        "Microbial respiration after rewetting of dry grassland soils",
        "10.5555/demo.2021.001",
        "Rewetting a dry soil releases a pulse of carbon dioxide. We measured it in 40 plots.",
        ("soil respiration", "drought"),
        (
            _Author("Nicole", "King", (_LAB,), "n.king@uu.example", True, _ORCID),
            _Author("Pieter", "van der Berg", (_LAB,)),
            _Author("Ana", "Lima", ("Instituto de Biologia, Lisboa, Portugal",)),
        ),
        _REFS,
        (
            ("intro", "Introduction", ("Soils dry and rewet.", "The pulse is large.")),
            ("method", "Methods", ("We sampled forty plots in June.",)),
        ),
    ),
    _Paper(
        "soil-002",
        "Earthworms and the fate of leaf litter",
        "10.5555/demo.2021.002",
        "Earthworms bury litter. We followed labelled leaves for two years.",
        ("earthworms",),
        (_Author("Jonas", "Weber", (_LAB,), "j.weber@uu.example", True),),
        _REFS[:2],
    ),
    _Paper(
        "soil-003",
        "Fungal hyphae bridge dry soil pores",
        "10.5555/demo.2021.003",
        "Hyphae move water across air-filled pores.",
        (),
        (_Author("Mei", "Chen"),),
        _REFS[2:],
    ),
)


def _predicted(gold: _Paper) -> _Paper:
    """What an extractor made of the paper: the first paper loses its last author and prints an
    initial, and its second reference's range is abbreviated (161-82); the second loses its
    keywords (a diagnostic: it still passes the floors)."""
    if gold.id == "soil-001":
        authors = (
            _Author("N.", "King", (_LAB,), "n.king@uu.example", True, _ORCID),
            _Author("Pieter", "van der Berg", (_LAB,)),
        )
        refs = list(gold.refs)
        refs[1] = _Ref(**{**refs[1].__dict__, "last_page": "82"})
        return _Paper(**{**gold.__dict__, "authors": authors, "refs": tuple(refs)})
    if gold.id == "soil-002":
        return _Paper(**{**gold.__dict__, "keywords": ()})
    return gold


# ----------------------------------------------------------------------------- writers


def _assay(p: _Paper) -> dict[str, Any]:
    return {
        "schema_version": 11,
        "metadata": {
            "title": p.title,
            "doi": p.doi,
            "abstract": p.abstract,
            "keywords": list(p.keywords),
        },
        "authors": [
            {
                "given": a.given,
                "family": a.family,
                "affiliations": list(a.affiliations),
                "email": a.email,
                "orcid": a.orcid,
                "corresponding": a.corresponding,
            }
            for a in p.authors
        ],
        "references": [
            {
                "doi": r.doi,
                "title": r.title,
                "year": str(r.year),
                "authors": [{"family": f} for f in r.families],
                "authors_text": r.printed,
                "container": r.container,
                "volume": r.volume,
                "pages": f"{r.first_page}-{r.last_page}",
            }
            for r in p.refs
        ],
        "sections": [
            {"type": kind, "title": header, "text": "\n".join(rows)}
            for kind, header, rows in p.sections
        ],
        "extraction": {"producer": "demo-extractor", "producer_version": "1.0"},
    }


def _text_tables(p: _Paper) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    sections: list[dict[str, Any]] = []
    texts: list[dict[str, Any]] = []
    for sid, (kind, header, rows) in enumerate(p.sections, start=1):
        sections.append(
            {
                "section_id": sid,
                "header": header,
                "level": 1,
                "parent_section_id": None,
                "section_type": kind,
            }
        )
        for row in rows:
            texts.append(
                {
                    "text": row,
                    "text_id": len(texts) + 1,
                    "paragraph_id": sid,
                    "section_id": sid,
                    "page_number": 1,
                }
            )
    return sections, texts


def _affiliation_table(p: _Paper) -> list[dict[str, Any]]:
    rows: dict[str, list[int]] = {}
    for aid, a in enumerate(p.authors, start=1):
        for text in a.affiliations:
            rows.setdefault(text, []).append(aid)
    return [
        {"affiliation_id": i, "text": text, "author_ids": ids}
        for i, (text, ids) in enumerate(rows.items(), start=1)
    ]


def _bib(p: _Paper, *, structured: bool) -> list[dict[str, Any]]:
    out = []
    for i, r in enumerate(p.refs, start=1):
        row: dict[str, Any] = {
            "bib_id": i,
            "doi": r.doi,
            "title": r.title,
            "authors": r.printed,
            "year": r.year,
            "container": r.container,
            "volume": r.volume,
            "first_page": r.first_page,
            "last_page": r.last_page,
        }
        if structured:  # bibr 11 carries the best-effort split beside the printed string
            row["author"] = [{"family": f} for f in r.families]
        out.append(row)
    return out


def _bibr12(p: _Paper) -> dict[str, Any]:
    sections, texts = _text_tables(p)
    return {
        "paper_id": p.id,
        "schema_version": "12.2",
        "source": {"file_name": f"{p.id}.pdf", "sha256": None, "input_format": "pdf"},
        "metadata": {
            "title": p.title,
            "abstract": p.abstract,
            "keywords": list(p.keywords),
            "doi": p.doi,
        },
        "author": [
            {
                "author_id": i,
                "given": a.given,
                "family": a.family,
                "email": a.email,
                "orcid": a.orcid,
                "corresponding": a.corresponding,
            }
            for i, a in enumerate(p.authors, start=1)
        ],
        "affiliation": _affiliation_table(p),
        "funding": [],
        "text": texts,
        "section": sections,
        "url": [],
        "bib": _bib(p, structured=False),
        "xref": [],
        "figure": [],
        "table": [],
        "footnote": [],
        "eq": [],
        "extraction": {
            "producer": {"name": "demo-extractor", "version": "1.0"},
            "converter": None,
            "completed_at": "2026-01-15T09:30:00Z",
            "warnings": [],
        },
    }


def _bibr11(p: _Paper, *, legacy: bool = False) -> dict[str, Any]:
    sections, texts = _text_tables(p)
    meta: dict[str, Any] = {
        "title": p.title,
        "abstract": p.abstract,
        "keywords": list(p.keywords),
        "doi": p.doi,
    }
    authors = [
        {
            "given": a.given,
            "family": a.family,
            "email": a.email or "",
            "orcid": a.orcid or "",
            "corresponding": a.corresponding,
            "affiliation": "; ".join(a.affiliations),
        }
        for a in p.authors
    ]
    if legacy:  # before 11: no root schema_version, the metadata block is ``info``
        meta["schema_version"] = "10.9"
        meta["file_name"] = f"{p.id}.pdf"
        return {
            "paper_id": p.doi,
            "info": meta,
            "author": authors,
            "bib": _bib(p, structured=True),
            "section": sections,
            "text": texts,
        }
    return {
        "paper_id": p.id,
        "schema_version": "11.0",
        "source": {"file_name": f"{p.id}.pdf", "file_hash": None, "input_format": "pdf"},
        "metadata": meta,
        "author": authors,
        "affiliation": _affiliation_table(p),
        "bib": _bib(p, structured=True),
        "section": sections,
        "text": texts,
        "extraction": {"bibr_version": "0.6.0"},
    }


def _section_gold(p: _Paper) -> dict[str, Any]:
    return {
        "paper_id": p.id,
        "text_layer_usable": True,
        "sections": {
            kind: {"text": "\n".join(rows), "provenance": "header", "pages": [1]}
            for kind, _, rows in p.sections
        },
        "unanchored": [],
    }


def _write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def write_demo(out: Path) -> list[Path]:
    """Write the gold, the predictions in four dialects, the section gold and the cohort file
    under ``out``; return the paths written (deterministic bytes)."""
    out = Path(out)
    paths: list[Path] = []
    for gold in _GOLD:
        paths.append(_write(out / "gold" / f"{gold.id}.json", _assay(gold)))
        if gold.sections:
            paths.append(
                _write(out / "section-gold" / f"{gold.id}.sectiongold.json", _section_gold(gold))
            )
        if gold.id == "soil-003":
            continue  # nobody predicted this one: --expected-ids keeps it as missing
        pred = _predicted(gold)
        paths.append(_write(out / "pred-assay" / f"{pred.id}.json", _assay(pred)))
        paths.append(_write(out / "pred-bibr12" / f"{pred.id}.json", _bibr12(pred)))
        paths.append(_write(out / "pred-bibr11" / f"{pred.id}.json", _bibr11(pred)))
        paths.append(_write(out / "pred-bibr10" / f"{pred.id}.json", _bibr11(pred, legacy=True)))
    members = [g.id for g in _GOLD]
    paths.append(_write(out / "expected.json", {"members": members}))
    return paths
