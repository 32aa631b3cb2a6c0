"""The one stoppable thread class."""

from __future__ import annotations

import threading

from hardware.timer import Ticker
from tests.hardware.conftest import AdvancingWait, FakeClock


def test_ticker_steps_until_stopped(clock: FakeClock, advancing: AdvancingWait) -> None:
    done = threading.Event()
    calls: list[float] = []

    def step() -> float | None:
        calls.append(clock())
        if len(calls) == 3:
            done.set()
            return None
        return 0.25

    ticker = Ticker("t", step, wait=advancing)
    ticker.start()
    ticker.start()  # idempotent
    assert done.wait(5)
    ticker.stop()
    assert not ticker.running
    assert [c - calls[0] for c in calls] == [0.0, 0.25, 0.5]
    assert advancing.calls[:2] == [0.25, 0.25]


def test_wake_runs_the_step_again() -> None:
    ran = threading.Semaphore(0)
    ticker = Ticker("t", lambda: (ran.release(), None)[1])
    with ticker:
        assert ran.acquire(timeout=5)
        ticker.wake()
        assert ran.acquire(timeout=5)
    assert not ticker.running


def test_a_failing_step_is_kept() -> None:
    def boom() -> float | None:
        raise RuntimeError("boom")

    ticker = Ticker("t", boom)
    ticker.start()
    assert ticker._thread is not None
    ticker._thread.join(5)
    assert isinstance(ticker.error, RuntimeError)
    ticker.stop()
    ticker.start()  # a stopped ticker does not restart
    assert not ticker.running
