"""loop://: the driver over pyserial's loopback, fed board bytes by the test."""

from __future__ import annotations

import pytest

from firmware_bridge import BadSensorUrl, Lift, Occupied, Place, UnknownScheme, open_sensor
from firmware_bridge.board import LoopbackSensor
from firmware_bridge.factory import parse_url
from firmware_bridge.firmware import proto
from firmware_bridge.firmware.framing import encode_frame


def test_loop_protocol_split_at_every_boundary() -> None:
    hello = encode_frame(proto.HELLO, 0, proto.encode_hello((1, 0), 0, 0, [("main", 0, 8, 8)]))
    snap = encode_frame(proto.SNAPSHOT, 1, proto.encode_snapshot(0, 1, [[1] + [0] * 63]))
    change = encode_frame(proto.CHANGES, 2, proto.encode_changes(0, [(0, 0, 0), (0, 9, 1)]))
    stream = hello + b"\x99junk" + snap + change
    for cut in range(0, len(stream) + 1, 3):
        with open_sensor("loop://") as sensor:
            assert isinstance(sensor, LoopbackSensor)
            sensor.feed_as_board(stream[:cut])
            sensor.feed_as_board(stream[cut:])
            got = [sensor.get(10.0) for _ in range(3)]  # a hang guard, not a timing
            assert [type(e) for e in got] == [Occupied, Lift, Place], cut
            assert isinstance(got[0], Occupied) and got[0].squares == {"a1"}
            assert isinstance(got[2], Place) and got[2].square == "b2"
            assert sensor.stats["echo"] >= 1  # our own requests came back and were ignored


def test_url_errors() -> None:
    with pytest.raises(UnknownScheme, match="unknown sensor scheme 'ftp'"):
        parse_url("ftp://x")
    with pytest.raises(BadSensorUrl):
        parse_url("/dev/ttyACM0")
    with pytest.raises(BadSensorUrl, match="no device path"):
        open_sensor("serial://")
    with pytest.raises(BadSensorUrl, match="unknown option 'bogus'"):
        open_sensor("loop://", bogus=1)
    assert parse_url("sim://?variant=ghost&start=a0").options == {"variant": "ghost",
                                                                 "start": "a0"}
