"""Request bodies, produced piece by piece so an upload is never held in memory.

A body yields ``(bytes_to_send, content_bytes_in_them)`` pairs: the second figure counts only the
caller's data (not multipart framing), which is what progress callbacks report.
"""

from __future__ import annotations

import io
import os
import stat
import urllib.parse
import uuid
from typing import IO, Iterator, List, Optional, Protocol, Sequence, Tuple, Union, cast

#: Bytes read from a source per piece: large enough that per-call overhead is negligible, small
#: enough that an upload of any size keeps the client's memory flat.
UPLOAD_CHUNK_BYTES = 256 * 1024


class BinaryReader(Protocol):
    """Anything with ``read(size) -> bytes``: a file opened with ``"rb"``, ``io.BytesIO``, a
    socket's ``makefile("rb")``, an ``io.RawIOBase``... Seekable ones can be sent again."""

    def read(self, size: int = ..., /) -> Optional[bytes]: ...


#: What an upload accepts: a file path, bytes, or a binary reader.
Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryReader]

Piece = Tuple[bytes, int]


class UploadSource:
    """The bytes of an upload, read in chunks from the start on every attempt when the source
    allows it (a path, bytes, a seekable file); other file objects can be read once."""

    def __init__(self, source: Source, filename: Optional[str] = None) -> None:
        self._path: Optional[str] = None
        self._data: Optional[memoryview] = None
        self._file: Optional[BinaryReader] = None
        self._start = 0
        self._reads = 0
        self.size: Optional[int] = None
        self.replayable = False
        name: Optional[str] = None
        if isinstance(source, (str, os.PathLike)):
            path = os.fsdecode(os.fspath(source))
            info = os.stat(path)
            self._path = path
            if stat.S_ISREG(info.st_mode):
                self.size = info.st_size
                self.replayable = True
            name = os.path.basename(path)
        elif isinstance(source, (bytes, bytearray, memoryview)):
            self._data = memoryview(source).cast("B")
            self.size = len(self._data)
            self.replayable = True
        elif hasattr(source, "read"):
            if isinstance(source, io.TextIOBase):
                raise TypeError("source must be opened in binary mode ('rb'), not text mode")
            self._file = source
            seekable = getattr(source, "seekable", None)
            if callable(seekable) and seekable():
                file = cast(IO[bytes], source)
                self._start = file.tell()
                self.size = file.seek(0, io.SEEK_END) - self._start
                file.seek(self._start)
                self.replayable = True
            file_name = getattr(source, "name", None)
            if isinstance(file_name, str):
                name = os.path.basename(file_name)
        else:
            raise TypeError(f"source must be a path, bytes or a binary file object, not {type(source).__name__}")
        self.filename = filename if filename is not None else (name or "upload")

    @property
    def can_start(self) -> bool:
        """False once a one-shot source has been read from."""
        return self.replayable or self._reads == 0

    def chunks(self, size: int = UPLOAD_CHUNK_BYTES) -> Iterator[bytes]:
        if not self.can_start:
            raise RuntimeError("this source can be read only once (not seekable)")
        self._reads += 1
        if self._data is not None:
            for offset in range(0, len(self._data), size):
                yield bytes(self._data[offset : offset + size])
            return
        if self._path is not None:
            with open(self._path, "rb") as handle:
                yield from _read_all(handle, size)
            return
        assert self._file is not None
        if self.replayable:
            cast(IO[bytes], self._file).seek(self._start)
        yield from _read_all(self._file, size)


def _read_all(handle: BinaryReader, size: int) -> Iterator[bytes]:
    while True:
        piece = handle.read(size)
        if not piece:
            return
        if not isinstance(piece, (bytes, bytearray)):  # pyright: ignore[reportUnnecessaryIsInstance] - a run-time boundary
            raise TypeError("source must yield bytes; open it in binary mode ('rb')")
        yield bytes(piece)


class Body:
    """A request body: its media type, its length when known (else it is sent chunked)."""

    content_type: str = "application/octet-stream"
    length: Optional[int] = None
    #: Bytes of the caller's data, reported as the progress total (``None`` when unknown).
    total: Optional[int] = None

    @property
    def can_start(self) -> bool:
        return True

    def pieces(self) -> Iterator[Piece]:
        raise NotImplementedError


class JsonBody(Body):
    content_type = "application/json"

    def __init__(self, data: bytes) -> None:
        self._data = data
        self.length = len(data)

    def pieces(self) -> Iterator[Piece]:
        yield self._data, 0


class RawBody(Body):
    """``application/octet-stream``, always with chunked transfer encoding (docs/api.md "v2 endpoints")."""

    def __init__(self, source: UploadSource) -> None:
        self._source = source
        self.total = source.size

    @property
    def can_start(self) -> bool:
        return self._source.can_start

    def pieces(self) -> Iterator[Piece]:
        for chunk in self._source.chunks():
            yield chunk, len(chunk)


class NdjsonBody(Body):
    """``application/x-ndjson``: one JSON object per line, produced as it is sent (bulk jobs)."""

    content_type = "application/x-ndjson"

    def __init__(self, lines: Iterator[bytes]) -> None:
        self._lines = lines
        self._started = False

    @property
    def can_start(self) -> bool:
        # An iterator is read once: a body that has started cannot be sent again.
        return not self._started

    def pieces(self) -> Iterator[Piece]:
        self._started = True
        for line in self._lines:
            yield line, len(line)


def _form_quote(value: str) -> str:
    # WHATWG "multipart/form-data encoding algorithm": escape quote, CR and LF in names.
    return value.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


class MultipartBody(Body):
    """``multipart/form-data`` with the text fields first, then the part named ``file``. The
    length is exact when the source's size is known, so the service can refuse an oversized file
    before reading it; otherwise the body is sent chunked."""

    def __init__(self, source: UploadSource, fields: Sequence[Tuple[str, str]], file_field: str = "file") -> None:
        self._source = source
        boundary = f"sha224d-{uuid.uuid4().hex}"
        self.content_type = f"multipart/form-data; boundary={boundary}"
        parts: List[str] = []
        for name, value in fields:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{_form_quote(name)}"\r\n\r\n{value}\r\n')
        filename = source.filename
        disposition = f'form-data; name="{_form_quote(file_field)}"; filename="{_form_quote(_ascii_fallback(filename))}"'
        if not filename.isascii():
            # RFC 7578 §4.2 / RFC 5987: the UTF-8 name, which the server prefers to the fallback.
            disposition += f"; filename*=UTF-8''{urllib.parse.quote(filename, safe='')}"
        parts.append(f"--{boundary}\r\nContent-Disposition: {disposition}\r\nContent-Type: application/octet-stream\r\n\r\n")
        self._head = "".join(parts).encode("utf-8")
        self._tail = f"\r\n--{boundary}--\r\n".encode("ascii")
        self.total = source.size
        self.length = None if source.size is None else len(self._head) + source.size + len(self._tail)

    @property
    def can_start(self) -> bool:
        return self._source.can_start

    def pieces(self) -> Iterator[Piece]:
        yield self._head, 0
        for chunk in self._source.chunks():
            yield chunk, len(chunk)
        yield self._tail, 0


def _ascii_fallback(name: str) -> str:
    return name.encode("ascii", "replace").decode("ascii").replace("?", "_")
