"""The one request path every method takes: credentials per generation, retries, error mapping."""

from __future__ import annotations

import json
import re
import time
import urllib.parse
import uuid
from typing import Any, Callable, Dict, Mapping, Optional, Union, cast

from .bodies import Body
from .errors import NetworkError, UnexpectedResponseError, error_from_response
from .operations import BY_NAME
from .retry import RetryEvent, RetryPolicy
from .transport import ProgressCallback, Transport, TransportError

#: A bearer token, or a function returning the current one (called before every attempt, so a
#: token source can refresh it).
BearerToken = Union[str, Callable[[], str]]

CREDENTIAL = re.compile(r"^[\x21-\x7e]+$")
_IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")


class Session:
    def __init__(
        self,
        transport: Transport,
        *,
        api_key: Optional[str],
        bearer_token: Optional[BearerToken],
        retry: RetryPolicy,
        on_retry: Optional[Callable[[RetryEvent], None]],
        auto_idempotency_keys: bool,
        user_agent: str,
    ) -> None:
        self.transport = transport
        self._api_key = api_key
        self._bearer_token = bearer_token
        self._retry = retry
        self._on_retry = on_retry
        self._auto_idempotency_keys = auto_idempotency_keys
        self._user_agent = user_agent

    @property
    def retry_policy(self) -> RetryPolicy:
        """The client's retry rules (the tus client in resumable.py retries by them too)."""
        return self._retry

    def idempotency_key(self, given: Optional[str]) -> Optional[str]:
        """The caller's key, else a fresh UUID (unless the client was told not to make any)."""
        if given is not None:
            if not _IDEMPOTENCY_KEY.match(given):
                raise ValueError("idempotency_key must be 1-255 printable ASCII characters")
            return given
        return str(uuid.uuid4()) if self._auto_idempotency_keys else None

    def auth_headers(self, generation: str) -> Dict[str, str]:
        """docs/api.md "Authentication": v2 reads X-API-Key, v1 only the bearer header; tokens are bearer
        on both. Keys never go in the query string, where logs would keep them."""
        if self._bearer_token is not None:
            token = self._bearer_token() if callable(self._bearer_token) else self._bearer_token
            if not CREDENTIAL.match(token):
                raise ValueError("bearer token must be printable ASCII without spaces")
            return {"Authorization": f"Bearer {token}"}
        if self._api_key is None:
            return {}
        if generation == "v2":
            return {"X-API-Key": self._api_key}
        return {"Authorization": f"Bearer {self._api_key}"}

    def request(
        self,
        operation: str,
        *,
        path_params: Optional[Mapping[str, str]] = None,
        query: Optional[Mapping[str, str]] = None,
        body: Optional[Body] = None,
        idempotency_key: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
        ndjson: bool = False,
    ) -> Dict[str, Any]:
        """Call ``operation`` (a name of ``OPERATIONS``) and return its JSON answer, retrying what
        is safe to send again (see ``retry``); anything else becomes the typed exception. With
        ``ndjson`` the answer is JSON lines, returned as ``{"lines": [...]}``."""
        op = BY_NAME[operation]
        target = op.path
        for name, value in (path_params or {}).items():
            target = target.replace("{" + name + "}", urllib.parse.quote(value, safe=""))
        params = dict(query or {})
        if op.submits_job:
            params["async"] = "true"
        if params:
            target += "?" + urllib.parse.urlencode(params)
        generation = op.name.split(".", 1)[0]
        # One id for every attempt of this call: the service echoes it and logs it.
        request_id = uuid.uuid4().hex
        repeatable = op.repeatable or idempotency_key is not None
        attempt = 0
        while True:
            headers = {"Accept": "application/json", "User-Agent": self._user_agent, "X-Request-Id": request_id}
            headers.update(self.auth_headers(generation))
            if idempotency_key is not None:
                headers["Idempotency-Key"] = idempotency_key
            status: Optional[int] = None
            try:
                response = self.transport.send(op.method, target, headers, body, progress)
            except TransportError as failure:
                error: Exception = NetworkError(f"{op.method} {op.path} failed: {failure}", request_id=request_id)
                error.__cause__ = failure.cause
                # A request that never left may always be sent again.
                retryable = not failure.started or (repeatable and (body is None or body.can_start))
                retry_after = None
            else:
                if 200 <= response.status < 300:
                    if ndjson:
                        text = response.body.decode("utf-8")
                        return {"lines": [json.loads(line) for line in text.split("\n") if line != ""]}
                    return _decode(response.status, response.headers, response.body)
                api_error = error_from_response(response.status, response.headers, response.body)
                error, status, retry_after = api_error, response.status, api_error.retry_after
                # A 504 naming a job: the job exists and goes on; sending again would start another.
                retryable = (
                    status in self._retry.retry_statuses
                    and repeatable
                    and (body is None or body.can_start)
                    and not (status == 504 and api_error.job_id)
                )
            delay = self._retry.delay(attempt, retry_after) if retryable else None
            if delay is None:
                raise error
            attempt += 1
            if self._on_retry is not None:
                self._on_retry(RetryEvent(op.name, attempt, delay, status, error))
            time.sleep(delay)


def _decode(status: int, headers: Mapping[str, str], body: bytes) -> Dict[str, Any]:
    try:
        payload: Any = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        payload = None
    if not isinstance(payload, dict):
        raise UnexpectedResponseError(
            f"HTTP {status} with a body that is not a JSON object", status=status, request_id=headers.get("x-request-id")
        )
    return cast(Dict[str, Any], payload)
