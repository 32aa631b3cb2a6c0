"""The referee's public API for the arbiter and the players off the board: take back, the board
is set, adjudicate, the clock (pause, resume, add time, a resumed game's side to move) and a
promotion piece chosen on a phone, each published as an update; the journal follows a take
back. Events are fed on the sensor's time base, as the pump does."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.events import Button, Lift, Place
from hardware.clock import ChessClock, TimeControl
from referee.live.journal import open_journal, read_journal
from referee.live.session import Referee
from referee.rules.errors import IllegalActionError
from referee.rules.game import Game
from referee.rules.pieces import BLACK, WHITE
from tests.inference.harness import Recorder


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def clocked(control: TimeControl) -> tuple[FakeTime, ChessClock, Recorder, Referee]:
    """A standard game's referee, started, driving a clock on a fake time, and its updates."""
    time = FakeTime()
    clock = ChessClock(control, clock=time)
    recorder = Recorder()
    referee = Referee(Game("standard"), [recorder], clock=clock)
    referee.start()
    return time, clock, recorder, referee


def move(referee: Referee, t: int, frm: str, to: str) -> None:
    referee.feed(Lift(t, frm))
    referee.feed(Place(t + 100, to))
    referee.tick(t + 600)


def test_take_back_rewinds_game_journal_clock_and_asks_for_the_board(tmp_path: Path) -> None:
    time = FakeTime()
    clock = ChessClock(TimeControl(60.0, increment=2.0), clock=time)
    journal, game = open_journal(tmp_path / "game.jsonl", Game("standard"))
    recorder = Recorder()
    referee = Referee(game, [recorder], clock=clock, journal=journal)
    referee.start()
    move(referee, 0, "e2", "e4")
    move(referee, 1000, "e7", "e5")
    assert clock.running == WHITE
    undone = referee.take_back()
    assert undone.text == "e7e5" and game.action_texts() == ["e2e4"]
    assert clock.running == BLACK  # Black is to move again, Black's time runs
    kinds = [u.kind for u in recorder.updates]
    assert kinds[-2:] == ["takeback", "correction"]
    correction = recorder.updates[-1].correction
    assert correction is not None
    name = game.variant.layout.name
    assert [name(s) for s in correction.to_empty] == ["e5"]
    assert [name(s) for s in correction.to_fill] == ["e7"]
    assert read_journal(tmp_path / "game.jsonl").action_texts() == ["e2e4"]
    # the pawn goes back: the board matches again, and play goes on
    referee.feed(Lift(3000, "e5"))
    referee.feed(Place(3100, "e7"))
    referee.tick(3600)
    move(referee, 4000, "d7", "d5")
    assert game.action_texts() == ["e2e4", "d7d5"]
    journal.close()
    assert read_journal(tmp_path / "game.jsonl").action_texts() == ["e2e4", "d7d5"]


def test_nothing_to_take_back() -> None:
    referee = Referee(Game("standard"))
    with pytest.raises(IllegalActionError):
        referee.take_back()


def test_take_back_of_an_adjudication_runs_the_clock_again() -> None:
    time, clock, recorder, referee = clocked(TimeControl(60.0))
    move(referee, 0, "e2", "e4")
    played = referee.adjudicate("1/2-1/2", "agreed")
    assert played.text == "agreed" and referee.game.outcome.result == "1/2-1/2"
    assert recorder.updates[-1].kind == "ended" and clock.running is None
    referee.take_back()
    assert referee.game.outcome.result == "*" and clock.running == BLACK
    time.now = 5.0
    assert clock.remaining(BLACK) == 55.0


def test_board_set_resumes_the_clock_and_judges_the_board_anew() -> None:
    time, clock, recorder, referee = clocked(TimeControl(60.0))
    referee.feed(Lift(0, "g1"))
    referee.feed(Place(100, "g3"))  # no knight move
    referee.tick(1000)
    assert clock.paused and recorder.updates[-1].kind == "problem"
    referee.board_set()
    assert not clock.paused
    assert [u.kind for u in recorder.updates][-2:] == ["good", "correction"]


def test_pause_resume_and_add_time_are_published() -> None:
    time, clock, recorder, referee = clocked(TimeControl(60.0))
    referee.pause("arbiter")
    time.now = 30.0
    assert clock.remaining(WHITE) == 60.0 and clock.paused == ("arbiter",)
    referee.resume("arbiter")
    referee.add_time(BLACK, 15)
    assert clock.remaining(BLACK) == 75.0
    assert [u.kind for u in recorder.updates] == ["paused", "resumed", "clock"]
    with pytest.raises(ValueError):
        Referee(Game("standard")).add_time(WHITE, 5)


def test_a_resumed_game_starts_the_clock_of_the_side_to_move_without_increment() -> None:
    game = Game("standard")
    game.play("e2e4")
    clock = ChessClock(TimeControl(60.0, increment=3.0), clock=FakeTime())
    Referee(game, clock=clock).start()
    assert clock.running == BLACK
    assert clock.remaining(WHITE) == 60.0 and clock.remaining(BLACK) == 60.0


PROMOTION = [("a2", "a4"), ("b7", "b5"), ("a4", "b5"), ("a7", "a6"), ("b5", "a6"),
             ("c8", "b7"), ("a6", "a7"), ("h7", "h6")]


def to_promotion(referee: Referee) -> None:
    t = 0
    for frm, to in PROMOTION:
        if to in ("b5", "a6") and frm in ("a4", "b5"):  # captures: the victim is lifted first
            referee.feed(Lift(t, to))
        move(referee, t + 20, frm, to)
        t += 1000
    referee.feed(Lift(t, "a7"))
    referee.feed(Lift(t + 10, "b8"))
    referee.feed(Place(t + 100, "b8"))
    referee.tick(t + 600)


def test_a_promotion_waits_for_the_choice_while_play_goes_on() -> None:
    recorder = Recorder()
    referee = Referee(Game("standard"), [recorder], promotion_default=False)
    to_promotion(referee)
    prompt = recorder.updates[-1]
    assert prompt.kind == "prompt" and prompt.options[0] == "Q" and prompt.default == ""
    # Black does not wait for White to choose: the referee does not take a queen for White
    move(referee, 20_000, "h6", "h5")
    referee.finish()
    assert referee.game.action_texts()[-1] == "h7h6"
    assert referee.promote("x") is False
    assert referee.promote("N") is True  # from White's phone
    assert referee.game.action_texts()[-2:] == ["a7b8n", "h6h5"]
    assert referee.promote("q") is False  # nothing waits any more


def test_a_promotion_by_buttons_still_works_while_waiting() -> None:
    referee = Referee(Game("standard"), promotion_default=False)
    to_promotion(referee)
    referee.feed(Button(9000, "back"))
    referee.feed(Button(9100, "confirm"))
    assert referee.game.action_texts()[-1] == "a7b8r"


def test_with_nobody_to_choose_the_prompt_names_the_default() -> None:
    recorder = Recorder()
    referee = Referee(Game("standard"), [recorder])
    to_promotion(referee)
    prompt = recorder.updates[-1]
    assert prompt.default == "Q" and "nobody can choose" in prompt.text
    move(referee, 20_000, "h6", "h5")
    assert referee.game.action_texts()[-2:] == ["a7b8q", "h6h5"]


def test_the_hubs_arbiter_commands_run_on_the_referee() -> None:
    """watch/run --hub: the hub's arbiter commands use the same public API as serve's page."""
    from referee.app.hub.link import arbiter_op, run_on_referee, status_of

    time, clock, recorder, referee = clocked(TimeControl(60.0))
    move(referee, 0, "e2", "e4")

    def hub(**message: object) -> bool:
        body = arbiter_op(message)
        return body is not None and run_on_referee(referee, body)

    assert hub(command="takeback") and referee.game.action_texts() == []
    assert not hub(command="takeback")  # nothing left
    assert hub(command="pause") and clock.paused == ("arbiter",)
    assert status_of("action", paused=True) == "paused"
    assert hub(command="resume") and not clock.paused
    assert hub(command="add_time", side="black", seconds=30) and clock.remaining(BLACK) == 90
    assert not hub(command="add_time", side="blue", seconds=30)
    assert hub(command="confirm_board") and recorder.updates[-1].kind in ("good", "correction")
    assert not hub(command="adjudicate", result="2-0") and not hub(command="explode")
    assert hub(command="adjudicate", result="0-1") and referee.game.outcome.result == "0-1"


@pytest.mark.parametrize(("control", "used", "white_after_move", "black_back", "white_back",
                          "white_later"), [
    ("5+3", 10.0, 293.0, 295.0, 290.0, 288.0),  # the 3 s increment goes back with the move
    ("5b3", 2.0, 300.0, 295.0, 298.0, 296.0),   # the Bronstein refund goes back with the move
    ("5d3", 2.0, 300.0, 298.0, 300.0, 299.0),   # 1 s of the delay is left, not a new 3 s
])
def test_a_take_back_puts_both_clocks_back_as_they_were_before_the_action(
        control: str, used: float, white_after_move: float, black_back: float,
        white_back: float, white_later: float) -> None:
    time, clock, _, referee = clocked(TimeControl.parse(control))
    time.now = used
    move(referee, 0, "e2", "e4")
    assert clock.remaining(WHITE) == white_after_move and clock.running == BLACK
    time.now = used + 5.0  # Black thinks 5 s and moves
    move(referee, 1000, "e7", "e5")
    assert clock.running == WHITE
    time.now = used + 9.0
    referee.take_back()  # Black's move: Black's clock as it stood, 5 s used, runs again
    assert clock.running == BLACK and clock.remaining(WHITE) == white_after_move
    assert clock.remaining(BLACK) == black_back
    referee.take_back()  # White's move: both times from before it, White's runs
    assert clock.running == WHITE
    assert clock.remaining(WHITE) == white_back and clock.remaining(BLACK) == 300.0
    time.now += 2.0
    assert clock.remaining(WHITE) == white_later and clock.remaining(BLACK) == 300.0


def test_a_flag_fall_taken_back_lifts_the_flag_and_waits_for_the_arbiters_time() -> None:
    time, clock, recorder, referee = clocked(TimeControl(60.0))
    time.now = 61.0
    referee.tick(500)
    assert referee.game.outcome.result == "0-1" and clock.flagged == WHITE
    referee.add_time(WHITE, 10)  # the arbiter may add time before or after the take-back
    referee.take_back()
    assert referee.game.outcome.result == "*" and referee.game.played == []
    assert clock.flagged is None and clock.running == WHITE
    assert clock.paused == ("arbiter",) and clock.remaining(WHITE) == 10.0
    assert [u.kind for u in recorder.updates][-2:] == ["takeback", "paused"]
    referee.add_time(WHITE, 20)
    referee.resume()
    time.now = 71.0
    referee.tick(700)
    assert referee.game.outcome.result == "*" and clock.remaining(WHITE) == 20.0
    move(referee, 1000, "e2", "e4")  # play goes on
    assert referee.game.action_texts() == ["e2e4"] and clock.running == BLACK
    time.now = 132.0  # Black's 60 s from 71 s on are used up: Black's flag falls
    referee.tick(2000)
    assert referee.game.outcome.result == "1-0" and clock.flagged == BLACK


def test_a_move_made_during_the_arbiters_pause_runs_the_right_clock_after_it() -> None:
    time, clock, _, referee = clocked(TimeControl(60.0, increment=2.0))
    time.now = 5.0
    referee.pause()
    move(referee, 0, "e2", "e4")  # played while time stands still
    assert clock.running == WHITE and clock.remaining(WHITE) == 55.0
    time.now = 30.0
    referee.resume()
    assert clock.running == BLACK  # the owed press: Black is to move, Black's time runs
    time.now = 40.0
    assert clock.remaining(WHITE) == 57.0  # 5 s used before the pause, the 2 s increment
    assert clock.remaining(BLACK) == 50.0
