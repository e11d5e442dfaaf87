"""When and how long to wait before trying a request again.

Retried: 429, 503 and 504 answers and connection failures -- and only requests that are safe to
send twice: pure computations and reads, or uploads and job submissions carrying an
``Idempotency-Key`` (the client generates one), whose body can be sent again.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, FrozenSet, Optional


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter (delay drawn uniformly from 0 to
    ``min(max_delay, base_delay * 2**attempt)``), unless the service names the wait."""

    #: Retries after the first attempt (0 disables retrying).
    max_retries: int = 3
    #: Seconds; the backoff ceiling of the first retry.
    base_delay: float = 0.5
    #: Seconds; the ceiling of any computed backoff.
    max_delay: float = 20.0
    #: A ``Retry-After`` longer than this (seconds) is not waited for: the error is raised with
    #: ``retry_after`` set (a daily quota resets at 00:00 UTC -- hours away).
    max_retry_after: float = 60.0
    retry_statuses: FrozenSet[int] = field(default_factory=lambda: frozenset({429, 503, 504}))
    #: Source of jitter in [0, 1); replaceable for tests.
    jitter: Callable[[], float] = field(default=random.random, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        if self.base_delay < 0 or self.max_delay < 0 or self.max_retry_after < 0:
            raise ValueError("base_delay, max_delay and max_retry_after must be >= 0")

    def backoff(self, attempt: int) -> float:
        """Full-jitter delay before retry number ``attempt + 1`` (``attempt`` counts from 0)."""
        ceiling = min(self.max_delay, self.base_delay * (2**attempt))
        return ceiling * self.jitter()

    def delay(self, attempt: int, retry_after: Optional[float]) -> Optional[float]:
        """Seconds to wait before the next attempt, or ``None`` when it should not be made."""
        if attempt >= self.max_retries:
            return None
        if retry_after is not None and retry_after > 0:
            return None if retry_after > self.max_retry_after else retry_after
        return self.backoff(attempt)


@dataclass(frozen=True)
class RetryEvent:
    """Passed to ``Client(on_retry=...)`` before each wait."""

    #: Operation name, e.g. ``v2.hash``.
    operation: str
    #: 1 for the first retry.
    retry: int
    #: Seconds about to be waited.
    delay: float
    #: HTTP status that caused the retry, or ``None`` for a connection failure.
    status: Optional[int]
    #: The error that would otherwise have been raised.
    error: Exception
