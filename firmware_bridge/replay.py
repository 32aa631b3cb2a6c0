"""``replay://PATH``: play an EVENTS.md file back as a sensor, with its timing.

``replay://game.events`` (relative) or ``replay:///abs/game.events``. Options, as URL query or
:func:`~firmware_bridge.open_sensor` keywords: ``speed`` (1 = real time, the default; 2 = twice
as fast; 0 = as fast as possible, which tests and ``gravekeeper watch`` on files use).

Each event keeps the ``t_ms`` written in the file. The whole file is parsed in ``open()``, so
a bad line fails before the first event is delivered.

Why the live time (:meth:`ReplaySensor.live_ms`) never passes the next event not yet played:
a consumer judges a board still once no event came for a settle time, on this time base. A
player thread held up by a busy machine (the full test suite on two cores with a bench
beside it) plays an event late in wall time, and the time base ran on without it:
``watch --realtime`` on a Ghost file whose capture lifts two pieces 50 ms apart printed an
"unknown position" problem the file never shows (once; the same test passes alone). The
file's time is the events' time: it does not run ahead of them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from firmware_bridge.errors import BridgeError
from firmware_bridge.events import SensorEvent, read_event_file
from firmware_bridge.sensor import Clock, Sensor, StoppableThread


class ReplaySensor(Sensor):
    """Plays back the events of an EVENTS.md file at ``speed`` times real time (0 = no waits).

    ``wait(seconds) -> bool`` is how the player sleeps (default: the stop Event's ``wait``, so
    ``close()`` interrupts it; it returns True when stopped); inject it with ``clock`` to test
    timing without real waiting.
    """

    def __init__(self, url: str, path: str | Path, *, speed: float = 1.0,
                 clock: Clock = time.monotonic,
                 wait: Callable[[float], bool] | None = None) -> None:
        super().__init__(url, clock=clock)
        if speed < 0:
            raise ValueError("speed must be >= 0")
        self.path = Path(path)
        self.speed = speed
        self._wait = wait if wait is not None else self._stop.wait
        self._events: list[SensorEvent] = []
        self._thread: StoppableThread | None = None
        self._start: float | None = None
        # the file's time of the next event not yet played (None: none left); written by the
        # player thread only, read whole (one int) by live_ms
        self._pending_ms: int | None = None

    def _open(self) -> None:
        self._events = read_event_file(self.path)
        self._set_status(state="connected", last_heard=self._clock())
        self._thread = StoppableThread(f"replay {self.path.name}", self._play, self._stop)
        self._thread.start()

    def _close(self) -> None:
        if self._thread is not None:
            self._thread.stop()

    def live_ms(self) -> int | None:
        """The file's time now (its ``t_ms`` scale); None at ``speed=0`` (no live time)."""
        if self.speed == 0:
            return None
        if self._start is None:
            return 0
        now = max(0, int((self._clock() - self._start) * 1000 * self.speed))
        pending = self._pending_ms
        return now if pending is None else min(now, pending)

    def _play(self, stop: threading.Event) -> None:
        try:
            self._play_events()
        except (OverflowError, ValueError, OSError) as exc:  # never die silently: say why
            self._finish(BridgeError(f"{self.url}: replay stopped: {exc}"))

    def _play_events(self) -> None:
        start = self._start = self._clock()
        for ev in self._events:
            self._pending_ms = ev.t_ms
            if self.speed > 0:
                due = start + ev.t_ms / 1000.0 / self.speed
                delay = due - self._clock()
                if delay > 0 and self._wait(delay):
                    return  # closed while waiting
            if self._stop.is_set():
                return
            self._set_status(last_heard=self._clock())
            self._emit(ev)
        self._pending_ms = None
        self._finish()
