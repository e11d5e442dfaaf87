"""A small tus 1.0 client for ``/v2/uploads`` (README "Resumable uploads (tus 1.0) at /v2/uploads"):
create, PATCH in chunks, HEAD to learn the server's offset after a failure, retry 409/423/429/5xx
and network errors with the client's backoff. Standard library only, like the rest of the package.
"""

from __future__ import annotations

import base64
import os
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, Optional, Tuple, Union

from .bodies import Body, Piece
from .errors import NetworkError, UnexpectedResponseError, error_from_response
from .session import Session
from .transport import ProgressCallback, Response, TransportError

#: Bytes per PATCH: large enough that per-request overhead is negligible, small enough that a cut
#: connection costs little.
RESUMABLE_CHUNK_BYTES = 8 * 1024 * 1024
_TUS = {"Tus-Resumable": "1.0.0"}
_RETRY_STATUSES = {423, 429, 500, 502, 503, 504}

#: A file path or the bytes themselves (read from any offset).
ResumableSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview]


@dataclass
class ResumableResult:
    upload_url: str
    #: The ``file`` job holding the digest (``Upload-Job-Id`` / ``Upload-Job-Url``).
    job_id: str
    job_url: str
    #: The server's offset when this call started (0 unless it resumed).
    resumed_from: int
    #: Body bytes this call sent (a chunk sent again after a failure counts twice).
    bytes_sent: int
    #: The completed job, once waited for (``V2.upload_resumable``).
    result: Dict[str, Any] = field(default_factory=dict)


class _Chunk(Body):
    content_type = "application/offset+octet-stream"

    def __init__(self, data: bytes) -> None:
        self._data = data
        self.length = len(data)

    def pieces(self) -> Iterator[Piece]:
        yield (self._data, len(self._data))


class _Reader:
    """Reads [start, end) of a path (opened per read: nothing stays open between chunks) or of bytes."""

    def __init__(self, source: ResumableSource) -> None:
        if isinstance(source, (bytes, bytearray, memoryview)):
            self._data: Optional[memoryview] = memoryview(source).cast("B")
            self._path: Optional[str] = None
            self.size = len(self._data)
            self.filename = "upload.bin"
        else:
            self._data = None
            self._path = os.fsdecode(os.fspath(source))
            self.size = os.stat(self._path).st_size
            self.filename = os.path.basename(self._path)

    def read(self, start: int, end: int) -> bytes:
        if self._data is not None:
            return bytes(self._data[start:end])
        assert self._path is not None
        with open(self._path, "rb") as handle:
            handle.seek(start)
            data = handle.read(end - start)
        if len(data) != end - start:
            raise OSError(f"{self._path} shrank while it was uploaded")
        return data


def _job_of(response: Response) -> Optional[Tuple[str, str]]:
    job_id, job_url = response.headers.get("upload-job-id"), response.headers.get("upload-job-url")
    return (job_id, job_url) if job_id and job_url else None


def _metadata(pairs: Dict[str, Optional[str]]) -> str:
    return ",".join(f"{key} {base64.b64encode(value.encode()).decode()}" for key, value in pairs.items() if value is not None)


def upload_resumable(
    session: Session,
    source: ResumableSource,
    *,
    expect: Optional[str] = None,
    upload_url: Optional[str] = None,
    on_upload_url: Optional[Callable[[str], None]] = None,
    progress: Optional[ProgressCallback] = None,
    chunk_bytes: int = RESUMABLE_CHUNK_BYTES,
    filename: Optional[str] = None,
) -> ResumableResult:
    """Upload ``source`` through /v2/uploads, continuing ``upload_url`` (from an earlier, interrupted
    call) from the server's offset when it is still alive. ``expect`` (hex SHA-224) is sent as
    metadata ``sha224``: the job then fails with ``HASH_MISMATCH`` when the bytes differ."""
    if chunk_bytes <= 0:
        raise ValueError("chunk_bytes must be positive")
    reader = _Reader(source)
    transport = session.transport
    port = f":{transport.port}" if transport.port is not None else ""
    prefix = transport.prefix
    base_url = f"{transport.scheme}://{transport.host}{port}{prefix}"
    attempt = 0

    def target_of(url: str) -> str:
        path = urllib.parse.urlsplit(url).path
        return path[len(prefix) :] if prefix and path.startswith(prefix) else path

    def exchange(method: str, target: str, headers: Dict[str, str], body: Optional[Body] = None) -> Response:
        """One request, retried on network errors and transient statuses with backoff."""
        nonlocal attempt
        while True:
            all_headers = {**_TUS, **headers, **session.auth_headers("v2")}
            retry_after: Optional[float] = None
            try:
                response = session.transport.send(method, target, all_headers, body)
            except TransportError as failure:
                error: Exception = NetworkError(f"{method} {target} failed: {failure}")
                error.__cause__ = failure.cause
            else:
                if response.status not in _RETRY_STATUSES:
                    attempt = 0
                    return response
                api_error = error_from_response(response.status, response.headers, response.body)
                error, retry_after = api_error, api_error.retry_after
            delay = session.retry_policy.delay(attempt, retry_after)
            if delay is None:
                raise error
            attempt += 1
            time.sleep(delay)

    def state_of(url: str) -> Optional[Tuple[int, Optional[Tuple[str, str]]]]:
        """The server's offset, and the job once the last byte is in (HEAD names it too); None when
        the upload is gone (404/410: expired or terminated), so a new one starts."""
        response = exchange("HEAD", target_of(url), {})
        if response.status in (404, 410):
            return None
        if response.status != 200:
            raise error_from_response(response.status, response.headers, response.body)
        return int(response.headers.get("upload-offset", "0")), _job_of(response)

    previous = state_of(upload_url) if upload_url is not None else None
    offset = previous[0] if previous is not None else None
    job = previous[1] if previous is not None else None
    if upload_url is None or offset is None:
        meta = _metadata({"filename": filename or reader.filename, "sha224": expect.lower() if expect else None})
        created = exchange("POST", "/v2/uploads", {"Upload-Length": str(reader.size), "Upload-Metadata": meta})
        location = created.headers.get("location")
        if created.status != 201:
            raise error_from_response(created.status, created.headers, created.body)
        if not location:
            raise UnexpectedResponseError("POST /v2/uploads answered without Location", status=created.status)
        upload_url = urllib.parse.urljoin(base_url + "/", location)
        offset = 0
    if on_upload_url is not None:
        on_upload_url(upload_url)
    resumed_from, sent = offset, 0
    if progress is not None:
        progress(offset, reader.size)
    while True:
        if job is not None:
            return ResumableResult(upload_url, job[0], job[1], resumed_from, sent)
        end = min(reader.size, offset + chunk_bytes)
        data = reader.read(offset, end)
        response = exchange("PATCH", target_of(upload_url), {"Upload-Offset": str(offset)}, _Chunk(data))
        sent += len(data)
        if response.status == 409:
            # The server's offset differs (a PATCH whose answer was lost): go on from where it stands.
            now = state_of(upload_url)
            if now is None:
                raise error_from_response(response.status, response.headers, response.body)
            offset, job = now
            continue
        if response.status != 204:
            raise error_from_response(response.status, response.headers, response.body)
        offset = int(response.headers.get("upload-offset", str(end)))
        job = _job_of(response)
        if progress is not None:
            progress(offset, reader.size)
        if job is None and offset >= reader.size:
            raise UnexpectedResponseError(f"upload {upload_url} is complete but its job was not named; start again", status=204)


__all__ = ["RESUMABLE_CHUNK_BYTES", "ResumableResult", "ResumableSource", "upload_resumable"]
