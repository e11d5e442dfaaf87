"""Bulk jobs against the live service (docs/api.md "Bulk jobs"): items streamed as NDJSON, the
status until completed, the results in input order checked with hashlib, and a cancel."""

from __future__ import annotations

import hashlib
import unittest

from _support import LIVE_MODULES_RUN, live_client, requires_live


def setUpModule() -> None:
    LIVE_MODULES_RUN.add(__name__)


@requires_live
class BulkTest(unittest.TestCase):
    def setUp(self) -> None:
        self.client = live_client()

    def tearDown(self) -> None:
        self.client.close()

    def test_items_in_input_order_with_an_item_error(self) -> None:
        items = [{"id": f"i{n}", "data": f"item {n}"} for n in range(2500)]
        items.append({"id": "bad", "data": "zz", "encoding": "hex"})
        created = self.client.v2.bulk.create(iter(items))
        self.assertEqual(created["items"]["total"], 2501)
        done = self.client.v2.bulk.wait(created["id"], interval=0.1)
        self.assertEqual((done["status"], done["items"]["done"], done["items"]["failed"]), ("completed", 2500, 1))
        lines = self.client.v2.bulk.results(created["id"])
        self.assertEqual([line["id"] for line in lines], [item["id"] for item in items])
        for n, line in enumerate(lines[:-1]):
            self.assertEqual(line["hash"], hashlib.sha224(f"item {n}".encode()).hexdigest())
        self.assertEqual(lines[-1]["error"]["code"], "INVALID_INPUT")
        # A finished job is left as it is.
        self.assertEqual(self.client.v2.bulk.cancel(created["id"])["status"], "completed")
        self.assertEqual(self.client.v2.bulk.get(created["id"])["summary"]["items"], 2501)


if __name__ == "__main__":
    unittest.main()
