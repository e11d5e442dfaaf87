"""Shared by the tests: where the package comes from, the live service named by the environment,
and a scriptable stub HTTP server for the paths a real service cannot be made to take on demand.

Live tests read (and are skipped without) SHA224D_TEST_URL and SHA224D_TEST_API_KEY; optional:
SHA224D_TEST_TARGET (a label), SHA224D_TEST_SANDBOX_URL, SHA224D_TEST_FREE_KEY (a production key
of a free-plan account), SHA224D_TEST_READ_ONLY_KEY, SHA224D_TEST_JWT_SECRET with
SHA224D_TEST_ACCOUNT_ID (an Enterprise account), SHA224D_TEST_URL_FETCH=1 (the service may fetch
from 127.0.0.1), SHA224D_TEST_BIG_STREAM=1 (run the 1 GiB upload).
"""

from __future__ import annotations

import hashlib
import http.server
import os
import sys
import threading
import time
import unittest
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)

try:
    import sha224d  # noqa: F401  (the installed package, when there is one)
except ImportError:  # run from a checkout without installing: test the source tree
    sys.path.insert(0, os.path.join(PACKAGE_ROOT, "src"))
    import sha224d  # noqa: F401

from sha224d import Client, RetryEvent, RetryPolicy  # noqa: E402

ABC_SHA224 = "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"


def sha224_hex(data: bytes) -> str:
    return hashlib.sha224(data).hexdigest()


# ---- the live service -----------------------------------------------------------------------------

LIVE_URL = os.environ.get("SHA224D_TEST_URL", "")
LIVE_KEY = os.environ.get("SHA224D_TEST_API_KEY", "")
TARGET = os.environ.get("SHA224D_TEST_TARGET", "live")

#: Operation names called through ``live_client`` clients in this process (see test_live_zz_coverage).
CALLED: Set[str] = set()
#: Live modules that ran in this process.
LIVE_MODULES_RUN: Set[str] = set()


def env(name: str) -> str:
    return os.environ.get(name, "")


def requires_live(cls: Any) -> Any:
    return unittest.skipUnless(LIVE_URL and LIVE_KEY, "no live service (SHA224D_TEST_URL, SHA224D_TEST_API_KEY)")(cls)


def requires_env(*names: str) -> Callable[[Any], Any]:
    missing = [n for n in names if not os.environ.get(n)]
    return unittest.skipIf(bool(missing), f"{', '.join(missing)} not set for target {TARGET}")


def record_calls(client: Client) -> Client:
    """Remember which operations ``client`` calls, so the suite can show it called them all."""
    session = client._session
    original = session.request

    def recording(operation: str, **kwargs: Any) -> Dict[str, Any]:
        CALLED.add(operation)
        return original(operation, **kwargs)

    session.request = recording  # type: ignore[method-assign]
    return client


def live_client(**kwargs: Any) -> Client:
    kwargs.setdefault("base_url", LIVE_URL)
    if "bearer_token" not in kwargs:
        kwargs.setdefault("api_key", LIVE_KEY)
    return record_calls(Client(**kwargs))


class LiveTestCase(unittest.TestCase):
    """A test class with one live client (the default key) shared by its tests."""

    client: Client

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = live_client()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.client.close()


# ---- a scriptable stub server ---------------------------------------------------------------------


@dataclass
class Reply:
    status: int = 200
    body: bytes = b'{"success":true}'
    headers: Dict[str, str] = field(default_factory=dict)
    #: Close the connection without answering (a connection failure as the client sees it).
    hang_up: bool = False
    #: Answer as soon as the headers are in, before reading the body (then drain it).
    before_body: bool = False


@dataclass
class Seen:
    method: str
    path: str
    headers: Dict[str, str]
    body_sha224: str
    body_length: int
    chunked: bool
    at: float
    body: bytes


class StubServer:
    """Answers requests from a script of ``Reply`` values, in order (the last one repeats), and
    records what it received; bodies are read whole, chunked or by Content-Length."""

    def __init__(self, script: List[Reply], keep_bodies: bool = True) -> None:
        self.script = list(script)
        self.seen: List[Seen] = []
        self.keep_bodies = keep_bodies
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
                return

            def handle_one(self) -> None:
                reply = stub.script.pop(0) if len(stub.script) > 1 else stub.script[0]
                if reply.before_body:
                    self._answer(reply)
                    self.close_connection = True
                    try:
                        while self.rfile.read(65536):
                            pass
                    except OSError:
                        pass
                    stub._record(self, b"", 0, False)
                    return
                body, chunked = self._read_body()
                stub._record(self, body, len(body), chunked)
                if reply.hang_up:
                    self.close_connection = True
                    return
                self._answer(reply)

            def _read_body(self) -> Tuple[bytes, bool]:
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    parts = []
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                        if size == 0:
                            self.rfile.readline()
                            return b"".join(parts), True
                        parts.append(self.rfile.read(size))
                        self.rfile.readline()
                length = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(length), False

            def _answer(self, reply: Reply) -> None:
                self.send_response(reply.status)
                headers = {"Content-Type": "application/json", "X-Request-Id": self.headers.get("X-Request-Id", "stub")}
                headers.update(reply.headers)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

            do_GET = do_POST = handle_one

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.clients: List[Client] = []
        # A short poll interval: shutdown() waits for the loop to notice.
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def _record(self, handler: http.server.BaseHTTPRequestHandler, body: bytes, length: int, chunked: bool) -> None:
        headers = {k.lower(): v for k, v in handler.headers.items()}
        kept = body if self.keep_bodies else b""
        self.seen.append(Seen(handler.command, handler.path, headers, sha224_hex(body), length, chunked, time.monotonic(), kept))

    def __enter__(self) -> "StubServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for client in self.clients:
            client.close()
        self.server.shutdown()
        self.server.server_close()


def stub_client(stub: StubServer, retries: int = 3, events: Optional[List[RetryEvent]] = None, **kwargs: Any) -> Client:
    """A client of ``stub`` with quick backoff; retry events are appended to ``events``."""
    policy = kwargs.pop("retry", None) or RetryPolicy(max_retries=retries, base_delay=0.02, max_delay=0.1)
    on_retry = events.append if events is not None else None
    kwargs.setdefault("api_key", "s224_stub")
    client = Client(base_url=stub.url, retry=policy, on_retry=on_retry, **kwargs)
    stub.clients.append(client)
    return client
