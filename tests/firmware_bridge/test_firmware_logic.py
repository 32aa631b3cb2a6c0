"""The reference firmware's plain-Python logic, run under CPython with fakes."""

from __future__ import annotations

from firmware_bridge.firmware import proto
from firmware_bridge.firmware.framing import Frame, FrameDecoder, encode_frame
from firmware_bridge.firmware.logic import Debouncer, Firmware


def test_debounce_needs_n_consistent_scans() -> None:
    d = Debouncer([4], scans=3)
    assert d.update([[1, 0, 0, 0]]) == []
    assert d.update([[1, 0, 0, 0]]) == []
    assert d.settling
    assert d.update([[1, 0, 0, 0]]) == [(0, 0, 1)]
    assert not d.settling
    assert d.stable == [[1, 0, 0, 0]]


def test_bounce_shorter_than_n_is_invisible() -> None:
    d = Debouncer([1], scans=3)
    for raw in [1, 0, 1, 1, 0, 1, 0, 0]:
        assert d.update([[raw]]) == []
    assert d.stable == [[0]]
    assert not d.settling


def test_debounce_n_is_configurable() -> None:
    d1 = Debouncer([1], scans=1)
    assert d1.update([[1]]) == [(0, 0, 1)]


class Rig:
    """A fake board: raw switches, a clock, and a capture of the bytes sent."""

    def __init__(self) -> None:
        self.raw = [[0] * 4, [0] * 2]
        self.now = 1000
        self.out = FrameDecoder()
        self.frames: list[Frame] = []
        self.leds: dict[int, list[tuple[int, int, int]]] = {}
        self.fw = Firmware([("main", proto.KIND_GRID, 2, 2), ("limbo", proto.KIND_STRIP, 2, 1)],
                           scan=lambda: [list(c) for c in self.raw], write=self._write,
                           clock_ms=lambda: self.now, show_leds=self._show,
                           debounce_scans=2, snapshot_period_ms=500)

    def _write(self, data: bytes) -> None:
        self.frames += self.out.feed(data)

    def _show(self, module: int, colours: list[tuple[int, int, int]]) -> None:
        self.leds[module] = colours

    def types(self) -> list[int]:
        return [f.type for f in self.frames]

    def host(self, msg_type: int, payload: bytes = b"", seq: int = 0) -> None:
        self.fw.receive(encode_frame(msg_type, seq, payload))


def test_boot_sends_hello_then_snapshot_with_sequence_numbers() -> None:
    r = Rig()
    r.raw[0][3] = 1
    r.fw = Firmware([("main", 0, 2, 2)], scan=lambda: [list(r.raw[0])], write=r._write,
                    clock_ms=lambda: r.now)
    r.fw.boot()
    assert r.types() == [proto.HELLO, proto.SNAPSHOT]
    assert [f.seq for f in r.frames] == [0, 1]
    _, _, modules = proto.decode_snapshot(r.frames[1].payload)
    assert modules == [[0, 0, 0, 1]]
    assert r.fw.flags == proto.FLAG_DIE  # no LED callback: no LED flag


def test_changes_after_debounce_and_periodic_snapshot() -> None:
    r = Rig()
    r.raw[1][1] = 1
    assert r.fw.poll() == []
    assert r.fw.poll() == [(1, 1, 1)]
    assert r.types() == [proto.CHANGES]
    assert proto.decode_changes(r.frames[0].payload) == (1000, [(1, 1, 1)])
    r.now += 500
    r.fw.poll()
    assert r.types()[-1] == proto.SNAPSHOT
    assert proto.decode_snapshot(r.frames[-1].payload)[1] == proto.REASON_PERIODIC


def test_host_commands() -> None:
    r = Rig()
    r.host(proto.HELLO_REQUEST)
    r.host(proto.SNAPSHOT_REQUEST)
    r.host(proto.PING, proto.encode_token(0xDEADBEEF))
    assert r.types() == [proto.HELLO, proto.SNAPSHOT, proto.PONG]
    assert proto.decode_token(r.frames[2].payload) == 0xDEADBEEF
    r.host(proto.LEDS, proto.encode_leds(0, False, 1, [(9, 8, 7)]))
    assert r.leds == {}  # not latched yet
    r.host(proto.LEDS, proto.encode_leds(1, True, 0, [(1, 1, 1), (0, 0, 0)]))
    assert r.leds[0] == [(0, 0, 0), (9, 8, 7), (0, 0, 0), (0, 0, 0)]
    assert r.leds[1] == [(1, 1, 1), (0, 0, 0)]
    r.host(proto.CONFIG, proto.encode_config(5, 0))
    assert r.fw.debouncer.scans == 5 and r.fw.snapshot_period_ms == 0


def test_unknown_and_malformed_host_frames_are_skipped() -> None:
    r = Rig()
    r.host(0xF0, b"future")
    r.fw.receive(b"\x13\x37garbage\x00")
    assert r.types() == [] and r.fw.unknown == 1
    r.host(proto.LEDS, proto.encode_leds(0, True, 3, [(1, 1, 1), (2, 2, 2)]))  # past the end
    assert r.types() == [proto.LOG]
    r.host(proto.HELLO_REQUEST)
    assert r.types()[-1] == proto.HELLO


def test_buttons_and_die() -> None:
    r = Rig()
    r.fw.button(2)
    r.fw.die(4)
    assert [proto.decode_t_byte(f.payload) for f in r.frames] == [(1000, 2), (1000, 4)]
    assert r.types() == [proto.BUTTON, proto.DIE]
