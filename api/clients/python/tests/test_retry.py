"""Retries against a stub server: which answers are tried again, how long the client waits, and
which requests are never sent twice."""

from __future__ import annotations

import io
import json
import unittest
from typing import List

from _support import ABC_SHA224, Reply, StubServer, stub_client

from sha224d import (
    FileTooLargeError,
    InvalidInputError,
    JobTimeoutError,
    NetworkError,
    RateLimitError,
    RetryEvent,
    RetryPolicy,
    ServiceUnavailableError,
    UrlFetchFailedError,
    WaitTimeoutError,
)

OK_HASH = json.dumps({"success": True, "hash": ABC_SHA224, "algorithm": "SHA-224", "encoding": "hex"}).encode()


def v2_error(code: str, **extra: object) -> bytes:
    return json.dumps({"success": False, "error": {"code": code, "message": code.lower(), "details": "", **extra}}).encode()


class RetryAfterAndBackoff(unittest.TestCase):
    def test_429_with_retry_after_1_then_200_waits_one_second_then_succeeds(self) -> None:
        busy = Reply(429, v2_error("RATE_LIMIT_EXCEEDED", retry_after=1), {"Retry-After": "1"})
        events: List[RetryEvent] = []
        with StubServer([busy, Reply(200, OK_HASH)]) as stub:
            result = stub_client(stub, events=events).v2.hash("abc")
        self.assertEqual(result["hash"], ABC_SHA224)
        self.assertEqual(len(stub.seen), 2)
        self.assertEqual([(e.retry, e.delay, e.status) for e in events], [(1, 1.0, 429)])
        self.assertIsInstance(events[0].error, RateLimitError)
        # Honoured: the second request came no sooner than the server asked.
        self.assertGreaterEqual(stub.seen[1].at - stub.seen[0].at, 1.0)

    def test_503_twice_then_200_backs_off_with_full_jitter(self) -> None:
        unavailable = Reply(503, v2_error("SERVICE_UNAVAILABLE"))
        events: List[RetryEvent] = []
        with StubServer([unavailable, unavailable, Reply(200, OK_HASH)]) as stub:
            client = stub_client(stub, events=events, retry=RetryPolicy(base_delay=0.05, max_delay=1.0))
            result = client.v2.hash("abc")
        self.assertEqual(result["hash"], ABC_SHA224)
        self.assertEqual(len(stub.seen), 3)
        self.assertEqual([(e.retry, e.status) for e in events], [(1, 503), (2, 503)])
        # Full jitter: retry n waits a uniform draw from [0, base * 2**(n-1)].
        self.assertTrue(0 <= events[0].delay <= 0.05 and 0 <= events[1].delay <= 0.1, events)
        self.assertIsInstance(events[0].error, ServiceUnavailableError)

    def test_x_ratelimit_retry_after_is_honoured_without_retry_after(self) -> None:
        busy = Reply(429, b'{"success":false,"error":{"code":"RATE_LIMIT_EXCEEDED","message":"m","details":""}}', {"X-RateLimit-Retry-After": "1"})
        events: List[RetryEvent] = []
        with StubServer([busy, Reply(200, OK_HASH)]) as stub:
            stub_client(stub, events=events).v2.hash("abc")
        self.assertEqual([e.delay for e in events], [1.0])

    def test_504_without_a_job_is_retried(self) -> None:
        with StubServer([Reply(504, b"gateway timeout"), Reply(200, OK_HASH)]) as stub:
            self.assertEqual(stub_client(stub).v2.hash("abc")["hash"], ABC_SHA224)
        self.assertEqual(len(stub.seen), 2)

    def test_gives_up_after_max_retries_with_the_last_error(self) -> None:
        with StubServer([Reply(503, v2_error("SERVICE_UNAVAILABLE"))]) as stub:
            with self.assertRaises(ServiceUnavailableError) as caught:
                stub_client(stub, retries=2).v2.hash("abc")
        self.assertEqual(len(stub.seen), 3)
        self.assertEqual(caught.exception.status, 503)

    def test_a_wait_longer_than_max_retry_after_is_not_waited_for(self) -> None:
        quota = Reply(429, v2_error("RATE_LIMIT_EXCEEDED", retry_after=36000), {"Retry-After": "36000"})
        with StubServer([quota, Reply(200, OK_HASH)]) as stub:
            with self.assertRaises(RateLimitError) as caught:
                stub_client(stub).v2.hash("abc")
        self.assertEqual(len(stub.seen), 1)
        self.assertEqual(caught.exception.retry_after, 36000.0)

    def test_client_errors_are_not_retried(self) -> None:
        with StubServer([Reply(400, v2_error("INVALID_INPUT")), Reply(200, OK_HASH)]) as stub:
            with self.assertRaises(InvalidInputError):
                stub_client(stub).v2.hash("abc")
        self.assertEqual(len(stub.seen), 1)

    def test_a_dropped_connection_is_retried_and_keeps_the_request_id(self) -> None:
        with StubServer([Reply(hang_up=True), Reply(200, OK_HASH)]) as stub:
            events: List[RetryEvent] = []
            self.assertEqual(stub_client(stub, events=events).v2.hash("abc")["hash"], ABC_SHA224)
        self.assertEqual(len(stub.seen), 2)
        self.assertIsNone(events[0].status)
        self.assertIsInstance(events[0].error, NetworkError)
        self.assertEqual(stub.seen[0].headers["x-request-id"], stub.seen[1].headers["x-request-id"])

    def test_a_refused_connection_is_a_network_error_after_retries(self) -> None:
        with StubServer([Reply()]) as stub:
            url = stub.url
        events: List[RetryEvent] = []
        from sha224d import Client

        client = Client(api_key="s224_x", base_url=url, retry=RetryPolicy(max_retries=2, base_delay=0.01), on_retry=events.append)
        with self.assertRaises(NetworkError) as caught:
            client.v2.hash("abc")
        self.assertEqual(len(events), 2)
        self.assertEqual(caught.exception.code, "NETWORK_ERROR")
        self.assertIsInstance(caught.exception.__cause__, ConnectionRefusedError)


class UploadRetries(unittest.TestCase):
    def test_an_upload_with_an_idempotency_key_is_resent_whole(self) -> None:
        data = bytes(range(256)) * 4096  # 1 MiB
        done = json.dumps({"success": True, "hash": "h", "size": len(data)}).encode()
        with StubServer([Reply(503, v2_error("SERVICE_UNAVAILABLE")), Reply(200, done)]) as stub:
            stub_client(stub).v2.stream(io.BytesIO(data))
        self.assertEqual(len(stub.seen), 2)
        self.assertEqual({s.body_length for s in stub.seen}, {len(data)})
        self.assertEqual(stub.seen[0].body_sha224, stub.seen[1].body_sha224)
        keys = [s.headers.get("idempotency-key") for s in stub.seen]
        self.assertTrue(keys[0] and keys[0] == keys[1], keys)

    def test_an_upload_without_an_idempotency_key_is_never_retried(self) -> None:
        with StubServer([Reply(503, v2_error("SERVICE_UNAVAILABLE")), Reply(200, b'{"success":true}')]) as stub:
            with self.assertRaises(ServiceUnavailableError):
                stub_client(stub, auto_idempotency_keys=False).v2.file(b"abc", filename="a.txt")
            with StubServer([Reply(hang_up=True), Reply(200, b'{"success":true}')]) as dropped:
                with self.assertRaises(NetworkError):
                    stub_client(dropped, auto_idempotency_keys=False).v2.stream(b"abc")
        self.assertEqual(len(stub.seen), 1)
        self.assertNotIn("idempotency-key", stub.seen[0].headers)
        self.assertEqual(len(dropped.seen), 1)

    def test_a_source_that_can_be_read_once_is_not_retried_after_reading(self) -> None:
        class OneShot(io.RawIOBase):
            def __init__(self) -> None:
                self.left = 3 * 65536

            def readable(self) -> bool:
                return True

            def readinto(self, buffer: "memoryview") -> int:  # type: ignore[override]
                n = min(len(buffer), self.left)
                buffer[:n] = b"x" * n
                self.left -= n
                return n

        with StubServer([Reply(503, v2_error("SERVICE_UNAVAILABLE")), Reply(200, b'{"success":true}')]) as stub:
            with self.assertRaises(ServiceUnavailableError):
                stub_client(stub).v2.stream(OneShot())
        self.assertEqual(len(stub.seen), 1)

    def test_an_upload_refused_before_its_body_is_read_stops_sending(self) -> None:
        refused = Reply(413, v2_error("FILE_TOO_LARGE"), before_body=True)
        progress: List[int] = []
        size = 64 * 1024 * 1024
        with StubServer([refused]) as stub:
            with self.assertRaises(FileTooLargeError) as caught:
                stub_client(stub).v2.stream(io.BytesIO(bytes(size)), progress=lambda sent, total: progress.append(sent))
        self.assertEqual(caught.exception.status, 413)
        self.assertLess(progress[-1], size, "the client kept sending after the answer")

    def test_a_504_naming_a_job_waits_for_the_job_instead_of_uploading_again(self) -> None:
        timeout = Reply(504, v2_error("JOB_TIMEOUT", job_id="job-7"))
        active = Reply(200, b'{"success":true,"job_id":"job-7","status":"active"}')
        done = Reply(200, json.dumps({"success": True, "hash": ABC_SHA224, "job_id": "job-7", "status": "completed"}).encode())
        with StubServer([timeout, active, done]) as stub:
            result = stub_client(stub).v2.file(b"abc", filename="abc.txt")
        self.assertEqual(result["hash"], ABC_SHA224)
        self.assertEqual([(s.method, s.path) for s in stub.seen], [("POST", "/v2/file"), ("GET", "/v2/jobs/job-7"), ("GET", "/v2/jobs/job-7")])

    def test_a_504_naming_a_job_is_raised_by_operations_without_a_job_result(self) -> None:
        with StubServer([Reply(504, v2_error("JOB_TIMEOUT", job_id="job-8")), Reply(200, OK_HASH)]) as stub:
            with self.assertRaises(JobTimeoutError) as caught:
                stub_client(stub).v2.hash("x" * 100_000)
        self.assertEqual(caught.exception.job_id, "job-8")
        self.assertEqual(len(stub.seen), 1)


class JobWaiting(unittest.TestCase):
    def test_a_failed_job_raises_the_class_of_its_code(self) -> None:
        failed = {"success": False, "job_id": "j", "status": "failed", "error": {"code": "URL_FETCH_FAILED", "message": "m", "details": "d"}}
        with StubServer([Reply(200, b'{"success":true,"job_id":"j","status":"queued"}'), Reply(200, json.dumps(failed).encode())]) as stub:
            with self.assertRaises(UrlFetchFailedError) as caught:
                stub_client(stub).v2.jobs.wait("j", poll_interval=0.01)
        self.assertEqual((caught.exception.job_id, caught.exception.code, caught.exception.details), ("j", "URL_FETCH_FAILED", "d"))
        self.assertEqual(len(stub.seen), 2)

    def test_a_job_still_running_at_the_deadline_raises_wait_timeout(self) -> None:
        with StubServer([Reply(200, b'{"success":true,"job_id":"j","status":"active"}')]) as stub:
            with self.assertRaises(WaitTimeoutError) as caught:
                stub_client(stub).v2.jobs.wait("j", timeout=0.3, poll_interval=0.01, max_poll_interval=0.05)
        self.assertEqual((caught.exception.code, caught.exception.job_id), ("WAIT_TIMEOUT", "j"))
        # Backoff: polls spread out, so far fewer than one per 10 ms.
        self.assertTrue(3 <= len(stub.seen) < 30, len(stub.seen))


class PolicyArithmetic(unittest.TestCase):
    def test_full_jitter_bounds_and_cap(self) -> None:
        top = RetryPolicy(base_delay=0.5, max_delay=4.0, jitter=lambda: 0.999999)
        self.assertAlmostEqual(top.backoff(0), 0.5, places=5)
        self.assertAlmostEqual(top.backoff(2), 2.0, places=5)
        self.assertAlmostEqual(top.backoff(10), 4.0, places=5)
        self.assertEqual(RetryPolicy(jitter=lambda: 0.0).backoff(3), 0.0)

    def test_delay_rules(self) -> None:
        policy = RetryPolicy(max_retries=2, max_retry_after=60, jitter=lambda: 0.5)
        self.assertEqual(policy.delay(0, 5.0), 5.0)
        self.assertIsNone(policy.delay(0, 61.0))
        self.assertIsNone(policy.delay(2, None))
        self.assertEqual(policy.delay(1, None), 0.5)
        with self.assertRaises(ValueError):
            RetryPolicy(max_retries=-1)


if __name__ == "__main__":
    unittest.main()
