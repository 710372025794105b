"""Token and cost accounting per call, and the ``max_cost`` budget.

Before a request starts, its worst-case cost (estimated prompt tokens at ``chars_per_token``
plus ``max_tokens`` of output) is reserved; a request whose reservation would take spending past
the budget is refused, so a run stops *before* exceeding it. When the answer arrives the
reservation is replaced by the real cost from the reported token usage.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from assay._judge.errors import BudgetExceededError


@dataclass(frozen=True)
class CallRecord:
    """One logical judge call: tokens and cost over all its attempts, or a cache hit (cost 0
    now; ``cost_usd`` is what the answer cost when it was obtained)."""

    model: str
    prompt: str
    prompt_version: int
    cache_key: str
    input_tokens: int | None
    output_tokens: int | None
    cost_usd: float | None
    cached: bool
    attempts: int
    invalid_answers: int = 0

    def to_json(self) -> dict[str, Any]:
        return dict(vars(self))


class Ledger:
    """Thread-safe running totals of what a client spent, and the budget it may not pass."""

    def __init__(self, max_cost: float | None = None) -> None:
        self.max_cost = max_cost
        self._lock = threading.Lock()
        self._spent = 0.0
        self._reserved = 0.0
        self._calls: list[CallRecord] = []
        self.http_requests = 0
        self.unknown_cost_requests = 0

    def reserve(self, estimate: float) -> float:
        """Hold ``estimate`` USD for a request about to start; refuse past the budget."""
        with self._lock:
            if self.max_cost is not None and self._spent + self._reserved + estimate > (
                self.max_cost + 1e-12
            ):
                raise BudgetExceededError(
                    f"judge budget: spent ${self._spent:.4f} (+${self._reserved:.4f} in flight) "
                    f"of max_cost ${self.max_cost:.4f}; the next request could cost up to "
                    f"${estimate:.4f}, so it was not sent"
                )
            self._reserved += estimate
            return estimate

    def settle(self, reservation: float, actual: float | None) -> None:
        """Release a reservation and book the real cost (the reservation when unknown)."""
        with self._lock:
            self._reserved -= reservation
            self.http_requests += 1
            if actual is None:
                self.unknown_cost_requests += 1
                if self.max_cost is not None:
                    self._spent += reservation
            else:
                self._spent += actual

    def record(self, call: CallRecord) -> None:
        with self._lock:
            self._calls.append(call)

    @property
    def spent_usd(self) -> float:
        """USD spent by requests this client sent (cache hits are free)."""
        with self._lock:
            return self._spent

    @property
    def calls(self) -> list[CallRecord]:
        with self._lock:
            return list(self._calls)

    def summary(self) -> dict[str, Any]:
        """Calls, cache hits, HTTP requests, tokens and USD spent by this client."""
        calls = self.calls
        fresh = [c for c in calls if not c.cached]
        return {
            "calls": len(calls),
            "cache_hits": len(calls) - len(fresh),
            "http_requests": self.http_requests,
            "input_tokens": sum(c.input_tokens or 0 for c in fresh),
            "output_tokens": sum(c.output_tokens or 0 for c in fresh),
            "spent_usd": round(self.spent_usd, 6),
            "unknown_cost_requests": self.unknown_cost_requests,
            "max_cost": self.max_cost,
        }
