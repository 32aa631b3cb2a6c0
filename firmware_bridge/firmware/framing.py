"""Frames on the wire: COBS-encoded, CRC-16 checked, 0x00 delimited, sequence numbered.

A frame before encoding is::

    type:u8  seq:u8  payload:N bytes  crc:u16 big-endian (CRC-16/CCITT-FALSE of type+seq+payload)

and on the wire it is ``00 COBS(frame) 00``: the leading zero ends any garbage before it, so
line noise costs at most the frame it touches. :class:`FrameDecoder` is a pure incremental
parser (feed bytes, get frames); it never raises, and counts what it dropped.
"""

from .cobs import decode as cobs_decode
from .cobs import encode as cobs_encode
from .crc16 import crc16

#: Largest decoded frame accepted (type + seq + payload + crc), in bytes.
MAX_FRAME = 1024
#: Largest payload that fits in :data:`MAX_FRAME`.
MAX_PAYLOAD = MAX_FRAME - 4
# A COBS block of MAX_FRAME bytes is at most this long; anything longer is garbage.
_MAX_ENCODED = MAX_FRAME + MAX_FRAME // 254 + 1


class Frame:
    """One checked frame: message ``type`` (0..255), ``seq`` (0..255) and ``payload`` bytes."""

    __slots__ = ("type", "seq", "payload")

    def __init__(self, type: int, seq: int, payload: bytes) -> None:
        self.type = type
        self.seq = seq
        self.payload = payload

    def __eq__(self, other: object) -> bool:
        # (False rather than NotImplemented, which MicroPython's type stubs do not know.)
        return isinstance(other, Frame) and (self.type, self.seq, self.payload) == (
            other.type, other.seq, other.payload)

    def __hash__(self) -> int:
        return hash((self.type, self.seq, self.payload))

    def __repr__(self) -> str:
        return f"Frame(type={self.type:#04x}, seq={self.seq}, payload={self.payload!r})"


def encode_frame(type: int, seq: int, payload: bytes = b"") -> bytes:
    """Return the wire bytes (delimiters included) of one frame.

    Raises:
        ValueError: ``type``/``seq`` outside 0..255 or ``payload`` longer than MAX_PAYLOAD.
    """
    if not (0 <= type <= 255 and 0 <= seq <= 255):
        raise ValueError("frame type and seq must be bytes")
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = bytes((type, seq)) + bytes(payload)
    crc = crc16(body)
    return b"\x00" + cobs_encode(body + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def check_frame(block: bytes) -> Frame | None:
    """Decode one delimiter-free COBS block into a Frame, or None if COBS/length/CRC fail."""
    raw = cobs_decode(block)
    if raw is None or len(raw) < 4:
        return None
    body = raw[:-2]
    if crc16(body) != (raw[-2] << 8) | raw[-1]:
        return None
    return Frame(body[0], body[1], bytes(body[2:]))


class FrameDecoder:
    """Incremental frame parser: :meth:`feed` bytes as they arrive, get the complete frames.

    Counters (all ints, never reset): ``frames`` accepted, ``bad`` blocks rejected (COBS, CRC or
    too short), ``overruns`` (blocks longer than MAX_FRAME, dropped), ``dropped_bytes``.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overrun = False
        self.frames = 0
        self.bad = 0
        self.overruns = 0
        self.dropped_bytes = 0

    def feed(self, data: bytes) -> list[Frame]:
        """Consume ``data`` (any split, any garbage) and return the frames it completed."""
        out = []
        parts = bytes(data).split(b"\x00")
        # Every part but the last was ended by a delimiter; the last is still open.
        for part in parts[:-1]:
            self._append(part)
            frame = self._close_block()
            if frame is not None:
                out.append(frame)
        self._append(parts[-1])
        return out

    def _append(self, part: bytes) -> None:
        if self._overrun:
            self.dropped_bytes += len(part)
            return
        self._buf += part
        if len(self._buf) > _MAX_ENCODED:
            # Never buffer without bound: drop until the next delimiter.
            self.dropped_bytes += len(self._buf)
            self._buf = bytearray()
            self._overrun = True

    def _close_block(self) -> Frame | None:
        if self._overrun:
            self._overrun = False
            self.overruns += 1
            return None
        block = bytes(self._buf)
        self._buf = bytearray()
        if not block:
            return None  # back-to-back delimiters: no frame, not an error
        frame = check_frame(block)
        if frame is None:
            self.bad += 1
            self.dropped_bytes += len(block)
        else:
            self.frames += 1
        return frame


def seq_gap(previous: int, seq: int) -> int:
    """How many frames were lost between sequence numbers ``previous`` and ``seq`` (mod 256)."""
    return (seq - previous - 1) & 0xFF
