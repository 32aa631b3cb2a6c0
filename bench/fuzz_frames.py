"""Long fuzz run of the frame parser: 10^6 frames through FrameDecoder.

Random frames (random type, sequence and 0..64-byte payload) are encoded; a fraction is
mutated (bit flips, dropped or inserted bytes), garbage runs are inserted between frames, and
the stream is fed in random-sized chunks. Checks, for every frame the parser yields:

- the parser never raised;
- the frame is one of the blocks actually on the wire whose CRC-16 checks, found by an
  independent reading of the stream (split at the 00 delimiters, a COBS decoder written here,
  the bit-by-bit CRC): so the parser cannot deliver a frame the wire did not carry, whatever
  its fields (rebuilding a frame from the parser's own fields would always pass);
- it was sent intact, or its mutation left it intact (an extra 00 beside a delimiter), or it is
  a damaged block whose CRC happens to check (a collision, about once per 65,536);

and at the end: not one frame sent intact was lost, and every wire block whose CRC checks was
delivered. Exits 1 on any failure (a parser that delivers nothing fails).

    .venv/bin/python bench/fuzz_frames.py [--frames 1000000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from firmware_bridge.firmware.crc16 import crc16_slow
from firmware_bridge.firmware.framing import Frame, FrameDecoder, encode_frame

Key = tuple[int, int, bytes]


def _mutate(rng: random.Random, data: bytes) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        op, i = rng.randrange(3), rng.randrange(1, max(2, len(buf) - 1))
        if op == 0:
            buf[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            del buf[i]
        else:
            buf.insert(i, rng.randrange(256))
    return bytes(buf)


def _cobs_decode(block: bytes) -> bytes | None:
    """COBS decoding written independently of the firmware's, for the check."""
    out = bytearray()
    i = 0
    while i < len(block):
        code = block[i]
        if code == 0 or i + code > len(block) + (1 if code == 1 else 0):
            return None
        out += block[i + 1:i + code]
        i += code
        if code < 0xFF and i < len(block):
            out.append(0)
    return bytes(out)


def wire_frames(stream: bytes) -> Counter[Key]:
    """Every frame the wire carries with a checking CRC: the reference the parser must meet."""
    found: Counter[Key] = Counter()
    for block in stream.split(b"\x00"):
        raw = _cobs_decode(block) if block else None
        if raw is None or len(raw) < 4 or len(raw) - 4 > 64:
            continue
        if crc16_slow(raw[:-2]) == int.from_bytes(raw[-2:], "big"):
            found[(raw[0], raw[1], raw[2:-2])] += 1
    return found


class ParserError(Exception):
    """The parser did something it must not."""


def run(n: int, seed: int, batch: int = 2000) -> dict[str, int]:
    rng = random.Random(seed)
    dec = FrameDecoder()
    counts = {"sent": 0, "mutated": 0, "garbage_runs": 0, "delivered": 0, "lost_intact": 0,
              "harmless_mutations": 0, "collisions": 0, "missed_good_blocks": 0}
    while counts["sent"] < n:
        intact: list[Frame] = []
        damaged: set[tuple[int, int, bytes]] = set()
        parts: list[bytes] = []
        for _ in range(min(batch, n - counts["sent"])):
            f = Frame(rng.randrange(256), rng.randrange(256), rng.randbytes(rng.randrange(65)))
            wire = encode_frame(f.type, f.seq, f.payload)
            counts["sent"] += 1
            if rng.random() < 0.1:
                wire = _mutate(rng, wire)
                counts["mutated"] += 1
                damaged.add((f.type, f.seq, f.payload))
            else:
                intact.append(f)
            parts.append(wire)
            if rng.random() < 0.05:  # garbage after a frame: its closing 00 bounds the damage
                parts.append(rng.randbytes(rng.randrange(1, 40)).replace(b"\x00", b"\x01"))
                counts["garbage_runs"] += 1
        stream = b"".join(parts) + b"\x00"
        got: list[Frame] = []
        i = 0
        while i < len(stream):
            step = rng.randrange(1, 300)
            got += dec.feed(stream[i:i + step])
            i += step
        wanted = {(f.type, f.seq, f.payload) for f in intact}
        on_wire = wire_frames(stream)
        seen = set()
        for f in got:
            key = (f.type, f.seq, f.payload)
            if on_wire[key] <= 0:
                raise ParserError(f"parser yielded a frame the wire did not carry with a good CRC: "
                              f"{key!r}")
            on_wire[key] -= 1
            if key in wanted:
                seen.add(key)
                counts["delivered"] += 1
            elif key in damaged:
                counts["harmless_mutations"] += 1  # e.g. an extra 00 next to a delimiter
            else:
                counts["collisions"] += 1
        counts["lost_intact"] += len(wanted - seen)
        counts["missed_good_blocks"] += sum(on_wire.values())
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    t0 = time.perf_counter()
    try:
        counts = run(args.frames, args.seed)
    except ParserError as err:
        print(f"FAIL: {err}")
        return 1
    dt = time.perf_counter() - t0
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    print(f"{counts['sent'] / dt:,.0f} frames/s ({dt:.1f} s)")
    problems = []
    if counts["lost_intact"]:
        problems.append(f"{counts['lost_intact']} intact frames lost")
    if counts["missed_good_blocks"]:
        problems.append(f"{counts['missed_good_blocks']} wire blocks with a good CRC not delivered")
    if counts["delivered"] + counts["lost_intact"] == 0 or not counts["delivered"]:
        problems.append("nothing delivered")
    if problems:
        print("FAIL: " + "; ".join(problems))
        return 1
    print("ok: 0 frames lost; every delivered frame was on the wire with a good CRC")
    return 0


if __name__ == "__main__":
    sys.exit(main())
