"""Every /v2 method against the live service, each answer checked against hashlib/hmac."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import os
import tempfile
import time
import unittest
from typing import List, Optional, Tuple

from _support import ABC_SHA224, LIVE_KEY, LIVE_MODULES_RUN, LiveTestCase, env, live_client, requires_env, requires_live, sha224_hex

import sha224d
from sha224d import RetryEvent, RetryPolicy

MiB = 1024 * 1024


def setUpModule() -> None:
    LIVE_MODULES_RUN.add(__name__)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def mint_jwt(secret: str, account: str, permissions: List[str]) -> str:
    """An HS256 JWT as docs/auth.md describes (sub, iss, iat, exp, permissions), made with hmac."""

    def part(value: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).rstrip(b"=").decode()

    now = int(time.time())
    claims = {"sub": account, "iss": "sha224d", "iat": now, "exp": now + 300, "permissions": permissions}
    signing_input = f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part(claims)}"
    signature = hmac.new(secret.encode(), signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{base64.urlsafe_b64encode(signature).rstrip(b'=').decode()}"


@requires_live
class V2Live(LiveTestCase):
    def test_hash_known_answer_and_output_formats(self) -> None:
        result = self.client.v2.hash("abc")
        self.assertEqual((result["hash"], result["algorithm"], result["encoding"]), (ABC_SHA224, "SHA-224", "hex"))
        self.assertIsInstance(result["processing_time_ms"], int)
        digest = hashlib.sha224(b"abc").digest()
        self.assertEqual(self.client.v2.hash("abc", output="base64")["hash"], b64(digest))
        binary = self.client.v2.hash("abc", output="binary")
        self.assertEqual((binary["hash"], binary["encoding"]), (b64(digest), "base64"))
        self.assertEqual(self.client.v2.hash("616263", encoding="hex")["hash"], ABC_SHA224)

    def test_hash_of_bytes_across_block_edges_and_the_queue_path(self) -> None:
        # 55/56/63/64/119/120 straddle SHA-224's padding; 70,000 B is past INLINE_MAX_BYTES (64 KiB),
        # so the job goes through the queue (a worker, in distributed mode).
        for length in (0, 1, 55, 56, 63, 64, 119, 120, 1000, 70_000):
            data = os.urandom(length)
            self.assertEqual(self.client.v2.hash(data)["hash"], sha224_hex(data), length)
        text = "h\u00e9llo \U0001f600"
        self.assertEqual(self.client.v2.hash(text)["hash"], sha224_hex(text.encode("utf-8")))

    def test_log_a_digest_read_its_receipt_and_a_consistency_proof(self) -> None:
        digest = hashlib.sha224(b"logged by the python sdk " + os.urandom(8)).hexdigest()
        logged = self.client.v2.log(digest, length=33)["receipt"]
        self.assertEqual((logged["leaf"]["digest"], logged["leaf"]["length"], logged["leaf"]["source"]), (digest, 33, "digest"))
        self.assertGreaterEqual(logged["tree_size"], logged["index"] + 1)
        again = self.client.v2.receipts.get(logged["id"])["receipt"]
        self.assertEqual((again["index"], again["leaf"]["digest"]), (logged["index"], digest))
        proof = self.client.v2.log_consistency(logged["tree_size"])
        self.assertEqual(proof["from"], logged["tree_size"])
        self.assertGreaterEqual(proof["to"], proof["from"])
        with self.assertRaises(sha224d.NotFoundError):
            self.client.v2.receipts.get("999999999999")

    def test_verify_match_and_mismatch(self) -> None:
        data = os.urandom(100)
        good = self.client.v2.verify(data, sha224_hex(data).upper())
        self.assertEqual((good["valid"], good["expected_hash"], good["provided_hash"]), (True, sha224_hex(data), sha224_hex(data).upper()))
        bad = self.client.v2.verify(data, ABC_SHA224)
        self.assertFalse(bad["valid"])
        self.assertEqual(bad["expected_hash"], sha224_hex(data))

    def test_hmac_against_the_standard_library(self) -> None:
        key, message = os.urandom(70), os.urandom(300)
        expected = hmac.new(key, message, hashlib.sha224)
        result = self.client.v2.hmac(message, key)
        self.assertEqual((result["hmac"], result["algorithm"]), (expected.hexdigest(), "HMAC-SHA-224"))
        self.assertEqual(self.client.v2.hmac("message", "secret", output="base64")["hmac"], b64(hmac.new(b"secret", b"message", hashlib.sha224).digest()))
        self.assertEqual(self.client.v2.hmac("message", b"secret".hex(), key_encoding="hex")["hmac"], hmac.new(b"secret", b"message", hashlib.sha224).hexdigest())

    def test_batch_keeps_order_and_matches_each_item(self) -> None:
        items = [(f"id-{i}", os.urandom(i).hex()) for i in range(60)]
        result = self.client.v2.batch(items, encoding="hex", parallel=True)
        self.assertEqual(result["count"], 60)
        self.assertEqual([r["id"] for r in result["results"]], [i for i, _ in items])
        self.assertEqual([r["hash"] for r in result["results"]], [sha224_hex(bytes.fromhex(d)) for _, d in items])
        as_b64 = self.client.v2.batch([{"id": "a", "data": "abc"}], output="base64")
        self.assertEqual(as_b64["results"][0]["hash"], b64(hashlib.sha224(b"abc").digest()))

    def test_file_from_a_path_with_progress(self) -> None:
        data = os.urandom(3 * MiB + 17)
        seen: List[Tuple[int, Optional[int]]] = []
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "r\u00e9sum\u00e9.bin")
            with open(path, "wb") as handle:
                handle.write(data)
            result = self.client.v2.file(path, chunk_size=65536, progress=lambda sent, total: seen.append((sent, total)))
        self.assertEqual(result["hash"], sha224_hex(data))
        self.assertEqual((result["size"], result["chunk_size"], result["filename"]), (len(data), 65536, "r\u00e9sum\u00e9.bin"))
        self.assertEqual(seen[-1], (len(data), len(data)))
        self.assertEqual([s for s, _ in seen], sorted(s for s, _ in seen))
        base64_result = self.client.v2.file(io.BytesIO(b"abc"), filename="abc.txt", output="base64")
        self.assertEqual(base64_result["hash"], b64(hashlib.sha224(b"abc").digest()))

    def test_stream_chunked_from_a_file_object(self) -> None:
        data = os.urandom(5 * MiB + 3)
        sent: List[int] = []
        result = self.client.v2.stream(io.BytesIO(data), progress=lambda n, total: sent.append(n))
        self.assertEqual((result["hash"], result["size"], result["algorithm"]), (sha224_hex(data), len(data), "SHA-224"))
        self.assertEqual(sent[-1], len(data))
        self.assertEqual(self.client.v2.stream(b"", output="base64")["hash"], b64(hashlib.sha224(b"").digest()))

    def test_upload_picks_file_or_stream(self) -> None:
        small = self.client.v2.upload(b"abc", filename="small.txt")
        self.assertEqual((small["hash"], small.get("filename")), (ABC_SHA224, "small.txt"))
        pipe = io.BufferedReader(io.BytesIO(b"abc"))  # type: ignore[arg-type]
        pipe.seekable = lambda: False  # type: ignore[method-assign]
        unsized = self.client.v2.upload(pipe)
        self.assertEqual(unsized["hash"], ABC_SHA224)
        self.assertNotIn("filename", unsized)  # the /v2/stream shape

    def test_errors_are_typed_with_code_status_and_request_id(self) -> None:
        with self.assertRaises(sha224d.InvalidInputError) as caught:
            self.client.v2.verify("abc", "not-a-digest")
        err = caught.exception
        self.assertEqual((err.code, err.status), ("INVALID_INPUT", 400))
        self.assertEqual(err.details, "field: hash")
        self.assertRegex(err.request_id or "", r"^[0-9a-f]{32}$")
        with self.assertRaises(sha224d.InvalidInputError):
            self.client.v2.hash("abc", encoding="rot13")
        stranger = live_client(api_key="s224_" + "A" * 38)
        with self.assertRaises(sha224d.AuthenticationError) as auth:
            stranger.v2.hash("abc")
        self.assertEqual((auth.exception.code, auth.exception.status), ("UNAUTHORIZED", 401))
        stranger.close()

    def test_the_api_key_as_a_bearer_token(self) -> None:
        with sha224d.Client(bearer_token=LIVE_KEY, base_url=self.client.base_url) as bearer:
            self.assertEqual(bearer.v2.hash("abc")["hash"], ABC_SHA224)
            self.assertEqual(bearer.v1.hash("abc")["hash"], ABC_SHA224)

    @requires_env("SHA224D_TEST_JWT_SECRET", "SHA224D_TEST_ACCOUNT_ID")
    def test_a_jwt_bearer_token_and_its_permissions(self) -> None:
        token = lambda: mint_jwt(env("SHA224D_TEST_JWT_SECRET"), env("SHA224D_TEST_ACCOUNT_ID"), ["hash:create"])  # noqa: E731
        with sha224d.Client(bearer_token=token, base_url=self.client.base_url) as jwt_client:
            self.assertEqual(jwt_client.v2.hash("abc")["hash"], ABC_SHA224)
            with self.assertRaises(sha224d.PermissionDeniedError) as caught:
                jwt_client.v2.verify("abc", ABC_SHA224)
        self.assertEqual((caught.exception.code, caught.exception.status), ("FORBIDDEN", 403))

    @requires_env("SHA224D_TEST_READ_ONLY_KEY")
    def test_a_read_only_key_may_read_but_not_hash(self) -> None:
        with sha224d.Client(api_key=env("SHA224D_TEST_READ_ONLY_KEY"), base_url=self.client.base_url) as reader:
            self.assertIn(reader.v1.status()["status"], ("operational", "degraded"))
            with self.assertRaises(sha224d.PermissionDeniedError):
                reader.v2.hash("abc")

    @requires_env("SHA224D_TEST_FREE_KEY")
    def test_free_plan_limits_answer_413_and_429_which_is_waited_out(self) -> None:
        events: List[RetryEvent] = []
        policy = RetryPolicy(max_retries=5)
        with sha224d.Client(api_key=env("SHA224D_TEST_FREE_KEY"), base_url=self.client.base_url, retry=policy, on_retry=events.append) as free:
            # Free: 10 MB on v2; the refusal arrives while the client is still sending.
            with self.assertRaises(sha224d.FileTooLargeError) as caught:
                free.v2.stream(io.BytesIO(bytes(11 * MiB)))
            self.assertEqual((caught.exception.code, caught.exception.status), ("FILE_TOO_LARGE", 413))
            # Free: 10 requests per second on v2. Calls go on until one is refused and retried.
            for attempt in range(60):
                self.assertEqual(free.v2.hash(str(attempt))["hash"], sha224_hex(str(attempt).encode()))
                if events:
                    break
        self.assertTrue(events, "no 429 within 60 requests")
        self.assertEqual(events[0].status, 429)
        self.assertIsInstance(events[0].error, sha224d.RateLimitError)
        self.assertTrue(0 < events[0].delay <= 1.0, events[0])


if __name__ == "__main__":
    unittest.main()
