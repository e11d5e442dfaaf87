"""Every /v1 method (Set A and Set B) against the live service, checked against hashlib/hmac; the
sandbox switch; the v1 error envelope."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import os
import tempfile
import unittest

from _support import ABC_SHA224, LIVE_MODULES_RUN, LiveTestCase, Reply, StubServer, env, live_client, requires_env, requires_live, sha224_hex

import sha224d

TIMESTAMP_V1 = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"


def setUpModule() -> None:
    LIVE_MODULES_RUN.add(__name__)


@requires_live
class SetA(LiveTestCase):
    def test_hash(self) -> None:
        result = self.client.v1.hash("abc")
        self.assertEqual((result["success"], result["hash"], result["algorithm"], result["encoding"]), (True, ABC_SHA224, "sha224", "hex"))
        self.assertRegex(result["timestamp"], TIMESTAMP_V1)
        data = os.urandom(777)
        self.assertEqual(self.client.v1.hash(data)["hash"], sha224_hex(data))
        as_b64 = self.client.v1.hash(data.hex(), encoding="hex", output_format="binary")
        self.assertEqual((as_b64["hash"], as_b64["encoding"]), (base64.b64encode(hashlib.sha224(data).digest()).decode(), "base64"))

    def test_verify(self) -> None:
        self.assertTrue(self.client.v1.verify("abc", ABC_SHA224.upper())["verified"])
        mismatch = self.client.v1.verify("abd", ABC_SHA224)
        self.assertEqual((mismatch["success"], mismatch["verified"], mismatch["algorithm"]), (True, False, "sha224"))

    def test_file_hash(self) -> None:
        data = os.urandom(300_000)
        with tempfile.NamedTemporaryFile(suffix=".dat") as handle:
            handle.write(data)
            handle.flush()
            result = self.client.v1.file_hash(handle.name)
        self.assertEqual((result["hash"], result["fileSize"], result["fileName"]), (sha224_hex(data), len(data), os.path.basename(handle.name)))
        as_b64 = self.client.v1.file_hash(io.BytesIO(b"abc"), filename="abc.txt", output_format="base64")
        self.assertEqual(as_b64["hash"], base64.b64encode(hashlib.sha224(b"abc").digest()).decode())

    def test_hmac(self) -> None:
        key, message = os.urandom(100), os.urandom(1000)
        result = self.client.v1.hmac(message, key)
        self.assertEqual((result["hmac"], result["algorithm"]), (hmac.new(key, message, hashlib.sha224).hexdigest(), "sha224"))
        keyed = self.client.v1.hmac("message", base64.b64encode(b"secret").decode(), key_encoding="base64", output_format="base64")
        self.assertEqual(keyed["hmac"], base64.b64encode(hmac.new(b"secret", b"message", hashlib.sha224).digest()).decode())

    def test_usage(self) -> None:
        first = self.client.v1.usage()
        second = self.client.v1.usage()
        self.assertTrue(first["success"])
        # Reading usage is outside the daily quota it reports (docs/limits.md "Headers and errors").
        self.assertEqual(second["account"]["quota"]["used"], first["account"]["quota"]["used"])
        self.assertIsInstance(first["account"]["rateLimit"]["maxFileSize"], int)
        self.assertRegex(first["account"]["quota"]["resetTime"], TIMESTAMP_V1)


@requires_live
class SetB(LiveTestCase):
    def test_hash_text(self) -> None:
        result = self.client.v1.hash_text("hello world")
        self.assertEqual((result["hash"], result["input_length"]), (sha224_hex(b"hello world"), 11))
        data = os.urandom(64)
        self.assertEqual(self.client.v1.hash_text(data)["input_length"], 64)

    def test_hash_file(self) -> None:
        data = os.urandom(2 * 1024 * 1024 + 1)
        result = self.client.v1.hash_file(io.BytesIO(data), filename="backup.tar", chunk_size=65536)
        self.assertEqual((result["hash"], result["filesize"], result["filename"]), (sha224_hex(data), len(data), "backup.tar"))

    @requires_env("SHA224D_TEST_URL_FETCH")
    def test_hash_url(self) -> None:
        body = os.urandom(50_000)
        with StubServer([Reply(200, body, {"Content-Type": "application/octet-stream"})]) as origin:
            url = origin.url + "/blob.bin"
            result = self.client.v1.hash_url(url, timeout=10)
        self.assertEqual((result["hash"], result["content_length"], result["url"]), (sha224_hex(body), len(body), url))
        self.assertEqual(origin.seen[0].path, "/blob.bin")

    def test_hash_url_refuses_private_addresses(self) -> None:
        with self.assertRaises(sha224d.UrlNotAllowedError) as caught:
            self.client.v1.hash_url("http://10.0.0.1/")
        self.assertEqual((caught.exception.code, caught.exception.status), ("URL_NOT_ALLOWED", 400))

    def test_verify_text(self) -> None:
        result = self.client.v1.verify_text("abc", ABC_SHA224.upper())
        self.assertEqual((result["valid"], result["expected"], result["computed"]), (True, ABC_SHA224.upper(), ABC_SHA224))
        self.assertFalse(self.client.v1.verify_text("abd", ABC_SHA224)["valid"])

    def test_verify_file(self) -> None:
        data = os.urandom(10_000)
        good = self.client.v1.verify_file(data, sha224_hex(data), filename="d.bin")
        self.assertEqual((good["valid"], good["computed"], good["filename"]), (True, sha224_hex(data), "d.bin"))
        self.assertFalse(self.client.v1.verify_file(data, ABC_SHA224, filename="d.bin")["valid"])

    def test_batch_hash(self) -> None:
        texts = [f"item {i}" for i in range(40)]
        result = self.client.v1.batch_hash([texts[0], *({"id": f"t{i}", "text": t} for i, t in enumerate(texts[1:], 1))])
        self.assertEqual(result["count"], 40)
        self.assertEqual(result["results"][0]["id"], "0")
        self.assertEqual([r["hash"] for r in result["results"]], [sha224_hex(t.encode()) for t in texts])
        self.assertEqual([r["input_length"] for r in result["results"]], [len(t) for t in texts])

    def test_batch_verify(self) -> None:
        items = [{"id": "good", "text": "abc", "hash": ABC_SHA224}, {"id": "bad", "text": "abd", "hash": ABC_SHA224}]
        result = self.client.v1.batch_verify(items)
        self.assertEqual([(r["id"], r["valid"]) for r in result["results"]], [("good", True), ("bad", False)])
        self.assertEqual(result["results"][1]["computed"], sha224_hex(b"abd"))

    def test_compare(self) -> None:
        self.assertTrue(self.client.v1.compare(ABC_SHA224, ABC_SHA224.upper())["match"])
        self.assertFalse(self.client.v1.compare(ABC_SHA224, sha224_hex(b"abd"))["match"])

    def test_status(self) -> None:
        result = self.client.v1.status()
        self.assertEqual((result["status"], result["version"]), ("operational", "1.0"))
        self.assertIsInstance(result["account"]["requests_today"], int)

    def test_the_v1_error_envelope(self) -> None:
        with self.assertRaises(sha224d.InvalidInputError) as caught:
            self.client.v1.hash_text("abc", encoding="rot13")
        err = caught.exception
        self.assertEqual((err.code, err.status), ("INVALID_INPUT", 400))
        self.assertIsInstance(err.details, dict)
        self.assertIn("encoding", err.details["info"])
        with self.assertRaises(sha224d.InvalidInputError):
            self.client.v1.compare("xyz", ABC_SHA224)


@requires_live
@requires_env("SHA224D_TEST_SANDBOX_URL")
class Sandbox(unittest.TestCase):
    def test_sandbox_calls_count_apart_and_serve_v1_only(self) -> None:
        with live_client() as production, live_client(sandbox=True, sandbox_url=env("SHA224D_TEST_SANDBOX_URL")) as sandbox:
            self.assertTrue(sandbox.sandbox)
            before = production.v1.usage()["account"]["quota"]["used"]
            sandbox_before = sandbox.v1.usage()["account"]["quota"]["used"]
            self.assertEqual(sandbox.v1.hash("abc")["hash"], ABC_SHA224)
            self.assertEqual(sandbox.v1.hash_text("abc")["hash"], ABC_SHA224)
            self.assertEqual(sandbox.v1.usage()["account"]["quota"]["used"], sandbox_before + 2)
            # Nothing was counted in production (usage reads count in no quota).
            self.assertEqual(production.v1.usage()["account"]["quota"]["used"], before)
            with self.assertRaises(sha224d.NotFoundError):
                sandbox.v2.hash("abc")


if __name__ == "__main__":
    unittest.main()
