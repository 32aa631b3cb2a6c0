"""The :class:`Sensor` interface shared by every board driver, and its event queue.

A sensor is opened by :func:`firmware_bridge.open_sensor` (or ``open()``), is a context
manager, and delivers :mod:`~firmware_bridge.events` through a thread-safe queue that its own
reader thread fills. Consume them with :meth:`Sensor.get` or :meth:`Sensor.events`::

    with open_sensor("sim://?variant=standard") as sensor:
        for ev in sensor.events(timeout=30.0):   # SensorTimeout after 30 s of silence
            print(format_event(ev))

Iteration ends when the stream ends (the end of a ``replay://`` file) or the sensor is closed;
a fatal error in the reader thread (e.g. the board reconnects with other modules) is re-raised
by the consumer's next ``get()``.
"""

from __future__ import annotations

import queue
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Final, Self

from firmware_bridge.errors import BoardDisconnected, BridgeError, SensorTimeout
from firmware_bridge.events import SensorEvent

if TYPE_CHECKING:
    from firmware_bridge.recorder import EventRecorder

#: A clock: monotonic seconds (``time.monotonic`` by default; inject a fake one in tests).
Clock = Callable[[], float]
#: An LED frame: square -> (red, green, blue), each 0..255. Squares not named are dark.
LedFrame = Mapping[str, tuple[int, int, int]]

#: Link states of :class:`LinkStatus`.
STATES: Final = ("idle", "connecting", "connected", "reconnecting", "ended", "closed")


@dataclass(frozen=True)
class LinkStatus:
    """A snapshot of a sensor's link.

    ``state`` is one of :data:`STATES`; ``last_heard`` is the clock time (seconds) the board
    last sent anything, or None; ``reconnects`` counts successful reconnections; ``detail``
    says why the link is not connected.
    """

    state: str
    last_heard: float | None = None
    reconnects: int = 0
    detail: str = ""


class _End:
    """Queue marker: the stream ended, optionally because of ``error``."""

    def __init__(self, error: BridgeError | None) -> None:
        self.error = error


class Sensor(ABC):
    """A source of sensor events (see the module docstring for usage).

    Constructors do no I/O; :meth:`open` does. ``clock`` gives monotonic seconds and defines
    the events' ``t_ms`` (milliseconds since ``open()``).
    """

    #: True if :meth:`send_leds` drives per-square LEDs on this kind of sensor.
    supports_leds: bool = False

    def __init__(self, url: str, *, clock: Clock = time.monotonic) -> None:
        self.url = url
        self._clock = clock
        self._queue: queue.Queue[SensorEvent | _End] = queue.Queue()
        self._stop = threading.Event()
        self._status_lock = threading.Lock()
        self._status = LinkStatus("idle")
        self._t0 = 0.0
        self._ended = False
        self._recorder: EventRecorder | None = None

    # -- lifecycle --------------------------------------------------------------------------
    def open(self) -> Self:
        """Open the device and start delivering events. Returns ``self``.

        Raises:
            BridgeError: a subclass saying why (BoardNotFound, SensorTimeout, RigError...).
        """
        self._t0 = self._clock()
        self._set_status(state="connecting")
        try:
            self._open()
        except BaseException:
            self.close()
            raise
        return self

    def close(self) -> None:
        """Stop the reader and release the device; idempotent. Pending events stay readable."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._close()
        self._set_status(state="closed")
        self._queue.put(_End(None))
        if self._recorder is not None:
            self._recorder.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @abstractmethod
    def _open(self) -> None:
        """Open the device and start the reader thread (subclasses)."""

    @abstractmethod
    def _close(self) -> None:
        """Stop the reader thread and close the device (subclasses); called once."""

    # -- consuming events -------------------------------------------------------------------
    def get(self, timeout: float | None = None) -> SensorEvent | None:
        """Return the next event, or None once the stream has ended or the sensor is closed.

        ``timeout`` is in seconds (None waits for ever).

        Raises:
            SensorTimeout: no event within ``timeout``.
            BridgeError: the reader thread stopped on a fatal error (raised once).
        """
        if self._ended:
            return None
        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise SensorTimeout(
                f"{self.url}: no sensor event within {timeout:g} s "
                f"(link {self.link.state}{': ' + self.link.detail if self.link.detail else ''})"
            ) from None
        if isinstance(item, _End):
            self._ended = True
            if item.error is not None:
                raise item.error
            return None
        return item

    def events(self, timeout: float | None = None) -> Iterator[SensorEvent]:
        """Iterate events until the stream ends; ``timeout`` (s) bounds the wait for each one.

        Raises:
            SensorTimeout: no event within ``timeout``.
        """
        while (ev := self.get(timeout)) is not None:
            yield ev

    def __iter__(self) -> Iterator[SensorEvent]:
        return self.events()

    # -- commands ---------------------------------------------------------------------------
    def send_leds(self, frame: LedFrame) -> None:
        """Show ``frame`` (square -> RGB 0..255) on the board; squares not named go dark.

        Raises:
            LedsNotSupported: this sensor has no LEDs (the default).
        """
        from firmware_bridge.errors import LedsNotSupported

        raise LedsNotSupported(f"{self.url}: this sensor has no per-square LEDs")

    def request_snapshot(self) -> None:
        """Ask the board for a full snapshot; an ``Occupied`` event follows if the board's
        state differs from what the events so far describe. No-op for sensors without one."""
        return None

    def record_to(self, recorder: EventRecorder) -> None:
        """Also write every event this sensor delivers from now on to ``recorder``."""
        self._recorder = recorder

    # -- link state -------------------------------------------------------------------------
    @property
    def link(self) -> LinkStatus:
        """The current :class:`LinkStatus` (thread-safe snapshot)."""
        with self._status_lock:
            return self._status

    def _set_status(self, **changes: object) -> LinkStatus:
        with self._status_lock:
            fields = {**self._status.__dict__, **changes}
            self._status = LinkStatus(**fields)
            return self._status

    def live_ms(self) -> int | None:
        """The time now on the events' time base (ms since ``open()``), for a consumer that
        lets time pass between events (settling, held moves, clocks); None when the stream
        has no live time (a file replayed as fast as possible)."""
        return self._now_ms()

    # -- for subclasses ---------------------------------------------------------------------
    def _now_ms(self) -> int:
        """Milliseconds since open(), from the injected clock."""
        return max(0, int((self._clock() - self._t0) * 1000))

    def _emit(self, ev: SensorEvent) -> None:
        """Deliver ``ev`` to consumers (and to the recorder, if any).

        If the recording cannot be written (disk full, ``--record /dev/full``), the event is
        still delivered, then the stream ends with an error naming the file: the consumer
        learns at once, instead of the reader thread dying and leaving it waiting for ever.
        """
        if self._recorder is None:
            self._queue.put(ev)
            return
        if self._recorder.failed:
            return
        self._queue.put(ev)
        try:
            self._recorder.write(ev)
        except OSError as exc:
            self._finish(BridgeError(f"cannot write the event file {self._recorder.name}: "
                                     f"{exc.strerror or exc} (the events before are in it)"))

    def _finish(self, error: BridgeError | None = None) -> None:
        """End the stream (from the reader thread), optionally with a fatal ``error``."""
        self._set_status(state="ended", detail=str(error) if error else "end of stream")
        self._queue.put(_End(error))

    def _require_open(self) -> None:
        if self._stop.is_set():
            raise BoardDisconnected(f"{self.url}: the sensor is closed")


class StoppableThread(threading.Thread):
    """A daemon thread running ``target(stop)`` until ``stop`` (an Event) is set."""

    def __init__(self, name: str, target: Callable[[threading.Event], None],
                 stop: threading.Event) -> None:
        super().__init__(name=name, daemon=True)
        self._target_fn = target
        self.stop_event = stop

    def run(self) -> None:
        self._target_fn(self.stop_event)

    def stop(self, timeout: float = 2.0) -> None:
        """Set the stop event and join (unless called from the thread itself)."""
        self.stop_event.set()
        if threading.current_thread() is not self and self.is_alive():
            self.join(timeout)
