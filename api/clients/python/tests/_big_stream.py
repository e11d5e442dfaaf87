"""Child process of test_live_big_stream: uploads a generated 1 GiB body through
``Client.v2.stream`` and prints, as JSON, the service's answer, the digest hashlib computed over
the same bytes, and this process's peak RSS (``resource.getrusage``). A process of its own, so
the peak is the upload's and no other test's.

    python3 _big_stream.py URL KEY [BYTES]
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import resource
import sys
import time

try:
    import sha224d
except ImportError:  # from a checkout, without installing
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
    import sha224d

MiB = 1024 * 1024


class GeneratedFile(io.RawIOBase):
    """A seekable read-only file of ``size`` bytes made on demand: a random 1 MiB block with each
    copy's index written into its first 8 bytes, so the digest covers position, not just content.
    Bytes read in order from the start are also fed to ``hasher``."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.position = 0
        self.block = os.urandom(MiB)
        self.stamped_index = -1
        self.stamped = b""
        self.hasher = hashlib.sha224()

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.size}[whence]
        self.position = max(0, base + offset)
        if self.position == 0:
            self.hasher = hashlib.sha224()  # a new read from the start (a retry) hashes anew
        return self.position

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        index, offset = divmod(self.position, MiB)
        count = min(len(buffer), self.size - self.position, MiB - offset)
        if count <= 0:
            return 0
        if index != self.stamped_index:
            self.stamped = index.to_bytes(8, "big") + self.block[8:]
            self.stamped_index = index
        piece = self.stamped[offset : offset + count]
        buffer[:count] = piece
        self.hasher.update(piece)
        self.position += count
        return count


def main() -> None:
    url, key = sys.argv[1], sys.argv[2]
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 1024 * MiB
    source = GeneratedFile(size)
    progress = {"sent": 0, "total": None, "calls": 0}

    def on_progress(sent: int, total: object) -> None:
        progress.update(sent=sent, total=total, calls=int(progress["calls"] or 0) + 1)

    started = time.monotonic()
    with sha224d.Client(api_key=key, base_url=url, timeout=300) as client:
        result = client.v2.stream(source, progress=on_progress)
    report = {
        "hash": result["hash"],
        "size": result["size"],
        "expected": source.hasher.hexdigest(),
        "progress": progress,
        "seconds": round(time.monotonic() - started, 1),
        # Linux reports ru_maxrss in KiB.
        "max_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
