"""Python client of sha224d, the self-hostable SHA-224 hashing service. Standard library only.

    from sha224d import Client
    client = Client(api_key="s224_...", base_url="http://127.0.0.1:8080")
    client.v2.hash("abc")["hash"]  # '23097d22...'
"""

from ._version import __version__
from .bodies import Source
from .client import DEFAULT_BASE_URL, Client
from .errors import (
    ApiError,
    AuthenticationError,
    ConflictError,
    CredentialExposedError,
    IpNotAllowedError,
    ExpiredKeyError,
    FileTooLargeError,
    HeadersTooLargeError,
    IdempotencyKeyReusedError,
    InternalError,
    InvalidInputError,
    InvalidRequestError,
    JobTimeoutError,
    MethodNotAllowedError,
    NetworkError,
    NotFoundError,
    ChecksumMismatchError,
    RangeNotSatisfiableError,
    HashMismatchError,
    TusVersionUnsupportedError,
    UploadExpiredError,
    UploadLockedError,
    UploadOffsetMismatchError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitError,
    RequestTimeoutError,
    ServerError,
    ServiceUnavailableError,
    Sha224dError,
    TooLargeError,
    TooManyConnectionsError,
    UnexpectedResponseError,
    UnsupportedMediaTypeError,
    UrlFetchFailedError,
    UrlNotAllowedError,
    WaitTimeoutError,
)
from .jobs import JobStatus
from .operations import OPERATIONS, Operation
from .resumable import RESUMABLE_CHUNK_BYTES, ResumableResult
from .retry import RetryEvent, RetryPolicy
from .session import BearerToken
from .transport import ProgressCallback
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "RESUMABLE_CHUNK_BYTES",
    "ResumableResult",
    "verify_webhook",
    "WebhookVerificationError",
    "__version__",
    "ApiError",
    "AuthenticationError",
    "BearerToken",
    "Client",
    "ConflictError",
    "CredentialExposedError",
    "IpNotAllowedError",
    "DEFAULT_BASE_URL",
    "ExpiredKeyError",
    "FileTooLargeError",
    "HeadersTooLargeError",
    "IdempotencyKeyReusedError",
    "InternalError",
    "InvalidInputError",
    "InvalidRequestError",
    "JobStatus",
    "JobTimeoutError",
    "MethodNotAllowedError",
    "NetworkError",
    "NotFoundError",
    "ChecksumMismatchError",
    "RangeNotSatisfiableError",
    "HashMismatchError",
    "TusVersionUnsupportedError",
    "UploadExpiredError",
    "UploadLockedError",
    "UploadOffsetMismatchError",
    "Operation",
    "OPERATIONS",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "ProgressCallback",
    "RateLimitError",
    "RequestTimeoutError",
    "RetryEvent",
    "RetryPolicy",
    "ServerError",
    "ServiceUnavailableError",
    "Sha224dError",
    "Source",
    "TooLargeError",
    "TooManyConnectionsError",
    "UnexpectedResponseError",
    "UnsupportedMediaTypeError",
    "UrlFetchFailedError",
    "UrlNotAllowedError",
    "WaitTimeoutError",
]
