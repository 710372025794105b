"""The GROBID runner against a fake GROBID server the tests start on 127.0.0.1: retries with
backoff, timeouts, failures that do not stop the run, the manifest and the --resume rules."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay._cli.biblio import biblio_group
from assay.errors import UsageError
from assay.suites.biblio._lib.grobid import REQUEST_PARAMS, ResumeRefused, run_grobid

TEI = b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader/></TEI>'


@dataclass
class FakeGrobid:
    """What the fake server does: per paper id, how many 503s before success, permanent
    failures, slow answers; it records every request it saw."""

    version: str = "0.8.1"
    busy: dict[str, int] = field(default_factory=dict)
    broken: set[str] = field(default_factory=set)
    rejected: set[str] = field(default_factory=set)
    slow: dict[str, int] = field(default_factory=dict)
    seen: list[tuple[str, bytes]] = field(default_factory=list)
    url: str = ""


def _handler(state: FakeGrobid) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def _send(self, code: int, body: bytes) -> None:
            self.send_response(code)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            if self.path == "/api/version":
                self._send(200, state.version.encode())
            else:
                self._send(404, b"")

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            pid = body.split(b'filename="', 1)[1].split(b".pdf", 1)[0].decode()
            state.seen.append((pid, body))
            if pid in state.rejected:
                self._send(400, b"bad request")
            elif pid in state.broken:
                self._send(500, b"internal error")
            elif state.busy.get(pid, 0) > 0:
                state.busy[pid] -= 1
                self._send(503, b"busy")
            elif state.slow.get(pid, 0) > 0:
                state.slow[pid] -= 1
                time.sleep(1.5)
                self._send(200, TEI)
            else:
                self._send(200, TEI.replace(b"<teiHeader/>", f"<teiHeader n='{pid}'/>".encode()))

    return Handler


@pytest.fixture
def grobid() -> Iterator[FakeGrobid]:
    state = FakeGrobid()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def pdfs(tmp_path: Path) -> Path:
    d = tmp_path / "pdfs"
    d.mkdir()
    for pid in ("a", "b", "c", "d"):
        (d / f"{pid}.pdf").write_bytes(b"%PDF-1.4 " + pid.encode())
    return d


def _run(grobid: FakeGrobid, pdfs: Path, out: Path, **kw: object) -> object:
    waits: list[float] = []
    kw.setdefault("sleep", waits.append)
    return run_grobid(grobid.url, pdfs, out, retries=2, backoff=0.5, timeout=0.5, **kw)  # type: ignore[arg-type]


def test_run_retries_fails_and_writes_manifest(
    grobid: FakeGrobid, pdfs: Path, tmp_path: Path
) -> None:
    grobid.busy = {"b": 2}  # two 503s then success
    grobid.broken = {"c"}  # 500 on every attempt
    grobid.slow = {"d": 1}  # first answer after the client timeout, then fine
    waits: list[float] = []
    out = tmp_path / "tei"
    result = run_grobid(
        grobid.url,
        pdfs,
        out,
        ids=["a", "b", "c", "d", "e"],
        retries=2,
        backoff=0.5,
        timeout=0.5,
        concurrency=2,
        sleep=waits.append,
    )
    assert sorted(result.converted) == ["a", "b", "d"]
    assert sorted(result.failed) == ["c", "e"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["grobid_version"] == "0.8.1"
    assert manifest["params"] == REQUEST_PARAMS
    assert manifest["ids"] == ["a", "b", "c", "d", "e"]
    papers = manifest["papers"]
    assert papers["b"]["attempts"] == 3 and papers["b"]["status"] == "ok"
    assert papers["c"]["attempts"] == 3 and "HTTP 500" in papers["c"]["error"]
    assert papers["d"]["attempts"] == 2 and papers["d"]["status"] == "ok"
    assert papers["e"]["error"] == "no PDF file" and papers["e"]["attempts"] == 0
    assert len(papers["a"]["sha256"]) == 64 and papers["a"]["wall_time_s"] >= 0
    assert sorted(waits) == sorted([0.5, 1.0, 0.5, 1.0, 0.5])  # b: 2 waits, c: 2, d: 1
    assert (out / "a.tei.xml").read_bytes().startswith(b"<TEI")
    assert not (out / "c.tei.xml").exists()
    failures = [json.loads(x) for x in (out / "failures.jsonl").read_text().splitlines()]
    assert {f["id"] for f in failures} == {"c", "e"}
    # every request asked for no consolidation and for the raw strings
    for _, body in grobid.seen:
        assert b'name="consolidateCitations"\r\n\r\n0' in body
        assert b'name="includeRawCitations"\r\n\r\n1' in body


def test_client_errors_are_not_retried(grobid: FakeGrobid, pdfs: Path, tmp_path: Path) -> None:
    grobid.rejected = {"a"}
    out = tmp_path / "tei"
    result = run_grobid(grobid.url, pdfs, out, ids=["a", "b"], sleep=lambda s: None)
    assert result.failed == ("a",) and result.converted == ("b",)
    paper = json.loads((out / "manifest.json").read_text())["papers"]["a"]
    assert paper["attempts"] == 1 and "HTTP 400" in paper["error"]


def test_resume_continues_only_unfinished(grobid: FakeGrobid, pdfs: Path, tmp_path: Path) -> None:
    out = tmp_path / "tei"
    grobid.broken = {"c"}
    _run(grobid, pdfs, out, ids=["a", "b", "c"])
    grobid.broken = set()
    before = len(grobid.seen)
    result = _run(grobid, pdfs, out, ids=["a", "b", "c"], resume=True)
    assert result.skipped == ("a", "b")  # type: ignore[attr-defined]
    assert result.converted == ("c",)  # type: ignore[attr-defined]
    assert [pid for pid, _ in grobid.seen[before:]] == ["c"]


def test_existing_manifest_needs_resume(grobid: FakeGrobid, pdfs: Path, tmp_path: Path) -> None:
    out = tmp_path / "tei"
    _run(grobid, pdfs, out, ids=["a"])
    with pytest.raises(UsageError, match="--resume"):
        _run(grobid, pdfs, out, ids=["a"])


def test_resume_refusals(grobid: FakeGrobid, pdfs: Path, tmp_path: Path) -> None:
    out = tmp_path / "tei"
    _run(grobid, pdfs, out, ids=["a", "b"])
    with pytest.raises(ResumeRefused, match="other paper ids"):
        _run(grobid, pdfs, out, ids=["a", "b", "c"], resume=True)
    with pytest.raises(ResumeRefused, match="other request parameters"):
        _run(
            grobid,
            pdfs,
            out,
            ids=["a", "b"],
            resume=True,
            params={**REQUEST_PARAMS, "consolidateHeader": "1"},
        )
    # an image given on resume when the first run named none is refused
    with pytest.raises(ResumeRefused, match="grobid-image"):
        _run(grobid, pdfs, out, ids=["a", "b"], resume=True, grobid_image="grobid/grobid:0.8.1")
    grobid.version = "0.8.2"
    with pytest.raises(ResumeRefused, match="another GROBID version"):
        _run(grobid, pdfs, out, ids=["a", "b"], resume=True)


def test_resume_image_rules(grobid: FakeGrobid, pdfs: Path, tmp_path: Path) -> None:
    out = tmp_path / "tei"
    _run(grobid, pdfs, out, ids=["a"], grobid_image="lfoppiano/grobid:0.8.1-crf")
    with pytest.raises(ResumeRefused, match="grobid-image"):
        _run(grobid, pdfs, out, ids=["a"], resume=True, grobid_image="grobid/grobid:0.8.1-full")
    _run(grobid, pdfs, out, ids=["a"], resume=True, grobid_image="lfoppiano/grobid:0.8.1-crf")
    _run(grobid, pdfs, out, ids=["a"], resume=True)  # no image: the recorded one is kept
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["grobid_image"] == "lfoppiano/grobid:0.8.1-crf"


def test_cli_grobid_run_then_tei(grobid: FakeGrobid, pdfs: Path, tmp_path: Path) -> None:
    ids = tmp_path / "cohort.txt"
    ids.write_text("# cohort\na\nb\n")
    out = tmp_path / "tei"
    result = CliRunner().invoke(
        biblio_group,
        [
            "grobid-run",
            "--grobid-url",
            grobid.url,
            "--pdf-dir",
            str(pdfs),
            "--ids-file",
            str(ids),
            "--out",
            str(out),
            "--backoff",
            "0",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads((out / "manifest.json").read_text())["ids"] == ["a", "b"]
    conv = CliRunner().invoke(
        biblio_group, ["grobid-tei", "--tei-dir", str(out), "--out", str(tmp_path / "json")]
    )
    # the fake TEI has an empty header: both convert (no metadata), nothing crashes
    assert conv.exit_code == 0, conv.output
    assert sorted(p.name for p in (tmp_path / "json").glob("*.json")) == [
        "a.json",
        "b.json",
        "run_info.json",
    ]
