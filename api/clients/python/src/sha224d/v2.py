"""The /v2 operations (docs/api.md "v2 endpoints"): one method each, named by ``operations.OPERATIONS``."""

from __future__ import annotations

import json
import time
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple, Union, cast

from ._calls import Calls, json_body
from ._params import Data, data_field, hmac_fields
from .bodies import Body, NdjsonBody, RawBody, Source, UploadSource
from .errors import JobTimeoutError
from .jobs import Jobs, JobStatus
from .schemas import (
    AcceptedResponse,
    BatchResponse,
    FileResponse,
    HashResponse,
    HmacResponse,
    StreamResponse,
    VerifyResponse,
)
from .resumable import RESUMABLE_CHUNK_BYTES, ResumableResult, ResumableSource, upload_resumable
from .session import Session
from .transport import ProgressCallback


#: /v2/file takes files up to 100 MB whatever the plan; larger ones go to /v2/stream
#: (docs/api.md "Other limits"; MB = MiB, docs/limits.md).
FILE_ENDPOINT_MAX_BYTES = 100 * 1024 * 1024

#: A batch item: ``{"id": ..., "data": ...}`` or an ``(id, data)`` pair.
BatchItem = Union[Mapping[str, str], Tuple[str, str]]


def _batch_items(items: Iterable[BatchItem]) -> List[Dict[str, str]]:
    out: List[Dict[str, str]] = []
    for item in items:
        if isinstance(item, tuple):
            item_id, data = item
        else:
            item_id, data = item["id"], item["data"]
        out.append({"id": item_id, "data": data})
    return out


class V2(Calls):
    def __init__(self, session: Session) -> None:
        super().__init__(session)
        #: ``GET /v2/jobs/{id}`` and waiting for a job.
        self.jobs = Jobs(session)
        #: ``GET /v2/receipts/{id}``: a logged digest's receipt.
        self.receipts = Receipts(session)
        #: ``/v2/bulk``: millions of items, a list of URLs or a bucket in one job (docs/api.md "Bulk jobs").
        self.bulk = Bulk(session)

    # ---- JSON operations ------------------------------------------------------------------------

    def hash(self, data: Data, *, encoding: Optional[str] = None, output: Optional[str] = None) -> HashResponse:
        """``POST /v2/hash``. ``encoding`` of ``data``: utf8 (default), hex, base64 (bytes are sent
        as base64); ``output``: hex (default), base64, binary (returned base64)."""
        value, encoding = data_field(data, encoding, "data")
        return cast(HashResponse, self._call("v2.hash", {"data": value, "encoding": encoding, "output": output}))

    def verify(self, data: Data, hash: str, *, encoding: Optional[str] = None) -> VerifyResponse:
        """``POST /v2/verify``: ``valid`` says whether SHA-224 of ``data`` equals ``hash`` (56 hex)."""
        value, encoding = data_field(data, encoding, "data")
        return cast(VerifyResponse, self._call("v2.verify", {"data": value, "hash": hash, "encoding": encoding}))

    def hmac(
        self,
        data: Data,
        key: Data,
        *,
        encoding: Optional[str] = None,
        key_encoding: Optional[str] = None,
        output: Optional[str] = None,
    ) -> HmacResponse:
        """``POST /v2/hmac``: HMAC-SHA-224 of ``data`` under ``key``; ``output``: hex or base64."""
        fields = {**hmac_fields(data, key, encoding, key_encoding, "key_encoding"), "output": output}
        return cast(HmacResponse, self._call("v2.hmac", fields))

    def batch(
        self,
        items: Iterable[BatchItem],
        *,
        parallel: Optional[bool] = None,
        encoding: Optional[str] = None,
        output: Optional[str] = None,
    ) -> BatchResponse:
        """``POST /v2/batch``: 1 to 1000 items, results in request order. If the service answers
        504 ``JOB_TIMEOUT``, the job it names is waited for instead of sending the batch again."""
        fields = {"items": _batch_items(items), "parallel": parallel, "encoding": encoding, "output": output}
        return cast(BatchResponse, self._finished(lambda: self._call("v2.batch", fields)))

    def submit_batch(
        self,
        items: Iterable[BatchItem],
        *,
        parallel: Optional[bool] = None,
        encoding: Optional[str] = None,
        output: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> AcceptedResponse:
        """``POST /v2/batch?async=true``: 202 with ``job_id``; wait with ``jobs.wait(job_id)``."""
        fields = {"items": _batch_items(items), "parallel": parallel, "encoding": encoding, "output": output}
        return cast(AcceptedResponse, self._submit("v2.submit_batch", json_body(fields), idempotency_key))

    # ---- uploads ----------------------------------------------------------------------------------

    def file(
        self,
        source: Source,
        *,
        filename: Optional[str] = None,
        chunk_size: Optional[int] = None,
        output: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
        idempotency_key: Optional[str] = None,
    ) -> FileResponse:
        """``POST /v2/file`` (multipart, up to 100 MB): ``source`` is a path, bytes or a binary
        file object, streamed from disk, never read whole. ``progress(sent, total)`` is called as
        bytes go out (``total`` is ``None`` when the size is unknown)."""
        fields = {"chunk_size": chunk_size, "output": output}
        result = self._finished(lambda: self._upload("v2.file", source, filename, fields, progress, idempotency_key))
        return cast(FileResponse, result)

    def submit_file(
        self,
        source: Source,
        *,
        filename: Optional[str] = None,
        chunk_size: Optional[int] = None,
        output: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
        idempotency_key: Optional[str] = None,
    ) -> AcceptedResponse:
        """``POST /v2/file?async=true``: 202 with ``job_id``."""
        fields = {"chunk_size": chunk_size, "output": output}
        return cast(AcceptedResponse, self._upload("v2.submit_file", source, filename, fields, progress, idempotency_key))

    def stream(
        self,
        source: Source,
        *,
        chunk_size: Optional[int] = None,
        output: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
        idempotency_key: Optional[str] = None,
    ) -> StreamResponse:
        """``POST /v2/stream``: the raw bytes with chunked transfer encoding, any size up to the
        plan's limit (1 GiB on Enterprise), read piece by piece -- memory stays flat."""
        result = self._finished(lambda: self._stream("v2.stream", source, chunk_size, output, progress, idempotency_key))
        return cast(StreamResponse, result)

    def submit_stream(
        self,
        source: Source,
        *,
        chunk_size: Optional[int] = None,
        output: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
        idempotency_key: Optional[str] = None,
    ) -> AcceptedResponse:
        """``POST /v2/stream?async=true``: 202 with ``job_id``."""
        result = self._stream("v2.submit_stream", source, chunk_size, output, progress, idempotency_key)
        return cast(AcceptedResponse, result)

    def upload(
        self,
        source: Source,
        *,
        filename: Optional[str] = None,
        output: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> Union[FileResponse, StreamResponse]:
        """Hash a file of any size: ``file`` when its size is known and at most 100 MB, else
        ``stream`` (not an operation of its own; the choice docs/api.md "Other limits" asks for)."""
        size = UploadSource(source).size
        if size is not None and size <= FILE_ENDPOINT_MAX_BYTES:
            return self.file(source, filename=filename, output=output, progress=progress)
        return self.stream(source, output=output, progress=progress)

    def upload_resumable(
        self,
        source: ResumableSource,
        *,
        expect: Optional[str] = None,
        upload_url: Optional[str] = None,
        on_upload_url: Optional[Callable[[str], None]] = None,
        progress: Optional[ProgressCallback] = None,
        chunk_bytes: int = RESUMABLE_CHUNK_BYTES,
        wait_timeout: float = 600.0,
    ) -> ResumableResult:
        """Hash a file (path or bytes) through ``/v2/uploads`` (tus 1.0), in chunks that survive a cut
        connection; with ``upload_url`` from an earlier call (given to ``on_upload_url``) it goes on from
        the server's offset. Waits for the ``file`` job holding the digest (``result.result["hash"]``);
        a wrong ``expect`` raises the job's ``HASH_MISMATCH`` error."""
        uploaded = upload_resumable(
            self._session,
            source,
            expect=expect,
            upload_url=upload_url,
            on_upload_url=on_upload_url,
            progress=progress,
            chunk_bytes=chunk_bytes,
        )
        uploaded.result = self.jobs.wait(uploaded.job_id, timeout=wait_timeout)
        return uploaded

    # ---- proof of existence (docs/proving.md) ----------------------------------------------------

    def log(self, digest: str, *, length: Optional[int] = None) -> Dict[str, Any]:
        """``POST /v2/log``: append a SHA-224 (56 hex) to the transparency log; the answer carries its
        receipt (leaf, index, inclusion proof, checkpoint)."""
        return self._call("v2.log", {"digest": digest, "length": length})

    def log_consistency(self, first: int, second: Optional[int] = None) -> Dict[str, Any]:
        """``GET /v2/log/consistency``: the proof that the log of size ``first`` is a prefix of the
        one of size ``second`` (default: the latest checkpoint)."""
        query = {"from": str(first)} if second is None else {"from": str(first), "to": str(second)}
        return self._session.request("v2.log_consistency", query=query)

    # ---- helpers ---------------------------------------------------------------------------------

    def _stream(
        self,
        operation: str,
        source: Source,
        chunk_size: Optional[int],
        output: Optional[str],
        progress: Optional[ProgressCallback],
        idempotency_key: Optional[str],
    ) -> Dict[str, Any]:
        """The raw bytes as the body; the options go in the query string."""
        body = RawBody(UploadSource(source))
        return self._submit(operation, body, idempotency_key, query=_stream_query(chunk_size, output), progress=progress)

    def _finished(self, send: Callable[[], Dict[str, Any]]) -> JobStatus:
        """A synchronous batch/file/stream that outlives the service's wait (504 ``JOB_TIMEOUT``
        naming its job) goes on as a job: wait for it rather than send everything again."""
        try:
            return send()
        except JobTimeoutError as err:
            if not err.job_id:
                raise
            return self.jobs.wait(err.job_id)


def _stream_query(chunk_size: Optional[int], output: Optional[str]) -> Dict[str, str]:
    return {key: str(value) for key, value in (("chunk_size", chunk_size), ("output", output)) if value is not None}


class Receipts:
    def __init__(self, session: Session) -> None:
        self._session = session

    def get(self, receipt_id: str) -> Dict[str, Any]:
        """``GET /v2/receipts/{id}``: the receipt of a digest this account logged, proven against the
        latest checkpoint (another account's receipt is ``NotFoundError``)."""
        return self._session.request("v2.receipts.get", path_params={"id": receipt_id})


class Bulk:
    """Bulk jobs: ``create`` (items, ``urls`` or ``s3``), ``get``, ``cancel``, ``results``, ``wait``."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def create(
        self,
        items: Optional[Iterable[Mapping[str, str]]] = None,
        *,
        urls: Optional[List[str]] = None,
        s3: Optional[Mapping[str, Any]] = None,
        idempotency_key: Optional[str] = None,
    ) -> Dict[str, Any]:
        """``POST /v2/bulk``: ``items`` (dicts with ``id``, ``data``, optional ``encoding``) sent as
        NDJSON while they are produced; or ``urls=[...]``; or ``s3={"bucket": ..., "credentials": {...}}``.
        No key is generated: the service does not replay bulk jobs by ``Idempotency-Key`` yet, so a
        create is sent again only when the caller gives one (docs/decisions.md "Bulk jobs")."""
        if (items is None) + (urls is None) + (s3 is None) != 2:
            raise TypeError("give exactly one of items, urls= or s3=")
        if urls is not None:
            body: Body = json_body({"source": "urls", "urls": urls})
        elif s3 is not None:
            body = json_body({"source": "s3", **s3})
        else:
            assert items is not None
            body = NdjsonBody((json.dumps(dict(item), ensure_ascii=False) + "\n").encode("utf-8") for item in items)
        return self._session.request("v2.bulk.create", body=body, idempotency_key=idempotency_key)

    def get(self, bulk_id: str) -> Dict[str, Any]:
        """``GET /v2/bulk/{id}``: progress (``items``, ``rate_items_per_second``, ``eta_seconds``) and the summary once finished."""
        return self._session.request("v2.bulk.get", path_params={"id": bulk_id})

    def cancel(self, bulk_id: str) -> Dict[str, Any]:
        """``DELETE /v2/bulk/{id}``: chunks not yet run are skipped."""
        return self._session.request("v2.bulk.cancel", path_params={"id": bulk_id})

    def results(self, bulk_id: str) -> List[Dict[str, Any]]:
        """``GET /v2/bulk/{id}/results``: one dict per item in input order, ``hash`` and ``bytes`` or ``error``."""
        lines: List[Dict[str, Any]] = self._session.request("v2.bulk.results", path_params={"id": bulk_id}, ndjson=True)["lines"]
        return lines

    def wait(self, bulk_id: str, *, interval: float = 0.5, timeout: float = 600.0) -> Dict[str, Any]:
        """Reads the status until the job is completed or cancelled."""
        deadline = time.monotonic() + timeout
        while True:
            status = self.get(bulk_id)
            if status["status"] in ("completed", "cancelled"):
                return status
            if time.monotonic() > deadline:
                raise TimeoutError(f"bulk job {bulk_id} did not finish within {timeout} s")
            time.sleep(interval)
