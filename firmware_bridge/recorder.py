"""Write sensor events to an EVENTS.md file, so ``replay://`` can play a real game back.

Attach a recorder to any sensor (``sensor.record_to(EventRecorder("game.events"))``), or call
:meth:`EventRecorder.write` yourself. Each event is written and flushed as one line, so a
recording survives a crash; :class:`~firmware_bridge.events.LinkState` events become comment
lines that replay ignores.
"""

from __future__ import annotations

import threading
from pathlib import Path
from types import TracebackType
from typing import IO, Self

from firmware_bridge.errors import BoardNotFound
from firmware_bridge.events import SensorEvent, format_event


class EventRecorder:
    """Writes events to ``target`` (a path, opened for writing, or an open text stream).

    Thread-safe. ``times`` keeps the ``<ms>`` column (required for ``replay://``).

    Raises:
        BoardNotFound: the path cannot be created.
    """

    def __init__(self, target: str | Path | IO[str], *, times: bool = True,
                 header: str | None = None) -> None:
        self._lock = threading.Lock()
        self._times = times
        self._owned = isinstance(target, (str, Path))
        #: The file's name (for messages); ``failed`` once a write could not be completed.
        self.name = str(target) if self._owned else getattr(target, "name", "<stream>")
        self.failed = False
        if isinstance(target, (str, Path)):
            try:
                self._fp: IO[str] = open(target, "w", encoding="utf-8")  # noqa: SIM115
            except OSError as exc:
                raise BoardNotFound(f"cannot create event file {str(target)!r}: {exc}") from exc
        else:
            self._fp = target
        if header:
            for line in header.splitlines():
                self._fp.write(f"# {line}\n")

    def write(self, ev: SensorEvent) -> None:
        """Append ``ev`` as one line and flush.

        Raises:
            OSError: the line could not be written (``failed`` is then set; later writes
                are dropped).
        """
        with self._lock:
            if self._fp.closed or self.failed:
                return
            try:
                self._fp.write(format_event(ev, self._times) + "\n")
                self._fp.flush()
            except OSError:
                self.failed = True
                raise

    def close(self) -> None:
        """Flush, and close the file if the recorder opened it; idempotent. After a failed
        write the error was already raised once: closing does not raise it again."""
        with self._lock:
            try:
                if self._owned and not self._fp.closed:
                    self._fp.close()
                elif not self._fp.closed:
                    self._fp.flush()
            except OSError:
                if not self.failed:
                    raise

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
