"""Builders of small paper exports for the biblio tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def ref(
    title: str | None = None,
    *,
    doi: str | None = None,
    year: str | None = None,
    authors: tuple[str, ...] = (),
    container: str | None = None,
    volume: str | None = None,
    pages: str | None = None,
    raw: str | None = None,
) -> dict[str, Any]:
    return {
        "title": title,
        "doi": doi,
        "year": year,
        "authors": [{"family": a} for a in authors],
        "container": container,
        "volume": volume,
        "pages": pages,
        "raw": raw,
    }


def paper(
    title: str | None = "Placental programming of blood pressure in Indian children",
    *,
    doi: str | None = "10.1000/abc.1",
    abstract: str | None = "We studied blood pressure in children born in Mysore.",
    authors: tuple[tuple[str, str], ...] = (("Nicola", "Winder"), ("Ghattu", "Krishnaveni")),
    refs: list[dict[str, Any]] | None = None,
    keywords: tuple[str, ...] = (),
    abstained: tuple[str, ...] = (),
    block: str = "metadata",
    **extra: Any,
) -> dict[str, Any]:
    return {
        "schema_version": 11,
        block: {"title": title, "doi": doi, "abstract": abstract, "keywords": list(keywords)},
        "authors": [{"given": g, "family": f} for g, f in authors],
        "references": refs
        if refs is not None
        else [
            ref("Cutaneous metastatic disease", year="1995", authors=("Schwartz",)),
            ref("Tumor invasion of the skin", year="2008", authors=("Rolz-Cruz", "Kim")),
        ],
        "extraction": {"producer": "test", "abstained": list(abstained)},
        **extra,
    }


def write(dir_: Path, name: str, data: Any) -> Path:
    dir_.mkdir(parents=True, exist_ok=True)
    path = dir_ / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path
