"""A 1 GiB chunked upload to /v2/stream keeps the client's memory flat: peak RSS under 150 MB,
measured with resource.getrusage in the uploading process, and the digest equals hashlib's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unittest

from _support import HERE, LIVE_KEY, LIVE_URL, requires_env, requires_live

GiB = 1024 * 1024 * 1024
RSS_BUDGET_BYTES = 150_000_000


@requires_live
@requires_env("SHA224D_TEST_BIG_STREAM")
class BigStream(unittest.TestCase):
    def test_one_gib_stream_with_peak_rss_under_150_mb(self) -> None:
        child = subprocess.run(
            [sys.executable, os.path.join(HERE, "_big_stream.py"), LIVE_URL, LIVE_KEY, str(GiB)],
            capture_output=True,
            text=True,
            timeout=900,
        )
        self.assertEqual(child.returncode, 0, child.stderr)
        report = json.loads(child.stdout.strip().splitlines()[-1])
        self.assertEqual(report["size"], GiB)
        self.assertEqual(report["hash"], report["expected"])
        self.assertEqual((report["progress"]["sent"], report["progress"]["total"]), (GiB, GiB))
        rss_mb = report["max_rss_bytes"] / 1e6
        # On stdout (unittest reports on stderr): the npm test wrapper reads and prints it.
        print(f"python client peak RSS during a 1 GiB /v2/stream upload: {rss_mb:.1f} MB ({report['seconds']} s)", flush=True)
        self.assertLess(report["max_rss_bytes"], RSS_BUDGET_BYTES)


if __name__ == "__main__":
    unittest.main()
