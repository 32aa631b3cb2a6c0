"""The referee drives the chess clock: turns press it, a wrong board and a lost sensor link
pause it (with the paused time refunded), and a fallen flag ends the game."""

from __future__ import annotations

from firmware_bridge.events import Lift, LinkState, Place
from hardware.clock import ChessClock, TimeControl
from referee.live.session import Referee
from referee.rules.game import Game
from referee.rules.pieces import BLACK, WHITE
from referee.rules.records import GameRecord, record_of, replay
from tests.inference.harness import Recorder


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def setup(base: float = 60.0) -> tuple[Referee, ChessClock, FakeTime, Recorder]:
    time = FakeTime()
    clock = ChessClock(TimeControl(base=base, increment=2.0), clock=time)
    recorder = Recorder()
    referee = Referee(Game("standard"), [recorder], clock=clock)
    referee.start()
    return referee, clock, time, recorder


def test_moves_press_the_clock_with_increment() -> None:
    referee, clock, time, _ = setup()
    time.now = 10.0
    referee.feed(Lift(0, "e2"))
    referee.feed(Place(100, "e4"))
    referee.tick(1000)
    assert referee.game.action_texts() == ["e2e4"]
    assert clock.running == BLACK
    assert clock.remaining(WHITE) == 52.0  # 60 - 10 + 2


def test_illegal_position_pauses_and_refunds() -> None:
    referee, clock, time, recorder = setup()
    referee.feed(Lift(0, "g1"))
    referee.feed(Place(100, "g3"))  # not a knight move
    time.now = 5.0
    referee.tick(1000)
    assert recorder.texts("problem") and clock.paused
    time.now = 35.0  # thirty seconds of putting it right are not charged
    referee.feed(Lift(2000, "g3"))
    referee.feed(Place(2100, "f3"))
    referee.tick(3000)
    assert referee.game.action_texts() == ["g1f3"] and not clock.paused
    assert clock.remaining(WHITE) == 57.0  # 60 - 5 + 2


def test_lost_link_pauses() -> None:
    referee, clock, time, _ = setup()
    referee.feed(LinkState(0, "reconnecting"))
    assert clock.paused
    referee.feed(LinkState(10, "connected"))
    assert not clock.paused


def test_flag_fall_ends_the_game_and_the_record_keeps_it() -> None:
    referee, clock, time, recorder = setup(base=30.0)
    time.now = 31.0
    referee.tick(500)
    assert referee.game.outcome.result == "0-1"
    assert "flag fell" in referee.game.outcome.reason
    assert [u.kind for u in recorder.updates][-1] == "ended"
    loaded = replay(GameRecord.from_json(record_of(referee.game).to_json()))
    assert loaded.outcome == referee.game.outcome and loaded.action_texts() == []
