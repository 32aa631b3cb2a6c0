"""Link management shared by the serial drivers (our board, DGT): one reader thread per port.

:class:`LinkedSensor` owns a port made by a :data:`PortFactory`. Its reader thread reads with a
short timeout, hands bytes to the protocol (:meth:`LinkedSensor._on_bytes`), runs the
protocol's housekeeping, notices a dead port or a silent board, and reopens the port with
exponential backoff (``Event.wait``, so ``close()`` interrupts it at once). Writes from any
thread go through one lock. Subclasses implement the protocol hooks.
"""

from __future__ import annotations

import re
import threading
import time
from abc import abstractmethod
from collections.abc import Callable
from typing import Any, Final

import serial

from firmware_bridge.errors import BoardNotFound, BridgeError
from firmware_bridge.events import LinkState
from firmware_bridge.sensor import Clock, Sensor, StoppableThread
from firmware_bridge.urls import shown

#: Opens the transport and returns an open pyserial-like port (``read``, ``write``,
#: ``in_waiting``, ``close``); raises BoardNotFound when it cannot.
PortFactory = Callable[[], Any]

#: Seconds a blocking read waits before the reader does its housekeeping.
READ_TICK: Final = 0.05


def pyserial_factory(url: str, target: str, *, baudrate: int = 115200,
                     exclusive: bool = False, **settings: Any) -> PortFactory:
    """A :data:`PortFactory` opening ``target`` with ``serial.serial_for_url``.

    ``url`` is the sensor URL, used in error messages; ``settings`` go to pyserial
    (``bytesize``, ``parity``...).
    """

    def open_port() -> Any:
        kwargs: dict[str, Any] = {"baudrate": baudrate, "timeout": READ_TICK,
                                  "write_timeout": 1.0, **settings}
        if exclusive:
            kwargs["exclusive"] = True
        try:
            return serial.serial_for_url(target, **kwargs)
        except (serial.SerialException, OSError, ValueError, re.error) as exc:
            # re.error: hwgrep:// takes a regular expression and pyserial compiles it
            # pyserial's own message repeats the URL
            raise BoardNotFound(f"{shown(url)}: cannot open the board: "
                                f"{shown(str(exc), None)}") from exc

    return open_port



class LinkedSensor(Sensor):
    """Base of sensors on a pyserial-like port, with reconnection (see the module docstring).

    Timing, in seconds: ``open_timeout`` for the board to answer after the port opens;
    ``ping_interval`` of silence before the protocol probes the board; ``dead_after`` of
    silence before the link is declared lost; reconnects back off from ``backoff[0]`` to
    ``backoff[1]``. With ``wait_connected=False``, ``open()`` returns without waiting for
    the board's first answer.
    """

    def __init__(self, url: str, port_factory: PortFactory, *, clock: Clock = time.monotonic,
                 open_timeout: float = 3.0, ping_interval: float = 0.5,
                 dead_after: float = 2.0, backoff: tuple[float, float] = (0.05, 1.0),
                 wait_connected: bool = True) -> None:
        super().__init__(url, clock=clock)
        self._port_factory = port_factory
        self.open_timeout = open_timeout
        self.ping_interval = ping_interval
        self.dead_after = dead_after
        self._backoff = backoff
        self._wait_connected = wait_connected
        self._wlock = threading.RLock()
        self._port: Any = None
        self._thread: StoppableThread | None = None
        self._first_sync = threading.Event()
        self._open_error: BridgeError | None = None

    def _reset_link_state(self) -> None:
        """Forget everything about the previous connection (called on each port open)."""
        now = self._clock()
        self._since = now
        self._last_heard = now
        self._last_ping = now

    # -- protocol hooks ---------------------------------------------------------------------
    @abstractmethod
    def _on_port_open(self) -> None:
        """The port just opened: send the protocol's first requests."""

    @abstractmethod
    def _on_bytes(self, data: bytes) -> None:
        """Bytes arrived from the board."""

    @abstractmethod
    def _housekeeping(self, now: float) -> None:
        """Called after every read (or read timeout): retries, pings, liveness."""

    @abstractmethod
    def _no_answer_error(self) -> BridgeError:
        """The error ``open()`` raises when the board never answered."""

    # -- lifecycle --------------------------------------------------------------------------
    def _open(self) -> None:
        self._connect()  # the first attempt raises: a bad URL must fail at once
        self._thread = StoppableThread(f"reader {self.url}", self._run, self._stop)
        self._thread.start()
        if not self._wait_connected:
            return
        if not self._first_sync.wait(self.open_timeout + 0.5):
            raise self._no_answer_error()
        if self._open_error is not None:
            raise self._open_error

    def _close(self) -> None:
        if self._thread is not None:
            self._stop.set()
            port = self._port
            if port is not None and hasattr(port, "cancel_read"):
                try:
                    port.cancel_read()  # wake a blocked read at once
                except (serial.SerialException, OSError):
                    pass
            self._thread.stop()
        self._disconnect()

    # -- reader thread ----------------------------------------------------------------------
    def _run(self, stop: threading.Event) -> None:
        delay = self._backoff[0]
        while not stop.is_set():
            if self._port is None:
                if self._try_connect():
                    delay = self._backoff[0]
                else:
                    stop.wait(delay)  # backoff, interrupted by close()
                    delay = min(delay * 2, self._backoff[1])
                continue
            self._pump()

    def _try_connect(self) -> bool:
        try:
            self._connect()
        except BridgeError as exc:
            self._set_status(detail=str(exc))
            return False
        return True

    def _connect(self) -> None:
        port = self._port_factory()
        with self._wlock:
            self._port = port
        self._reset_link_state()
        self._on_port_open()

    def _disconnect(self) -> None:
        with self._wlock:
            port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def _drop(self, reason: str) -> None:
        """The link is lost: close the port, tell consumers, let `_run` reconnect."""
        self._disconnect()
        if self._stop.is_set():
            return
        was_connected = self.link.state == "connected"
        self._set_status(state="reconnecting" if self._first_sync.is_set() else "connecting",
                         detail=reason)
        if was_connected:
            self._emit(LinkState(self._now_ms(), "reconnecting", reason))

    def _pump(self) -> None:
        port = self._port
        try:
            data = port.read(max(1, port.in_waiting))
        except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
            # TypeError/AttributeError: pyserial internals after a concurrent close().
            self._drop(f"read failed: {exc}")
            return
        now = self._clock()
        if data:
            self._last_heard = now
            self._set_status(last_heard=now)
            self._on_bytes(data)
        if self._port is not None:
            self._housekeeping(now)

    def _fatal(self, error: BridgeError) -> None:
        """Stop for good: ``open()`` raises ``error``, or the consumer's next ``get()`` does."""
        if not self._first_sync.is_set():
            self._open_error = error
            self._first_sync.set()
        else:
            self._finish(error)
        self._stop.set()

    def _mark_connected(self) -> None:
        """The board answered and the state is synced: connected (and tell consumers if this
        was a reconnection)."""
        if self._first_sync.is_set():
            status = self._set_status(state="connected", detail="",
                                      reconnects=self.link.reconnects + 1)
            self._emit(LinkState(self._now_ms(), "connected",
                                 f"reconnect #{status.reconnects}"))
        else:
            self._set_status(state="connected", detail="")
            self._first_sync.set()

    def _write(self, data: bytes) -> bool:
        """Write ``data`` under the write lock; False if there is no port or it failed (the
        reader thread notices a dead port on its own)."""
        with self._wlock:
            if self._port is None:
                return False
            try:
                self._port.write(data)
            except (serial.SerialException, OSError, TypeError, AttributeError):
                return False
            return True
