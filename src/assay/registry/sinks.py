"""Where emitted scores go: a local JSONL manifest, and an OpenTelemetry (OTLP/HTTP JSON) sink
that also serves Langfuse's OTLP endpoint. The OTLP sink is inert, and says so, without an
endpoint or credentials in the environment; secrets are read from the environment only and
never written anywhere."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import httpx

from assay._io.strict import loads_lenient
from assay.errors import InputError


@dataclass(frozen=True)
class ScoreRecord:
    """One emitted score: which agent and run, which metric, its value and (optional) CI."""

    agent: str
    run_id: str
    name: str
    value: float
    tier: str
    unit: str
    timestamp: str
    item_id: str | None = None
    ci_lower: float | None = None
    ci_upper: float | None = None
    n: int | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["metadata"] = dict(self.metadata)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ScoreRecord:
        return cls(**{**data, "metadata": dict(data.get("metadata") or {})})


class Sink(Protocol):
    """A destination for score records."""

    name: str

    @property
    def active(self) -> bool: ...

    @property
    def status(self) -> str: ...

    def write(self, records: Sequence[ScoreRecord]) -> None: ...

    def flush(self) -> None: ...


class LocalManifestSink:
    """Appends one JSON line per score to a manifest file (created with its folder)."""

    name = "manifest"

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()

    @property
    def active(self) -> bool:
        return True

    @property
    def status(self) -> str:
        return f"active: appending to {self.path}"

    def write(self, records: Sequence[ScoreRecord]) -> None:
        if not records:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lines = "".join(
            json.dumps(r.to_json(), ensure_ascii=False, sort_keys=True) + "\n" for r in records
        )
        with self._lock, self.path.open("a", encoding="utf-8") as fh:
            fh.write(lines)

    def flush(self) -> None:
        return None

    def read(self) -> list[ScoreRecord]:
        """Every record in the manifest; a corrupt line is an error naming the line."""
        if not self.path.exists():
            return []
        records = []
        for n, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append(ScoreRecord.from_json(loads_lenient(line)))
            except (ValueError, TypeError) as err:  # not JSON, beyond the limits, not a record
                raise InputError(f"{self.path}:{n}: not a score record: {err}") from None
        return records


def _otlp_value(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    return {"stringValue": str(value)}


def _nanos(timestamp: str) -> str:
    return str(int(datetime.fromisoformat(timestamp).timestamp() * 1_000_000_000))


class OtlpSink:
    """Scores as OTLP spans (one trace per agent and run) POSTed as JSON on ``flush``.

    Configured from the environment: ``LANGFUSE_PUBLIC_KEY`` + ``LANGFUSE_SECRET_KEY`` (and
    ``LANGFUSE_HOST``) target Langfuse's OTLP endpoint; else ``OTEL_EXPORTER_OTLP_ENDPOINT``
    (or ``..._TRACES_ENDPOINT``, with ``OTEL_EXPORTER_OTLP_HEADERS``) any OTel collector such
    as Arize Phoenix. With neither it is inert and ``status`` says why.
    """

    name = "otlp"

    def __init__(
        self,
        *,
        env: Mapping[str, str] | None = None,
        client: httpx.Client | None = None,
        timeout: float = 10.0,
    ) -> None:
        env = os.environ if env is None else env
        self._endpoint: str | None = None
        self._headers: dict[str, str] = {"Content-Type": "application/json"}
        self._reason = ""
        self.backend = "none"
        public, secret = env.get("LANGFUSE_PUBLIC_KEY"), env.get("LANGFUSE_SECRET_KEY")
        if public and secret:
            host = env.get("LANGFUSE_HOST", "https://cloud.langfuse.com").rstrip("/")
            token = base64.b64encode(f"{public}:{secret}".encode()).decode("ascii")
            self._endpoint = f"{host}/api/public/otel/v1/traces"
            self._headers["Authorization"] = f"Basic {token}"
            self.backend = "langfuse"
        elif env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or env.get(
            "OTEL_EXPORTER_OTLP_ENDPOINT"
        ):
            traces = env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
            base = env.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").rstrip("/")
            self._endpoint = traces or f"{base}/v1/traces"
            for pair in env.get("OTEL_EXPORTER_OTLP_HEADERS", "").split(","):
                if "=" in pair:
                    key, value = pair.split("=", 1)
                    self._headers[key.strip()] = value.strip()
            self.backend = "otlp"
        elif public or secret:
            self._reason = "only one of LANGFUSE_PUBLIC_KEY / LANGFUSE_SECRET_KEY is set"
        else:
            self._reason = (
                "no LANGFUSE_PUBLIC_KEY/LANGFUSE_SECRET_KEY or OTEL_EXPORTER_OTLP_ENDPOINT "
                "in the environment"
            )
        self._client = client
        self._timeout = timeout
        self._buffer: list[ScoreRecord] = []
        self._lock = threading.Lock()
        self.sent = 0
        self.last_error: str | None = None

    @property
    def active(self) -> bool:
        return self._endpoint is not None

    @property
    def status(self) -> str:
        if not self.active:
            return f"inactive: {self._reason}; scores are not sent"
        state = f"active ({self.backend}): {self.sent} score(s) sent to {self._endpoint}"
        return state + (f"; last error: {self.last_error}" if self.last_error else "")

    def write(self, records: Sequence[ScoreRecord]) -> None:
        if self.active:
            with self._lock:
                self._buffer.extend(records)

    def payload(self, records: Sequence[ScoreRecord]) -> dict[str, Any]:
        """The OTLP/JSON ``ExportTraceServiceRequest`` for ``records``."""
        spans = []
        for r in records:
            trace = hashlib.sha256(f"{r.agent}\0{r.run_id}".encode()).hexdigest()[:32]
            span = hashlib.sha256(
                f"{r.agent}\0{r.run_id}\0{r.name}\0{r.item_id}\0{r.timestamp}".encode()
            ).hexdigest()[:16]
            attrs = {
                "assay.agent": r.agent,
                "assay.run_id": r.run_id,
                "assay.score.name": r.name,
                "assay.score.value": r.value,
                "assay.score.tier": r.tier,
                "assay.score.unit": r.unit,
            }
            if r.item_id is not None:
                attrs["assay.item_id"] = r.item_id
            if r.ci_lower is not None and r.ci_upper is not None:
                attrs["assay.score.ci_lower"] = r.ci_lower
                attrs["assay.score.ci_upper"] = r.ci_upper
            t = _nanos(r.timestamp)
            spans.append(
                {
                    "traceId": trace,
                    "spanId": span,
                    "name": f"score {r.name}",
                    "kind": 1,
                    "startTimeUnixNano": t,
                    "endTimeUnixNano": t,
                    "attributes": [{"key": k, "value": _otlp_value(v)} for k, v in attrs.items()],
                }
            )
        return {
            "resourceSpans": [
                {
                    "resource": {
                        "attributes": [{"key": "service.name", "value": {"stringValue": "assay"}}]
                    },
                    "scopeSpans": [{"scope": {"name": "assay.registry"}, "spans": spans}],
                }
            ]
        }

    def flush(self) -> None:
        """POST the buffered scores; a failure is kept in ``last_error`` (never the secrets)."""
        with self._lock:
            records, self._buffer = self._buffer, []
        if not records or self._endpoint is None:
            return
        client = self._client or httpx.Client(timeout=self._timeout)
        try:
            response = client.post(
                self._endpoint, headers=self._headers, json=self.payload(records)
            )
            if response.status_code >= 300:
                self.last_error = f"HTTP {response.status_code} from {self._endpoint}"
            else:
                self.sent += len(records)
                self.last_error = None
        except httpx.HTTPError as err:
            self.last_error = f"{type(err).__name__} posting to {self._endpoint}"
        finally:
            if self._client is None:
                client.close()
