"""LED backends: where frames go. Each has ``write(frame)`` and an idempotent ``close()``.

* :class:`MockLeds` records every frame (and renders pictures of them, :mod:`.picture`).
* :class:`BoardLeds` forwards frames to any object with ``send_leds(mapping)``: the sensor
  board's own LEDs driven over the protocol (``firmware_bridge.Sensor``).
* :class:`Ws281xLeds` drives a WS2812 chain on a Raspberry Pi through ``rpi_ws281x``.
* :class:`GpioLeds` drives one single-colour LED per square through gpiozero.

Constructors open nothing: hardware is opened by ``open()`` (the factory
:func:`hardware.leds.factory.open_leds` calls it), and libraries are imported only there.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, Self, runtime_checkable

from hardware.errors import BackendUnavailable, ConfigError, DeviceClosed, DeviceNotFound
from hardware.leds.scene import RGB
from hardware.timer import Clock, monotonic


@runtime_checkable
class LedBackend(Protocol):
    """What :class:`~hardware.leds.player.LedPlayer` needs from a backend."""

    def write(self, frame: Mapping[str, RGB]) -> None:
        """Show ``frame`` (square -> RGB 0..255); squares not named go dark."""

    def close(self) -> None:
        """Turn the LEDs off and release the hardware (idempotent)."""


@runtime_checkable
class LedSink(Protocol):
    """Anything that can show a frame itself: ``firmware_bridge.Sensor`` is one."""

    def send_leds(self, frame: Mapping[str, tuple[int, int, int]]) -> None:
        """Show ``frame`` (square -> RGB 0..255); squares not named go dark."""


class _Base:
    """Shared lifecycle: a lock, a closed flag, context management."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closed = False

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise DeviceClosed(f"{type(self).__name__} is closed")

    def open(self) -> Self:
        """Open the hardware (nothing to do for this backend). Returns self."""
        return self

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()  # type: ignore[attr-defined]


class MockLeds(_Base):
    """Records frames in memory: ``frames`` is a list of (clock seconds, frame).

    ``squares`` (optional) lists the squares that have LEDs, for pictures. Thread-safe.

    Raises (``write``):
        DeviceClosed: after ``close()``.
    """

    def __init__(self, squares: tuple[str, ...] = (), *, clock: Clock = monotonic) -> None:
        super().__init__()
        self.squares = squares
        self._clock = clock
        self._frames: list[tuple[float, dict[str, RGB]]] = []
        self._written = threading.Condition(self._lock)

    def write(self, frame: Mapping[str, RGB]) -> None:
        """Record ``frame`` with the current clock time."""
        with self._lock:
            self._check_open()
            self._frames.append((self._clock(), dict(frame)))
            self._written.notify_all()

    def close(self) -> None:
        """Stop recording (frames are kept)."""
        with self._lock:
            self._closed = True
            self._written.notify_all()

    @property
    def frames(self) -> list[tuple[float, dict[str, RGB]]]:
        """A copy of the recorded (time, frame) pairs."""
        with self._lock:
            return list(self._frames)

    @property
    def last(self) -> dict[str, RGB]:
        """The last frame written ({} if none)."""
        with self._lock:
            return dict(self._frames[-1][1]) if self._frames else {}

    def wait_frames(self, count: int, timeout: float = 5.0) -> bool:
        """Block until at least ``count`` frames were written (or closed, or ``timeout`` s)."""
        with self._written:
            return self._written.wait_for(
                lambda: len(self._frames) >= count or self._closed, timeout)

    def save_png(self, path: str | Path, frame: Mapping[str, RGB] | None = None,
                 title: str = "") -> Path:
        """Render ``frame`` (default: the last one) as a picture of the board(s) to ``path``."""
        from hardware.leds.picture import render_frame

        image = render_frame(self.last if frame is None else frame, self.squares, title=title)
        out = Path(path)
        image.save(out)
        return out


class BoardLeds(_Base):
    """Thin adapter: forwards frames to ``sink.send_leds`` (the sensor board over the protocol).

    The sink is not owned: ``close()`` sends one dark frame but does not close the sink.
    Squares not in ``squares`` (when given) are dropped, since the board has no LED there.
    """

    def __init__(self, sink: LedSink, squares: frozenset[str] | None = None) -> None:
        super().__init__()
        if not callable(getattr(sink, "send_leds", None)):
            raise ConfigError(f"{sink!r} has no send_leds(frame) method")
        self._sink = sink
        self._squares = squares

    def write(self, frame: Mapping[str, RGB]) -> None:
        """Send ``frame`` to the board.

        Raises:
            DeviceClosed: after ``close()``; whatever ``send_leds`` raises (e.g. the bridge's
            ``LedsNotSupported`` or ``BoardDisconnected``) passes through.
        """
        with self._lock:
            self._check_open()
            if self._squares is not None:
                frame = {sq: rgb for sq, rgb in frame.items() if sq in self._squares}
            self._sink.send_leds(dict(frame))

    def close(self) -> None:
        """Send a dark frame (ignoring errors: the link may be gone) and stop forwarding."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                self._sink.send_leds({})
            except Exception:  # noqa: BLE001 - closing must not fail because the link is down
                pass


def _import(module: str, purpose: str) -> ModuleType:
    try:
        return import_module(module)
    except ImportError as exc:
        raise BackendUnavailable(f"{purpose} needs the {module!r} package, which cannot be "
                                 f"imported here: {exc}") from exc


class Ws281xLeds(_Base):
    """A WS2812 ("NeoPixel") chain on a Raspberry Pi, through ``rpi_ws281x``.

    ``pixels`` maps square -> index in the chain; ``count`` is the chain length (default: one
    past the highest index). ``brightness`` is 0..1, ``order`` the chip's colour order (GRB for
    most WS2812B), ``pin`` the BCM data pin (18: PWM0). ``module`` replaces the library (tests).

    The library is imported by ``open()``, never at import time. The strip is built and
    ``begin()`` called in the same step: a PixelStrip that never began crashes the interpreter
    at exit, so a failed ``begin()`` is torn down at once.
    """

    def __init__(self, pixels: Mapping[str, int], *, count: int | None = None, pin: int = 18,
                 brightness: float = 0.4, order: str = "GRB", dma: int = 10,
                 module: ModuleType | None = None) -> None:
        super().__init__()
        if not pixels:
            raise ConfigError("ws281x: no square is mapped to a pixel")
        self.pixels = dict(pixels)
        self.count = count if count is not None else max(self.pixels.values()) + 1
        self.pin, self.brightness, self.order, self.dma = pin, brightness, order, dma
        self._module = module
        self._strip: Any = None

    def open(self) -> Ws281xLeds:
        """Build and start the strip.

        Raises:
            BackendUnavailable: ``rpi_ws281x`` is not installed (not a Pi).
            DeviceNotFound: the library could not start the strip (``begin()`` failed).
            ConfigError: an unknown colour ``order``.
        """
        ws = self._module or _import("rpi_ws281x", "the ws281x LED backend")
        strip_type = getattr(ws, f"WS2811_STRIP_{self.order}", None)
        if strip_type is None:
            raise ConfigError(f"ws281x: unknown colour order {self.order!r}")
        strip = ws.PixelStrip(self.count, self.pin, 800_000, self.dma, False,
                              round(255 * self.brightness), 0, strip_type)
        try:
            strip.begin()
        except RuntimeError as exc:
            _teardown(strip)
            raise DeviceNotFound(f"ws281x: cannot start the LED chain on GPIO {self.pin}: "
                                 f"{exc}") from exc
        self._strip = strip
        return self

    def write(self, frame: Mapping[str, RGB]) -> None:
        """Set every pixel (dark where ``frame`` names no square) and show them.

        Raises:
            DeviceClosed: after ``close()`` or before ``open()``.
        """
        with self._lock:
            self._check_open()
            if self._strip is None:
                raise DeviceClosed("ws281x: open() was not called")
            values = [0] * self.count
            for square, (r, g, b) in frame.items():
                index = self.pixels.get(square)
                if index is not None:
                    values[index] = (r << 16) | (g << 8) | b
            for index, value in enumerate(values):
                self._strip.setPixelColor(index, value)
            self._strip.show()

    def close(self) -> None:
        """Turn every pixel off and release the chain."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            strip, self._strip = self._strip, None
        if strip is not None:
            for index in range(self.count):
                strip.setPixelColor(index, 0)
            strip.show()
            _teardown(strip)


def _teardown(strip: Any) -> None:
    cleanup = getattr(strip, "_cleanup", None)
    if callable(cleanup):
        cleanup()


class GpioLeds(_Base):
    """One single-colour LED per square on GPIO pins, through gpiozero.

    ``pins`` maps square -> pin (a BCM number or a gpiozero pin name such as ``"GPIO17"``).
    With ``pwm`` each LED's brightness is the frame colour's luminance; without, an LED is on
    when that luminance is at least ``threshold``. Colour is lost, which is why the visual
    language never relies on it. gpiozero picks RPi.GPIO or lgpio itself (or its mock factory
    in tests: ``GPIOZERO_PIN_FACTORY=mock``); ``pin_factory`` overrides it.
    """

    def __init__(self, pins: Mapping[str, int | str], *, pwm: bool = True,
                 active_high: bool = True, threshold: float = 0.05,
                 pin_factory: Any = None) -> None:
        super().__init__()
        if not pins:
            raise ConfigError("gpio LEDs: no square is mapped to a pin")
        self.pins = dict(pins)
        self.pwm, self.active_high, self.threshold = pwm, active_high, threshold
        self._pin_factory = pin_factory
        self._leds: dict[str, Any] = {}

    def open(self) -> GpioLeds:
        """Claim the pins.

        Raises:
            BackendUnavailable: gpiozero is missing or has no working pin factory here.
        """
        gz = _import("gpiozero", "the gpio LED backend")
        cls = gz.PWMLED if self.pwm else gz.LED
        try:
            for square, pin in self.pins.items():
                self._leds[square] = cls(pin, active_high=self.active_high,
                                         pin_factory=self._pin_factory)
        except gz.BadPinFactory as exc:
            self._release()
            raise BackendUnavailable(f"gpio LEDs: gpiozero has no pin factory here ({exc}); "
                                     f"set GPIOZERO_PIN_FACTORY=mock to test") from exc
        except gz.GPIOZeroError:
            self._release()
            raise
        return self

    def write(self, frame: Mapping[str, RGB]) -> None:
        """Set each LED from its square's luminance (dark if not in ``frame``).

        Raises:
            DeviceClosed: after ``close()``.
        """
        with self._lock:
            self._check_open()
            for square, led in self._leds.items():
                value = luminance(frame.get(square, (0, 0, 0)))
                if self.pwm:
                    led.value = round(value, 3)
                else:
                    led.value = 1 if value >= self.threshold else 0

    def close(self) -> None:
        """Turn the LEDs off and free their pins."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._release()

    def _release(self) -> None:
        for led in self._leds.values():
            led.close()
        self._leds.clear()


def luminance(rgb: RGB) -> float:
    """Relative luminance (0..1, Rec. 709 weights) of an RGB colour 0..255."""
    r, g, b = rgb
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
