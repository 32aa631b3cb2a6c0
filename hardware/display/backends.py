"""Display backends and the factory that opens them by name or URL.

Every backend has ``show(screen)`` and an idempotent ``close()`` and is a context manager.
:class:`LumaDisplay` wraps any luma device: the OLEDs (``ssd1306``, ``sh1106`` from luma.oled),
the HD44780 character LCD (luma.lcd, through a PCF8574 I2C backpack) and luma's ``dummy``,
which keeps the last image (tests). :class:`CaptureDisplay` also writes each frame as a PNG.

The name comes from ``spec``, else ``$GRAVEKEEPER_DISPLAY``, else ``config.kind``:
``ssd1306://1/0x3D`` is bus 1, address 0x3D; ``hd44780://1/0x27?width=20&height=4``;
``capture:///tmp/shots``. luma is imported only when a device is opened. The OLEDs are sent
only the changed part of each frame (:mod:`hardware.display.pages`): a whole frame is about
23 ms on I2C at 400 kHz.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from importlib import import_module
from pathlib import Path
from typing import Any, Final, Protocol, runtime_checkable

from PIL import Image

from hardware.config import CHARACTER_DISPLAYS, DISPLAY_KINDS, DisplayConfig
from hardware.display.pages import PageWriter
from hardware.display.render import render_image, render_text
from hardware.display.screen import Screen
from hardware.errors import (
    BackendUnavailable,
    DeviceClosed,
    DeviceNotFound,
    UnknownBackend,
)
from hardware.urls import Spec, choose, parse_spec

#: Environment variable that overrides the configured display.
ENV_VAR: Final = "GRAVEKEEPER_DISPLAY"


@runtime_checkable
class Display(Protocol):
    """What the orchestrator needs from a display."""

    def show(self, screen: Screen) -> None:
        """Draw ``screen`` now."""

    def close(self) -> None:
        """Blank the display and release it (idempotent)."""


class LumaDisplay:
    """Shows screens on a luma ``device``; thread-safe. ``character`` devices get text
    (``cols`` x ``rows``), the others a 1-bit image of the device's size. Owns the device.

    With a ``pages`` writer (the SSD1306 and SH1106 OLEDs, see :mod:`hardware.display.pages`)
    a frame sends only the changed part of the display RAM instead of luma's whole frame;
    :meth:`redraw` makes the next frame go whole (after the display was reset or reconnected).
    """

    def __init__(self, device: Any, *, character: bool = False, cols: int = 16,
                 rows: int = 2, pages: PageWriter | None = None) -> None:
        self.device = device
        self.pages = pages
        self.character, self.cols, self.rows = character, cols, rows
        self._lock = threading.Lock()
        self._closed = False
        self.last_image: Image.Image | None = None
        self.last_text: tuple[str, ...] = ()
        self.frames = 0

    def show(self, screen: Screen) -> None:
        """Render ``screen`` and send it to the device.

        Raises:
            DeviceClosed: after ``close()``.
        """
        with self._lock:
            if self._closed:
                raise DeviceClosed("the display is closed")
            if self.character:
                self.last_text = render_text(screen, self.cols, self.rows)
                self.device.text = "\n".join(line.rstrip() for line in self.last_text)
            else:
                image = render_image(screen, self.device.width, self.device.height)
                self.last_image = image.convert(self.device.mode)
                if self.pages is not None:
                    self.pages.write(self.device.preprocess(self.last_image))
                else:
                    self.device.display(self.last_image)
            self.frames += 1
            self._shown(screen)

    def _shown(self, screen: Screen) -> None:
        """Hook for subclasses, called under the lock after each frame."""

    def redraw(self) -> None:
        """Send the next frame whole: the display was reset, reconnected or powered up again
        and its RAM no longer holds the last frame (a failed write does this by itself)."""
        with self._lock:
            if self.pages is not None:
                self.pages.forget()

    def close(self) -> None:
        """Clear the display and release its bus (luma's ``cleanup``). Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self.device.cleanup()

    def __enter__(self) -> LumaDisplay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CaptureDisplay(LumaDisplay):
    """A :class:`LumaDisplay` on luma's dummy device that also saves every frame as
    ``<directory>/<prefix>NNNN.png`` (for the demo's ``--capture`` and the docs)."""

    def __init__(self, device: Any, directory: str | Path, prefix: str = "display-") -> None:
        super().__init__(device)
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.prefix = prefix
        self.paths: list[Path] = []

    def _shown(self, screen: Screen) -> None:
        assert self.last_image is not None
        path = self.directory / f"{self.prefix}{self.frames:04d}.png"
        self.last_image.save(path)
        self.paths.append(path)


def open_display(spec: str | None = None, *, config: DisplayConfig | None = None,
                 serial_interface: Any = None, backlight: Any = None) -> LumaDisplay:
    """Open the display named by ``spec`` / ``$GRAVEKEEPER_DISPLAY`` / ``config.kind``.

    ``serial_interface`` replaces the I2C bus (e.g. luma's ``noop()`` to run the real chip
    driver with no hardware); ``backlight`` replaces an LCD's backlight control.

    Raises:
        UnknownBackend: no such display. ConfigError: a bad option.
        DeviceNotFound: no such I2C bus or device. BackendUnavailable: luma is missing.
    """
    config = _with_spec(config or DisplayConfig(), spec)
    if config.kind in ("dummy", "capture"):
        device = _luma("luma.core.device").dummy(width=config.width, height=config.height,
                                                 mode="1")
        if config.kind == "capture":
            return CaptureDisplay(device, config.directory)
        return LumaDisplay(device)
    interface = serial_interface or _i2c(config)
    if config.kind in CHARACTER_DISPLAYS:
        device = _luma("luma.lcd.device").hd44780(interface, width=config.width,
                                                  height=config.height, backlight=backlight)
        return LumaDisplay(device, character=True, cols=config.width, rows=config.height)
    chip = getattr(_luma("luma.oled.device"), config.kind)
    device = chip(interface, width=config.width, height=config.height, rotate=config.rotate)
    return LumaDisplay(device, pages=PageWriter.for_device(device))


#: The options a display URL takes, and their ranges (as in a rig's ``[display]`` table).
_DISPLAY_OPTIONS: Final = {"width": (1, 512), "height": (1, 512), "rotate": (0, 3),
                           "address": (3, 0x77), "port": (0, 99)}


def _with_spec(config: DisplayConfig, spec: str | None) -> DisplayConfig:
    env_or_spec = choose(spec, ENV_VAR, "")
    if not env_or_spec:
        return config
    parsed = parse_spec(env_or_spec)
    if parsed.scheme not in DISPLAY_KINDS:
        raise UnknownBackend(f"unknown display {parsed.text!r} (known: "
                             f"{', '.join(DISPLAY_KINDS)})")
    parsed.check_options(_DISPLAY_OPTIONS)
    changes: dict[str, Any] = {"kind": parsed.scheme}
    character = parsed.scheme in CHARACTER_DISPLAYS
    if character != config.character:
        changes.update(width=16 if character else 128, height=2 if character else 64,
                       address=0x27 if character else 0x3C)
    if parsed.scheme == "capture":
        if parsed.target:
            changes["directory"] = parsed.target
    elif parsed.target:
        bus, _, address = parsed.target.partition("/")
        changes["port"] = int(bus) if bus.isdigit() and len(bus) <= 2 else _bad(parsed)
        if address:
            in_target = replace(parsed, options={"address": address})
            changes["address"] = in_target.integer("address", 0, *_DISPLAY_OPTIONS["address"])
    for key, (low, high) in _DISPLAY_OPTIONS.items():
        if key in parsed.options:
            changes[key] = parsed.integer(key, 0, low, high)
    return replace(config, **changes)


def _bad(parsed: Spec) -> int:
    raise parsed.fail("the target must be BUS/ADDRESS, an I2C bus number and address "
                      "(e.g. 1/0x3C)")


def _luma(module: str) -> Any:
    try:
        return import_module(module)
    except ImportError as exc:
        raise BackendUnavailable(f"the display needs {module!r}: {exc}") from exc


def _i2c(config: DisplayConfig) -> Any:
    serial = _luma("luma.core.interface.serial")
    error = _luma("luma.core.error")
    make = serial.pcf8574 if config.kind in CHARACTER_DISPLAYS else serial.i2c
    try:
        return make(port=config.port, address=config.address)
    except error.DeviceNotFoundError as exc:
        raise DeviceNotFound(f"{config.kind}: {exc}") from exc
    except (error.DevicePermissionError, error.DeviceAddressError) as exc:
        raise DeviceNotFound(f"{config.kind}: {exc}") from exc
