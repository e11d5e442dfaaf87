"""Both error envelopes become one typed exception per code, carrying code, status, request id,
retry-after and job id."""

from __future__ import annotations

import email.utils
import json
import unittest

import _support  # noqa: F401  (puts the package on the path)

import sha224d
from sha224d.errors import ERROR_CLASSES, ERROR_STATUSES, error_from_job, error_from_response, parse_retry_after


def envelope_v2(code: str, **extra: object) -> bytes:
    return json.dumps({"success": False, "error": {"code": code, "message": "msg", "details": "field: data", **extra}}).encode()


def envelope_v1(code: str, **details: object) -> bytes:
    return json.dumps({"error": {"code": code, "message": "msg", "details": {"info": "field: data", **details}}}).encode()


class Envelopes(unittest.TestCase):
    def test_v2_envelope(self) -> None:
        err = error_from_response(429, {"x-request-id": "req-1", "retry-after": "3"}, envelope_v2("RATE_LIMIT_EXCEEDED", retry_after=3))
        self.assertIs(type(err), sha224d.RateLimitError)
        self.assertEqual((err.code, err.status, err.request_id, err.retry_after), ("RATE_LIMIT_EXCEEDED", 429, "req-1", 3.0))
        self.assertEqual((err.message, err.details), ("msg", "field: data"))
        self.assertEqual(str(err), "RATE_LIMIT_EXCEEDED: msg (HTTP 429, request req-1)")

    def test_v1_envelope_reads_details_object(self) -> None:
        err = error_from_response(504, {}, envelope_v1("JOB_TIMEOUT", job_id="j1", retry_after=7))
        self.assertIs(type(err), sha224d.JobTimeoutError)
        self.assertEqual((err.job_id, err.retry_after, err.details["info"]), ("j1", 7.0, "field: data"))

    def test_v2_job_id_and_body_retry_after_without_headers(self) -> None:
        err = error_from_response(504, {}, envelope_v2("JOB_TIMEOUT", job_id="j2"))
        self.assertEqual(err.job_id, "j2")
        err = error_from_response(429, {}, envelope_v2("RATE_LIMIT_EXCEEDED", retry_after=2))
        self.assertEqual(err.retry_after, 2.0)

    def test_every_code_has_its_class_and_status(self) -> None:
        for code, cls in ERROR_CLASSES.items():
            err = error_from_response(ERROR_STATUSES[code], {}, envelope_v2(code))
            self.assertIs(type(err), cls, code)
            self.assertEqual(err.code, code)
            self.assertIsInstance(err, sha224d.ApiError)
        self.assertEqual(set(ERROR_CLASSES), set(ERROR_STATUSES))

    def test_families(self) -> None:
        self.assertTrue(issubclass(sha224d.ExpiredKeyError, sha224d.AuthenticationError))
        self.assertTrue(issubclass(sha224d.TooManyConnectionsError, sha224d.RateLimitError))
        self.assertTrue(issubclass(sha224d.FileTooLargeError, sha224d.TooLargeError))
        self.assertTrue(issubclass(sha224d.PayloadTooLargeError, sha224d.TooLargeError))
        for cls in (sha224d.InternalError, sha224d.UrlFetchFailedError, sha224d.ServiceUnavailableError, sha224d.JobTimeoutError):
            self.assertTrue(issubclass(cls, sha224d.ServerError), cls)
        for cls in (sha224d.InvalidInputError, sha224d.NotFoundError, sha224d.UrlNotAllowedError, sha224d.ConflictError):
            self.assertTrue(issubclass(cls, sha224d.InvalidRequestError), cls)
        self.assertTrue(issubclass(sha224d.NetworkError, sha224d.Sha224dError))
        self.assertFalse(issubclass(sha224d.NetworkError, sha224d.ApiError))

    def test_an_unknown_code_keeps_its_string_and_falls_back_by_status(self) -> None:
        err = error_from_response(422, {}, envelope_v2("SOMETHING_NEW"))
        self.assertIs(type(err), sha224d.InvalidRequestError)
        self.assertEqual(err.code, "SOMETHING_NEW")
        self.assertIs(type(error_from_response(507, {}, envelope_v2("FULL"))), sha224d.ServerError)

    def test_answers_without_an_envelope(self) -> None:
        err = error_from_response(503, {"retry-after": "2"}, b"<html>busy</html>")
        self.assertIs(type(err), sha224d.ServiceUnavailableError)
        self.assertEqual((err.code, err.retry_after), ("SERVICE_UNAVAILABLE", 2.0))
        err = error_from_response(502, {}, b"bad gateway")
        self.assertIs(type(err), sha224d.UnexpectedResponseError)
        self.assertEqual(err.code, "HTTP_502")
        err = error_from_response(308, {"location": "https://h/v2/hash"}, b"")
        self.assertIs(type(err), sha224d.UnexpectedResponseError)
        self.assertIn("https://h/v2/hash", err.message)

    def test_failed_job(self) -> None:
        err = error_from_job("j3", {"code": "URL_FETCH_FAILED", "message": "timed out", "details": "after 10 ms"})
        self.assertIs(type(err), sha224d.UrlFetchFailedError)
        self.assertEqual((err.job_id, err.status, err.message, err.details), ("j3", 502, "timed out", "after 10 ms"))


class RetryAfterHeader(unittest.TestCase):
    def test_seconds_date_and_v2_fallback(self) -> None:
        self.assertEqual(parse_retry_after({"retry-after": "5"}), 5.0)
        date = email.utils.formatdate(1_000_030, usegmt=True)
        self.assertAlmostEqual(parse_retry_after({"retry-after": date}, now=1_000_000) or 0, 30.0, places=3)
        self.assertEqual(parse_retry_after({"x-ratelimit-retry-after": "2"}), 2.0)
        # v2 sends X-RateLimit-Retry-After: 0 on every allowed request: not a wait.
        self.assertIsNone(parse_retry_after({"x-ratelimit-retry-after": "0"}))
        self.assertIsNone(parse_retry_after({"retry-after": "soon"}))
        self.assertIsNone(parse_retry_after({}))


if __name__ == "__main__":
    unittest.main()
