"""The one background-thread class of :mod:`hardware`: a stoppable, wakeable ticker.

Every timer in this package (LED blinking, the clock watcher) is a :class:`Ticker`. Its thread
calls ``step()``, which returns how many seconds to wait before the next call (or None: until
woken). It waits on an :class:`threading.Event`, never with ``time.sleep``, so :meth:`wake`
and :meth:`stop` take effect at once.

Tests inject ``wait``: a function ``wait(event, timeout) -> bool`` that may advance a fake clock
and return at once instead of blocking, which makes the thread deterministic.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Final

#: A clock: monotonic seconds (``time.monotonic`` by default; inject a fake one in tests).
Clock = Callable[[], float]
#: ``wait(event, timeout)``: block until ``event`` is set or ``timeout`` seconds pass (None:
#: no limit); return whether the event is set. The default is ``event.wait(timeout)``.
Wait = Callable[[threading.Event, float | None], bool]

#: How long :meth:`Ticker.stop` waits for the thread to end, in seconds.
JOIN_TIMEOUT: Final = 2.0


def event_wait(event: threading.Event, timeout: float | None) -> bool:
    """The default :data:`Wait`: ``event.wait(timeout)``."""
    return event.wait(timeout)


class Ticker:
    """A daemon thread that calls ``step()`` repeatedly until stopped.

    ``step()`` returns the delay in seconds before it should run again, or None to sleep until
    :meth:`wake`. An exception in ``step`` stops the ticker and is kept in :attr:`error`.
    The thread starts with :meth:`start` (idempotent) and ends with :meth:`stop` (idempotent;
    also a context manager).
    """

    def __init__(self, name: str, step: Callable[[], float | None], *,
                 wait: Wait = event_wait) -> None:
        self.name = name
        self._step = step
        self._wait = wait
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None

    @property
    def running(self) -> bool:
        """Whether the thread is alive."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    def start(self) -> None:
        """Start the thread if it is not running yet (a stopped ticker cannot restart)."""
        with self._lock:
            if self._thread is not None or self._stopping.is_set():
                return
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()

    def wake(self) -> None:
        """Make the thread call ``step()`` now instead of at the end of its wait."""
        self._wake.set()

    def stop(self, timeout: float = JOIN_TIMEOUT) -> None:
        """Stop the thread and join it (unless called from the thread itself). Idempotent."""
        with self._lock:
            self._stopping.set()
            thread = self._thread
        self._wake.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                delay = self._step()
            except BaseException as exc:  # kept for the owner; a ticker must not die silently
                self.error = exc
                return
            if self._stopping.is_set():
                return
            if delay is None or delay > 0:
                self._wait(self._wake, delay)
            self._wake.clear()

    def __enter__(self) -> Ticker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def monotonic() -> float:
    """The default clock: :func:`time.monotonic` seconds."""
    return time.monotonic()
