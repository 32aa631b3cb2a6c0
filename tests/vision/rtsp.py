"""A small RTSP server for the tests: frames sent as an IP camera sends them.

Why: ``camera://rtsp://...`` (an IP camera, a phone app that serves RTSP) is read through
OpenCV's FFmpeg, and nothing else in the suite speaks RTSP. This server is just enough of one
for that client, written from the specifications: RTSP 1.0 (RFC 2326: OPTIONS, DESCRIBE,
SETUP, PLAY, GET_PARAMETER, TEARDOWN), carried over the RTSP connection itself (interleaved
``$`` frames). A client that asks for UDP first is answered 461, as servers that only
interleave answer, and FFmpeg then asks again for TCP.

The video track is either RTP/JPEG (RFC 2435, payload type 26, the quantisation tables in
band) or H.264 (RFC 6184, packetization mode 1: a NAL unit a packet, or fragments of one
(FU-A); the parameter sets in the SDP and in band), which is what IP cameras and phone apps
send. With ``audio``, a second track of G.711 mu-law (payload type 0, 8 kHz, silence in
20 ms packets) comes with it, as IP Webcam's ``/h264_ulaw.sdp`` serves: the client must pick
the picture out of a stream with sound.

JPEG frames must be baseline JPEG with the standard Huffman tables and 4:2:0 or 4:2:2 colour,
as ``cv2.imencode(".jpg", ...)`` writes them; H.264 is encoded from BGR pictures by
:func:`h264_access_units` (PyAV's libx264). Frames are sent at ``fps``, each once, from PLAY
on; after the last the connection is closed (the stream ends).
"""

from __future__ import annotations

import base64
import fractions
import socket
import struct
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

MAX_PAYLOAD = 1400  # bytes of picture data per RTP packet
SSRC = 0x6B656570
H264_TYPE = 96  # the dynamic payload type the SDP gives H.264
FU_A = 28  # RFC 6184's fragmentation unit
AUDIO_MS = 20  # mu-law packets: 160 samples at 8 kHz


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


def h264_access_units(pictures: list[Any], fps: float) -> list[list[bytes]]:
    """``pictures`` (BGR arrays of one even size) encoded as a camera's H.264 stream: for each,
    its NAL units (no start codes). Baseline profile, no B-frames, a key frame every second
    with its parameter sets repeated, as a live camera sends them."""
    import av  # the tests' own dependency (libx264 comes with its wheels)

    height, width = pictures[0].shape[:2]
    codec = av.CodecContext.create("libx264", "w")
    codec.width, codec.height, codec.pix_fmt = width, height, "yuv420p"
    rate = fractions.Fraction(round(fps * 1000), 1000)
    codec.time_base, codec.framerate = 1 / rate, rate
    codec.options = {"preset": "ultrafast", "tune": "zerolatency", "profile": "baseline",
                     "x264-params": f"keyint={max(1, round(fps))}:repeat-headers=1"}
    units: list[list[bytes]] = []
    for k, picture in enumerate([*pictures, None]):
        frame = None
        if picture is not None:
            frame = av.VideoFrame.from_ndarray(picture, format="bgr24")
            frame.pts = k
        units += [_nal_units(bytes(packet)) for packet in codec.encode(frame)]
    return units


def _nal_units(annex_b: bytes) -> list[bytes]:
    """The NAL units of an Annex B byte stream (each after a 00 00 01 start code)."""
    parts = annex_b.split(b"\x00\x00\x01")
    return [p.rstrip(b"\x00") for p in parts[1:] if p.rstrip(b"\x00")]


def rtp_h264(units: list[bytes]) -> list[bytes]:
    """RFC 6184 payloads for one access unit: each NAL unit whole, or as FU-A fragments."""
    payloads: list[bytes] = []
    for nal in units:
        if len(nal) <= MAX_PAYLOAD:
            payloads.append(nal)
            continue
        indicator, kind = (nal[0] & 0xE0) | FU_A, nal[0] & 0x1F
        body = nal[1:]
        chunks = [body[i:i + MAX_PAYLOAD] for i in range(0, len(body), MAX_PAYLOAD)]
        for i, chunk in enumerate(chunks):
            flags = (0x80 if i == 0 else 0) | (0x40 if i == len(chunks) - 1 else 0)
            payloads.append(bytes([indicator, flags | kind]) + chunk)
    return payloads


class RtspCamera:
    """Serves ``frames`` at ``fps`` to one RTSP client on 127.0.0.1 at ``path``: JPEG
    bytes, or each frame's H.264 NAL units (:func:`h264_access_units`); ``audio`` adds a
    mu-law track. Use as a context manager; :attr:`url` is where to point the
    client."""

    def __init__(self, frames: Sequence[bytes | list[bytes]], fps: float, *,
                 audio: bool = False, path: str = "/live") -> None:
        self.frames = frames
        self.fps = fps
        self.h264 = isinstance(frames[0], list)  # NAL units, not a JPEG
        self.audio = audio
        self._server = socket.create_server(("127.0.0.1", 0))
        self.url = f"rtsp://127.0.0.1:{self._server.getsockname()[1]}{path}"
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

    def _sdp(self) -> str:
        """The session's description: the video track, then the sound's."""
        lines = ["v=0", "o=- 0 0 IN IP4 127.0.0.1", "s=board", "c=IN IP4 0.0.0.0", "t=0 0"]
        if self.h264:
            units = [u for au in self.frames if isinstance(au, list) for u in au]
            sps = next(u for u in units if u[0] & 0x1F == 7)
            pps = next(u for u in units if u[0] & 0x1F == 8)
            sets = ",".join(base64.b64encode(u).decode() for u in (sps, pps))
            lines += [f"m=video 0 RTP/AVP {H264_TYPE}", f"a=rtpmap:{H264_TYPE} H264/90000",
                      f"a=fmtp:{H264_TYPE} packetization-mode=1;profile-level-id="
                      f"{sps[1:4].hex()};sprop-parameter-sets={sets}"]
        else:
            lines += ["m=video 0 RTP/AVP 26"]
        lines += ["a=control:track0", f"a=framerate:{self.fps:g}"]
        if self.audio:
            lines += ["m=audio 0 RTP/AVP 0", "a=rtpmap:0 PCMU/8000", "a=control:track1"]
        return "\r\n".join(lines) + "\r\n"

    def _answer(self, conn: socket.socket, head: str) -> bool:
        """Answer one request; True when it was PLAY (the frames start)."""
        lines = head.split("\r\n")
        method, target = (lines[0].split(" ") + [""])[:2]
        self.requests.append(method)
        fields = {k.strip().lower(): v.strip() for k, _, v in
                  (line.partition(":") for line in lines[1:])}
        seq = fields.get("cseq", "0")
        extra, body, status = "", "", "200 OK"
        if method == "OPTIONS":
            extra = "Public: OPTIONS, DESCRIBE, SETUP, PLAY, GET_PARAMETER, TEARDOWN\r\n"
        elif method == "DESCRIBE":
            body = self._sdp()
            extra = (f"Content-Base: {self.url}/\r\nContent-Type: application/sdp\r\n"
                     f"Content-Length: {len(body)}\r\n")
        elif method == "SETUP":
            if "interleaved" not in fields.get("transport", "") and \
                    "TCP" not in fields.get("transport", ""):
                status = "461 Unsupported Transport"
            else:
                channel = 2 if target.endswith("track1") else 0
                extra = (f"Transport: RTP/AVP/TCP;unicast;interleaved={channel}-{channel + 1}"
                         "\r\nSession: 4711\r\n")
        elif method in ("PLAY", "GET_PARAMETER", "TEARDOWN"):
            extra = "Session: 4711\r\n"
        else:
            status = "501 Not Implemented"
        reply = f"RTSP/1.0 {status}\r\nCSeq: {seq}\r\n{extra}\r\n{body}"
        conn.sendall(reply.encode("latin-1"))
        return method == "PLAY"

    def _stream(self, conn: socket.socket) -> None:
        """The frames at ``fps`` (and the sound's packets every AUDIO_MS), by the clock."""
        video = _Track(0, H264_TYPE if self.h264 else 26)  # clocks: 90 kHz ...
        sound = _Track(2, 0)  # ... and 8 kHz (the stamps below)
        start = time.monotonic()
        heard = 0  # sound packets sent
        for k, frame in enumerate(self.frames):
            due = start + k / self.fps
            while self.audio and start + heard * AUDIO_MS / 1000 <= due:
                if not self._wait(start + heard * AUDIO_MS / 1000) or not sound.send(
                        conn, [b"\xff" * (8 * AUDIO_MS)], heard * 8 * AUDIO_MS):
                    return
                heard += 1
            if not self._wait(due):
                return
            stamp = int(k * 90000 / self.fps)
            payloads = rtp_h264(frame) if isinstance(frame, list) else _rtp_jpeg_payloads(frame)
            if not video.send(conn, payloads, stamp):
                return
            self.sent = k + 1

    def _wait(self, until: float) -> bool:
        """Sleep until ``until`` (monotonic); False when the server closed meanwhile."""
        return not self._closed.wait(max(0.0, until - time.monotonic()))


def _rtp_jpeg_payloads(jpeg: bytes) -> list[bytes]:
    """RFC 2435 payloads for one JPEG: each chunk of scan data after its main header (the
    fragment offset, type, size), the first with the quantisation tables."""
    fixed, qheader, chunks = rtp_jpeg(jpeg)
    payloads, offset = [], 0
    for chunk in chunks:
        payloads.append(bytes([0]) + struct.pack(">I", offset)[1:] + fixed
                        + (qheader if offset == 0 else b"") + chunk)
        offset += len(chunk)
    return payloads


class _Track:
    """One RTP stream on interleaved ``channel``: its payload type and sequence."""

    def __init__(self, channel: int, payload_type: int) -> None:
        self.channel, self.payload_type = channel, payload_type
        self.seq = 0

    def send(self, conn: socket.socket, payloads: list[bytes], stamp: int) -> bool:
        """Send one frame's ``payloads`` (the marker bit on the last); False once the
        client is gone."""
        for i, payload in enumerate(payloads):
            marker = 0x80 if i == len(payloads) - 1 else 0
            rtp = struct.pack(">BBHII", 0x80, marker | self.payload_type, self.seq & 0xFFFF,
                              stamp & 0xFFFFFFFF, SSRC + self.channel)
            packet = rtp + payload
            try:
                conn.sendall(bytes([0x24, self.channel]) + struct.pack(">H", len(packet))
                             + packet)
            except OSError:
                return False
            self.seq += 1
        return True
