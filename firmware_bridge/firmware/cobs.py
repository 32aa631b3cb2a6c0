"""Consistent Overhead Byte Stuffing: removes every 0x00 so 0x00 can delimit frames.

Encoding ``data`` (any bytes) gives at most ``len(data) + len(data) // 254 + 1`` bytes, none of
them zero. Example: ``encode(b"\\x11\\x00\\x22") == b"\\x02\\x11\\x02\\x22"``.
"""


def encode(data: bytes) -> bytes:
    """COBS-encode ``data``; the result contains no 0x00 byte (delimiter not included)."""
    out = bytearray()
    for part in bytes(data).split(b"\x00"):
        # Each zero-free run longer than 254 bytes is cut into 254-byte blocks with code 0xFF,
        # which (unlike a shorter block) does not stand for a zero after it.
        while len(part) >= 254:
            out.append(0xFF)
            out += part[:254]
            part = part[254:]
        out.append(len(part) + 1)
        out += part
    return bytes(out)


def decode(data: bytes) -> bytes | None:
    """Decode one COBS block (without delimiters); return None if it is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        block = data[i + 1 : end]
        if b"\x00" in block:
            return None
        out += block
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)
