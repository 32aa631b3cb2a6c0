"""DGT protocol: the parser, and the sensor against the DGT emulator over a pty."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from firmware_bridge import (
    BadSensorUrl,
    Lift,
    LinkState,
    Occupied,
    Place,
    SensorEvent,
    SensorTimeout,
    open_sensor,
)
from firmware_bridge.dgt import (
    MSG_BOARD_DUMP,
    MSG_FIELD_UPDATE,
    DgtParser,
    DgtSensor,
    encode_message,
)
from firmware_bridge.dgt_sim import START, DgtSimSensor, square_to_field
from firmware_bridge.rig import parse_rig


def test_message_encoding_matches_the_spec() -> None:
    assert encode_message(MSG_FIELD_UPDATE, bytes((36, 6))) == bytes((0x8E, 0x00, 0x05, 36, 6))
    dump = encode_message(MSG_BOARD_DUMP, bytes(64))
    assert dump[:3] == bytes((0x86, 0x00, 0x43)) and len(dump) == 67
    long = encode_message(0x8F, bytes(200))
    assert long[1:3] == bytes((203 >> 7, 203 & 0x7F))


def test_parser_split_everywhere_and_resync_on_top_bit() -> None:
    stream = (b"\x01\x02" + encode_message(0x8E, bytes((12, 0)))
              + bytes((0x86, 0x00)) + encode_message(0x93, bytes((1, 6))))
    for cut in range(len(stream) + 1):
        p = DgtParser()
        got = p.feed(stream[:cut]) + p.feed(stream[cut:])
        assert got == [(0x8E, bytes((12, 0))), (0x93, bytes((1, 6)))], cut
        assert p.dropped == 4


def test_parser_rejects_bad_lengths() -> None:
    p = DgtParser()
    assert p.feed(bytes((0x8E, 0x00, 0x02, 0x01))) == []
    assert p.feed(encode_message(0x8E, bytes((1, 2)))) == [(0x8E, bytes((1, 2)))]


def test_square_numbering() -> None:
    assert square_to_field("a8") == 0 and square_to_field("h1") == 63
    assert square_to_field("e4") == 36


@pytest.fixture
def board() -> Iterator[DgtSimSensor]:
    sensor = open_sensor("dgt://sim", open_timeout=2.0, settle=0.1)
    assert isinstance(sensor, DgtSimSensor)
    yield sensor
    sensor.close()


def _until(sensor: DgtSensor, n: int) -> list[SensorEvent]:
    return [e for e in (sensor.get(1.0) for _ in range(n)) if e is not None]


def test_start_position_and_a_move_with_identity(board: DgtSimSensor) -> None:
    first = board.get(1.0)
    assert isinstance(first, Occupied) and first.squares == frozenset(START)
    # the board knows its pieces: the snapshot says each one's colour
    assert dict(first.colours) == {sq: "w" if sq[1] in "12" else "b" for sq in START}
    # The driver writes its four commands at once; the simulator answers the board dump
    # (0x42) before it takes the next byte, so the snapshot may arrive before 0x44 is seen
    # (one fresh-clone run in many: [64, 77, 66]).
    deadline = time.monotonic() + 2.0
    while len(board.simulator.commands) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert board.simulator.commands[:4] == [0x40, 0x4D, 0x42, 0x44]
    board.simulator.move("g1", "f3")
    lift, place = _until(board, 2)
    assert isinstance(lift, Lift) and lift.square == "g1"
    assert isinstance(place, Place) and (place.square, place.piece) == ("f3", "N")
    assert board.version == (1, 6)


def test_out_of_order_scan_and_unreported_capture(board: DgtSimSensor) -> None:
    board.get(1.0)
    sim = board.simulator
    sim.lift("d2")
    sim.lift("d7")
    sim.place("d5", "p")
    _until(board, 3)
    # Queen d1 takes on d5, reported as a scan sees a slide: d2, d3, d4 light up and go out,
    # and the pawn's removal from d5 is never reported.
    sim.move("d1", "d5", path=["d2", "d3", "d4"], scrambled=True)
    events = _until(board, 9)
    board_state: dict[str, str | None] = dict(START)
    del board_state["d2"], board_state["d7"]
    board_state["d5"] = "p"
    for ev in events:  # every event is consistent with the board so far
        if isinstance(ev, Lift):
            assert ev.square in board_state
            del board_state[ev.square]
        elif isinstance(ev, Place):
            assert ev.square not in board_state
            board_state[ev.square] = ev.piece
    assert events[-2:] == [Lift(events[-2].t_ms, "d5"), Place(events[-1].t_ms, "d5", "Q")]
    assert {"d1", "d2", "d3", "d4", "d7"}.isdisjoint(board_state)


def test_lost_update_is_recovered_by_the_settle_dump(board: DgtSimSensor) -> None:
    board.get(1.0)
    board.simulator.drop_updates(1)
    board.simulator.move("e2", "e4")  # the "e2 empty" update is lost
    got = _until(board, 2)
    assert {(type(e).__name__, getattr(e, "square", "")) for e in got} == {
        ("Place", "e4"), ("Lift", "e2")}
    with pytest.raises(SensorTimeout):
        board.get(0.3)  # nothing else: the board and the events agree


def test_noise_and_cable_pull(board: DgtSimSensor) -> None:
    board.get(1.0)
    sim = board.simulator
    sim.inject_noise(b"\x01\x7f\x00\x33")
    sim.move("b1", "c3")
    assert len(_until(board, 2)) == 2
    sim.unplug()
    ev = board.get(2.0)
    assert isinstance(ev, LinkState) and ev.state == "reconnecting"
    sim.lift("a2")
    sim.replug()
    snap = board.get(3.0)
    assert isinstance(snap, Occupied)
    assert snap.squares == (frozenset(START) - {"b1", "a2"}) | {"c3"}
    assert isinstance(board.get(1.0), LinkState)


def test_reversed_board_via_rig() -> None:
    rig = parse_rig('[[module]]\nname = "main"\nrotation = 180\n')
    with open_sensor("dgt://sim?start=empty", rig=rig, open_timeout=2.0) as sensor:
        assert isinstance(sensor, DgtSimSensor)
        first = sensor.get(1.0)
        assert isinstance(first, Occupied) and first.squares == frozenset()
        sensor.simulator.place("a1", "K")  # physically a1 of the board = h8 of the game
        ev = sensor.get(1.0)
        assert isinstance(ev, Place) and (ev.square, ev.piece) == ("h8", "K")


def test_dgt_url_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadSensorUrl, match="no device"):
        open_sensor("dgt://")
    with pytest.raises(BadSensorUrl, match="unknown option 'colour'"):
        open_sensor("dgt://sim?colour=1")
    with pytest.raises(FileNotFoundError, match="cannot open the board"):
        open_sensor(f"dgt://{tmp_path}/ttyNONE")


def test_a_capture_made_while_the_cable_was_out_is_told_by_the_colours() -> None:
    """1. e4 d5 2. a3 f5, then the cable is pulled and the e-pawn takes on d5 (or on f5: the
    squares occupied are the same either way). The board sends each piece's colour with its
    snapshot when plugged back, so the referee plays exd5, the capture the colours show."""
    import time

    from referee.app.runner import SessionSettings, open_session
    from referee.live.session import Update
    from referee.rules.game import Game

    game = Game("standard")
    updates: list[Update] = []
    with open_session("dgt://sim", game, SessionSettings(hardware=False),
                      subscribers=[updates.append],
                      sensor_options={"open_timeout": 2.0, "settle": 0.1}) as session:
        sensor = session.sensor
        assert isinstance(sensor, DgtSimSensor)
        sim = sensor.simulator
        session.referee.start()

        def pump_until(done: Callable[[], bool], limit: float = 10.0) -> None:
            end = time.monotonic() + limit
            while not done() and time.monotonic() < end:
                session.pump.step()

        for ply, (src, dst) in enumerate((("e2", "e4"), ("d7", "d5"), ("a2", "a3"),
                                          ("f7", "f5"))):
            sim.move(src, dst)
            pump_until(lambda n=ply: len(game.played) > n)
        assert game.action_texts() == ["e2e4", "d7d5", "a2a3", "f7f5"]
        sim.unplug()
        pump_until(lambda: any(u.kind == "link" for u in updates))
        sim.lift("d5")
        sim.lift("e4")
        sim.place("d5", "P")
        sim.replug()
        pump_until(lambda: len(game.played) > 4)
        assert game.action_texts()[4:] == ["e4d5"], [u.text for u in updates[-6:]]
