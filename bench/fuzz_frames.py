"""Long fuzz run of the frame parser: 10^6 frames through FrameDecoder.

Random frames (random type, sequence and 0..64-byte payload) are encoded; a fraction is
mutated (bit flips, dropped or inserted bytes), garbage runs are inserted between frames, and
the stream is fed in random-sized chunks. Checks, for every frame the parser yields:

- the parser never raised;
- each yielded frame is one that was sent intact, or one whose mutation left it intact (an
  extra 00 beside a delimiter), or a damaged block whose CRC-16 happens to check (a CRC
  collision, expected about once per 65,536 damaged frames); every one has its CRC re-verified
  with the independent table implementation;
- every frame sent intact and not touched by garbage was delivered.

    .venv/bin/python bench/fuzz_frames.py [--frames 1000000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

from firmware_bridge.firmware import cobs
from firmware_bridge.firmware.crc16 import crc16_slow
from firmware_bridge.firmware.framing import Frame, FrameDecoder, encode_frame


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


def _crc_checks(frame: Frame) -> bool:
    """Re-derive the frame's wire block and verify its CRC with the table implementation."""
    block = encode_frame(frame.type, frame.seq, frame.payload)[1:-1]
    raw = cobs.decode(block)
    return raw is not None and crc16_slow(raw[:-2]) == int.from_bytes(raw[-2:], "big")


def run(n: int, seed: int, batch: int = 2000) -> dict[str, int]:
    rng = random.Random(seed)
    dec = FrameDecoder()
    counts = {"sent": 0, "mutated": 0, "garbage_runs": 0, "delivered": 0, "lost_intact": 0,
              "harmless_mutations": 0, "collisions": 0}
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
        seen = set()
        for f in got:
            key = (f.type, f.seq, f.payload)
            if key in wanted:
                seen.add(key)
                counts["delivered"] += 1
            elif not _crc_checks(f):
                raise SystemExit(f"parser yielded a frame whose CRC does not check: {f!r}")
            elif key in damaged:
                counts["harmless_mutations"] += 1  # e.g. an extra 00 next to a delimiter
            else:
                counts["collisions"] += 1
        counts["lost_intact"] += len(wanted - seen)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    t0 = time.perf_counter()
    counts = run(args.frames, args.seed)
    dt = time.perf_counter() - t0
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    print(f"{counts['sent'] / dt:,.0f} frames/s ({dt:.1f} s); parser never raised; every "
          f"yielded frame's CRC checks")


if __name__ == "__main__":
    main()
