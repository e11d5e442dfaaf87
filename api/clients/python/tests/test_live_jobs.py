"""Async jobs against the live service: submit, read, wait; idempotent resubmission."""

from __future__ import annotations

import base64
import hashlib
import io
import os
import unittest
import uuid

from _support import ABC_SHA224, LIVE_MODULES_RUN, LiveTestCase, requires_live, sha224_hex

import sha224d


def setUpModule() -> None:
    LIVE_MODULES_RUN.add(__name__)


@requires_live
class Jobs(LiveTestCase):
    def test_submit_batch_then_wait(self) -> None:
        accepted = self.client.v2.submit_batch([("a", "abc"), ("b", "")])
        self.assertEqual((accepted["success"], accepted["status_url"]), (True, f"/v2/jobs/{accepted['job_id']}"))
        self.assertIn(accepted["status"], ("queued", "active", "completed"))
        done = self.client.v2.jobs.wait(accepted["job_id"], timeout=60)
        self.assertEqual((done["status"], done["job_id"]), ("completed", accepted["job_id"]))
        self.assertEqual([r["hash"] for r in done["results"]], [ABC_SHA224, sha224_hex(b"")])

    def test_submit_file_then_get_and_wait(self) -> None:
        data = os.urandom(1_500_000)
        accepted = self.client.v2.submit_file(io.BytesIO(data), filename="big.bin", chunk_size=65536)
        state = self.client.v2.jobs.get(accepted["job_id"])
        self.assertIn(state["status"], ("queued", "active", "completed"))
        done = self.client.v2.jobs.wait(accepted["job_id"], timeout=60)
        self.assertEqual((done["hash"], done["size"], done["filename"], done["chunk_size"]), (sha224_hex(data), len(data), "big.bin", 65536))

    def test_submit_stream_is_idempotent_under_one_key(self) -> None:
        data = os.urandom(700_000)
        key = f"py-{uuid.uuid4()}"
        first = self.client.v2.submit_stream(data, idempotency_key=key, output="base64")
        again = self.client.v2.submit_stream(data, idempotency_key=key, output="base64")
        self.assertEqual(again["job_id"], first["job_id"])
        done = self.client.v2.jobs.wait(first["job_id"], timeout=60)
        self.assertEqual(done["hash"], base64.b64encode(hashlib.sha224(data).digest()).decode())
        self.assertEqual(self.client.v2.jobs.get(first["job_id"])["status"], "completed")

    def test_an_unknown_job_is_not_found(self) -> None:
        with self.assertRaises(sha224d.NotFoundError) as caught:
            self.client.v2.jobs.get("no-such-job")
        self.assertEqual((caught.exception.code, caught.exception.status), ("NOT_FOUND", 404))


if __name__ == "__main__":
    unittest.main()
