"""Gravekeeper hardware: what the players see and press.

* :mod:`hardware.leds` - per-square LEDs: scenes, the visual language, backends by name
  (``board``, ``ws281x``, ``gpio``, ``mock``), one blinking timer.
* :mod:`hardware.display` - the shared screen: the Screen model, OLED/LCD rendering, luma
  backends (``ssd1306``, ``sh1106``, ``hd44780``, ``dummy``, ``capture``).
* :mod:`hardware.buttons` - one debounced stream of presses from GPIO and the sensor board.
* :mod:`hardware.clock` - the chess clock (increment, simple/Bronstein delay, pauses, flags).
* :mod:`referee.app.present` - game events to a scene and a screen, hidden events dropped.
* :mod:`hardware.config` - validated settings from the rig file.

Importing this package opens no hardware and imports neither gpiozero, luma nor rpi_ws281x.
"""

from hardware.errors import (
    BackendUnavailable,
    ConfigError,
    DeviceClosed,
    DeviceNotFound,
    HardwareError,
    UnknownBackend,
)

__all__ = [
    "BackendUnavailable", "ConfigError", "DeviceClosed", "DeviceNotFound", "HardwareError",
    "UnknownBackend",
]
