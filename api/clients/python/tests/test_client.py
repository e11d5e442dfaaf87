"""Construction, credentials per generation, the sandbox switch and request fields, against a
stub that records what it received."""

from __future__ import annotations

import base64
import json
import os
import unittest
from unittest import mock

from _support import Reply, StubServer, stub_client

from sha224d import DEFAULT_BASE_URL, Client


class Construction(unittest.TestCase):
    def test_defaults_and_environment(self) -> None:
        with mock.patch.dict(os.environ, {}, clear=True):
            client = Client()
            self.assertEqual(client.base_url, DEFAULT_BASE_URL)
            self.assertEqual(client._session.auth_headers("v2"), {})
        with mock.patch.dict(os.environ, {"SHA224D_URL": "http://h:1/", "SHA224D_API_KEY": "s224_env"}, clear=True):
            client = Client()
            self.assertEqual(client.base_url, "http://h:1")
            self.assertEqual(client._session.auth_headers("v2"), {"X-API-Key": "s224_env"})
            # An explicit bearer token is not mixed with the environment's key.
            self.assertEqual(Client(bearer_token="t.o.k")._session.auth_headers("v2"), {"Authorization": "Bearer t.o.k"})

    def test_sandbox_switch(self) -> None:
        with mock.patch.dict(os.environ, {}, clear=True):
            with self.assertRaisesRegex(ValueError, "sandbox_url"):
                Client(sandbox=True)
            client = Client(base_url="http://prod:1", sandbox=True, sandbox_url="http://sandbox:2")
            self.assertEqual((client.base_url, client.sandbox), ("http://sandbox:2", True))
        with mock.patch.dict(os.environ, {"SHA224D_SANDBOX_URL": "http://sb:3"}, clear=True):
            self.assertEqual(Client(sandbox=True).base_url, "http://sb:3")

    def test_refuses_bad_arguments(self) -> None:
        with self.assertRaises(ValueError):
            Client(api_key="s224_a", bearer_token="b")
        with self.assertRaises(ValueError):
            Client(api_key="s224_a\r\nX-Evil: 1")
        for url in ("ftp://h", "http://user:pw@h", "h:8080", "http://h/?q=1"):
            with self.assertRaises(ValueError, msg=url):
                Client(api_key="k", base_url=url)
        with self.assertRaises(ValueError):
            Client(api_key="k", timeout=0)

    def test_repr_never_shows_the_key(self) -> None:
        self.assertNotIn("s224_secret", repr(Client(api_key="s224_secret", base_url="http://h")))


class Credentials(unittest.TestCase):
    def test_api_key_is_x_api_key_on_v2_and_bearer_on_v1(self) -> None:
        with StubServer([Reply(200, b'{"success":true}')]) as stub:
            client = stub_client(stub, api_key="s224_key")
            client.v2.hash("abc")
            client.v1.hash("abc")
        v2, v1 = stub.seen
        self.assertEqual(v2.headers.get("x-api-key"), "s224_key")
        self.assertNotIn("authorization", v2.headers)
        self.assertEqual(v1.headers.get("authorization"), "Bearer s224_key")
        self.assertNotIn("x-api-key", v1.headers)
        for seen in stub.seen:
            self.assertNotIn("api_key", seen.path, "keys never travel in URLs")
            self.assertRegex(seen.headers["x-request-id"], r"^[0-9a-f]{32}$")
            self.assertTrue(seen.headers["user-agent"].startswith("sha224d-python/"))

    def test_a_bearer_token_source_is_asked_before_every_attempt(self) -> None:
        tokens = iter(["tok.en.1", "tok.en.2"])
        busy = Reply(503, b'{"success":false,"error":{"code":"SERVICE_UNAVAILABLE","message":"m","details":""}}')
        with StubServer([busy, Reply(200, b'{"success":true}')]) as stub:
            stub_client(stub, api_key=None, bearer_token=lambda: next(tokens)).v1.status()
        self.assertEqual([s.headers["authorization"] for s in stub.seen], ["Bearer tok.en.1", "Bearer tok.en.2"])

    def test_a_base_url_path_prefix_is_kept(self) -> None:
        with StubServer([Reply(200, b'{"success":true}')]) as stub:
            client = Client(api_key="k", base_url=stub.url + "/api/")
            stub.clients.append(client)
            client.v2.jobs.get("a/b c")
        self.assertEqual(stub.seen[0].path, "/api/v2/jobs/a%2Fb%20c")


class RequestFields(unittest.TestCase):
    def test_only_fields_set_are_sent_and_bytes_travel_as_base64(self) -> None:
        with StubServer([Reply(200, b'{"success":true}')]) as stub:
            client = stub_client(stub)
            client.v2.hash("abc")
            client.v2.hash(b"\x00\xff", output="base64")
            client.v2.hmac(b"msg", "k\u00e9y", key_encoding="utf8")
            client.v1.hash_text("t", encoding="utf8")
            client.v1.batch_hash(["a", {"id": "x", "text": "b"}])
            client.v2.batch([("1", "a"), {"id": "2", "data": "b"}], parallel=False)
            with self.assertRaises(ValueError):
                client.v2.hash(b"x", encoding="hex")
            with self.assertRaises(TypeError):
                client.v2.hash(123)  # type: ignore[arg-type]
        bodies = [json.loads(s.body) for s in stub.seen]
        self.assertEqual(bodies[0], {"data": "abc"})
        self.assertEqual(bodies[1], {"data": base64.b64encode(b"\x00\xff").decode(), "encoding": "base64", "output": "base64"})
        self.assertEqual(bodies[2], {"data": "bXNn", "encoding": "base64", "key": "k\u00e9y", "key_encoding": "utf8"})
        self.assertEqual(bodies[3], {"text": "t", "encoding": "utf8"})
        self.assertEqual(bodies[4], {"items": [{"text": "a"}, {"id": "x", "text": "b"}]})
        self.assertEqual(bodies[5], {"items": [{"id": "1", "data": "a"}, {"id": "2", "data": "b"}], "parallel": False})
        self.assertEqual([s.path for s in stub.seen], ["/v2/hash", "/v2/hash", "/v2/hmac", "/v1/hash/text", "/v1/batch/hash", "/v2/batch"])

    def test_submissions_carry_async_and_an_idempotency_key(self) -> None:
        accepted = Reply(202, b'{"success":true,"job_id":"j","status":"queued","status_url":"/v2/jobs/j"}')
        with StubServer([accepted]) as stub:
            client = stub_client(stub)
            client.v2.submit_batch([("a", "b")])
            client.v2.submit_stream(b"abc", output="base64", chunk_size=4096, idempotency_key="mine-1")
            client.v2.submit_file(b"abc", filename="a.txt")
            with self.assertRaises(ValueError):
                client.v2.submit_stream(b"abc", idempotency_key="has space")
        paths = [s.path for s in stub.seen]
        self.assertEqual(paths, ["/v2/batch?async=true", "/v2/stream?chunk_size=4096&output=base64&async=true", "/v2/file?async=true"])
        keys = [s.headers.get("idempotency-key") for s in stub.seen]
        self.assertEqual(keys[1], "mine-1")
        self.assertRegex(keys[0] or "", r"^[0-9a-f-]{36}$")
        self.assertNotEqual(keys[0], keys[2])


if __name__ == "__main__":
    unittest.main()
