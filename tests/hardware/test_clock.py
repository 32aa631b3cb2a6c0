"""The chess clock: increment, simple and Bronstein delay, pauses with refunds, flag fall."""

from __future__ import annotations

import threading

import pytest

from hardware.clock import (
    LINK_LOST,
    ChessClock,
    ClockWatcher,
    DelayMode,
    FlagFell,
    TimeControl,
    display_step,
)
from hardware.display.screen import ClockFace
from referee.rules.pieces import BLACK, WHITE
from tests.hardware.conftest import AdvancingWait, FakeClock


def test_time_runs_for_the_side_to_move(clock: FakeClock) -> None:
    cc = ChessClock(TimeControl(300), clock=clock)
    cc.start()
    clock.advance(10)
    assert cc.remaining(WHITE) == 290 and cc.remaining(BLACK) == 300
    assert cc.press(WHITE)
    clock.advance(4)
    assert (cc.remaining(WHITE), cc.remaining(BLACK)) == (290, 296)
    assert not cc.press(WHITE)  # not White's time
    assert cc.face() == ClockFace(290, 296, running=BLACK)


def test_fischer_increment_after_each_move(clock: FakeClock) -> None:
    cc = ChessClock(TimeControl(180, increment=2), clock=clock)
    assert cc.remaining(WHITE) == 180  # no increment before the first move
    cc.start()
    clock.advance(5)
    cc.press(WHITE)
    assert cc.remaining(WHITE) == 177


def test_simple_delay_waits_before_counting(clock: FakeClock) -> None:
    cc = ChessClock(TimeControl(60, delay=3, delay_mode=DelayMode.SIMPLE), clock=clock)
    cc.start()
    clock.advance(2)
    assert cc.remaining(WHITE) == 60
    clock.advance(3)
    assert cc.remaining(WHITE) == 58
    cc.press(WHITE)
    assert cc.remaining(WHITE) == 58  # unused delay is not banked
    assert cc.time_to_flag() == pytest.approx(63)


def test_bronstein_delay_refunds_up_to_the_delay(clock: FakeClock) -> None:
    cc = ChessClock(TimeControl(60, delay=3, delay_mode=DelayMode.BRONSTEIN), clock=clock)
    cc.start()
    clock.advance(2)
    assert cc.remaining(WHITE) == 58  # counts at once
    cc.press(WHITE)
    assert cc.remaining(WHITE) == 60  # 2 s used, 2 s back
    clock.advance(10)
    cc.press(BLACK)
    assert cc.remaining(BLACK) == 53  # 10 s used, only 3 s back


def test_pause_is_not_charged_and_reasons_overlap(clock: FakeClock) -> None:
    cc = ChessClock(TimeControl(300), clock=clock)
    cc.start()
    clock.advance(10)
    cc.pause("illegal position")
    clock.advance(30)
    cc.pause("sensor link lost")
    cc.resume("illegal position")
    clock.advance(30)
    assert cc.paused == ("sensor link lost",) and cc.remaining(WHITE) == 290
    assert not cc.press(WHITE)  # no moves while paused
    assert cc.time_to_flag() is None
    cc.resume("sensor link lost")
    cc.resume("never paused")
    clock.advance(5)
    assert cc.remaining(WHITE) == 285 and cc.face().paused is False


def test_pause_since_refunds_the_silent_interval(clock: FakeClock) -> None:
    cc = ChessClock(TimeControl(300), clock=clock)
    cc.start()
    clock.advance(10)
    last_heard = clock.t
    clock.advance(4)  # the link died 4 s ago; the watchdog notices only now
    cc.pause("sensor link lost", since=last_heard)
    assert cc.remaining(WHITE) == 290
    cc.resume("sensor link lost")
    clock.advance(1)
    assert cc.remaining(WHITE) == 289


def test_refund_never_reaches_into_the_previous_move(clock: FakeClock) -> None:
    cc = ChessClock(TimeControl(300), clock=clock)
    cc.start()
    clock.advance(10)
    cc.press(WHITE)
    clock.advance(2)
    cc.pause("sensor link lost", since=clock.t - 60)
    assert cc.remaining(BLACK) == 300 and cc.remaining(WHITE) == 290


def test_flag_falls_once_and_stops_the_clock(clock: FakeClock) -> None:
    cc = ChessClock(TimeControl(60), clock=clock)
    cc.start()
    clock.advance(59.5)
    assert cc.poll() is None
    clock.advance(1)
    assert not cc.press(WHITE)  # too late: the flag is down
    event = cc.poll()
    assert event == FlagFell(WHITE, clock.t - 0.5)
    assert cc.poll() is None and cc.flagged == WHITE and cc.running is None
    assert cc.face().flagged == WHITE and cc.remaining(WHITE) == 0


def test_stop_freezes_both_times(clock: FakeClock) -> None:
    cc = ChessClock(TimeControl(60), TimeControl(120), clock=clock)
    cc.start(BLACK)
    clock.advance(20)
    cc.stop()
    clock.advance(100)
    assert (cc.remaining(WHITE), cc.remaining(BLACK)) == (60, 100)
    assert cc.poll() is None


def test_time_control_text() -> None:
    assert TimeControl.parse("5") == TimeControl(300)
    assert TimeControl.parse("3+2") == TimeControl(180, increment=2)
    assert TimeControl.parse("5d3") == TimeControl(300, delay=3)
    assert TimeControl.parse("90b30").delay_mode is DelayMode.BRONSTEIN
    with pytest.raises(ValueError):
        TimeControl.parse("blitz")
    with pytest.raises(ValueError):
        TimeControl(0)


def test_display_step() -> None:
    assert display_step(299.4) == pytest.approx(0.4)
    assert display_step(300.0) == 1.0
    assert display_step(12.34) == pytest.approx(0.04)


def test_watcher_reports_the_flag(clock: FakeClock, advancing: AdvancingWait) -> None:
    cc = ChessClock(TimeControl(30), clock=clock)
    flags: list[FlagFell] = []
    fell = threading.Event()
    faces: list[ClockFace] = []

    def on_flag(event: FlagFell) -> None:
        flags.append(event)
        fell.set()

    with ClockWatcher(cc, on_flag, faces.append, wait=advancing):
        cc.start()
        assert fell.wait(5)
    assert flags == [FlagFell(WHITE, flags[0].t)]
    assert cc.flagged == WHITE
    shown = [f.white for f in faces if f.running == WHITE]
    assert shown[0] == 30 and all(a >= b for a, b in zip(shown, shown[1:], strict=False))
    # It woke at each change of the shown time: whole seconds, then tenths under 20 s.
    assert any(t == pytest.approx(1.0) for t in advancing.calls if t)
    assert any(t == pytest.approx(0.1) for t in advancing.calls if t)


def test_link_state_pauses_and_refunds(clock: FakeClock) -> None:
    cc = ChessClock(TimeControl(300), clock=clock)
    cc.start()
    clock.advance(10)
    heard = clock.t
    clock.advance(3)
    cc.link_changed("reconnecting", last_heard=heard)
    assert cc.paused == (LINK_LOST,) and cc.remaining(WHITE) == 290
    clock.advance(20)
    cc.link_changed("connected")
    clock.advance(1)
    assert cc.paused == () and cc.remaining(WHITE) == 289


def test_restore_puts_the_times_back_within_a_move_and_keeps_pauses(clock: FakeClock) -> None:
    cc = ChessClock(TimeControl.parse("5b3"), clock=clock)
    cc.start()
    clock.advance(2)
    before = cc.snapshot()
    assert cc.press(WHITE) and cc.remaining(WHITE) == 300  # 2 s refunded
    clock.advance(7)
    cc.pause("arbiter")
    cc.restore(before)
    assert cc.running == WHITE and cc.paused == ("arbiter",)
    assert (cc.remaining(WHITE), cc.remaining(BLACK)) == (298, 300)
    clock.advance(50)  # paused: nothing charged
    cc.resume("arbiter")
    clock.advance(1)
    assert cc.press(WHITE) and cc.remaining(WHITE) == 300  # the move's 3 s refunded in all
    with pytest.raises(TypeError):
        cc.restore("yesterday")


def test_clear_flag_runs_the_flagged_side_again_with_what_it_has(clock: FakeClock) -> None:
    cc = ChessClock(TimeControl(10), clock=clock)
    assert cc.clear_flag() is None
    cc.start()
    clock.advance(11)
    flag = cc.poll()
    assert flag is not None and flag.colour == WHITE and cc.flagged == WHITE
    cc.add_time(WHITE, 5)
    assert cc.clear_flag() == WHITE and cc.flagged is None and cc.running == WHITE
    assert cc.remaining(WHITE) == 5
    clock.advance(6)
    assert cc.poll() is not None  # the flag falls again, and is reported again
