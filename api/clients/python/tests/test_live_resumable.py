"""Resumable uploads through /v2/uploads (tus 1.0) against the live service: an upload interrupted
half-way (the progress callback raises, as a Ctrl-C would) is continued from the server's offset by a
second call given its URL, sending only the rest; the digest is hashlib's; a wrong ``expect`` fails
the job with HASH_MISMATCH."""

from __future__ import annotations

import os
import tempfile
import urllib.request
from typing import List, Optional

from _support import LIVE_KEY, LIVE_MODULES_RUN, LiveTestCase, requires_live, sha224_hex

import sha224d

MiB = 1024 * 1024


def setUpModule() -> None:
    LIVE_MODULES_RUN.add(__name__)


class Interrupted(Exception):
    pass


def server_offset(url: str) -> int:
    request = urllib.request.Request(url, method="HEAD", headers={"X-API-Key": LIVE_KEY, "Tus-Resumable": "1.0.0"})
    with urllib.request.urlopen(request) as answer:
        return int(answer.headers["Upload-Offset"])


@requires_live
class Resumable(LiveTestCase):
    def test_interrupted_upload_resumes_from_the_server_offset(self) -> None:
        data = os.urandom(20 * MiB)
        with tempfile.NamedTemporaryFile(suffix=".iso") as handle:
            handle.write(data)
            handle.flush()
            urls: List[str] = []
            stopped_at: Optional[int] = None

            def stop_half_way(sent: int, total: Optional[int]) -> None:
                nonlocal stopped_at
                if total is not None and sent >= total // 2:
                    stopped_at = sent
                    raise Interrupted()

            with self.assertRaises(Interrupted):
                self.client.v2.upload_resumable(handle.name, chunk_bytes=2 * MiB, on_upload_url=urls.append, progress=stop_half_way)
            self.assertEqual(len(urls), 1)
            self.assertIsNotNone(stopped_at)
            self.assertEqual(server_offset(urls[0]), stopped_at)

            seen: List[int] = []
            done = self.client.v2.upload_resumable(
                handle.name, upload_url=urls[0], chunk_bytes=2 * MiB, expect=sha224_hex(data), progress=lambda s, t: seen.append(s)
            )
        self.assertEqual(done.upload_url, urls[0])
        self.assertEqual(done.resumed_from, stopped_at)
        self.assertEqual(done.bytes_sent, len(data) - (stopped_at or 0))
        self.assertEqual(seen[0], stopped_at)
        self.assertEqual(seen[-1], len(data))
        self.assertEqual(done.result["hash"], sha224_hex(data))
        self.assertEqual(done.result["status"], "completed")
        self.assertEqual(done.job_url, f"/v2/jobs/{done.job_id}")

    def test_expect_match_and_mismatch(self) -> None:
        data = os.urandom(3 * MiB + 17)
        ok = self.client.v2.upload_resumable(data, expect=sha224_hex(data).upper(), chunk_bytes=MiB)
        self.assertEqual((ok.result["hash"], ok.resumed_from, ok.bytes_sent), (sha224_hex(data), 0, len(data)))
        with self.assertRaises(sha224d.Sha224dError) as caught:
            self.client.v2.upload_resumable(data, expect="ab" * 28, chunk_bytes=MiB)
        self.assertEqual(caught.exception.code, "HASH_MISMATCH")

    def test_a_finished_upload_url_names_its_job_and_a_terminated_one_starts_afresh(self) -> None:
        data = os.urandom(MiB)
        first = self.client.v2.upload_resumable(data)
        # HEAD of a finished upload names its job: given again, nothing is sent.
        again = self.client.v2.upload_resumable(data, upload_url=first.upload_url)
        self.assertEqual((again.job_id, again.bytes_sent, again.resumed_from), (first.job_id, 0, len(data)))
        urls: List[str] = []

        def stop(sent: int, total: Optional[int]) -> None:
            if sent > 0:
                raise Interrupted()

        with self.assertRaises(Interrupted):
            self.client.v2.upload_resumable(data, chunk_bytes=256 * 1024, on_upload_url=urls.append, progress=stop)
        request = urllib.request.Request(urls[0], method="DELETE", headers={"X-API-Key": LIVE_KEY, "Tus-Resumable": "1.0.0"})
        with urllib.request.urlopen(request) as answer:
            self.assertEqual(answer.status, 204)
        fresh = self.client.v2.upload_resumable(data, upload_url=urls[0])
        self.assertNotEqual(fresh.upload_url, urls[0])
        self.assertEqual((fresh.resumed_from, fresh.bytes_sent, fresh.result["hash"]), (0, len(data), sha224_hex(data)))
