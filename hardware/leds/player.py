"""Keep a backend showing a scene: the one timer that makes LEDs blink and pulse.

:class:`LedPlayer` owns a backend and one :class:`~hardware.timer.Ticker` thread. ``show(scene)``
may be called from any thread: it writes the first frame at once (in the caller's thread) and
lets the ticker redraw the scene when a blink or pulse changes. A frame equal to the last one
written is not written again, which keeps the sensor link quiet. Without animation the thread
sleeps until the next ``show``.

Tests drive time by hand: build the player with an injected ``clock`` and call :meth:`tick`
(no thread), or give the ticker a ``wait`` that advances the fake clock.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

from hardware.errors import DeviceClosed
from hardware.leds.backends import LedBackend
from hardware.leds.frames import Frame, frame_at, next_change
from hardware.leds.scene import DARK, RGB, LedScene
from hardware.timer import Clock, Ticker, Wait, event_wait, monotonic

#: Seconds before the animation thread retries after a backend error.
RETRY_AFTER = 1.0


class LedPlayer:
    """Shows :class:`LedScene` objects on ``backend``; thread-safe.

    ``brightness`` (0..1) scales every light (the backend may scale again, e.g. ws281x's own
    brightness). ``max_fps`` caps redraws per second. ``animate=False`` starts no thread:
    call :meth:`tick` yourself. The player owns the backend: ``close()`` closes it.
    """

    def __init__(self, backend: LedBackend, *, brightness: float = 1.0, max_fps: float = 25.0,
                 clock: Clock = monotonic, wait: Wait = event_wait,
                 animate: bool = True) -> None:
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness must be between 0 and 1, got {brightness}")
        if max_fps <= 0:
            raise ValueError(f"max_fps must be positive, got {max_fps}")
        self.backend = backend
        self.brightness = brightness
        self._min_interval = 1.0 / max_fps
        self._clock = clock
        self._lock = threading.RLock()
        self._scene: LedScene = DARK
        self._started = clock()
        self._last: Frame | None = None
        self._closed = False
        self._ticker = Ticker("led-player", self._step, wait=wait) if animate else None
        #: The last error the animation thread met writing a frame (it retries), or None.
        self.error: Exception | None = None

    @property
    def scene(self) -> LedScene:
        """The scene being shown."""
        with self._lock:
            return self._scene

    @property
    def last_frame(self) -> Mapping[str, RGB]:
        """The frame last written to the backend ({} before the first)."""
        with self._lock:
            return dict(self._last or {})

    def show(self, scene: LedScene) -> None:
        """Show ``scene`` from now on; its first frame is written before this returns.

        Showing the scene already shown does not restart its blinking.

        Raises:
            DeviceClosed: after ``close()``; backend errors pass through.
        """
        with self._lock:
            if self._closed:
                raise DeviceClosed("LedPlayer is closed")
            if scene == self._scene and self._last is not None:
                return
            self._scene = scene
            self._started = self._clock()
            self._draw()
        if self._ticker is not None and scene.animated:
            self._ticker.start()
            self._ticker.wake()

    def tick(self) -> float | None:
        """Redraw the current scene for the clock's present time.

        Returns:
            Seconds until the frame may change next, or None if the scene is steady.
        """
        with self._lock:
            if self._closed:
                return None
            self._draw()
            delay = next_change(self._scene, self._clock() - self._started)
        return None if delay is None else max(delay, self._min_interval)

    def close(self) -> None:
        """Stop the timer, write a dark frame and close the backend. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if self._ticker is not None:
            self._ticker.stop()
        try:
            self.backend.write({})
        except DeviceClosed:
            pass
        finally:
            self.backend.close()

    def __enter__(self) -> LedPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _draw(self) -> None:
        frame = frame_at(self._scene, self._clock() - self._started, self.brightness)
        if frame != self._last:
            self._last = None  # if the write fails, the next draw writes again
            self.backend.write(frame)
            self._last = frame

    def _step(self) -> float | None:
        try:
            return self.tick()
        except Exception as exc:  # noqa: BLE001 - e.g. the sensor link is down: retry later
            self.error = exc
            return RETRY_AFTER
