"""Message types and payload layouts of the Gravekeeper board protocol (version 1).

All integers are big-endian. ``t`` is the board's own clock in ms since boot (u32, wraps).
Board -> host types are 0x01..0x7F, host -> board types 0x80..0xFF; a receiver skips any type
it does not know. The full description with byte-level examples is docs/protocol.md.

These are plain functions over bytes and tuples so that the firmware (MicroPython) and the host
share one definition; the host wraps them in dataclasses in ``firmware_bridge.messages``.
"""

import struct

PROTOCOL_VERSION = 1

# Board -> host.
HELLO = 0x01  # proto u8, fw major u8, fw minor u8, flags u8, buttons u8, n u8, n x module
CHANGES = 0x02  # t u32, n u8, n x (module u8, cell u16, occupied u8)
SNAPSHOT = 0x03  # t u32, reason u8, n u8, n x (cells u16, bitmap ceil(cells/8) bytes)
BUTTON = 0x04  # t u32, button index u8
DIE = 0x05  # t u32, face u8
PONG = 0x06  # token u32
LOG = 0x07  # UTF-8 text (diagnostics)

# Host -> board.
HELLO_REQUEST = 0x81  # empty
SNAPSHOT_REQUEST = 0x82  # empty
LEDS = 0x83  # module u8, show u8, first cell u16, n u16, n x (r, g, b)
PING = 0x84  # token u32
CONFIG = 0x85  # debounce scans u8, snapshot period ms u16 (0 = never)

# Module kinds in HELLO.
KIND_GRID = 0  # width x height cells, row-major, cell 0 in the corner nearest the connector
KIND_RING = 1  # width cells around an edge, height 1
KIND_STRIP = 2  # width cells in a row, height 1

# HELLO flags.
FLAG_LEDS = 0x01  # per-cell RGB LEDs
FLAG_DIE = 0x02  # a die reader

# SNAPSHOT reasons.
REASON_PERIODIC = 0
REASON_REQUESTED = 1
REASON_BOOT = 2


def encode_hello(fw: tuple[int, int], flags: int, buttons: int,
                 modules: list[tuple[str, int, int, int]]) -> bytes:
    """HELLO payload; ``modules`` holds (name, kind, width, height) tuples."""
    out = bytearray((PROTOCOL_VERSION, fw[0], fw[1], flags, buttons, len(modules)))
    for name, kind, width, height in modules:
        raw = name.encode()
        out += bytes((kind, width, height, len(raw))) + raw
    return bytes(out)


def decode_hello(
    p: bytes,
) -> tuple[int, tuple[int, int], int, int, list[tuple[str, int, int, int]]]:
    """Return (protocol, (fw major, minor), flags, buttons, modules) from a HELLO payload.

    Raises:
        ValueError: the payload is truncated or has trailing bytes.
    """
    if len(p) < 6:
        raise ValueError("short HELLO")
    modules = []
    i = 6
    for _ in range(p[5]):
        if i + 4 > len(p) or i + 4 + p[i + 3] > len(p):
            raise ValueError("truncated HELLO module")
        kind, width, height, nlen = p[i], p[i + 1], p[i + 2], p[i + 3]
        modules.append((bytes(p[i + 4 : i + 4 + nlen]).decode(), kind, width, height))
        i += 4 + nlen
    if i != len(p):
        raise ValueError("trailing bytes in HELLO")
    return p[0], (p[1], p[2]), p[3], p[4], modules


def encode_changes(t: int, changes: list[tuple[int, int, int]]) -> bytes:
    """CHANGES payload; ``changes`` holds (module, cell, occupied 0/1) tuples (at most 255)."""
    out = bytearray(struct.pack(">IB", t & 0xFFFFFFFF, len(changes)))
    for module, cell, occ in changes:
        out += struct.pack(">BHB", module, cell, 1 if occ else 0)
    return bytes(out)


def decode_changes(p: bytes) -> tuple[int, list[tuple[int, int, int]]]:
    """Return (t, [(module, cell, occupied)...]) from a CHANGES payload.

    Raises:
        ValueError: wrong length or an occupied flag other than 0/1.
    """
    if len(p) < 5 or len(p) != 5 + 4 * p[4]:
        raise ValueError("bad CHANGES length")
    t = struct.unpack(">I", p[:4])[0]
    out = []
    for i in range(5, len(p), 4):
        module, cell, occ = struct.unpack(">BHB", p[i : i + 4])
        if occ > 1:
            raise ValueError("bad occupied flag")
        out.append((module, cell, occ))
    return t, out


def pack_bits(bits: list[int]) -> bytes:
    """Pack 0/1 values LSB-first: cell i is bit (i % 8) of byte i // 8."""
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


def unpack_bits(data: bytes, count: int) -> list[int]:
    """Inverse of :func:`pack_bits` for ``count`` cells."""
    return [(data[i >> 3] >> (i & 7)) & 1 for i in range(count)]


def encode_snapshot(t: int, reason: int, modules: list[list[int]]) -> bytes:
    """SNAPSHOT payload; ``modules`` holds one list of 0/1 cell states per module."""
    out = bytearray(struct.pack(">IBB", t & 0xFFFFFFFF, reason, len(modules)))
    for cells in modules:
        out += struct.pack(">H", len(cells)) + pack_bits(cells)
    return bytes(out)


def decode_snapshot(p: bytes) -> tuple[int, int, list[list[int]]]:
    """Return (t, reason, [cell states per module]) from a SNAPSHOT payload.

    Raises:
        ValueError: the payload is truncated or has trailing bytes.
    """
    if len(p) < 6:
        raise ValueError("short SNAPSHOT")
    t, reason, n = struct.unpack(">IBB", p[:6])
    modules = []
    i = 6
    for _ in range(n):
        if i + 2 > len(p):
            raise ValueError("truncated SNAPSHOT")
        count = struct.unpack(">H", p[i : i + 2])[0]
        size = (count + 7) // 8
        if i + 2 + size > len(p):
            raise ValueError("truncated SNAPSHOT bitmap")
        modules.append(unpack_bits(p[i + 2 : i + 2 + size], count))
        i += 2 + size
    if i != len(p):
        raise ValueError("trailing bytes in SNAPSHOT")
    return t, reason, modules


def encode_t_byte(t: int, value: int) -> bytes:
    """BUTTON or DIE payload: board time and one byte (button index or die face)."""
    return struct.pack(">IB", t & 0xFFFFFFFF, value)


def decode_t_byte(p: bytes) -> tuple[int, int]:
    """Inverse of :func:`encode_t_byte`. Raises ValueError on a wrong length."""
    if len(p) != 5:
        raise ValueError("bad length")
    t, value = struct.unpack(">IB", p)
    return t, value


def encode_token(token: int) -> bytes:
    """PING or PONG payload: a u32 token echoed back by the board."""
    return struct.pack(">I", token & 0xFFFFFFFF)


def decode_token(p: bytes) -> int:
    """Inverse of :func:`encode_token`. Raises ValueError on a wrong length."""
    if len(p) != 4:
        raise ValueError("bad token length")
    return int(struct.unpack(">I", p)[0])


def encode_leds(module: int, show: bool, first: int, colours: list[tuple[int, int, int]]) -> bytes:
    """LEDS payload: RGB (0..255 each) for cells ``first``.. of ``module``; ``show`` latches."""
    out = bytearray(struct.pack(">BBHH", module, 1 if show else 0, first, len(colours)))
    for r, g, b in colours:
        out += bytes((r, g, b))
    return bytes(out)


def decode_leds(p: bytes) -> tuple[int, bool, int, list[tuple[int, int, int]]]:
    """Return (module, show, first cell, colours) from a LEDS payload. Raises ValueError."""
    if len(p) < 6:
        raise ValueError("short LEDS")
    module, show, first, n = struct.unpack(">BBHH", p[:6])
    if len(p) != 6 + 3 * n:
        raise ValueError("bad LEDS length")
    colours = [(p[i], p[i + 1], p[i + 2]) for i in range(6, len(p), 3)]
    return module, bool(show), first, colours


def encode_config(debounce_scans: int, snapshot_period_ms: int) -> bytes:
    """CONFIG payload."""
    return struct.pack(">BH", debounce_scans, snapshot_period_ms)


def decode_config(p: bytes) -> tuple[int, int]:
    """Return (debounce scans >= 1, snapshot period ms) from a CONFIG payload. Raises ValueError."""
    if len(p) != 3:
        raise ValueError("bad CONFIG length")
    scans, period = struct.unpack(">BH", p)
    if scans < 1:
        raise ValueError("debounce scans must be >= 1")
    return scans, period
