"""Payload codecs shared by host and firmware, and the host's typed messages."""

from __future__ import annotations

import pytest

from firmware_bridge.errors import FrameError
from firmware_bridge.firmware import proto
from firmware_bridge.firmware.framing import Frame
from firmware_bridge.messages import (
    ButtonPressed,
    Changes,
    DieRead,
    Hello,
    ModuleInfo,
    Pong,
    Snapshot,
    decode_message,
)


def test_hello_bytes_and_round_trip() -> None:
    modules = [("main", 0, 8, 8), ("ring", 1, 32, 1)]
    payload = proto.encode_hello((1, 0), proto.FLAG_LEDS, 5, modules)
    # version 1, fw 1.0, flags, 5 buttons, 2 modules, then kind/width/height/len/name
    assert payload == (bytes([1, 1, 0, 1, 5, 2, 0, 8, 8, 4]) + b"main"
                       + bytes([1, 32, 1, 4]) + b"ring")
    msg = decode_message(Frame(proto.HELLO, 0, payload))
    assert msg == Hello(1, (1, 0), 1, 5, tuple(ModuleInfo(*m) for m in modules))
    assert isinstance(msg, Hello) and msg.has_leds and msg.modules[1].size == 32


def test_changes_bytes() -> None:
    payload = proto.encode_changes(0x01020304, [(0, 12, 1), (1, 300, 0)])
    assert payload == bytes([1, 2, 3, 4, 2, 0, 0, 12, 1, 1, 1, 44, 0])
    assert decode_message(Frame(proto.CHANGES, 0, payload)) == Changes(
        0x01020304, ((0, 12, True), (1, 300, False)))


def test_snapshot_bits_lsb_first() -> None:
    cells = [1, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    payload = proto.encode_snapshot(7, proto.REASON_REQUESTED, [cells])
    assert payload == bytes([0, 0, 0, 7, 1, 1, 0, 10, 0x01, 0x02])
    msg = decode_message(Frame(proto.SNAPSHOT, 0, payload))
    assert isinstance(msg, Snapshot) and msg.modules[0] == tuple(bool(c) for c in cells)


def test_small_messages() -> None:
    assert decode_message(Frame(proto.BUTTON, 0, proto.encode_t_byte(9, 2))) == ButtonPressed(9, 2)
    assert decode_message(Frame(proto.DIE, 0, proto.encode_t_byte(9, 6))) == DieRead(9, 6)
    assert decode_message(Frame(proto.PONG, 0, proto.encode_token(77))) == Pong(77)


def test_leds_and_config_round_trip() -> None:
    p = proto.encode_leds(1, True, 3, [(1, 2, 3), (255, 0, 9)])
    assert proto.decode_leds(p) == (1, True, 3, [(1, 2, 3), (255, 0, 9)])
    assert proto.decode_config(proto.encode_config(4, 1500)) == (4, 1500)
    with pytest.raises(ValueError):
        proto.decode_config(proto.encode_config(0, 10))
    with pytest.raises(ValueError):
        proto.decode_leds(p[:-1])


def test_unknown_type_is_none_and_bad_payload_is_frame_error() -> None:
    assert decode_message(Frame(0x55, 0, b"whatever")) is None
    for t, payload in [(proto.HELLO, b"\x01"), (proto.CHANGES, b"\x00\x00\x00\x00\x02\x00"),
                       (proto.SNAPSHOT, b"\x00\x00\x00\x00\x00\x01\x00\x40"),
                       (proto.CHANGES, proto.encode_changes(0, [(0, 1, 1)])[:-1] + b"\x05"),
                       (proto.PONG, b"\x00")]:
        with pytest.raises(FrameError, match="bad payload"):
            decode_message(Frame(t, 0, payload))
