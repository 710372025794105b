"""The emitter: registry-validated scores to a JSONL manifest and an OTLP (Langfuse / OTel)
sink that is inert without credentials; unknown and None names come back as skipped."""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.run import Run
from assay.registry import (
    Emitter,
    LocalManifestSink,
    OtlpSink,
    Skipped,
    build_emitter,
    build_registry,
)


def test_emit_validates_and_skips(tmp_path: Path, labels_run: Run) -> None:
    reg = build_registry(runs=[labels_run])
    manifest = tmp_path / "m" / "scores.jsonl"
    em = build_emitter(reg, manifest)
    ok = em.emit_score("classification", "r1", "exact_match", 0.75)
    assert not isinstance(ok, Skipped) and ok.tier == "T0"
    outcome = em.emit_run_scores(
        "classification",
        "r1",
        {"failure": 0.1, "brand_new_kpi": 0.5, "macro_accuracy": None, "accuracy[memo]": 1.0},
    )
    assert [r.name for r in outcome.emitted] == ["failure", "accuracy[memo]"]
    assert {(s.name, s.reason.split(" (")[0]) for s in outcome.skipped} == {
        ("brand_new_kpi", "not in the registry"),
        ("macro_accuracy", "no value"),
    }
    assert isinstance(em.emit_score("a", "r", "exact_match", float("nan")), Skipped)
    lines = [json.loads(x) for x in manifest.read_text().splitlines()]
    assert [x["name"] for x in lines] == ["exact_match", "failure", "accuracy[memo]"]

    fresh = Emitter(reg, [LocalManifestSink(manifest)])  # reads back from the manifest
    card = fresh.get_scorecard("classification", "r1", min_tier="T1")
    assert list(card) == ["exact_match", "failure"]
    assert list(fresh.get_scorecard("classification", "r1", min_tier="T2")) == [
        "accuracy[memo]",
        "exact_match",
        "failure",
    ]


def test_emit_run_and_compare_headlines(tmp_path: Path, labels_run: Run) -> None:
    reg = build_registry(runs=[labels_run])
    em = build_emitter(reg, tmp_path / "s.jsonl")
    out = em.emit_run(labels_run)
    assert {r.name for r in out.emitted} == set(labels_run.metrics)
    other = labels_run.model_copy(
        update={
            "run_id": "other",
            "metrics": {
                k: m.model_copy(update={"value": (m.value or 0) - 0.1})
                for k, m in labels_run.metrics.items()
            },
        }
    )
    em.emit_run(other)
    deltas = em.compare_headlines("classification", labels_run.run_id, "other")
    assert [d.name for d in deltas] == ["exact_match", "macro_accuracy"]
    assert all(abs((d.delta or 0) - 0.1) < 1e-12 for d in deltas)
    rec = em.get_scorecard("classification", labels_run.run_id)["exact_match"]
    assert rec.ci_lower is None and rec.n == 12


def test_otlp_sink_is_inert_without_credentials() -> None:
    sink = OtlpSink(env={})
    assert not sink.active
    assert sink.status.startswith("inactive: no LANGFUSE_PUBLIC_KEY")
    assert "only one of" in OtlpSink(env={"LANGFUSE_PUBLIC_KEY": "pk"}).status


class _Collector(BaseHTTPRequestHandler):
    received: ClassVar[list[tuple[str, dict[str, str], Any]]] = []
    status = 200

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append((self.path, dict(self.headers), json.loads(body)))
        self.send_response(type(self).status)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return None


def _collector() -> tuple[ThreadingHTTPServer, str]:
    _Collector.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def test_otlp_sink_posts_spans(labels_run: Run) -> None:
    server, url = _collector()
    try:
        reg = build_registry(runs=[labels_run])
        sink = OtlpSink(env={"OTEL_EXPORTER_OTLP_ENDPOINT": url})
        em = Emitter(reg, [sink])
        em.emit_score("classification", "r1", "exact_match", 0.9, ci_lower=0.8, ci_upper=0.95)
        em.emit_score("classification", "r1", "nope", 0.9)
        em.flush()
        path, _, payload = _Collector.received[0]
        assert path == "/v1/traces"
        span = payload["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
        attrs = {a["key"]: a["value"] for a in span["attributes"]}
        assert attrs["assay.score.name"] == {"stringValue": "exact_match"}
        assert attrs["assay.score.value"] == {"doubleValue": 0.9}
        assert len(span["traceId"]) == 32 and len(span["spanId"]) == 16
        assert "1 score(s) sent" in em.status()["otlp"]

        lf = OtlpSink(
            env={"LANGFUSE_PUBLIC_KEY": "pk-1", "LANGFUSE_SECRET_KEY": "sk-2", "LANGFUSE_HOST": url}
        )
        Emitter(reg, [lf]).emit_score("classification", "r2", "exact_match", 0.5)
        lf.flush()
        path, headers, _ = _Collector.received[1]
        assert path == "/api/public/otel/v1/traces"
        assert headers["Authorization"] == "Basic " + base64.b64encode(b"pk-1:sk-2").decode()
        assert "sk-2" not in lf.status

        _Collector.status = 500
        lf.write([em.records[0]])
        lf.flush()
        assert "HTTP 500" in lf.status and "sk-2" not in lf.status
    finally:
        _Collector.status = 200
        server.shutdown()
