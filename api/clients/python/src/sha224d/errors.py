"""Typed exceptions for every failure the service reports, and for failures on the way to it.

Every answer of the service that is not a success carries a stable string ``code`` (the catalog in
the server's ``shared/errors.ts``; v1 uses the same codes as v2). Each code has its own exception
class, grouped in families so callers can catch broadly (``RateLimitError``) or narrowly
(``ExpiredKeyError``) -- or ``switch`` on ``err.code``.
"""

from __future__ import annotations

import email.utils
import json
import time
from typing import Any, Dict, Mapping, Optional, Type, cast


class Sha224dError(Exception):
    """Base of every exception this package raises."""

    #: Stable string code (``INVALID_INPUT``, ``RATE_LIMIT_EXCEEDED``, ``NETWORK_ERROR``, ...).
    code: str = "SHA224D_ERROR"

    def __init__(
        self,
        message: str,
        *,
        code: Optional[str] = None,
        status: Optional[int] = None,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        details: Any = None,
        job_id: Optional[str] = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        #: HTTP status of the answer (``None`` when there was no answer).
        self.status = status
        #: ``X-Request-Id`` of the answer, to quote when reporting a problem.
        self.request_id = request_id
        #: Seconds the service asked the client to wait (``Retry-After``), when it said so.
        self.retry_after = retry_after
        #: v2: a string; v1: an object (``info``, ``retry_after``, ...).
        self.details = details
        #: The job concerned (a 504 ``JOB_TIMEOUT`` or a failed async job).
        self.job_id = job_id
        #: The decoded error body, as sent.
        self.body = body

    def __str__(self) -> str:
        context = [f"HTTP {self.status}"] if self.status is not None else []
        if self.request_id:
            context.append(f"request {self.request_id}")
        return f"{self.code}: {self.message}" + (f" ({', '.join(context)})" if context else "")


# ---- Failures reported by the service --------------------------------------------------------


class ApiError(Sha224dError):
    """The service answered with an error envelope (or an unexpected status)."""


class InvalidRequestError(ApiError):
    """The request cannot succeed as sent (4xx other than auth, permission, size and rate)."""


class InvalidInputError(InvalidRequestError):
    code = "INVALID_INPUT"


class UrlNotAllowedError(InvalidRequestError):
    code = "URL_NOT_ALLOWED"


class NotFoundError(InvalidRequestError):
    code = "NOT_FOUND"


class MethodNotAllowedError(InvalidRequestError):
    code = "METHOD_NOT_ALLOWED"


class ConflictError(InvalidRequestError):
    code = "CONFLICT"


class UnsupportedMediaTypeError(InvalidRequestError):
    code = "UNSUPPORTED_MEDIA_TYPE"


class HashMismatchError(InvalidRequestError):
    """The bytes' SHA-224 is not the one given with them (``X-Expected-SHA224``, tus metadata
    ``sha224``): ``details`` names the expected and computed digests."""

    code = "HASH_MISMATCH"


class TusVersionUnsupportedError(InvalidRequestError):
    code = "TUS_VERSION_UNSUPPORTED"


class UploadOffsetMismatchError(InvalidRequestError):
    """A PATCH whose ``Upload-Offset`` is not the server's: ask with HEAD and go on from there."""

    code = "UPLOAD_OFFSET_MISMATCH"


class UploadLockedError(InvalidRequestError):
    """Another request is writing this upload: try again shortly."""

    code = "UPLOAD_LOCKED"


class UploadExpiredError(InvalidRequestError):
    code = "UPLOAD_EXPIRED"


class ChecksumMismatchError(InvalidRequestError):
    """A PATCH body did not match its ``Upload-Checksum``: it was discarded; send it again."""

    code = "CHECKSUM_MISMATCH"


class RangeNotSatisfiableError(InvalidRequestError):
    """A ``Range`` that starts at or past the end of the results: nothing is left to fetch."""

    code = "RANGE_NOT_SATISFIABLE"


class AuthenticationError(ApiError):
    """401: the key or token is missing, unknown, revoked or malformed."""

    code = "UNAUTHORIZED"


class ExpiredKeyError(AuthenticationError):
    """401: the key or token has expired (refresh it and try again)."""

    code = "EXPIRED_KEY"


class PermissionDeniedError(ApiError):
    """403: the credential is valid but may not make this request."""

    code = "FORBIDDEN"


class CredentialExposedError(PermissionDeniedError):
    """403: the credential went over plain HTTP; revoke it and use HTTPS with a new one."""

    code = "CREDENTIAL_EXPOSED"


class IpNotAllowedError(PermissionDeniedError):
    """403: the request came from an address outside the key's or the account's IP allow-list."""

    code = "IP_NOT_ALLOWED"


class TooLargeError(ApiError):
    """413: a file or body exceeds the limit of the plan or the service."""


class FileTooLargeError(TooLargeError):
    code = "FILE_TOO_LARGE"


class PayloadTooLargeError(TooLargeError):
    code = "PAYLOAD_TOO_LARGE"


class RequestTimeoutError(ApiError):
    """408: the service stopped waiting for the request's body; sending it again may work."""

    code = "REQUEST_TIMEOUT"


class IdempotencyKeyReusedError(ApiError):
    """422: the Idempotency-Key was already used for a different request."""

    code = "IDEMPOTENCY_KEY_REUSED"


class HeadersTooLargeError(ApiError):
    """431: the request's headers are larger than the service accepts."""

    code = "HEADERS_TOO_LARGE"


class RateLimitError(ApiError):
    """429: over a rate window or the daily quota; ``retry_after`` says how long to wait."""

    code = "RATE_LIMIT_EXCEEDED"


class TooManyConnectionsError(RateLimitError):
    code = "TOO_MANY_CONNECTIONS"


class ServerError(ApiError):
    """5xx: the service, or something it depends on, failed."""


class InternalError(ServerError):
    code = "INTERNAL_ERROR"


class UrlFetchFailedError(ServerError):
    code = "URL_FETCH_FAILED"


class ServiceUnavailableError(ServerError):
    code = "SERVICE_UNAVAILABLE"


class JobTimeoutError(ServerError):
    """504: the job did not finish in time; ``job_id`` names it (fetch it with ``v2.jobs``)."""

    code = "JOB_TIMEOUT"


class UnexpectedResponseError(ApiError):
    """An answer that is not the service's JSON (a redirect, a proxy's HTML page, ...)."""

    code = "UNEXPECTED_RESPONSE"


# ---- Failures on the client's side ----------------------------------------------------------


class NetworkError(Sha224dError):
    """The service could not be reached, or the connection failed before a full answer."""

    code = "NETWORK_ERROR"


class WaitTimeoutError(Sha224dError):
    """``jobs.wait`` gave up before the job finished; the job may still complete later."""

    code = "WAIT_TIMEOUT"


#: Every code of the service's catalog: its HTTP status and the class raised for it.
ERROR_CLASSES: Dict[str, Type[ApiError]] = {
    cls.code: cls
    for cls in (
        InvalidInputError,
        AuthenticationError,
        ExpiredKeyError,
        PermissionDeniedError,
        CredentialExposedError,
        IpNotAllowedError,
        NotFoundError,
        MethodNotAllowedError,
        RequestTimeoutError,
        ConflictError,
        FileTooLargeError,
        PayloadTooLargeError,
        UnsupportedMediaTypeError,
        IdempotencyKeyReusedError,
        UrlNotAllowedError,
        UrlFetchFailedError,
        RateLimitError,
        TooManyConnectionsError,
        HeadersTooLargeError,
        InternalError,
        ServiceUnavailableError,
        JobTimeoutError,
        HashMismatchError,
        TusVersionUnsupportedError,
        UploadOffsetMismatchError,
        UploadLockedError,
        UploadExpiredError,
        ChecksumMismatchError,
        RangeNotSatisfiableError,
    )
}

ERROR_STATUSES: Dict[str, int] = {
    "INVALID_INPUT": 400,
    "UNAUTHORIZED": 401,
    "EXPIRED_KEY": 401,
    "FORBIDDEN": 403,
    "CREDENTIAL_EXPOSED": 403,
    "IP_NOT_ALLOWED": 403,
    "NOT_FOUND": 404,
    "METHOD_NOT_ALLOWED": 405,
    "REQUEST_TIMEOUT": 408,
    "CONFLICT": 409,
    "FILE_TOO_LARGE": 413,
    "PAYLOAD_TOO_LARGE": 413,
    "UNSUPPORTED_MEDIA_TYPE": 415,
    "IDEMPOTENCY_KEY_REUSED": 422,
    "URL_NOT_ALLOWED": 400,
    "URL_FETCH_FAILED": 502,
    "RATE_LIMIT_EXCEEDED": 429,
    "TOO_MANY_CONNECTIONS": 429,
    "HEADERS_TOO_LARGE": 431,
    "INTERNAL_ERROR": 500,
    "SERVICE_UNAVAILABLE": 503,
    "JOB_TIMEOUT": 504,
    "HASH_MISMATCH": 422,
    "TUS_VERSION_UNSUPPORTED": 412,
    "UPLOAD_OFFSET_MISMATCH": 409,
    "UPLOAD_LOCKED": 423,
    "UPLOAD_EXPIRED": 410,
    "CHECKSUM_MISMATCH": 460,
    "RANGE_NOT_SATISFIABLE": 416,
}

# An answer without the envelope (e.g. from a proxy) is classed by its status alone.
_CODE_BY_STATUS = {
    400: "INVALID_INPUT",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    408: "REQUEST_TIMEOUT",
    409: "CONFLICT",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    422: "IDEMPOTENCY_KEY_REUSED",
    429: "RATE_LIMIT_EXCEEDED",
    431: "HEADERS_TOO_LARGE",
    500: "INTERNAL_ERROR",
    503: "SERVICE_UNAVAILABLE",
}


def class_for(code: str, status: Optional[int]) -> Type[ApiError]:
    """The class for a code; an unknown code (a newer server) falls back to its status family."""
    known = ERROR_CLASSES.get(code)
    if known is not None:
        return known
    if status is not None and 500 <= status < 600:
        return ServerError
    if status is not None and 400 <= status < 500:
        return InvalidRequestError
    return ApiError


def parse_retry_after(headers: Mapping[str, str], now: Optional[float] = None) -> Optional[float]:
    """Seconds to wait from ``Retry-After`` (seconds or an HTTP date, RFC 9110 §10.2.3), else from
    v2's ``X-RateLimit-Retry-After`` when it is positive (it is 0 on every allowed request)."""
    value = headers.get("retry-after")
    if value is not None:
        value = value.strip()
        if value.isdigit():
            return float(value)
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            when = None
        if when is not None:
            return max(0.0, when.timestamp() - (time.time() if now is None else now))
    fallback = headers.get("x-ratelimit-retry-after")
    if fallback is not None:
        try:
            seconds = float(fallback)
        except ValueError:
            return None
        if seconds > 0:
            return seconds
    return None


def _object(value: Any) -> Optional[Dict[str, Any]]:
    return cast(Dict[str, Any], value) if isinstance(value, dict) else None


def _text(value: Any) -> Optional[str]:
    return value if isinstance(value, str) else None


def error_from_response(status: int, headers: Mapping[str, str], body: bytes) -> ApiError:
    """Build the typed exception for an answer that is not a success, from either envelope:
    v2 ``{success:false, error:{code, message, details: str, retry_after?, job_id?}}`` or
    v1 ``{error:{code, message, details:{info?, retry_after?, job_id?}}}``."""
    request_id = headers.get("x-request-id")
    retry_after = parse_retry_after(headers)
    try:
        payload: Any = json.loads(body.decode("utf-8")) if body else None
    except (UnicodeDecodeError, ValueError):
        payload = None
    envelope = _object((_object(payload) or {}).get("error"))
    code = _text(envelope.get("code")) if envelope is not None else None
    if envelope is None or code is None:
        if 300 <= status < 400:
            location = headers.get("location", "")
            message = f"the service redirected to {location!r}; use that address as base_url"
            return UnexpectedResponseError(message, status=status, request_id=request_id, body=payload)
        code = _CODE_BY_STATUS.get(status, f"HTTP_{status}")
        cls = class_for(code, status) if code in ERROR_CLASSES else UnexpectedResponseError
        message = f"HTTP {status} without the service's error body"
        return cls(message, code=code, status=status, request_id=request_id, retry_after=retry_after, body=payload)

    # v2 puts retry_after and job_id beside details; v1 puts them inside its details object.
    extra = _object(envelope.get("details")) or envelope
    hinted = extra.get("retry_after")
    if retry_after is None and isinstance(hinted, (int, float)):
        retry_after = float(hinted)
    job_id = _text(extra.get("job_id"))
    return _catalog_error(envelope, code, status, request_id=request_id, retry_after=retry_after, job_id=job_id, body=payload)


def error_from_job(job_id: str, error: Mapping[str, Any], request_id: Optional[str] = None) -> ApiError:
    """The exception for an async job that finished as failed (``GET /v2/jobs/{id}``): the class
    of its code, as if the synchronous call had failed, with ``job_id`` set."""
    code = _text(error.get("code")) or "INTERNAL_ERROR"
    return _catalog_error(error, code, ERROR_STATUSES.get(code), request_id=request_id, job_id=job_id, body=dict(error))


def _catalog_error(
    error: Mapping[str, Any],
    code: str,
    status: Optional[int],
    *,
    request_id: Optional[str],
    job_id: Optional[str],
    body: Any,
    retry_after: Optional[float] = None,
) -> ApiError:
    """The exception of ``code``'s class for an error object of the catalog (an envelope's
    ``error``, or a failed job's), with its message and details."""
    return class_for(code, status)(
        _text(error.get("message")) or code,
        code=code,
        status=status,
        request_id=request_id,
        retry_after=retry_after,
        details=error.get("details"),
        job_id=job_id,
        body=body,
    )
