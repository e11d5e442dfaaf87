"""Async jobs of /v2: read one (``GET /v2/jobs/{id}``) and wait for it with backoff."""

from __future__ import annotations

import random
import time
from typing import Any, Dict, cast

from .errors import WaitTimeoutError, error_from_job
from .session import Session


#: ``{job_id, status}`` while queued or active; once completed, the body the synchronous call
#: would have returned plus ``job_id`` and ``status``; once failed, ``{success: false, job_id,
#: status, error}``. The OpenAPI document describes only the first form, so this stays open.
JobStatus = Dict[str, Any]


class Jobs:
    def __init__(self, session: Session) -> None:
        self._session = session

    def get(self, job_id: str) -> JobStatus:
        """``GET /v2/jobs/{id}``: the job's state (another account's job is ``NotFoundError``)."""
        return self._session.request("v2.jobs.get", path_params={"id": job_id})

    def wait(
        self,
        job_id: str,
        *,
        timeout: float = 300.0,
        poll_interval: float = 0.1,
        max_poll_interval: float = 5.0,
    ) -> JobStatus:
        """Poll until the job completes and return its body; a failed job raises the error class
        of its code with ``job_id`` set; ``WaitTimeoutError`` after ``timeout`` seconds.

        Polls start ``poll_interval`` apart and grow 1.5x per poll up to ``max_poll_interval``,
        each drawn from the upper half of its interval (equal jitter), so many waiters do not
        poll in step and a short job is still seen finished quickly."""
        if timeout <= 0 or poll_interval <= 0 or max_poll_interval < poll_interval:
            raise ValueError("timeout and poll_interval must be positive, max_poll_interval >= poll_interval")
        deadline = time.monotonic() + timeout
        interval = poll_interval
        while True:
            status = self.get(job_id)
            state = status.get("status")
            if state == "completed":
                return status
            if state == "failed":
                error: Any = status.get("error")
                raise error_from_job(job_id, cast(Dict[str, Any], error) if isinstance(error, dict) else {})
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise WaitTimeoutError(f"job {job_id} still {state} after {timeout:g} s", job_id=job_id, body=status)
            time.sleep(min(remaining, interval * (0.5 + 0.5 * random.random())))
            interval = min(max_poll_interval, interval * 1.5)
