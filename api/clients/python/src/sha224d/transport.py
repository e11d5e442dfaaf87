"""One HTTP exchange over ``http.client``, with kept-alive connections reused between calls.

``http.client`` rather than ``urllib.request``: it sends a body piece by piece (chunked when the
length is unknown), lets the client notice an early answer while still uploading, and never
follows a redirect by itself -- a redirect followed implicitly would carry the credentials
to whatever address it names.
"""

from __future__ import annotations

import http.client
import select
import socket
import ssl
import threading
import time
import urllib.parse
from dataclasses import dataclass
from typing import Callable, Dict, List, Mapping, Optional, Tuple

from .bodies import Body

#: ``progress(bytes_sent, total_or_None)``
ProgressCallback = Callable[[int, Optional[int]], None]

# Node's HTTP server closes idle kept-alive connections after 5 s; one idle longer than this is
# not reused, so a request rarely meets a connection the server is closing.
_MAX_IDLE_SECONDS = 4.0
_MAX_IDLE_CONNECTIONS = 4


@dataclass
class Response:
    status: int
    #: Lower-cased header names; repeated headers joined with ", ".
    headers: Dict[str, str]
    body: bytes


class TransportError(Exception):
    """The exchange failed without a complete answer. ``started`` is true once any byte of the
    request may have reached the server."""

    def __init__(self, cause: BaseException, started: bool) -> None:
        super().__init__(f"{type(cause).__name__}: {cause}")
        self.cause = cause
        self.started = started


class Transport:
    def __init__(self, base_url: str, timeout: float, ssl_context: Optional[ssl.SSLContext] = None) -> None:
        parts = urllib.parse.urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be an absolute http:// or https:// URL, not {base_url!r}")
        if parts.query or parts.fragment or parts.username or parts.password:
            raise ValueError("base_url must not carry credentials, a query or a fragment")
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.port = parts.port
        self.prefix = parts.path.rstrip("/")
        self.timeout = timeout
        self.ssl_context = ssl_context
        self._idle: List[Tuple[http.client.HTTPConnection, float]] = []
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn, _ in idle:
            conn.close()

    def _connect(self) -> http.client.HTTPConnection:
        if self.scheme == "https":
            return http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout, context=self.ssl_context)
        return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)

    def _acquire(self) -> Tuple[http.client.HTTPConnection, bool]:
        now = time.monotonic()
        with self._lock:
            while self._idle:
                conn, since = self._idle.pop()
                if now - since < _MAX_IDLE_SECONDS:
                    return conn, True
                conn.close()
        return self._connect(), False

    def _release(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            if len(self._idle) < _MAX_IDLE_CONNECTIONS:
                self._idle.append((conn, time.monotonic()))
                return
        conn.close()

    def send(
        self,
        method: str,
        target: str,
        headers: Mapping[str, str],
        body: Optional[Body] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> Response:
        """One exchange. A kept-alive connection the server had already closed is replaced once,
        at once, when the body can be sent again (nothing reached the server)."""
        conn, reused = self._acquire()
        try:
            return self._exchange(conn, method, target, headers, body, progress)
        except TransportError as err:
            stale = isinstance(err.cause, (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError))
            if not (reused and stale and (body is None or body.can_start)):
                raise
        return self._exchange(self._connect(), method, target, headers, body, progress)

    def _exchange(
        self,
        conn: http.client.HTTPConnection,
        method: str,
        target: str,
        headers: Mapping[str, str],
        body: Optional[Body],
        progress: Optional[ProgressCallback],
    ) -> Response:
        started = False
        answered_early = False
        try:
            if conn.sock is None:
                conn.connect()  # a refused connection sent nothing: always safe to try again
            conn.putrequest(method, self.prefix + target, skip_accept_encoding=True)
            for name, value in headers.items():
                conn.putheader(name, value)
            chunked = body is not None and body.length is None
            if body is not None:
                conn.putheader("Content-Type", body.content_type)
                if chunked:
                    conn.putheader("Transfer-Encoding", "chunked")
                else:
                    conn.putheader("Content-Length", str(body.length))
            elif method in ("POST", "PUT", "PATCH"):
                conn.putheader("Content-Length", "0")
            started = True
            conn.endheaders()
            if body is not None:
                try:
                    answered_early = _send_body(conn, body, chunked, progress)
                except OSError:
                    # The server may have answered (413, 401, 429) and closed while the body was
                    # still being sent: that answer is the one to report.
                    answered_early = True
                    if not _has_answer(conn):
                        raise
            reply = conn.getresponse()
            data = reply.read()
            response = Response(reply.status, _header_map(reply.getheaders()), data)
        except (OSError, http.client.HTTPException) as err:
            conn.close()
            raise TransportError(err, started) from err
        if answered_early or reply.will_close:
            conn.close()
        else:
            self._release(conn)
        return response


def _send_body(conn: http.client.HTTPConnection, body: Body, chunked: bool, progress: Optional[ProgressCallback]) -> bool:
    """Send the body; returns True when the server answered before it was all sent (the rest is
    then not sent and the connection is not reused)."""
    sent = 0
    for data, content in body.pieces():
        if data:
            # One send per piece: separate small writes of the chunk framing would meet Nagle's
            # algorithm and delayed ACKs.
            conn.send(b"%X\r\n%s\r\n" % (len(data), data) if chunked else data)
        if content:
            sent += content
            if progress is not None:
                progress(sent, body.total)
        if _readable(conn):
            return True
    if chunked:
        conn.send(b"0\r\n\r\n")
    return False


def _readable(conn: http.client.HTTPConnection) -> bool:
    sock = conn.sock
    if sock is None:
        return False
    if isinstance(sock, ssl.SSLSocket) and sock.pending():
        return True
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return False
    return bool(readable)


def _has_answer(conn: http.client.HTTPConnection) -> bool:
    sock = conn.sock
    if sock is None:
        return False
    try:
        readable, _, _ = select.select([sock], [], [], 0.5)
        if not readable:
            return False
        if isinstance(sock, ssl.SSLSocket):
            return True  # TLS sockets cannot peek; let getresponse() find out
        return len(sock.recv(1, socket.MSG_PEEK)) > 0
    except (OSError, ValueError):
        return False


def _header_map(pairs: List[Tuple[str, str]]) -> Dict[str, str]:
    headers: Dict[str, str] = {}
    for name, value in pairs:
        key = name.lower()
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    return headers
