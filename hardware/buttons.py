"""Buttons: one stream of :class:`ButtonPress` from every source.

The five buttons (clock-white, clock-black, confirm, back, roll) may be wired to the Pi
(:class:`GpioButtons`, through gpiozero) or to the sensor board, whose presses arrive as
``firmware_bridge`` ``Button`` events and are fed in with :meth:`ButtonStream.feed`. Either
way they come out of one :class:`ButtonStream`, debounced per button with an injected clock:
a second press of the same button within ``debounce`` seconds is a bounce and is dropped.
gpiozero's own ``bounce_time`` filters the pin edges before that.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from hardware.config import BUTTON_NAMES, ButtonConfig
from hardware.errors import BackendUnavailable, ConfigError, DeviceClosed
from hardware.timer import Clock, monotonic

_END: Final = object()


@dataclass(frozen=True)
class ButtonPress:
    """A press of button ``name`` (one of :data:`~hardware.config.BUTTON_NAMES`), accepted at
    clock time ``t`` (seconds), from ``source`` (``"gpio"``, ``"board"`` or ``"api"``)."""

    name: str
    t: float
    source: str = "api"


class ButtonStream:
    """A thread-safe queue of debounced presses from any number of sources.

    Consume with :meth:`get` or by iterating (ends after :meth:`close`).
    """

    def __init__(self, *, debounce: float = 0.15, clock: Clock = monotonic) -> None:
        if debounce < 0:
            raise ValueError(f"debounce must be >= 0 seconds, got {debounce}")
        self.debounce = debounce
        self._clock = clock
        self._queue: queue.Queue[object] = queue.Queue()
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._closed = False

    def press(self, name: str, source: str = "api") -> bool:
        """Report a press of ``name``; returns False if it was dropped as a bounce.

        Raises:
            ConfigError: an unknown button name. DeviceClosed: after ``close()``.
        """
        if name not in BUTTON_NAMES:
            raise ConfigError(f"unknown button {name!r} (expected one of "
                              f"{', '.join(BUTTON_NAMES)})")
        with self._lock:
            if self._closed:
                raise DeviceClosed("the button stream is closed")
            now = self._clock()
            last = self._last.get(name)
            if last is not None and now - last < self.debounce:
                return False
            self._last[name] = now
            self._queue.put(ButtonPress(name, now, source))
            return True

    def feed(self, event: object) -> bool:
        """Take a sensor event: a ``firmware_bridge`` ``Button`` (anything with a ``name`` that
        is a button name) becomes a press from ``"board"``. Returns whether it was a button
        press that was accepted; other events are ignored (False)."""
        name = getattr(event, "name", None)
        if not isinstance(name, str) or name not in BUTTON_NAMES:
            return False
        return self.press(name, "board")

    def get(self, timeout: float | None = None) -> ButtonPress | None:
        """The next press; None if ``timeout`` seconds pass first or the stream is closed."""
        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if item is _END:
            self._queue.put(_END)  # let other consumers see the end too
            return None
        assert isinstance(item, ButtonPress)
        return item

    def drain(self) -> list[ButtonPress]:
        """Every press waiting now, without blocking."""
        out: list[ButtonPress] = []
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return out
            if item is _END:
                self._queue.put(_END)
                return out
            assert isinstance(item, ButtonPress)
            out.append(item)

    def __iter__(self) -> Iterator[ButtonPress]:
        while (press := self.get()) is not None:
            yield press

    def close(self) -> None:
        """End the stream: waiting and later ``get`` calls return None. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._queue.put(_END)

    def __enter__(self) -> ButtonStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class GpioButtons:
    """Buttons wired to Pi pins (gpiozero ``Button``), feeding ``stream``.

    ``pins`` maps button name -> pin (BCM number or gpiozero name). ``pull_up`` True means the
    button connects the pin to ground. ``pin_factory`` overrides gpiozero's choice (tests use
    its MockFactory). Pins are claimed by :meth:`open`, not by the constructor.
    """

    def __init__(self, pins: Mapping[str, int | str], stream: ButtonStream, *,
                 bounce_time: float | None = 0.05, pull_up: bool = True,
                 pin_factory: Any = None) -> None:
        for name in pins:
            if name not in BUTTON_NAMES:
                raise ConfigError(f"gpio_buttons.{name}: unknown button")
        self.pins = dict(pins)
        self.stream = stream
        self.bounce_time, self.pull_up = bounce_time, pull_up
        self._pin_factory = pin_factory
        self._buttons: dict[str, Any] = {}

    def open(self) -> GpioButtons:
        """Claim the pins and start reporting presses.

        Raises:
            BackendUnavailable: gpiozero has no pin factory on this machine.
        """
        try:
            import gpiozero
        except ImportError as exc:
            raise BackendUnavailable(f"gpio buttons need gpiozero: {exc}") from exc
        try:
            for name, pin in self.pins.items():
                button = gpiozero.Button(pin, pull_up=self.pull_up, bounce_time=self.bounce_time,
                                         pin_factory=self._pin_factory)
                button.when_pressed = self._handler(name)
                self._buttons[name] = button
        except gpiozero.BadPinFactory as exc:
            self.close()
            raise BackendUnavailable(f"gpio buttons: no pin factory here ({exc}); set "
                                     f"GPIOZERO_PIN_FACTORY=mock to test") from exc
        except gpiozero.GPIOZeroError:
            self.close()
            raise
        return self

    def _handler(self, name: str) -> Any:
        def pressed() -> None:
            try:
                self.stream.press(name, "gpio")
            except DeviceClosed:
                pass  # the stream ended first; nothing is listening
        return pressed

    def close(self) -> None:
        """Release the pins. Idempotent."""
        buttons, self._buttons = self._buttons, {}
        for button in buttons.values():
            button.close()

    def __enter__(self) -> GpioButtons:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_buttons(config: ButtonConfig, *, clock: Clock = monotonic,
                 pin_factory: Any = None) -> tuple[ButtonStream, GpioButtons | None]:
    """A stream debounced as ``config`` says, plus the opened GPIO buttons if any are wired
    (None otherwise; feed board buttons with :meth:`ButtonStream.feed`).

    Raises:
        BackendUnavailable: GPIO buttons are configured but gpiozero cannot drive pins here.
    """
    stream = ButtonStream(debounce=config.debounce, clock=clock)
    if not config.gpio:
        return stream, None
    gpio = GpioButtons(config.gpio, stream, bounce_time=config.bounce_time or None,
                       pull_up=config.pull_up, pin_factory=pin_factory)
    return stream, gpio.open()
