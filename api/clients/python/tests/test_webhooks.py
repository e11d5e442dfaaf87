"""verify_webhook: known answers computed here with hmac, rotation, tolerance and tampering."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import unittest

import _support  # noqa: F401  (puts the package on the path)

from sha224d import WebhookVerificationError, verify_webhook

KEY = bytes(range(32))
SECRET = "whsec_" + base64.b64encode(KEY).decode()
BODY = json.dumps({"type": "job.completed", "data": {"job_id": "j", "hash": "ab"}})


def sign(key: bytes, msg_id: str, ts: int, body: str) -> str:
    return "v1," + base64.b64encode(hmac.new(key, f"{msg_id}.{ts}.{body}".encode(), hashlib.sha256).digest()).decode()


def headers(ts: int, signature: str, msg_id: str = "msg_1") -> dict:
    return {"webhook-id": msg_id, "webhook-timestamp": str(ts), "webhook-signature": signature}


class VerifyWebhook(unittest.TestCase):
    def test_accepts_a_valid_signature_as_str_or_bytes_and_any_header_case(self) -> None:
        ts = int(time.time())
        h = headers(ts, sign(KEY, "msg_1", ts, BODY))
        self.assertEqual(verify_webhook(SECRET, h, BODY)["data"]["hash"], "ab")
        self.assertEqual(verify_webhook(SECRET, {k.title(): v for k, v in h.items()}, BODY.encode())["type"], "job.completed")

    def test_accepts_either_secret_during_a_rotation(self) -> None:
        ts = int(time.time())
        other = bytes(32)
        h = headers(ts, sign(other, "msg_1", ts, BODY) + " " + sign(KEY, "msg_1", ts, BODY))
        self.assertEqual(verify_webhook(SECRET, h, BODY)["type"], "job.completed")
        self.assertEqual(verify_webhook("whsec_" + base64.b64encode(other).decode(), h, BODY)["type"], "job.completed")

    def test_refuses_tampering_stale_timestamps_and_missing_headers(self) -> None:
        ts = int(time.time())
        good = sign(KEY, "msg_1", ts, BODY)
        with self.assertRaisesRegex(WebhookVerificationError, "No matching"):
            verify_webhook(SECRET, headers(ts, good), BODY + " ")
        with self.assertRaisesRegex(WebhookVerificationError, "No matching"):
            verify_webhook(SECRET, headers(ts, good, msg_id="msg_2"), BODY)
        with self.assertRaisesRegex(WebhookVerificationError, "tolerance"):
            verify_webhook(SECRET, headers(ts - 360, sign(KEY, "msg_1", ts - 360, BODY)), BODY)
        with self.assertRaisesRegex(WebhookVerificationError, "Missing"):
            verify_webhook(SECRET, {"webhook-id": "msg_1"}, BODY)
        with self.assertRaisesRegex(WebhookVerificationError, "No matching"):
            verify_webhook(SECRET, headers(ts, "v1a," + good[3:]), BODY)


if __name__ == "__main__":
    unittest.main()
