"""What the judge client raises. Messages never contain the API key.

Two kinds of failure, handled differently by every caller:

- the **answer** could not be used (``JudgeOutputError``: malformed, truncated, empty, failing
  its check; ``JudgeHTTPError`` with a 4xx other than 401/403/404: the endpoint refused this
  request): that item's listed failure, and the run goes on;
- the **endpoint** or the **run** cannot go on (``FATAL_ERRORS``): the endpoint is down or never
  answers (``JudgeUnavailableError``: a request's retries or the run's retry budget spent), it
  refused us as a whole or answered as another model (``JudgeConfigError``), or the budget is
  spent (``BudgetExceededError``). The run stops; nothing is scored as if it had been answered.
"""

from __future__ import annotations

from assay.errors import AssayError, ConfigError


class JudgeError(AssayError):
    """A judge request failed after its retries (the item it served is a failure)."""


class JudgeHTTPError(JudgeError):
    """The endpoint answered with an error status that retries did not cure."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class JudgeUnavailableError(JudgeError):
    """The endpoint did not answer: a request's retries (timeouts, connection errors, 429, 5xx)
    or the run's retry budget were spent. Fatal: no other item can be served either."""


class JudgeTimeoutError(JudgeUnavailableError):
    """Every attempt timed out or could not connect."""


class JudgeServerError(JudgeHTTPError, JudgeUnavailableError):
    """429 or 5xx on every attempt of a request."""


class JudgeOutputError(JudgeError):
    """The answer was not valid JSON of the expected shape, after the corrective retries."""


class JudgeTruncatedError(JudgeOutputError):
    """The answer stopped at the token limit (``finish_reason: length``): it is incomplete, and
    asking again the same way would cut it again, so the item fails at once."""


class JudgeConfigError(ConfigError):
    """The endpoint refused us as a whole (bad key, unknown model, wrong URL): stop the run."""


class JudgeModelMismatchError(JudgeConfigError):
    """The endpoint answered as another model than the one asked for (a dated snapshot of the
    asked name is the same model): stop the run, unless ``allow_model_mismatch``."""


class BudgetExceededError(AssayError):
    """The next request could push spending past ``max_cost``: the run stops before it."""


class UnusableAnswersError(AssayError):
    """More than ``UNUSABLE_LIMIT`` of a run's items got no usable answer: the run is refused,
    not stored as a result, unless ``allow_unusable_answers``."""


class JudgeRunStoppedError(AssayError):
    """A run stopped on one of ``FATAL_ERRORS`` other than the budget: nothing was scored or
    stored (the CLI exits 2); the message says why and how many items had been answered."""


#: errors after which the whole run stops: retrying other items cannot help
FATAL_ERRORS: tuple[type[Exception], ...] = (
    BudgetExceededError,
    JudgeConfigError,
    JudgeUnavailableError,
)
