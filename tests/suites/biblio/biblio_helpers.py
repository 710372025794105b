"""Builders of small paper exports for the biblio tests."""

from __future__ import annotations

import importlib.util
import json
import sys
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


def bibr_models() -> Any:
    """bibr's export models (AGPL; a reference only): loaded from an installed bibr, file by
    path, so bibr's heavy package imports are not run. None when bibr is not installed."""
    spec = importlib.util.find_spec("bibr")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "export" / "models.py"
    if not path.is_file():
        return None
    module_spec = importlib.util.spec_from_file_location("_bibr_export_models", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    sys.modules["_bibr_export_models"] = module
    module_spec.loader.exec_module(module)
    return module
