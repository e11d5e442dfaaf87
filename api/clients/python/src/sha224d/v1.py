"""The /v1 operations: Set A (camelCase fields) and Set B (snake_case fields), as served side by
side (docs/v1.md). One method each, named by ``operations.OPERATIONS``."""

from __future__ import annotations

from typing import Dict, Iterable, List, Mapping, Optional, Union, cast

from ._calls import Calls
from ._params import Data, data_field, hmac_fields
from .bodies import Source
from .schemas import (
    V1BatchHashResponse,
    V1BatchVerifyResponse,
    V1CompareResponse,
    V1FileHashResponse,
    V1FileVerifyResponse,
    V1HashFileResponse,
    V1HashResponse,
    V1HmacResponse,
    V1StatusResponse,
    V1TextHashResponse,
    V1TextVerifyResponse,
    V1UrlHashResponse,
    V1UsageResponse,
    V1VerifyResponse,
)
from .transport import ProgressCallback


#: A Set B batch item: a text, or ``{"text": ..., "id": ...}`` (``id`` optional: defaults to the
#: item's index); for batch verification also ``"hash"``.
TextItem = Union[str, Mapping[str, str]]


class V1(Calls):
    # ---- Set A ------------------------------------------------------------------------------------

    def hash(self, data: Data, *, encoding: Optional[str] = None, output_format: Optional[str] = None) -> V1HashResponse:
        """``POST /v1/hash``; ``output_format``: hex (default), base64, binary (returned base64)."""
        value, encoding = data_field(data, encoding, "data")
        return cast(V1HashResponse, self._call("v1.hash", {"data": value, "encoding": encoding, "outputFormat": output_format}))

    def verify(self, data: Data, hash: str, *, encoding: Optional[str] = None) -> V1VerifyResponse:
        """``POST /v1/verify`` (Set A body): ``verified`` says whether the digest matches."""
        value, encoding = data_field(data, encoding, "data")
        return cast(V1VerifyResponse, self._call("v1.verify", {"data": value, "hash": hash, "encoding": encoding}))

    def file_hash(
        self,
        source: Source,
        *,
        filename: Optional[str] = None,
        output_format: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
        idempotency_key: Optional[str] = None,
    ) -> V1FileHashResponse:
        """``POST /v1/file/hash`` (multipart); ``output_format``: hex or base64."""
        result = self._upload("v1.file_hash", source, filename, {"outputFormat": output_format}, progress, idempotency_key)
        return cast(V1FileHashResponse, result)

    def hmac(
        self,
        data: Data,
        key: Data,
        *,
        encoding: Optional[str] = None,
        key_encoding: Optional[str] = None,
        output_format: Optional[str] = None,
    ) -> V1HmacResponse:
        """``POST /v1/hmac``: HMAC-SHA-224; ``output_format``: hex or base64."""
        fields = {**hmac_fields(data, key, encoding, key_encoding, "keyEncoding"), "outputFormat": output_format}
        return cast(V1HmacResponse, self._call("v1.hmac", fields))

    def usage(self) -> V1UsageResponse:
        """``GET /v1/usage``: tier, daily quota and its use, rate and file limits."""
        return cast(V1UsageResponse, self._session.request("v1.usage"))

    # ---- Set B ------------------------------------------------------------------------------------

    def hash_text(self, text: Data, *, encoding: Optional[str] = None) -> V1TextHashResponse:
        """``POST /v1/hash/text``: lowercase hex and ``input_length`` (bytes)."""
        value, encoding = data_field(text, encoding, "text")
        return cast(V1TextHashResponse, self._call("v1.hash_text", {"text": value, "encoding": encoding}))

    def hash_file(
        self,
        source: Source,
        *,
        filename: Optional[str] = None,
        chunk_size: Optional[int] = None,
        progress: Optional[ProgressCallback] = None,
        idempotency_key: Optional[str] = None,
    ) -> V1HashFileResponse:
        """``POST /v1/hash/file`` (multipart)."""
        result = self._upload("v1.hash_file", source, filename, {"chunk_size": chunk_size}, progress, idempotency_key)
        return cast(V1HashFileResponse, result)

    def hash_url(self, url: str, *, timeout: Optional[float] = None) -> V1UrlHashResponse:
        """``POST /v1/hash/url``: the service fetches ``url`` (public addresses only) within
        ``timeout`` seconds (default 10, at most 60) and hashes its body."""
        return cast(V1UrlHashResponse, self._call("v1.hash_url", {"url": url, "timeout": timeout}))

    def verify_text(self, text: Data, hash: str, *, encoding: Optional[str] = None) -> V1TextVerifyResponse:
        """``POST /v1/verify/text``: ``valid``, ``expected`` (as sent) and ``computed``."""
        value, encoding = data_field(text, encoding, "text")
        return cast(V1TextVerifyResponse, self._call("v1.verify_text", {"text": value, "hash": hash, "encoding": encoding}))

    def verify_file(
        self,
        source: Source,
        hash: str,
        *,
        filename: Optional[str] = None,
        progress: Optional[ProgressCallback] = None,
        idempotency_key: Optional[str] = None,
    ) -> V1FileVerifyResponse:
        """``POST /v1/verify/file`` (multipart)."""
        result = self._upload("v1.verify_file", source, filename, {"hash": hash}, progress, idempotency_key)
        return cast(V1FileVerifyResponse, result)

    def batch_hash(self, items: Iterable[TextItem], *, encoding: Optional[str] = None) -> V1BatchHashResponse:
        """``POST /v1/batch/hash``: 1 to 1000 texts."""
        return cast(V1BatchHashResponse, self._call("v1.batch_hash", {"items": _text_items(items), "encoding": encoding}))

    def batch_verify(self, items: Iterable[Mapping[str, str]], *, encoding: Optional[str] = None) -> V1BatchVerifyResponse:
        """``POST /v1/batch/verify``: items ``{"text", "hash", "id"?}``."""
        fields = {"items": [dict(item) for item in items], "encoding": encoding}
        return cast(V1BatchVerifyResponse, self._call("v1.batch_verify", fields))

    def compare(self, hash1: str, hash2: str) -> V1CompareResponse:
        """``POST /v1/compare``: constant-time, case-insensitive comparison of two hex digests."""
        return cast(V1CompareResponse, self._call("v1.compare", {"hash1": hash1, "hash2": hash2}))

    def status(self) -> V1StatusResponse:
        """``GET /v1/status``: service status, the per-minute window, the account's day."""
        return cast(V1StatusResponse, self._session.request("v1.status"))


def _text_items(items: Iterable[TextItem]) -> List[Dict[str, str]]:
    return [{"text": item} if isinstance(item, str) else dict(item) for item in items]
