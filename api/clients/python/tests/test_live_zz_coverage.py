"""Runs last (unittest orders modules by name): every operation of OPERATIONS was called against
the live service by the live modules of this run."""

from __future__ import annotations

import unittest

from _support import CALLED, LIVE_MODULES_RUN, requires_live

from sha224d import OPERATIONS

LIVE_MODULES = {"test_live_v1", "test_live_v2", "test_live_jobs"}


@requires_live
class Coverage(unittest.TestCase):
    def test_every_operation_was_exercised_against_the_live_service(self) -> None:
        if not LIVE_MODULES <= LIVE_MODULES_RUN:
            self.skipTest(f"needs {sorted(LIVE_MODULES)} in the same run; ran {sorted(LIVE_MODULES_RUN)}")
        self.assertEqual(sorted({op.name for op in OPERATIONS} - CALLED), [])


if __name__ == "__main__":
    unittest.main()
