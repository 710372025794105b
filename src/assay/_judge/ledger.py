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
    #: the model the endpoint named in its answer (None: it named none, or an old cache entry)
    answered_model: str | None = None

    def to_json(self) -> dict[str, Any]:
        return dict(vars(self))


class Ledger:
    """Thread-safe running totals of what a client spent, and the budget it may not pass.

    Dollars come only from counted tokens: a request whose answer carried no token counts (or
    zero prompt tokens, which no real prompt has), or that timed out, has an unknown cost, and
    so has one of a model without a price. Such a request is booked at its reservation against
    ``max_cost`` (the budget stays safe) but never shown as spent: the run's cost is then
    "unknown" (:func:`cost_line`).
    """

    def __init__(self, max_cost: float | None = None) -> None:
        self.max_cost = max_cost
        self._lock = threading.Lock()
        self._spent = 0.0  # from counted tokens only
        self._assumed = 0.0  # reservations kept for requests of unknown cost (budget only)
        self._reserved = 0.0
        self._calls: list[CallRecord] = []
        self.http_requests = 0
        self.uncounted_requests = 0
        self.unpriced_requests = 0
        self.input_tokens = 0  # counted, over every request sent (valid answers or not)
        self.output_tokens = 0

    @property
    def unknown_cost_requests(self) -> int:
        """Requests whose cost is unknown (no token counts, or no price)."""
        return self.uncounted_requests + self.unpriced_requests

    def reserve(self, estimate: float) -> float:
        """Hold ``estimate`` USD for a request about to start; refuse past the budget."""
        with self._lock:
            committed = self._spent + self._assumed
            if self.max_cost is not None and committed + self._reserved + estimate > (
                self.max_cost + 1e-12
            ):
                assumed = (
                    f" (+${self._assumed:.4f} assumed for requests of unknown cost)"
                    if self._assumed
                    else ""
                )
                raise BudgetExceededError(
                    f"judge budget: spent ${self._spent:.4f}{assumed} "
                    f"(+${self._reserved:.4f} in flight) of max_cost ${self.max_cost:.4f}; the "
                    f"next request could cost up to ${estimate:.4f}, so it was not sent"
                )
            self._reserved += estimate
            return estimate

    def release(self, reservation: float) -> None:
        """Release the reservation of a request that never reached the endpoint."""
        with self._lock:
            self._reserved -= reservation

    def settle(
        self, reservation: float, actual: float | None, tokens: tuple[int, int] | None = None
    ) -> None:
        """Release a reservation and book a sent request: its real cost ``actual`` and counted
        ``tokens`` (input, output). ``actual`` None: the cost is unknown, because the tokens
        were not counted (``tokens`` None: no usage, or no answer at all) or the model has no
        price; the reservation is then booked against the budget, and nothing is shown as
        spent."""
        with self._lock:
            self._reserved -= reservation
            self.http_requests += 1
            if tokens is not None:
                self.input_tokens += tokens[0]
                self.output_tokens += tokens[1]
            if actual is None:
                if tokens is None:
                    self.uncounted_requests += 1
                else:
                    self.unpriced_requests += 1
                if self.max_cost is not None:
                    self._assumed += reservation
            else:
                self._spent += actual

    def record(self, call: CallRecord) -> None:
        with self._lock:
            self._calls.append(call)

    @property
    def spent_usd(self) -> float:
        """USD from the counted tokens of the requests this client sent (cache hits are free;
        requests of unknown cost add nothing: see ``summary()["spent_usd"]``)."""
        with self._lock:
            return self._spent

    @property
    def calls(self) -> list[CallRecord]:
        with self._lock:
            return list(self._calls)

    def summary(self) -> dict[str, Any]:
        """Calls, cache hits, HTTP requests, tokens and USD spent by this client.

        Tokens and dollars are those of every request sent, whether its answer could be used
        or not. ``spent_usd`` is None when any request's cost is unknown
        (``uncounted_requests``: no token counts, or no answer; ``unpriced_requests``: no price
        for the model); ``counted_usd`` is then the cost of the others."""
        calls = self.calls
        with self._lock:
            spent, requests = self._spent, self.http_requests
            uncounted, unpriced = self.uncounted_requests, self.unpriced_requests
            tokens_in, tokens_out = self.input_tokens, self.output_tokens
        return {
            "calls": len(calls),
            "cache_hits": sum(1 for c in calls if c.cached),
            "http_requests": requests,
            "input_tokens": tokens_in,
            "output_tokens": tokens_out,
            "spent_usd": round(spent, 6) if not uncounted and not unpriced else None,
            "counted_usd": round(spent, 6),
            "uncounted_requests": uncounted,
            "unpriced_requests": unpriced,
            "unknown_cost_requests": uncounted + unpriced,
            "max_cost": self.max_cost,
            "answered_by": sorted({c.answered_model for c in calls if c.answered_model}),
        }


def cost_line(summary: dict[str, Any]) -> str:
    """What a run's requests cost, in words: dollars only from counted tokens.

    "$0.0465 spent"; "nothing spent (no request sent)"; "cost unknown (3 of 3 requests without
    token counts)"; or, when some were counted, "cost unknown (1 of 3 requests without token
    counts; $0.0310 for the other 2)".
    """
    requests = summary["http_requests"]
    uncounted, unpriced = summary["uncounted_requests"], summary["unpriced_requests"]
    if not requests:
        return "nothing spent (no request sent)"
    if not uncounted and not unpriced:
        return f"${summary['counted_usd']:.4f} spent"
    why = []
    if uncounted:
        why.append(f"{uncounted} of {requests} requests without token counts")
    if unpriced:
        why.append(f"{unpriced} of {requests} requests of a model without a price")
    known = requests - uncounted - unpriced
    if known and summary["counted_usd"]:
        why.append(f"${summary['counted_usd']:.4f} for the other {known}")
    return f"cost unknown ({'; '.join(why)})"
