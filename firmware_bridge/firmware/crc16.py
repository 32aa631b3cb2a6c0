"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR).

Check value: ``crc16(b"123456789") == 0x29B1``. Under CPython the C implementation
``binascii.crc_hqx`` computes exactly this CRC; MicroPython lacks it, so a table is used there.
"""

import binascii

# The C implementation under CPython; None under MicroPython, which lacks it.
_crc_hqx = getattr(binascii, "crc_hqx", None)


def _make_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _make_table()


def crc16_slow(data: bytes) -> int:
    """Table-driven CRC-16/CCITT-FALSE of ``data`` (the MicroPython path, tested on CPython)."""
    crc = 0xFFFF
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ b]
    return crc


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data`` as an int in 0..0xFFFF."""
    if _crc_hqx is not None:
        return int(_crc_hqx(data, 0xFFFF))
    return crc16_slow(data)
