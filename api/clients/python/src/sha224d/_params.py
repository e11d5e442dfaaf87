"""Turning method arguments into request fields."""

from __future__ import annotations

import base64
from typing import Any, Dict, List, Optional, Tuple, Union

#: Text, or bytes (sent base64-encoded with ``encoding: "base64"``).
Data = Union[str, bytes, bytearray, memoryview]


def data_field(value: Data, encoding: Optional[str], name: str) -> Tuple[str, Optional[str]]:
    """``(string to send, encoding to send)``. Bytes travel as base64, so any byte string can be
    hashed through a JSON body."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        if encoding not in (None, "base64"):
            raise ValueError(f"{name}: bytes are sent base64-encoded; leave its encoding unset")
        return base64.b64encode(bytes(value)).decode("ascii"), "base64"
    if not isinstance(value, str):  # pyright: ignore[reportUnnecessaryIsInstance] - a run-time boundary
        raise TypeError(f"{name} must be str or bytes, not {type(value).__name__}")
    return value, encoding


def compact(fields: Dict[str, Any]) -> Dict[str, Any]:
    """The fields the caller set: the service applies its own defaults to the others."""
    return {key: value for key, value in fields.items() if value is not None}


def form_fields(fields: Dict[str, Any]) -> List[Tuple[str, str]]:
    """Multipart text fields, in order, without the ones left unset."""
    return [(key, str(value)) for key, value in fields.items() if value is not None]


def hmac_fields(
    data: Data, key: Data, encoding: Optional[str], key_encoding: Optional[str], key_encoding_name: str
) -> Dict[str, Optional[str]]:
    """The message and key of an HMAC request, each with its encoding; ``key_encoding_name`` is the
    generation's name for the key's (v1 ``keyEncoding``, v2 ``key_encoding``)."""
    value, encoding = data_field(data, encoding, "data")
    key_value, key_encoding = data_field(key, key_encoding, "key")
    return {"data": value, "key": key_value, "encoding": encoding, key_encoding_name: key_encoding}
