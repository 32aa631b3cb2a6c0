"""Test helper: a hand-scripted board on a real pseudo-terminal (imported by the tests)."""

from __future__ import annotations

import os
import select
import threading
import tty

from firmware_bridge.firmware import proto
from firmware_bridge.firmware.framing import Frame, FrameDecoder, encode_frame


class ScriptedBoard:
    """The board end of a pty, driven by the test byte by byte.

    A thread answers HELLO/SNAPSHOT requests and pings (unless ``answer`` is False) from
    ``cells`` (one 8x8 module called main); everything else is written explicitly by the test.
    ``chunk`` > 0 makes every write go out in pieces of that many bytes.
    """

    def __init__(self, answer: bool = True) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.answer = answer
        self.cells = [0] * 64
        self.seq = 0
        self.chunk = 0
        self.received: list[Frame] = []
        self._lock = threading.Lock()
        self._got = threading.Condition()
        self._stop = threading.Event()
        self._decoder = FrameDecoder()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def frame(self, msg_type: int, payload: bytes = b"") -> bytes:
        """Encode the next frame from the board (consumes a sequence number)."""
        with self._lock:
            data = encode_frame(msg_type, self.seq, payload)
            self.seq = (self.seq + 1) & 0xFF
        return data

    def write(self, data: bytes) -> None:
        step = self.chunk or len(data) or 1
        for i in range(0, len(data), step):
            os.write(self.master, data[i:i + step])

    def send(self, msg_type: int, payload: bytes = b"") -> None:
        self.write(self.frame(msg_type, payload))

    def change(self, cell: int, occupied: int) -> None:
        self.cells[cell] = occupied
        self.send(proto.CHANGES, proto.encode_changes(0, [(0, cell, occupied)]))

    def requests(self, msg_type: int) -> int:
        return sum(1 for f in list(self.received) if f.type == msg_type)

    def wait_request(self, msg_type: int, count: int = 1, timeout: float = 1.0) -> bool:
        """Wait until the host has sent ``count`` frames of ``msg_type``."""
        with self._got:
            return self._got.wait_for(lambda: self.requests(msg_type) >= count, timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            for f in self._decoder.feed(data):
                if self.answer:  # answered before it is counted: once a test has seen a
                    self._answer(f)  # request (wait_request), its answer is on the line
                with self._got:
                    self.received.append(f)
                    self._got.notify_all()

    def _answer(self, f: Frame) -> None:
        if f.type == proto.HELLO_REQUEST:
            self.send(proto.HELLO, proto.encode_hello((1, 0), proto.FLAG_LEDS, 5,
                                                      [("main", 0, 8, 8)]))
        elif f.type == proto.SNAPSHOT_REQUEST:
            self.send(proto.SNAPSHOT, proto.encode_snapshot(0, 1, [list(self.cells)]))
        elif f.type == proto.PING:
            self.send(proto.PONG, f.payload)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1.0)
        os.close(self.master)
        os.close(self.slave)
