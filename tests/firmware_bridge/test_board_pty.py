"""The host driver against a hand-scripted board over a real pseudo-terminal."""

from __future__ import annotations

import time

import pytest
from fb_ptyboard import ScriptedBoard

from firmware_bridge import BoardNotFound, Lift, Occupied, Place, SensorTimeout, open_sensor
from firmware_bridge.board import BoardSensor
from firmware_bridge.firmware import proto

FAST = {"open_timeout": 1.0}


def _open(board: ScriptedBoard) -> BoardSensor:
    sensor = open_sensor(f"serial://{board.path}", **FAST)
    assert isinstance(sensor, BoardSensor)
    return sensor


def test_handshake_gives_the_snapshot_first(scripted: ScriptedBoard) -> None:
    scripted.cells[0] = scripted.cells[63] = 1
    with _open(scripted) as sensor:
        ev = sensor.get(1.0)
        assert isinstance(ev, Occupied) and ev.squares == {"a1", "h8"}
        assert sensor.link.state == "connected"


def test_frames_written_one_byte_at_a_time(scripted: ScriptedBoard) -> None:
    scripted.chunk = 1
    with _open(scripted) as sensor:
        assert isinstance(sensor.get(1.0), Occupied)
        scripted.change(12, 1)  # e2
        scripted.change(12, 0)
        assert (ev := sensor.get(1.0)) is not None and ev == Place(ev.t_ms, "e2")
        assert (ev := sensor.get(1.0)) is not None and ev == Lift(ev.t_ms, "e2")


def test_garbage_between_frames_and_unknown_types(scripted: ScriptedBoard) -> None:
    with _open(scripted) as sensor:
        assert isinstance(sensor.get(1.0), Occupied)
        before = scripted.requests(proto.SNAPSHOT_REQUEST)
        scripted.write(b"\x13\x37\xff\xfe noise \x00\x00")
        # the garbage asks for a snapshot, answered before e4 changes: had the answer come
        # after, it would carry e4 itself (an Occupied, as a loaded machine once gave)
        assert scripted.wait_request(proto.SNAPSHOT_REQUEST, before + 1)
        scripted.send(0x42, b"a message from a newer firmware")
        scripted.change(28, 1)  # e4
        ev = sensor.get(1.0)
        assert isinstance(ev, Place) and ev.square == "e4"
        assert sensor.stats["unknown"] == 1
        assert sensor.stats["corrupt"] >= 1


def test_crc_error_loses_no_change(scripted: ScriptedBoard) -> None:
    with _open(scripted) as sensor:
        assert isinstance(sensor.get(1.0), Occupied)
        before = scripted.requests(proto.SNAPSHOT_REQUEST)
        scripted.cells[20] = 1  # e3 becomes occupied, but its CHANGES frame is damaged
        bad = bytearray(scripted.frame(proto.CHANGES, proto.encode_changes(0, [(0, 20, 1)])))
        bad[5] ^= 0x10
        scripted.write(bytes(bad))
        ev = sensor.get(1.0)
        assert isinstance(ev, Occupied) and ev.squares == {"e3"}
        # the board answers a request before counting it (ScriptedBoard._run): wait for it
        assert scripted.wait_request(proto.SNAPSHOT_REQUEST, before + 1)


def test_sequence_gap_triggers_resync(scripted: ScriptedBoard) -> None:
    with _open(scripted) as sensor:
        assert isinstance(sensor.get(1.0), Occupied)
        scripted.cells[5] = 1  # f1, whose frame is "lost" on the line
        scripted.frame(proto.CHANGES, b"")  # consume a sequence number, never sent
        scripted.send(proto.PONG, proto.encode_token(1))
        ev = sensor.get(1.0)
        assert isinstance(ev, Occupied) and ev.squares == {"f1"}
        assert sensor.stats["lost"] == 1


def test_board_that_sends_nothing_times_out_clearly() -> None:
    board = ScriptedBoard(answer=False)
    try:
        t0 = time.monotonic()
        with pytest.raises(SensorTimeout, match=r"serial:///dev/pts/\d+: no answer from the "
                                                r"board within 0.3 s"):
            open_sensor(f"serial://{board.path}", open_timeout=0.3)
        assert time.monotonic() - t0 < 3.0
        assert board.requests(proto.HELLO_REQUEST) >= 1
    finally:
        board.close()


def test_board_that_falls_silent_goes_reconnecting(scripted: ScriptedBoard) -> None:
    with open_sensor(f"serial://{scripted.path}", open_timeout=1.0, ping_interval=0.05,
                     dead_after=0.3) as sensor:
        assert isinstance(sensor.get(1.0), Occupied)
        scripted.answer = False
        ev = sensor.get(2.0)
        assert ev is not None and type(ev).__name__ == "LinkState"
        assert sensor.link.state == "reconnecting"
        assert "silent" in sensor.link.detail or "HELLO" in sensor.link.detail
        with pytest.raises(SensorTimeout, match="no sensor event within 0.2 s"):
            sensor.get(0.2)


def test_missing_device_is_board_not_found(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = f"serial://{tmp_path}/ttyNOPE"
    with pytest.raises(BoardNotFound, match=f"{url}: cannot open the board"):
        open_sensor(url)


def test_get_after_close_ends_the_stream(scripted: ScriptedBoard) -> None:
    sensor = _open(scripted)
    sensor.close()
    sensor.close()
    events = list(sensor.events(timeout=1.0))
    assert all(isinstance(e, Occupied) for e in events)
    assert sensor.link.state == "closed"


def test_leds_reach_the_board(scripted: ScriptedBoard) -> None:
    with _open(scripted) as sensor:
        sensor.send_leds({"a1": (1, 2, 3), "h8": (255, 255, 255)})
        assert scripted.wait_request(proto.LEDS)
        frames = [f for f in scripted.received if f.type == proto.LEDS]
        module, show, first, colours = proto.decode_leds(frames[-1].payload)
        assert (module, show, first) == (0, True, 0)
        assert colours[0] == (1, 2, 3) and colours[63] == (255, 255, 255)
        assert colours[1] == (0, 0, 0)
        with pytest.raises(ValueError):
            sensor.send_leds({"e4": (256, 0, 0)})
        with pytest.raises(ValueError, match="no LED under square 'hell:a1'"):
            sensor.send_leds({"hell:a1": (1, 0, 0)})
