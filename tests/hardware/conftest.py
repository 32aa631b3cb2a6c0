"""Fixtures for the hardware tests: a fake clock, a self-advancing wait, gpiozero's mock pins."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest


class FakeClock:
    """A clock tests move by hand: ``clock()`` returns ``clock.t`` seconds."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.t

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.t += seconds


class AdvancingWait:
    """A ``Wait`` for tickers: a timed wait advances the fake clock instead of blocking, so a
    ticker thread runs through simulated time as fast as it can; untimed waits block until
    woken (by ``wake``/``stop``). ``calls`` records the requested timeouts."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.calls: list[float | None] = []

    def __call__(self, event: threading.Event, timeout: float | None) -> bool:
        self.calls.append(timeout)
        if timeout is None:
            return event.wait(5.0)
        self.clock.advance(timeout)
        return event.is_set()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def advancing(clock: FakeClock) -> AdvancingWait:
    return AdvancingWait(clock)


@pytest.fixture
def mock_factory() -> Iterator[object]:
    """gpiozero's MockFactory (with PWM-capable pins) as the default pin factory."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    saved = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved
