"""Verifying a webhook sent by sha224d (Standard Webhooks 1.0, ``v1`` signatures).

The HMAC-SHA256, keyed with the base64 part of the ``whsec_...`` secret, of
``{webhook-id}.{webhook-timestamp}.{body}`` must match one of the ``v1,`` entries of
``webhook-signature`` (two during a secret rotation), and the timestamp must lie within the
tolerance (5 minutes) of now. Pass the raw body exactly as received::

    event = verify_webhook(secret, request.headers, request.get_data())
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, Optional, Union


class WebhookVerificationError(Exception):
    """The webhook's signature or timestamp did not check out."""


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    getter = getattr(headers, "get", None)
    if getter is not None:
        value = getter(name)
        if value is not None:
            return value[0] if isinstance(value, (list, tuple)) else str(value)
    for key, value in headers.items():
        if key.lower() == name:
            return value[0] if isinstance(value, (list, tuple)) else str(value)
    return None


def verify_webhook(
    secret: str,
    headers: Mapping[str, Any],
    body: Union[bytes, str],
    tolerance_seconds: int = 300,
    now: Optional[float] = None,
) -> Any:
    """Checks the signature and timestamp; returns the parsed event or raises WebhookVerificationError."""
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature")
    if not timestamp.isdigit():
        raise WebhookVerificationError("Invalid webhook-timestamp")
    current = int(time.time() if now is None else now)
    if abs(current - int(timestamp)) > tolerance_seconds:
        raise WebhookVerificationError("Timestamp outside the tolerance")
    try:
        key = base64.b64decode(secret[6:] if secret.startswith("whsec_") else secret, validate=True)
    except ValueError as err:  # binascii.Error is a ValueError
        raise WebhookVerificationError("The secret is not whsec_ + base64") from err
    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    expected = hmac.new(key, f"{msg_id}.{timestamp}.".encode("utf-8") + raw, hashlib.sha256).digest()
    for entry in signatures.split(" "):
        version, _, value = entry.partition(",")
        if version != "v1" or not value:
            continue
        try:
            given = base64.b64decode(value, validate=True)
        except ValueError:
            continue
        if hmac.compare_digest(given, expected):
            return json.loads(raw.decode("utf-8"))
    raise WebhookVerificationError("No matching signature")
