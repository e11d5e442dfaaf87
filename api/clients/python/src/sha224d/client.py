"""The client: credentials, the service's address, and the two API generations."""

from __future__ import annotations

import os
import platform
import ssl
from typing import Callable, Optional

from ._version import __version__
from .retry import RetryEvent, RetryPolicy
from .session import CREDENTIAL, BearerToken, Session
from .transport import Transport
from .v1 import V1
from .v2 import V2

DEFAULT_BASE_URL = "http://127.0.0.1:8080"


class Client:
    """A client of one sha224d service.

    ``api_key`` (default: ``$SHA224D_API_KEY``) is sent as ``X-API-Key`` to /v2 and as
    ``Authorization: Bearer`` to /v1 (docs/api.md "Authentication"); a ``bearer_token`` (a JWT or an
    OAuth access token, or a function returning one) is sent as ``Authorization: Bearer`` to both.
    ``base_url`` defaults to ``$SHA224D_URL``, then ``http://127.0.0.1:8080``; ``sandbox=True``
    uses ``sandbox_url`` (default ``$SHA224D_SANDBOX_URL``) instead. ``timeout`` bounds each
    connect and each read, in seconds. Usable from several threads; ``close()`` (or ``with``)
    closes kept-alive connections.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        bearer_token: Optional[BearerToken] = None,
        base_url: Optional[str] = None,
        sandbox: bool = False,
        sandbox_url: Optional[str] = None,
        timeout: float = 60.0,
        retry: Optional[RetryPolicy] = None,
        on_retry: Optional[Callable[[RetryEvent], None]] = None,
        auto_idempotency_keys: bool = True,
        ssl_context: Optional[ssl.SSLContext] = None,
        user_agent: Optional[str] = None,
    ) -> None:
        if api_key is not None and bearer_token is not None:
            raise ValueError("pass api_key or bearer_token, not both (the service refuses two credentials)")
        if api_key is None and bearer_token is None:
            api_key = os.environ.get("SHA224D_API_KEY") or None
        if api_key is not None and not CREDENTIAL.match(api_key):
            raise ValueError("api_key must be printable ASCII without spaces")
        if isinstance(bearer_token, str) and not CREDENTIAL.match(bearer_token):
            raise ValueError("bearer_token must be printable ASCII without spaces")
        if sandbox:
            url = sandbox_url or os.environ.get("SHA224D_SANDBOX_URL")
            if not url:
                raise ValueError("sandbox=True needs sandbox_url (or $SHA224D_SANDBOX_URL)")
        else:
            url = base_url or os.environ.get("SHA224D_URL") or DEFAULT_BASE_URL
        if timeout <= 0:
            raise ValueError("timeout must be a positive number of seconds")
        self.base_url = url.rstrip("/")
        self.sandbox = sandbox
        self._session = Session(
            Transport(self.base_url, timeout, ssl_context),
            api_key=api_key,
            bearer_token=bearer_token,
            retry=retry if retry is not None else RetryPolicy(),
            on_retry=on_retry,
            auto_idempotency_keys=auto_idempotency_keys,
            user_agent=user_agent or f"sha224d-python/{__version__} Python/{platform.python_version()}",
        )
        #: /v1 operations, Set A and Set B.
        self.v1 = V1(self._session)
        #: /v2 operations and async jobs.
        self.v2 = V2(self._session)

    def __repr__(self) -> str:
        return f"Client(base_url={self.base_url!r}, sandbox={self.sandbox})"

    def close(self) -> None:
        """Close kept-alive connections (the client stays usable)."""
        self._session.transport.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
