"""A small RTSP server for the tests: JPEG frames sent as an IP camera sends them.

Why: ``camera://rtsp://...`` (an IP camera, a phone app that serves RTSP) is read through
OpenCV's FFmpeg, and nothing else in the suite speaks RTSP. This server is just enough of one
for that client, written from the specifications: RTSP 1.0 (RFC 2326: OPTIONS, DESCRIBE,
SETUP, PLAY, GET_PARAMETER, TEARDOWN), one video track of RTP/JPEG (RFC 2435, payload type 26,
the quantisation tables in band), carried over the RTSP connection itself (interleaved
``$`` frames). A client that asks for UDP first is answered 461, as servers that only
interleave answer, and FFmpeg then asks again for TCP.

Frames must be baseline JPEG with the standard Huffman tables and 4:2:0 or 4:2:2 colour, as
``cv2.imencode(".jpg", ...)`` writes them. They are sent at ``fps``, each once, from PLAY on;
after the last the connection is closed (the stream ends).
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator

MAX_PAYLOAD = 1400  # bytes of JPEG scan data per RTP packet
SSRC = 0x6B656570


def _segments(jpeg: bytes) -> Iterator[tuple[int, bytes]]:
    """(marker, payload) of each segment before the scan; the scan's data last (marker 0)."""
    if jpeg[:2] != b"\xff\xd8":
        raise ValueError("not a JPEG")
    at = 2
    while at < len(jpeg):
        marker = jpeg[at + 1]
        length = struct.unpack(">H", jpeg[at + 2:at + 4])[0]
        body = jpeg[at + 4:at + 2 + length]
        yield marker, body
        at += 2 + length
        if marker == 0xDA:  # start of scan: the entropy-coded data runs to the EOI marker
            end = jpeg.rindex(b"\xff\xd9")
            yield 0, jpeg[at:end]
            return


def rtp_jpeg(jpeg: bytes) -> tuple[bytes, bytes, list[bytes]]:
    """RFC 2435 for one JPEG: its main header's fixed part (type, width, height), the
    quantisation-table header sent with the first packet, and the scan data in chunks."""
    tables: dict[int, bytes] = {}
    width = height = kind = 0
    scan = b""
    for marker, body in _segments(jpeg):
        if marker == 0xDB:  # DQT: one or more 8-bit tables, each in zig-zag order
            at = 0
            while at < len(body):
                precision, table = body[at] >> 4, body[at] & 15
                if precision:
                    raise ValueError("16-bit quantisation tables are not RTP/JPEG's")
                tables[table] = body[at + 1:at + 65]
                at += 65
        elif marker == 0xC0:  # SOF0: baseline
            height, width = struct.unpack(">HH", body[1:5])
            luma_sampling = body[7]
            kind = {0x21: 0, 0x22: 1}[luma_sampling]  # 4:2:2 -> type 0, 4:2:0 -> type 1
        elif marker == 0xDD:
            raise ValueError("restart markers need RTP/JPEG types 64-127")
        elif marker == 0:
            scan = body
    if not scan or width % 8 or height % 8 or width > 2040 or height > 2040:
        raise ValueError("not a baseline JPEG RTP/JPEG can carry")
    qt = tables[0] + tables[1]
    fixed = bytes([kind, 255, width // 8, height // 8])  # Q 255: the tables come in band
    qheader = bytes([0, 0]) + struct.pack(">H", len(qt)) + qt
    chunks = [scan[i:i + MAX_PAYLOAD] for i in range(0, len(scan), MAX_PAYLOAD)]
    return fixed, qheader, chunks


class RtspCamera:
    """Serves ``frames`` (JPEG bytes) at ``fps`` to one RTSP client on 127.0.0.1, path
    ``/live``. Use as a context manager; :attr:`url` is where to point the client."""

    def __init__(self, frames: list[bytes], fps: float) -> None:
        self.frames = frames
        self.fps = fps
        self._server = socket.create_server(("127.0.0.1", 0))
        self.url = f"rtsp://127.0.0.1:{self._server.getsockname()[1]}/live"
        self._thread = threading.Thread(target=self._serve, name="rtsp", daemon=True)
        self._closed = threading.Event()
        #: the requests the client sent, in order (method names), for the test to look at
        self.requests: list[str] = []
        self.sent = 0

    def __enter__(self) -> RtspCamera:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._closed.set()
        self._server.close()
        self._thread.join(5.0)

    def _serve(self) -> None:
        try:
            conn, _ = self._server.accept()
        except OSError:
            return
        with conn:
            conn.settimeout(0.2)
            self._session(conn)

    def _session(self, conn: socket.socket) -> None:
        buffer = b""
        streaming: threading.Thread | None = None
        while not self._closed.is_set():
            try:
                data = conn.recv(65536)
            except TimeoutError:
                if streaming is not None and not streaming.is_alive():
                    return  # every frame sent: the stream ends
                continue
            except OSError:
                return
            if not data:
                return
            buffer += data
            while True:
                if buffer[:1] == b"$":  # the client's interleaved RTCP reports: skipped
                    if len(buffer) < 4:
                        break
                    size = struct.unpack(">H", buffer[2:4])[0]
                    if len(buffer) < 4 + size:
                        break
                    buffer = buffer[4 + size:]
                    continue
                end = buffer.find(b"\r\n\r\n")
                if end < 0:
                    break
                head, buffer = buffer[:end].decode("latin-1"), buffer[end + 4:]
                if self._answer(conn, head) and streaming is None:
                    streaming = threading.Thread(target=self._stream, args=(conn,),
                                                 name="rtp", daemon=True)
                    streaming.start()

    def _answer(self, conn: socket.socket, head: str) -> bool:
        """Answer one request; True when it was PLAY (the frames start)."""
        lines = head.split("\r\n")
        method = lines[0].split(" ")[0]
        self.requests.append(method)
        fields = {k.strip().lower(): v.strip() for k, _, v in
                  (line.partition(":") for line in lines[1:])}
        seq = fields.get("cseq", "0")
        extra, body, status = "", "", "200 OK"
        if method == "OPTIONS":
            extra = "Public: OPTIONS, DESCRIBE, SETUP, PLAY, GET_PARAMETER, TEARDOWN\r\n"
        elif method == "DESCRIBE":
            body = ("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=board\r\nc=IN IP4 0.0.0.0\r\n"
                    "t=0 0\r\nm=video 0 RTP/AVP 26\r\na=control:track0\r\n"
                    f"a=framerate:{self.fps:g}\r\n")
            extra = (f"Content-Base: {self.url}/\r\nContent-Type: application/sdp\r\n"
                     f"Content-Length: {len(body)}\r\n")
        elif method == "SETUP":
            if "interleaved" not in fields.get("transport", "") and \
                    "TCP" not in fields.get("transport", ""):
                status = "461 Unsupported Transport"
            else:
                extra = "Transport: RTP/AVP/TCP;unicast;interleaved=0-1\r\nSession: 4711\r\n"
        elif method in ("PLAY", "GET_PARAMETER", "TEARDOWN"):
            extra = "Session: 4711\r\n"
        else:
            status = "501 Not Implemented"
        reply = f"RTSP/1.0 {status}\r\nCSeq: {seq}\r\n{extra}\r\n{body}"
        conn.sendall(reply.encode("latin-1"))
        return method == "PLAY"

    def _stream(self, conn: socket.socket) -> None:
        seq = 0
        start = time.monotonic()
        for k, jpeg in enumerate(self.frames):
            if self._closed.wait(max(0.0, start + k / self.fps - time.monotonic())):
                return
            fixed, qheader, chunks = rtp_jpeg(jpeg)
            stamp = int(k * 90000 / self.fps) & 0xFFFFFFFF
            offset = 0
            for i, chunk in enumerate(chunks):
                last = i == len(chunks) - 1
                rtp = struct.pack(">BBHII", 0x80, (0x80 if last else 0) | 26, seq & 0xFFFF,
                                  stamp, SSRC)
                payload = (bytes([0]) + struct.pack(">I", offset)[1:] + fixed
                           + (qheader if offset == 0 else b"") + chunk)
                packet = rtp + payload
                try:
                    conn.sendall(b"$\x00" + struct.pack(">H", len(packet)) + packet)
                except OSError:
                    return
                seq += 1
                offset += len(chunk)
            self.sent = k + 1
