"""Every HTTP operation of both API generations, one entry each: the names SDK methods carry.

Naming rule (shared by every official SDK, so their methods line up): ``<generation>.<path after
the generation, segments joined by "_">`` -- ``/v1/hash/text`` is ``v1.hash_text`` here and
``v1.hashText`` in TypeScript; the ``?async=true`` form of an upload or batch is ``submit_<name>``;
``GET /v2/jobs/{id}`` is ``v2.jobs.get`` (and ``GET /v2/receipts/{id}`` ``v2.receipts.get``; ``/v2/bulk`` is ``v2.bulk.create``, ``.get``, ``.cancel``, ``.results``). The table is checked against the service's
``/openapi.json`` by the test suite.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Tuple


@dataclass(frozen=True)
class Operation:
    name: str
    method: str
    #: As in the OpenAPI document (``/v2/jobs/{id}``).
    path: str
    #: A pure computation or a read: the same request twice gives the same answer and changes
    #: nothing but the request count, so it is retried without an ``Idempotency-Key``. Uploads and
    #: job submissions are not: they are retried only when they carry one.
    repeatable: bool
    #: Sent with ``?async=true``: answered 202 with a job to wait for.
    submits_job: bool = False


def _op(name: str, method: str, path: str, repeatable: bool = True, submits_job: bool = False) -> Operation:
    return Operation(name, method, path, repeatable, submits_job)


OPERATIONS: Tuple[Operation, ...] = (
    # v2 (docs/api.md "v2 endpoints")
    _op("v2.hash", "POST", "/v2/hash"),
    _op("v2.verify", "POST", "/v2/verify"),
    _op("v2.hmac", "POST", "/v2/hmac"),
    _op("v2.batch", "POST", "/v2/batch"),
    _op("v2.file", "POST", "/v2/file", repeatable=False),
    _op("v2.stream", "POST", "/v2/stream", repeatable=False),
    _op("v2.submit_batch", "POST", "/v2/batch", repeatable=False, submits_job=True),
    _op("v2.submit_file", "POST", "/v2/file", repeatable=False, submits_job=True),
    _op("v2.submit_stream", "POST", "/v2/stream", repeatable=False, submits_job=True),
    _op("v2.jobs.get", "GET", "/v2/jobs/{id}"),
    # proof of existence (docs/proving.md); POST /v2/timestamp is for RFC 3161 clients (openssl ts)
    # and /v2/uploads is driven whole by ``v2.upload_resumable``, so neither is an operation here
    _op("v2.log", "POST", "/v2/log"),
    _op("v2.log_consistency", "GET", "/v2/log/consistency"),
    _op("v2.receipts.get", "GET", "/v2/receipts/{id}"),
    # bulk jobs (docs/api.md "Bulk jobs"): creating one is a job submission (not repeatable; the
    # service ignores the ``async`` parameter a submission carries), the others are reads and a cancel
    _op("v2.bulk.create", "POST", "/v2/bulk", repeatable=False, submits_job=True),
    _op("v2.bulk.get", "GET", "/v2/bulk/{id}"),
    _op("v2.bulk.cancel", "DELETE", "/v2/bulk/{id}"),
    _op("v2.bulk.results", "GET", "/v2/bulk/{id}/results"),
    # v1 Set A
    _op("v1.hash", "POST", "/v1/hash"),
    _op("v1.verify", "POST", "/v1/verify"),
    _op("v1.file_hash", "POST", "/v1/file/hash", repeatable=False),
    _op("v1.hmac", "POST", "/v1/hmac"),
    _op("v1.usage", "GET", "/v1/usage"),
    # v1 Set B
    _op("v1.hash_text", "POST", "/v1/hash/text"),
    _op("v1.hash_file", "POST", "/v1/hash/file", repeatable=False),
    _op("v1.hash_url", "POST", "/v1/hash/url"),
    _op("v1.verify_text", "POST", "/v1/verify/text"),
    _op("v1.verify_file", "POST", "/v1/verify/file", repeatable=False),
    _op("v1.batch_hash", "POST", "/v1/batch/hash"),
    _op("v1.batch_verify", "POST", "/v1/batch/verify"),
    _op("v1.compare", "POST", "/v1/compare"),
    _op("v1.status", "GET", "/v1/status"),
)

BY_NAME: Dict[str, Operation] = {op.name: op for op in OPERATIONS}
