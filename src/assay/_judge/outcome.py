"""What a run does with its answers: refused when they are mostly unusable, stopped (with
nothing stored) when the endpoint or the run's limits fail.

An answer that cannot be used (malformed after the corrective retries, cut at the token limit,
empty, failing its check, or a request the endpoint refused) is that item's listed failure. A
run in which **more than half** of the items asked (``UNUSABLE_LIMIT``) got no usable answer
measures the endpoint or the prompt, not the system under test: it is refused, not stored as a
result, unless ``allow_unusable_answers`` (``--allow-unusable-answers``) keeps it, with every
failure listed.
"""

from __future__ import annotations

from collections.abc import Sequence

from assay._judge.errors import JudgeRunStoppedError, UnusableAnswersError

#: a run is refused when the share of items asked without a usable answer is above this
UNUSABLE_LIMIT = 0.5
#: failures named in the refusal (the rest are counted)
SHOWN = 10


def too_many_unusable(n_unusable: int, n_asked: int) -> bool:
    """More than ``UNUSABLE_LIMIT`` of the ``n_asked`` items got no usable answer."""
    return n_asked > 0 and n_unusable > UNUSABLE_LIMIT * n_asked


def listed(failures: Sequence[str], shown: int = SHOWN) -> str:
    """The first ``shown`` failures, then how many more."""
    more = len(failures) - shown
    return "; ".join(failures[:shown]) + (f"; … and {more} more" if more > 0 else "")


def check_usable(failures: Sequence[str], n_asked: int, *, allowed: bool, what: str) -> str | None:
    """Refuse the run (UnusableAnswersError naming each failure) when more than half of the
    ``n_asked`` items (``what``: "papers", "fields") got no usable answer, unless ``allowed``;
    when allowed past the limit, the warning to print; else None.

    ``failures`` are "where: reason" lines (file, record, field, reason)."""
    if not too_many_unusable(len(failures), n_asked):
        return None
    head = f"the answers for {len(failures)} of {n_asked} {what} could not be used (more than half)"
    if allowed:
        return f"{head}; kept as listed failures (--allow-unusable-answers)"
    raise UnusableAnswersError(
        f"refused: {head}: {listed(failures)}. Nothing was scored or stored. Fix the endpoint, "
        "model or prompt, or pass --allow-unusable-answers (judge.allow_unusable_answers) to "
        "keep the run with those items as failures"
    )


def run_stopped(
    error: BaseException, n_answered: int, n_total: int, what: str, *, cache: bool = True
) -> JudgeRunStoppedError:
    """The error that ends a run a fatal judge error stopped (a dead or lying endpoint, the
    retry budget): why, how many of the ``n_total`` items (``what``) were answered, and that
    nothing was scored or stored (and, with the ``cache`` on, that a rerun pays only for the
    rest)."""
    cached = (
        " (the answers are cached: a rerun asks only for the rest)" if n_answered and cache else ""
    )
    return JudgeRunStoppedError(
        f"stopped: {error}. {n_answered} of {n_total} {what} had been answered{cached}; nothing "
        "was scored or stored"
    )
