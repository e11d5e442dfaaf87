"""The package as shipped: standard library only, typed, one method per operation named by the
shared rule."""

from __future__ import annotations

import ast
import inspect
import os
import re
import sys
import unittest
from typing import Any

from _support import PACKAGE_ROOT

import sha224d
from sha224d import OPERATIONS, Client

PACKAGE_DIR = os.path.dirname(os.path.abspath(sha224d.__file__))

# sys.stdlib_module_names exists from 3.10; on 3.9 the list below covers what the package may use.
STDLIB = set(getattr(sys, "stdlib_module_names", ())) or {
    "__future__", "base64", "dataclasses", "email", "hashlib", "hmac", "http", "io", "json", "os", "platform", "random",
    "re", "select", "socket", "ssl", "stat", "threading", "time", "typing", "urllib", "uuid",
}  # fmt: skip


def module_files() -> list:
    return sorted(os.path.join(PACKAGE_DIR, name) for name in os.listdir(PACKAGE_DIR) if name.endswith(".py"))


class Shipped(unittest.TestCase):
    def test_imports_only_the_standard_library(self) -> None:
        for path in module_files():
            with open(path, encoding="utf-8") as handle:
                tree = ast.parse(handle.read(), path)
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    names = [node.module or ""]
                else:
                    continue
                for name in names:
                    self.assertIn(name.split(".")[0], STDLIB, f"{os.path.basename(path)} imports {name}")

    def test_typed_marker_and_version(self) -> None:
        self.assertTrue(os.path.isfile(os.path.join(PACKAGE_DIR, "py.typed")))
        with open(os.path.join(PACKAGE_ROOT, "pyproject.toml"), encoding="utf-8") as handle:
            declared = re.search(r'^version = "([^"]+)"', handle.read(), re.M)
        self.assertIsNotNone(declared)
        self.assertEqual(sha224d.__version__, declared.group(1) if declared else None)

    def test_the_installed_copy_is_under_test_when_asked(self) -> None:
        if os.environ.get("SHA224D_TEST_INSTALLED") != "1":
            self.skipTest("SHA224D_TEST_INSTALLED=1 not set (running from the source tree)")
        self.assertNotIn(os.path.join(PACKAGE_ROOT, "src"), PACKAGE_DIR)
        self.assertIn("site-packages", PACKAGE_DIR)


class Operations(unittest.TestCase):
    def test_names_follow_the_rule_from_their_paths(self) -> None:
        paths = {op.path for op in OPERATIONS}
        for op in OPERATIONS:
            generation, _, rest = op.path.strip("/").partition("/")
            if op.path.endswith("/{id}"):  # a resource by id: v2.jobs.get, v2.receipts.get, v2.bulk.cancel (DELETE)
                expected = f"{generation}.{rest[: -len('/{id}')]}.{'cancel' if op.method == 'DELETE' else 'get'}"
            elif "/{id}/" in op.path:  # a part of a resource: v2.bulk.results
                resource, _, part = rest.partition("/{id}/")
                expected = f"{generation}.{resource}.{part}"
            elif op.method == "POST" and f"{op.path}/{{id}}" in paths:  # creates a resource read by id: v2.bulk.create
                expected = f"{generation}.{rest}.create"
            else:
                expected = f"{generation}.{'submit_' if op.submits_job else ''}{rest.replace('/', '_')}"
            self.assertEqual(op.name, expected)
        self.assertEqual(len({op.name for op in OPERATIONS}), len(OPERATIONS))

    def test_each_operation_is_a_method_of_the_client(self) -> None:
        client = Client(api_key="s224_x", base_url="http://127.0.0.1:9")
        methods = set()
        for op in OPERATIONS:
            target: Any = client
            for part in op.name.split("."):
                target = getattr(target, part)
            self.assertTrue(callable(target), op.name)
            methods.add(op.name)
            # Every upload and submission lets the caller choose its idempotency key.
            if not op.repeatable:
                self.assertIn("idempotency_key", inspect.signature(target).parameters, op.name)
        public = {f"v1.{n}" for n in dir(client.v1) if not n.startswith("_")}
        public |= {f"v2.{n}" for n in dir(client.v2) if not n.startswith("_") and n not in ("jobs", "receipts", "bulk")}
        public |= {"v2.jobs.get", "v2.receipts.get"}
        public |= {f"v2.bulk.{n}" for n in dir(client.v2.bulk) if not n.startswith("_") and n != "wait"}
        # Beyond the operations: v2.upload (file or stream by size), v2.upload_resumable (the tus
        # exchanges of /v2/uploads) and v2.jobs.wait (polls v2.jobs.get).
        self.assertEqual(public - methods, {"v2.upload", "v2.upload_resumable"})
        self.assertTrue(callable(client.v2.jobs.wait))
        self.assertTrue(callable(client.v2.bulk.wait))


if __name__ == "__main__":
    unittest.main()
