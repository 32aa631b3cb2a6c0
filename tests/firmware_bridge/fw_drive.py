"""Drives the firmware core with scripted and seeded random inputs and prints everything it does.

Run by ``test_micropython_differential.py`` under MicroPython (Unix port) and under CPython,
with the firmware package importable as ``gkfw`` (the Pico's name): ``fw_drive.py SEED STEPS``.
Both must print the same lines, byte for byte: the CRCs, COBS blocks, frames, decoder counters,
protocol payloads and errors, and every byte the :class:`Firmware` writes, every LED frame it
latches and its final state. So this file itself sticks to what both interpreters share: its
own random generator (MicroPython's ``random`` differs), no ``repr`` of bytes, exceptions by
class name.
"""

import sys
from binascii import hexlify

from gkfw import cobs, crc16, framing, proto
from gkfw.logic import Debouncer, Firmware, MsClock


def reference_ticks_diff(a: int, b: int) -> int:
    """MicroPython's ``time.ticks_diff`` with the Pico's period (2**30 ms), for CPython."""
    period = 1 << 30
    return ((a - b + period // 2) & (period - 1)) - period // 2


if sys.implementation.name == "micropython":
    import time

    # The interpreter's own: the Unix port's ticks wrap at 2**62 on 64-bit, the Pico's at 2**30.
    TICKS_PERIOD = time.ticks_add(0, -1) + 1  # type: ignore[attr-defined]
    ticks_diff = time.ticks_diff  # type: ignore[attr-defined]
else:
    TICKS_PERIOD = 1 << 30
    ticks_diff = reference_ticks_diff


class Rng:
    """xorshift32: the same numbers under every interpreter."""

    def __init__(self, seed: int) -> None:
        self.s = (seed * 2654435761 + 12345) & 0xFFFFFFFF or 1

    def next(self) -> int:
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x

    def below(self, n: int) -> int:
        return self.next() % n

    def data(self, n: int, zeros: int = 8) -> bytes:
        """``n`` random bytes, about one in ``zeros`` of them 0x00 (COBS's interesting byte)."""
        return bytes(0 if self.below(zeros) == 0 else self.below(256) for _ in range(n))


def h(data: bytes | bytearray | None) -> str:
    return "None" if data is None else hexlify(bytes(data)).decode()


def out(*parts: object) -> None:
    print(" ".join(str(p) for p in parts))


def attempt(label: str, fn: object, *args: object) -> None:
    """Print ``fn(*args)`` (normalised) or the name of the exception it raised."""
    try:
        result = fn(*args)  # type: ignore[operator]
    except Exception as exc:  # noqa: BLE001 (the point is to compare what is raised)
        out(label, "raises", type(exc).__name__)
        return
    out(label, norm(result))


def norm(value: object) -> str:
    """A text form both interpreters agree on (bytes as hex, containers recursively)."""
    if isinstance(value, (bytes, bytearray)):
        return "x" + h(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(norm(v) for v in value) + "]"
    if isinstance(value, bool):
        return "T" if value else "F"
    return str(value)


def crc_and_cobs(rng: Rng) -> None:
    out("check", crc16.crc16(b"123456789"), crc16.crc16_slow(b"123456789"))
    sizes = [0, 1, 2, 253, 254, 255, 256, 507, 508, 509, 1000]
    for i in range(60):
        n = sizes[i] if i < len(sizes) else rng.below(600)
        zeros = 1000000 if i % 3 == 0 else 1 + rng.below(20)
        data = rng.data(n, zeros)
        enc = cobs.encode(data)
        out("crc", n, crc16.crc16(data), crc16.crc16_slow(data))
        out("cobs", h(enc), norm(cobs.decode(enc) == data), norm(b"\x00" in enc))
    for _ in range(60):
        out("garbage", h(cobs.decode(rng.data(rng.below(40), 2 + rng.below(40)))))


def frames(rng: Rng) -> None:
    stream = bytearray()
    for i in range(80):
        kind = rng.below(10)
        if kind < 6:
            payload = rng.data(rng.below(80) if i % 11 else rng.below(1021))
            wire = framing.encode_frame(rng.below(256), rng.below(256), payload)
            out("frame", h(wire))
            stream += wire
        elif kind < 8:
            stream += rng.data(rng.below(30), 5)  # line noise
        elif kind < 9:
            stream += bytes(1 + rng.below(255) for _ in range(1100 + rng.below(200)))  # overrun
        else:
            wire = bytearray(framing.encode_frame(1, 2, rng.data(10)))
            wire[3] ^= 0x40 if wire[3] != 0x40 else 0x41  # one bad byte: CRC or COBS fails
            stream += wire
    attempt("bad-type", framing.encode_frame, 256, 0, b"")
    attempt("bad-seq", framing.encode_frame, 0, -1, b"")
    attempt("too-long", framing.encode_frame, 0, 0, bytes(framing.MAX_PAYLOAD + 1))
    decoder = framing.FrameDecoder()
    i = 0
    while i < len(stream):
        n = 1 + rng.below(300)
        for f in decoder.feed(bytes(stream[i : i + n])):
            out("got", f.type, f.seq, h(f.payload))
        i += n
    out("decoder", decoder.frames, decoder.bad, decoder.overruns, decoder.dropped_bytes)
    out("gap", framing.seq_gap(250, 3), framing.seq_gap(7, 8), framing.seq_gap(7, 7))


def protocol(rng: Rng) -> None:
    mods = [("main", 0, 8, 8), ("hell", 0, 8, 8), ("ring", 1, 32, 1), ("x" * 40, 2, 5, 1)]
    hello = proto.encode_hello((1, 0), 3, 5, mods)
    out("hello", h(hello), norm(proto.decode_hello(hello)))
    for _ in range(12):
        cells = [[rng.below(2) for _ in range(rng.below(130))] for _ in range(1 + rng.below(4))]
        t = rng.next() * 7  # beyond 32 bits: the payload keeps the low 32
        snap = proto.encode_snapshot(t, rng.below(3), cells)
        out("snap", h(snap), norm(proto.decode_snapshot(snap) == (t & 0xFFFFFFFF, 0, cells)))
        changes = [(rng.below(4), rng.below(300), rng.below(3)) for _ in range(rng.below(40))]
        ch = proto.encode_changes(t, changes)
        out("changes", h(ch), norm(proto.decode_changes(ch)))
        leds = [(rng.below(256), rng.below(256), rng.below(256)) for _ in range(rng.below(70))]
        led = proto.encode_leds(rng.below(3), rng.below(2) == 1, rng.below(64), leds)
        out("leds", h(led), norm(proto.decode_leds(led)))
        cfg = proto.encode_config(1 + rng.below(9), rng.below(65536))
        out("config", h(cfg), norm(proto.decode_config(cfg)))
        out("token", h(proto.encode_token(t)), proto.decode_token(proto.encode_token(t)))
        out("tbyte", h(proto.encode_t_byte(t, rng.below(256))))
        out("bits", h(proto.pack_bits(cells[0])), norm(proto.unpack_bits(
            proto.pack_bits(cells[0]), len(cells[0])) == cells[0]))
    decoders = (proto.decode_hello, proto.decode_changes, proto.decode_snapshot,
                proto.decode_t_byte, proto.decode_token, proto.decode_leds, proto.decode_config)
    for _ in range(40):
        p = rng.data(rng.below(24), 4)
        for decode in decoders:
            attempt("decode", decode, p)


def host_bytes(rng: Rng) -> bytes:
    """What a host (or line noise) might send: every host message, good and bad payloads."""
    kind = rng.below(9)
    seq = rng.below(256)
    if kind == 0:
        return framing.encode_frame(proto.HELLO_REQUEST, seq)
    if kind == 1:
        return framing.encode_frame(proto.SNAPSHOT_REQUEST, seq)
    if kind == 2:
        return framing.encode_frame(proto.PING, seq, rng.data(rng.below(7)))
    if kind == 3:
        module = rng.below(4)
        first = rng.below(70)
        colours = [(rng.below(256), rng.below(256), rng.below(256)) for _ in range(rng.below(20))]
        return framing.encode_frame(proto.LEDS, seq, proto.encode_leds(
            module, rng.below(3) > 0, first, colours))
    if kind == 4:
        payload = proto.encode_config(rng.below(5), rng.below(3) * 100)
        return framing.encode_frame(proto.CONFIG, seq, payload[: 3 - rng.below(2) * rng.below(3)])
    if kind == 5:
        return framing.encode_frame(0x80 + rng.below(128), seq, rng.data(rng.below(10)))
    if kind == 6:
        return framing.encode_frame(proto.LEDS, seq, rng.data(rng.below(12)))
    return rng.data(rng.below(20), 3)


def firmware(rng: Rng, steps: int) -> None:
    modules = [("main", 0, 8, 8), ("ring", 1, 32, 1), ("tray", 2, 5, 1)]
    raw = [[rng.below(2) for _ in range(w * h)] for _n, _k, w, h in modules]
    clock = [1000]
    leds: list[str] = []

    def scan() -> list[list[int]]:
        return [list(cells) for cells in raw]

    def write(data: bytes) -> None:
        out("tx", clock[0], h(data))

    def show(module: int, colours: list[tuple[int, int, int]]) -> None:
        leds.append(str(module) + ":" + norm(colours))

    fw = Firmware(modules, scan=scan, write=write, clock_ms=lambda: clock[0], show_leds=show,
                  debounce_scans=1 + rng.below(3), snapshot_period_ms=150)
    fw.boot()
    for step in range(steps):
        clock[0] += rng.below(12)
        what = rng.below(20)
        if what < 8:  # a piece moves, sometimes with contact bounce
            m = rng.below(len(raw))
            c = rng.below(len(raw[m]))
            raw[m][c] ^= 1
            if rng.below(3) == 0:
                for _ in range(rng.below(4)):
                    fw.poll()
                    raw[m][c] ^= 1
        elif what < 12:
            host = host_bytes(rng)
            cut = rng.below(len(host) + 1)
            fw.receive(host[:cut])
            fw.receive(host[cut:])
        elif what == 12:
            fw.button(rng.below(5))
        elif what == 13:
            fw.die(1 + rng.below(6))
        changes = fw.poll()
        if changes:
            out("step", step, norm(changes))
        while leds:
            out("led", leds.pop(0))
    out("stable", norm(fw.debouncer.stable), norm(fw.debouncer.settling))
    out("state", fw.debouncer.scans, fw.snapshot_period_ms, fw.unknown, fw._seq,
        fw._decoder.frames, fw._decoder.bad, fw._decoder.overruns, fw._decoder.dropped_bytes)
    out("leds", norm(fw._leds))
    d = Debouncer([3], scans=2, initial=[[1, 0, 1]])
    out("debouncer", norm([d.update([[0, 0, 1]]), d.update([[0, 1, 1]]), d.update([[0, 1, 1]])]))


def clock(rng: Rng) -> None:
    """MsClock over ticks that wrap (started near the wrap), with the interpreter's
    ``ticks_diff``: a plain count of milliseconds, whatever the ticks do."""
    ticks = [TICKS_PERIOD - 1 - rng.below(5000)]

    def ticks_ms() -> int:
        return ticks[0]

    ms = MsClock(ticks_ms, ticks_diff)
    total = 0
    for _ in range(300):
        step = rng.below(100)
        ticks[0] = (ticks[0] + step) % TICKS_PERIOD
        total += step
        out("ms", ms(), norm(ms.ms == total))  # the ticks differ per port; the count may not


def main() -> None:
    seed = int(sys.argv[1])
    steps = int(sys.argv[2])
    rng = Rng(seed)
    crc_and_cobs(rng)
    frames(rng)
    protocol(rng)
    firmware(rng, steps)
    clock(rng)
    out("end", seed)


main()
