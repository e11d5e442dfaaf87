"""The SDK against the service's own contract, /openapi.json: one operation per documented path and
method, and types generated from the current schemas."""

from __future__ import annotations

import json
import os
import sys
import unittest
import urllib.request

from _support import LIVE_URL, PACKAGE_ROOT, requires_live

import sha224d
from sha224d import OPERATIONS

sys.path.insert(0, os.path.join(PACKAGE_ROOT, "tools"))
import generate_schemas  # type: ignore[import-not-found]  # noqa: E402  (tools/ is not a package)


@requires_live
class Contract(unittest.TestCase):
    document: dict

    @classmethod
    def setUpClass(cls) -> None:
        with urllib.request.urlopen(f"{LIVE_URL}/openapi.json", timeout=30) as reply:
            cls.document = json.loads(reply.read().decode("utf-8"))

    def test_every_documented_operation_has_a_method_and_no_other(self) -> None:
        documented = {
            (method.upper(), path)
            for path, item in self.document["paths"].items()
            if path.startswith(("/v1/", "/v2/"))
            # Protocols with clients of their own: tus (``v2.upload_resumable`` drives all of it) and
            # RFC 3161 (openssl ts); docs/decisions.md "Resumable uploads in the clients".
            and not path.startswith(("/v2/uploads", "/v2/timestamp"))
            for method in item
            if method in ("get", "post", "put", "patch", "delete")
        }
        self.assertEqual({(op.method, op.path) for op in OPERATIONS}, documented)

    def test_an_upload_or_submission_is_exactly_what_is_not_repeatable(self) -> None:
        for op in OPERATIONS:
            content = self.document["paths"][op.path][op.method.lower()].get("requestBody", {}).get("content", {})
            is_upload = "multipart/form-data" in content or "application/octet-stream" in content
            self.assertEqual(not op.repeatable, is_upload or op.submits_job, op.name)

    def test_schemas_module_matches_the_live_document(self) -> None:
        with open(os.path.join(os.path.dirname(sha224d.__file__), "schemas.py"), encoding="utf-8") as handle:
            shipped = handle.read()
        self.assertEqual(
            shipped,
            generate_schemas.generate(self.document),
            "src/sha224d/schemas.py is stale: regenerate it with tools/generate_schemas.py",
        )


if __name__ == "__main__":
    unittest.main()
