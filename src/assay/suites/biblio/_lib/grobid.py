"""Run PDFs through a GROBID server: one TEI a paper, a failure record for each paper that did
not convert, and a manifest that pins what was run.

Each PDF goes to ``/api/processFulltextDocument`` with consolidation off (the evaluated
extractor is scored before enrichment) and raw citations and affiliations included. Transport
errors, timeouts, 429 and 5xx answers are retried with exponential backoff; other answers fail
the paper at once. ``manifest.json`` records the GROBID version (``/api/version``), the request
parameters, the image name if given, the paper ids, and each PDF's SHA-256, wall time and
attempts; it is rewritten after every paper, so an interrupted run can ``resume``.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from assay._io.decoding import read_bytes
from assay._io.paths import confined
from assay._io.strict import loads_lenient
from assay.errors import InputError, UsageError

__all__ = [
    "ENDPOINT",
    "REQUEST_PARAMS",
    "GrobidRunResult",
    "ResumeRefused",
    "grobid_version",
    "run_grobid",
]

ENDPOINT = "/api/processFulltextDocument"
#: consolidation off, printed reference and affiliation strings included
REQUEST_PARAMS: dict[str, str] = {
    "consolidateHeader": "0",
    "consolidateCitations": "0",
    "consolidateFunders": "0",
    "includeRawCitations": "1",
    "includeRawAffiliations": "1",
}
MANIFEST = "manifest.json"
_RETRY_STATUS = frozenset({429, 500, 502, 503, 504})


class ResumeRefused(UsageError):
    """--resume was asked to continue a run with other ids, version, parameters or image."""


@dataclass(frozen=True)
class GrobidRunResult:
    """What a run wrote: the manifest path and the ids that converted or failed."""

    manifest: Path
    converted: tuple[str, ...]
    failed: tuple[str, ...]
    skipped: tuple[str, ...]


def grobid_version(client: httpx.Client, base_url: str) -> str:
    """The version string the server reports at ``/api/version`` (plain text or JSON)."""
    try:
        response = client.get(f"{base_url}/api/version")
        response.raise_for_status()
    except httpx.HTTPError as err:
        raise InputError(f"{base_url}/api/version: GROBID did not answer: {err}") from None
    text = response.text.strip()
    try:
        data = loads_lenient(text)
    except ValueError:  # not JSON (or absurdly nested): the text is the version
        return text
    if isinstance(data, dict):
        return str(data.get("version") or text)
    return str(data)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _paper_ids(pdf_dir: Path, ids: Sequence[str] | None) -> list[str]:
    if not pdf_dir.is_dir():
        raise InputError(f"{pdf_dir}: no such PDF directory")
    if ids is not None:
        # an id names <pdf_dir>/<id>.pdf and <out>/<id>.tei.xml: never a path out of them
        return [confined(pdf_dir, i, what="paper id").name for i in dict.fromkeys(ids)]
    return sorted(p.stem for p in pdf_dir.glob("*.pdf") if p.is_file())


def _check_resume(
    manifest: dict[str, Any],
    *,
    ids: list[str],
    version: str,
    params: dict[str, str],
    image: str | None,
    path: Path,
) -> None:
    """Refuse other ids, another GROBID version, other parameters or another --grobid-image."""
    if manifest.get("ids") != ids:
        raise ResumeRefused(
            f"{path}: --resume refuses other paper ids: the run has {len(manifest.get('ids', []))}"
            f" ids, this call {len(ids)}; pass the --pdf-dir and --ids-file the run started with"
        )
    if manifest.get("grobid_version") != version:
        raise ResumeRefused(
            f"{path}: --resume refuses another GROBID version: the run used "
            f"{manifest.get('grobid_version')!r}, the server reports {version!r}"
        )
    if manifest.get("params") != params:
        raise ResumeRefused(
            f"{path}: --resume refuses other request parameters: the run used "
            f"{manifest.get('params')}, this call {params}"
        )
    if image is not None and manifest.get("grobid_image") != image:
        raise ResumeRefused(
            f"{path}: --resume refuses another --grobid-image: the run recorded "
            f"{manifest.get('grobid_image')!r}, this call {image!r}"
        )


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


def run_grobid(
    grobid_url: str,
    pdf_dir: Path,
    out_dir: Path,
    *,
    ids: Sequence[str] | None = None,
    resume: bool = False,
    grobid_image: str | None = None,
    concurrency: int = 2,
    retries: int = 3,
    backoff: float = 1.0,
    timeout: float = 180.0,
    params: dict[str, str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    transport: httpx.BaseTransport | None = None,
) -> GrobidRunResult:
    """Convert each paper's PDF (``<pdf_dir>/<id>.pdf``) to ``<out_dir>/<id>.tei.xml``.

    ``ids`` (an --ids-file) fixes the cohort; without it every PDF of ``pdf_dir`` enters the
    manifest. A paper that fails after ``retries`` retries (waits backoff·2^k) is recorded as
    failed and the run goes on. ``resume`` continues a run in ``out_dir`` (see _check_resume);
    without it an existing manifest is an error, so no run is overwritten by accident.
    """
    if concurrency < 1:
        raise UsageError(f"concurrency must be >= 1, got {concurrency}")
    if retries < 0:
        raise UsageError(f"retries must be >= 0, got {retries}")
    base = grobid_url.rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise UsageError(f"--grobid-url must start with http:// or https://, got {grobid_url!r}")
    request_params = dict(params if params is not None else REQUEST_PARAMS)
    paper_ids = _paper_ids(pdf_dir, ids)
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest_path = out_dir / MANIFEST
    client = httpx.Client(timeout=timeout, transport=transport)
    try:
        version = grobid_version(client, base)
        if manifest_path.exists():
            if not resume:
                raise UsageError(
                    f"{manifest_path} exists: pass --resume to continue that run, or use "
                    "another --out directory"
                )
            try:
                manifest = loads_lenient(read_bytes(manifest_path))
            except (OSError, ValueError) as err:  # unreadable, not JSON, beyond the limits
                raise InputError(f"{manifest_path}: unreadable manifest: {err}") from None
            _check_resume(
                manifest,
                ids=paper_ids,
                version=version,
                params=request_params,
                image=grobid_image,
                path=manifest_path,
            )
        else:
            manifest = {
                "tool": "grobid",
                "grobid_url": base,
                "grobid_version": version,
                "grobid_image": grobid_image,
                "endpoint": ENDPOINT,
                "params": request_params,
                "pdf_dir": str(pdf_dir),
                "ids": paper_ids,
                "papers": {},
                "started_at": _now(),
            }
        papers: dict[str, dict[str, Any]] = manifest.setdefault("papers", {})
        lock = threading.Lock()

        def save() -> None:
            manifest["updated_at"] = _now()
            manifest["n_ok"] = sum(1 for p in papers.values() if p.get("status") == "ok")
            manifest["n_failed"] = sum(1 for p in papers.values() if p.get("status") == "failed")
            _write_json(manifest_path, manifest)

        todo: list[str] = []
        skipped: list[str] = []
        for pid in paper_ids:
            done = papers.get(pid, {})
            if done.get("status") == "ok" and (out_dir / f"{pid}.tei.xml").is_file():
                skipped.append(pid)
            else:
                todo.append(pid)
        with lock:
            save()

        def convert(pid: str) -> dict[str, Any]:
            pdf = pdf_dir / f"{pid}.pdf"
            record: dict[str, Any] = {"pdf": str(pdf), "attempts": 0, "wall_time_s": 0.0}
            if not pdf.is_file():
                return {**record, "status": "failed", "sha256": None, "error": "no PDF file"}
            record["sha256"] = _sha256(pdf)
            data = pdf.read_bytes()
            start = time.monotonic()
            error = ""
            for attempt in range(retries + 1):
                record["attempts"] = attempt + 1
                try:
                    response = client.post(
                        base + ENDPOINT,
                        data=request_params,
                        files={"input": (pdf.name, data, "application/pdf")},
                    )
                except httpx.HTTPError as err:
                    error = f"{type(err).__name__}: {err}"
                else:
                    if response.status_code == 200:
                        (out_dir / f"{pid}.tei.xml").write_bytes(response.content)
                        record["wall_time_s"] = round(time.monotonic() - start, 3)
                        return {**record, "status": "ok", "tei": f"{pid}.tei.xml", "error": None}
                    error = f"HTTP {response.status_code}: {response.text[:200]}"
                    if response.status_code not in _RETRY_STATUS:
                        break
                if attempt < retries:
                    sleep(backoff * 2**attempt)
            record["wall_time_s"] = round(time.monotonic() - start, 3)
            return {**record, "status": "failed", "error": error}

        converted: list[str] = []
        failed: list[str] = []
        total = len(todo)
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            for n, (pid, record) in enumerate(
                zip(todo, pool.map(convert, todo), strict=True), start=1
            ):
                with lock:
                    papers[pid] = record
                    (converted if record["status"] == "ok" else failed).append(pid)
                    save()
                if progress:
                    progress(n, total)
        lines = [
            json.dumps({"id": pid, "error": p.get("error"), "attempts": p.get("attempts")})
            for pid, p in papers.items()
            if p.get("status") == "failed"
        ]
        (out_dir / "failures.jsonl").write_text("".join(x + "\n" for x in lines), encoding="utf-8")
        return GrobidRunResult(manifest_path, tuple(converted), tuple(failed), tuple(skipped))
    finally:
        client.close()
