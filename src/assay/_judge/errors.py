"""What the judge client raises. Messages never contain the API key."""

from __future__ import annotations

from assay.errors import AssayError, ConfigError


class JudgeError(AssayError):
    """A judge request failed after its retries (the item it served is a failure)."""


class JudgeHTTPError(JudgeError):
    """The endpoint answered with an error status that retries did not cure."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class JudgeTimeoutError(JudgeError):
    """Every attempt timed out or could not connect."""


class JudgeOutputError(JudgeError):
    """The answer was not valid JSON of the expected shape, after the corrective retries."""


class JudgeTruncatedError(JudgeOutputError):
    """The answer stopped at the token limit (``finish_reason: length``): it is incomplete, and
    asking again the same way would cut it again, so the item fails at once."""


class JudgeConfigError(ConfigError):
    """The endpoint refused us as a whole (bad key, unknown model, wrong URL): stop the run."""


class BudgetExceededError(AssayError):
    """The next request could push spending past ``max_cost``: the run stops before it."""
