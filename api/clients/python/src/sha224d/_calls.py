"""What the methods of ``V1`` and ``V2`` share: their arguments become a JSON, multipart or raw
body, sent through the session."""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Optional

from ._params import compact, form_fields
from .bodies import Body, JsonBody, MultipartBody, Source, UploadSource
from .session import Session
from .transport import ProgressCallback


def json_body(fields: Dict[str, Any]) -> JsonBody:
    """The fields the caller set, as a JSON object (the service applies its defaults to the others)."""
    return JsonBody(json.dumps(compact(fields), ensure_ascii=False).encode("utf-8"))


class Calls:
    def __init__(self, session: Session) -> None:
        self._session = session

    def _call(self, operation: str, fields: Dict[str, Any]) -> Dict[str, Any]:
        """A pure computation or a read (``Operation.repeatable``): retried without a key."""
        return self._session.request(operation, body=json_body(fields))

    def _submit(
        self,
        operation: str,
        body: Body,
        idempotency_key: Optional[str],
        *,
        query: Optional[Mapping[str, str]] = None,
        progress: Optional[ProgressCallback] = None,
    ) -> Dict[str, Any]:
        """An upload or a job submission, not repeatable by itself: it carries the caller's
        Idempotency-Key, else a fresh one, so it can be retried (see ``retry``)."""
        key = self._session.idempotency_key(idempotency_key)
        return self._session.request(operation, query=query, body=body, idempotency_key=key, progress=progress)

    def _upload(
        self,
        operation: str,
        source: Source,
        filename: Optional[str],
        fields: Dict[str, Any],
        progress: Optional[ProgressCallback],
        idempotency_key: Optional[str],
    ) -> Dict[str, Any]:
        """A multipart upload: the text fields the caller set, then the file."""
        body = MultipartBody(UploadSource(source, filename), form_fields(fields))
        return self._submit(operation, body, idempotency_key, progress=progress)
