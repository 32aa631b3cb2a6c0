"""CRC, COBS and the incremental frame parser (pure, no I/O), including fuzzing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware import cobs
from firmware_bridge.firmware.crc16 import crc16, crc16_slow
from firmware_bridge.firmware.framing import (
    MAX_FRAME,
    Frame,
    FrameDecoder,
    encode_frame,
    seq_gap,
)


def test_crc_check_values() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert crc16_slow(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF


@given(st.binary(max_size=600))
def test_crc_fast_equals_table(data: bytes) -> None:
    assert crc16(data) == crc16_slow(data)


@given(st.binary(max_size=1200))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    enc = cobs.encode(data)
    assert b"\x00" not in enc
    assert cobs.decode(enc) == data


def test_cobs_known_vectors_and_invalid() -> None:
    assert cobs.encode(b"\x11\x00\x22") == b"\x02\x11\x02\x22"
    assert cobs.encode(b"") == b"\x01"
    assert cobs.decode(b"\x05\x11") is None  # code runs past the end
    assert cobs.decode(b"\x00") is None


FRAMES = [Frame(2, 0, b"\x00\x00\x01\x02\x00\x01\x00\x01\x01"), Frame(3, 1, b""),
          Frame(0x7E, 2, bytes(range(256)) * 2), Frame(4, 3, b"\x00" * 5)]
STREAM = b"".join(encode_frame(f.type, f.seq, f.payload) for f in FRAMES)


def test_split_at_every_byte_boundary() -> None:
    for cut in range(len(STREAM) + 1):
        dec = FrameDecoder()
        got = dec.feed(STREAM[:cut]) + dec.feed(STREAM[cut:])
        assert got == FRAMES, cut
        assert dec.bad == 0


def test_byte_by_byte() -> None:
    dec = FrameDecoder()
    got = [f for b in STREAM for f in dec.feed(bytes([b]))]
    assert got == FRAMES


def test_garbage_between_frames_costs_nothing() -> None:
    dec = FrameDecoder()
    a, b = (encode_frame(f.type, f.seq, f.payload) for f in FRAMES[:2])
    got = dec.feed(b"\xff\x13garbage" + a + b"\x01\x02\x03" + b + b"\x07")
    assert got == FRAMES[:2]
    assert dec.bad == 2  # the two garbage runs, each dropped at its delimiter


def test_crc_error_rejected_and_next_frame_recovers() -> None:
    a = bytearray(encode_frame(2, 5, b"abcdef"))
    a[4] ^= 0x01
    dec = FrameDecoder()
    assert dec.feed(bytes(a) + encode_frame(2, 6, b"ok")) == [Frame(2, 6, b"ok")]
    assert dec.bad == 1


def test_overlong_block_is_dropped_without_unbounded_buffering() -> None:
    dec = FrameDecoder()
    assert dec.feed(b"\x05" * (MAX_FRAME * 3)) == []
    assert len(dec._buf) <= MAX_FRAME * 2
    assert dec.feed(b"\x00" + encode_frame(1, 1, b"x")) == [Frame(1, 1, b"x")]
    assert dec.overruns == 1


def test_seq_gap_wraps() -> None:
    assert seq_gap(5, 6) == 0
    assert seq_gap(5, 8) == 2
    assert seq_gap(255, 0) == 0
    assert seq_gap(254, 1) == 2


def _reference_frames(stream: bytes) -> list[Frame]:
    """Independent, simple decoder: split on zeros, COBS-decode, check CRC bit by bit."""
    out = []
    for block in stream.split(b"\x00")[:-1]:  # only blocks closed by a delimiter
        raw = _ref_cobs(block)
        if raw is None or len(raw) < 4:
            continue
        crc = 0xFFFF
        for byte in raw[:-2]:
            crc ^= byte << 8
            for _ in range(8):
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        if crc == int.from_bytes(raw[-2:], "big") and len(raw) <= MAX_FRAME:
            out.append(Frame(raw[0], raw[1], bytes(raw[2:-2])))
    return out


def _ref_cobs(block: bytes) -> bytes | None:
    if not block:
        return None
    out, i = bytearray(), 0
    while i < len(block):
        code = block[i]
        if code == 0 or i + code > len(block):
            return None
        out += block[i + 1:i + code]
        i += code
        if code < 0xFF and i < len(block):
            out.append(0)
    return bytes(out)


frames_st = st.lists(st.builds(Frame, st.integers(0, 255), st.integers(0, 255),
                               st.binary(max_size=300)), max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_fuzz_random_bytes_never_raise_and_only_checked_frames(data: bytes) -> None:
    dec = FrameDecoder()
    assert dec.feed(data) == _reference_frames(data)


@settings(max_examples=300, deadline=None)
@given(frames_st, st.randoms(use_true_random=False), st.integers(0, 20))
def test_fuzz_mutated_streams(frames: list[Frame], rnd: random.Random, flips: int) -> None:
    stream = bytearray(b"".join(encode_frame(f.type, f.seq, f.payload) for f in frames))
    for _ in range(flips):
        if not stream:  # deletions may have eaten it all
            break
        op = rnd.randrange(3)
        i = rnd.randrange(len(stream))
        if op == 0:
            stream[i] ^= 1 << rnd.randrange(8)
        elif op == 1:
            del stream[i]
        else:
            stream.insert(i, rnd.randrange(256))
    data = bytes(stream) + b"\x00"
    dec = FrameDecoder()
    chunks = [data[i:i + 7] for i in range(0, len(data), 7)]
    got = [f for c in chunks for f in dec.feed(c)]
    assert got == _reference_frames(data)
    if flips == 0:
        assert got == frames
