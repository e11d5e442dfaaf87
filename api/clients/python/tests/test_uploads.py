"""Uploads as the wire sees them: chunked framing, exact multipart lengths, progress reports and
sources of every kind, against a stub that reassembles and hashes what it received."""

from __future__ import annotations

import email.parser
import email.policy
import io
import os
import tempfile
import unittest
from typing import Any, List, Optional, Tuple

from _support import Reply, StubServer, sha224_hex, stub_client

from sha224d.bodies import UPLOAD_CHUNK_BYTES, MultipartBody, UploadSource


def parse_multipart(content_type: str, body: bytes) -> List[Tuple[Any, Optional[str], Any]]:
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body)
    return [(part.get_param("name", header="content-disposition"), part.get_filename(), part.get_payload(decode=True)) for part in message.iter_parts()]


class Stream(unittest.TestCase):
    def test_stream_is_chunked_octets_whatever_the_source(self) -> None:
        data = os.urandom(3 * UPLOAD_CHUNK_BYTES + 123)
        with tempfile.NamedTemporaryFile() as handle:
            handle.write(data)
            handle.flush()
            with StubServer([Reply(200, b'{"success":true}')]) as stub:
                client = stub_client(stub)
                client.v2.stream(handle.name)
                client.v2.stream(data)
                client.v2.stream(io.BytesIO(data))
                with open(handle.name, "rb") as again:
                    client.v2.stream(again)
        for seen in stub.seen:
            self.assertEqual(seen.headers["content-type"], "application/octet-stream")
            self.assertEqual(seen.headers.get("transfer-encoding"), "chunked")
            self.assertNotIn("content-length", seen.headers)
            self.assertTrue(seen.chunked)
            self.assertEqual((seen.body_length, seen.body_sha224), (len(data), sha224_hex(data)))

    def test_progress_reports_bytes_of_data_and_the_total_when_known(self) -> None:
        data = os.urandom(2 * UPLOAD_CHUNK_BYTES + 10)
        seekable: List[Tuple[int, Optional[int]]] = []
        one_shot: List[Tuple[int, Optional[int]]] = []
        with StubServer([Reply(200, b'{"success":true}')]) as stub:
            client = stub_client(stub)
            client.v2.file(io.BytesIO(data), progress=lambda sent, total: seekable.append((sent, total)))
            pipe = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]
            pipe.seekable = lambda: False  # type: ignore[method-assign]
            client.v2.stream(pipe, progress=lambda sent, total: one_shot.append((sent, total)))
        self.assertEqual(seekable, [(UPLOAD_CHUNK_BYTES, len(data)), (2 * UPLOAD_CHUNK_BYTES, len(data)), (len(data), len(data))])
        self.assertEqual([sent for sent, _ in one_shot], [UPLOAD_CHUNK_BYTES, 2 * UPLOAD_CHUNK_BYTES, len(data)])
        self.assertEqual({total for _, total in one_shot}, {None})
        self.assertEqual(stub.seen[1].body_sha224, sha224_hex(data))

    def test_a_seekable_file_is_sent_from_its_current_position(self) -> None:
        source = io.BytesIO(b"header|payload")
        source.seek(7)
        with StubServer([Reply(200, b'{"success":true}')]) as stub:
            stub_client(stub).v2.stream(source)
        self.assertEqual(stub.seen[0].body, b"payload")


class Multipart(unittest.TestCase):
    def test_file_upload_has_exact_length_fields_first_and_the_file_part(self) -> None:
        data = os.urandom(UPLOAD_CHUNK_BYTES + 5)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "report.pdf")
            with open(path, "wb") as handle:
                handle.write(data)
            with StubServer([Reply(200, b'{"success":true}')]) as stub:
                client = stub_client(stub)
                client.v2.file(path, chunk_size=65536, output="base64")
                client.v1.verify_file(path, "a" * 56, filename='we"ird\r\nname.bin')
        first, second = stub.seen
        self.assertEqual(first.path, "/v2/file")
        self.assertEqual(int(first.headers["content-length"]), first.body_length)
        self.assertNotIn("transfer-encoding", first.headers)
        parts = parse_multipart(first.headers["content-type"], first.body)
        self.assertEqual([(n, f) for n, f, _ in parts], [("chunk_size", None), ("output", None), ("file", "report.pdf")])
        self.assertEqual([p for _, _, p in parts[:2]], [b"65536", b"base64"])
        self.assertEqual(sha224_hex(parts[2][2]), sha224_hex(data))
        parts = parse_multipart(second.headers["content-type"], second.body)
        self.assertEqual(parts[0], ("hash", None, b"a" * 56))
        # Quote, CR and LF are escaped as browsers do, so the name cannot break the header.
        self.assertEqual(parts[1][1], "we%22ird%0D%0Aname.bin")

    def test_a_file_of_unknown_size_is_sent_chunked(self) -> None:
        pipe = io.BufferedReader(io.BytesIO(b"abc"))  # type: ignore[arg-type]
        pipe.seekable = lambda: False  # type: ignore[method-assign]
        with StubServer([Reply(200, b'{"success":true}')]) as stub:
            stub_client(stub).v1.hash_file(pipe, filename="p.txt")
        self.assertTrue(stub.seen[0].chunked)
        parts = parse_multipart(stub.seen[0].headers["content-type"], stub.seen[0].body)
        self.assertEqual(parts, [("file", "p.txt", b"abc")])

    def test_non_ascii_names_travel_as_rfc_5987(self) -> None:
        body = MultipartBody(UploadSource(b"x", "r\u00e9sum\u00e9.txt"), [])
        head = next(body.pieces())[0].decode("ascii")
        self.assertIn("filename=\"r_sum_.txt\"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt", head)


class Sources(unittest.TestCase):
    def test_kinds_sizes_and_names(self) -> None:
        with tempfile.NamedTemporaryFile(suffix=".bin") as handle:
            handle.write(b"12345")
            handle.flush()
            by_path = UploadSource(handle.name)
            self.assertEqual((by_path.size, by_path.replayable, by_path.filename), (5, True, os.path.basename(handle.name)))
            with open(handle.name, "rb") as opened:
                self.assertEqual(UploadSource(opened).filename, os.path.basename(handle.name))
        self.assertEqual((UploadSource(b"abc").size, UploadSource(b"abc").filename), (3, "upload"))
        self.assertEqual(b"".join(UploadSource(bytearray(b"xyz"), "n").chunks(2)), b"xyz")

    def test_refused_sources(self) -> None:
        with self.assertRaisesRegex(TypeError, "binary mode"):
            UploadSource(io.StringIO("text"))  # type: ignore[arg-type]
        with self.assertRaises(TypeError):
            UploadSource(42)  # type: ignore[arg-type]
        with self.assertRaises(FileNotFoundError):
            UploadSource("/nonexistent/file")

    def test_a_one_shot_source_is_read_once(self) -> None:
        pipe = io.BufferedReader(io.BytesIO(b"abc"))  # type: ignore[arg-type]
        pipe.seekable = lambda: False  # type: ignore[method-assign]
        source = UploadSource(pipe)
        self.assertEqual((source.size, source.replayable, source.can_start), (None, False, True))
        self.assertEqual(b"".join(source.chunks()), b"abc")
        self.assertFalse(source.can_start)
        with self.assertRaises(RuntimeError):
            list(source.chunks())


if __name__ == "__main__":
    unittest.main()
