"""Settings of the LEDs, the display and the buttons, validated, from a rig or a plain mapping.

The rig file (``firmware_bridge.rig``, docs/rig.md) keeps its ``[leds]`` and ``[display]``
tables and its ``[buttons]`` (board button index per name) as plain data for this package.
:func:`config_from_rig` turns a loaded rig into a :class:`HardwareConfig`;
:func:`config_from_mapping` does the same from any mapping shaped like the TOML::

    [leds]
    kind = "ws2812"          # board | ws281x (alias ws2812, neopixel) | gpio | mock
    order = "GRB"            # colour order of the chips
    brightness = 0.4         # 0..1
    pin = 18                 # ws281x data pin (BCM)
    chain = ["main", "hell"] # rig modules in wiring order
    fps = 25                 # most redraws per second
    pins = { e4 = 17 }       # gpio: square -> pin
    [display]
    kind = "ssd1306"         # ssd1306 | sh1106 | hd44780 | dummy | capture
    width = 128              # pixels (characters for hd44780)
    height = 64
    address = 0x3C
    port = 1                 # I2C bus number
    rotate = 0               # 0..3, quarter turns
    [buttons]                # buttons wired to the sensor board: name = board index
    confirm = 2
    [gpio_buttons]           # buttons wired to the Pi: name = pin; bounce_time in seconds
    confirm = 17
    bounce_time = 0.05

Every error is a :class:`~hardware.errors.ConfigError` naming the source and the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from hardware.errors import ConfigError

#: Button names (the same as ``firmware_bridge.events.BUTTON_NAMES``).
BUTTON_NAMES: Final = ("clock-white", "clock-black", "confirm", "back", "roll")
#: LED backend names and their aliases.
LED_KINDS: Final = ("board", "ws281x", "gpio", "mock")
LED_ALIASES: Final = {"ws2812": "ws281x", "ws2812b": "ws281x", "neopixel": "ws281x",
                      "sensor": "board"}
#: Display backend names; the character ones measure width/height in characters.
DISPLAY_KINDS: Final = ("ssd1306", "sh1106", "hd44780", "dummy", "capture")
CHARACTER_DISPLAYS: Final = ("hd44780",)
CHARACTER_SIZES: Final = ((16, 2), (16, 4), (20, 2), (20, 4))


def _frozen(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class LedConfig:
    """LED settings; see the module docstring for the keys. ``brightness`` is 0..1."""

    kind: str = "mock"
    brightness: float = 0.4
    order: str = "GRB"
    pin: int = 18
    chain: tuple[str, ...] = ()
    fps: float = 25.0
    pins: Mapping[str, int | str] = field(default_factory=lambda: _frozen({}))
    pwm: bool = True


@dataclass(frozen=True)
class DisplayConfig:
    """Display settings. ``width``/``height`` are pixels, or characters for a character LCD;
    ``address`` is the I2C address, ``port`` the I2C bus, ``rotate`` quarter turns (0..3),
    ``directory`` where ``capture`` writes its PNGs."""

    kind: str = "dummy"
    width: int = 128
    height: int = 64
    address: int = 0x3C
    port: int = 1
    rotate: int = 0
    directory: str = "captures"

    @property
    def character(self) -> bool:
        """Whether this is a character LCD (text only)."""
        return self.kind in CHARACTER_DISPLAYS


@dataclass(frozen=True)
class ButtonConfig:
    """Buttons: ``board`` maps a sensor-board button index to a name, ``gpio`` a name to a Pi
    pin. ``bounce_time`` (s) is gpiozero's debounce; ``debounce`` (s) the minimum time between
    two accepted presses of one button, from either source."""

    board: Mapping[int, str] = field(default_factory=lambda: _frozen({}))
    gpio: Mapping[str, int | str] = field(default_factory=lambda: _frozen({}))
    bounce_time: float = 0.05
    pull_up: bool = True
    debounce: float = 0.15


@dataclass(frozen=True)
class HardwareConfig:
    """Everything :mod:`hardware` needs to open its devices."""

    leds: LedConfig = field(default_factory=LedConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonConfig = field(default_factory=ButtonConfig)


class _Reader:
    """Typed access to one table, with errors naming ``source`` and ``where``."""

    def __init__(self, table: Any, source: str, where: str, known: tuple[str, ...]) -> None:
        if not isinstance(table, Mapping):
            raise ConfigError(f"{source}: {where}: expected a table, got {table!r}")
        for key in table:
            if key not in known:
                raise ConfigError(f"{source}: {where}.{key}: unknown key (expected one of "
                                  f"{', '.join(known)})")
        self.table, self.source, self.where = table, source, where

    def error(self, key: str, message: str) -> ConfigError:
        return ConfigError(f"{self.source}: {self.where}.{key}: {message}")

    def get(self, key: str, types: tuple[type, ...], default: Any) -> Any:
        value = self.table.get(key, default)
        if value is default:
            return value
        if not isinstance(value, types) or isinstance(value, bool) and bool not in types:
            names = " or ".join(t.__name__ for t in types)
            raise self.error(key, f"expected {names}, got {value!r}")
        return value

    def number(self, key: str, default: float, low: float, high: float) -> float:
        value = float(self.get(key, (int, float), default))
        if not low <= value <= high:
            raise self.error(key, f"must be between {low:g} and {high:g}, got {value:g}")
        return value


def led_config(table: Mapping[str, Any], source: str = "<config>") -> LedConfig:
    """Validate a ``[leds]`` table.

    Raises:
        ConfigError: an unknown key or kind, a value of the wrong type or out of range.
    """
    r = _Reader(table, source, "leds", ("kind", "brightness", "order", "pin", "chain", "fps",
                                        "pins", "pwm"))
    kind = canonical_led_kind(r.get("kind", (str,), "mock"), r)
    order = r.get("order", (str,), "GRB").upper()
    if sorted(order) != ["B", "G", "R"]:
        raise r.error("order", f"must be a permutation of RGB such as GRB, got {order!r}")
    chain = r.get("chain", (list, tuple), ())
    if not all(isinstance(m, str) for m in chain):
        raise r.error("chain", "expected a list of module names")
    return LedConfig(kind=kind, brightness=r.number("brightness", 0.4, 0.0, 1.0), order=order,
                     pin=int(r.number("pin", 18, 0, 53)), chain=tuple(chain),
                     fps=r.number("fps", 25.0, 1.0, 200.0), pins=_pins(r),
                     pwm=r.get("pwm", (bool,), True))


def canonical_led_kind(kind: str, reader: _Reader | None = None) -> str:
    """The backend name for ``kind`` (aliases such as ``ws2812`` resolved).

    Raises:
        ConfigError: not an LED backend name.
    """
    name = LED_ALIASES.get(kind.lower(), kind.lower())
    if name not in LED_KINDS:
        message = f"unknown LED backend {kind!r} (expected one of {', '.join(LED_KINDS)})"
        raise reader.error("kind", message) if reader else ConfigError(message)
    return name


def _pins(r: _Reader) -> Mapping[str, int | str]:
    pins = r.get("pins", (Mapping,), {})
    for square, pin in pins.items():
        if isinstance(pin, bool) or not isinstance(pin, (int, str)):
            raise r.error(f"pins.{square}", f"expected a pin number or name, got {pin!r}")
    return _frozen(pins)


def display_config(table: Mapping[str, Any], source: str = "<config>") -> DisplayConfig:
    """Validate a ``[display]`` table (sizes default by kind: 128x64, or 16x2 characters).

    Raises:
        ConfigError: an unknown key or kind, a bad size, address, port or rotation.
    """
    r = _Reader(table, source, "display", ("kind", "width", "height", "address", "port",
                                           "rotate", "interface", "directory"))
    kind = r.get("kind", (str,), "dummy").lower()
    if kind not in DISPLAY_KINDS:
        raise r.error("kind", f"unknown display {kind!r} (expected one of "
                              f"{', '.join(DISPLAY_KINDS)})")
    character = kind in CHARACTER_DISPLAYS
    width = r.get("width", (int,), 16 if character else 128)
    height = r.get("height", (int,), 2 if character else 64)
    if character and (width, height) not in CHARACTER_SIZES:
        raise r.error("width", f"a character LCD is 16x2, 16x4, 20x2 or 20x4, not "
                               f"{width}x{height}")
    if not character and not (32 <= width <= 512 and 16 <= height <= 512):
        raise r.error("width", f"{width}x{height} pixels is not a display size")
    if r.get("interface", (str,), "i2c") != "i2c":
        raise r.error("interface", "only i2c is supported")
    return DisplayConfig(kind=kind, width=width, height=height,
                         address=int(r.number("address", 0x27 if character else 0x3C, 3,
                                              0x77)),
                         port=int(r.number("port", 1, 0, 99)),
                         rotate=int(r.number("rotate", 0, 0, 3)),
                         directory=r.get("directory", (str,), "captures"))


def button_config(board: Mapping[Any, Any], gpio: Mapping[str, Any],
                  source: str = "<config>") -> ButtonConfig:
    """Validate the board buttons (name -> index, or index -> name as a loaded rig keeps them)
    and the ``[gpio_buttons]`` table (name -> pin, plus ``bounce_time``, ``pull_up``,
    ``debounce``).

    Raises:
        ConfigError: an unknown button name, a bad index or pin, a duplicate.
    """
    by_index: dict[int, str] = {}
    for key, value in board.items():
        name, index = (value, key) if isinstance(key, int) else (key, value)
        _check_button(name, source, "buttons")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= 255:
            raise ConfigError(f"{source}: buttons.{name}: expected a board index 0..255")
        if index in by_index:
            raise ConfigError(f"{source}: buttons.{name}: index {index} is already "
                              f"{by_index[index]!r}")
        by_index[index] = name
    r = _Reader(gpio, source, "gpio_buttons", (*BUTTON_NAMES, "bounce_time", "pull_up",
                                               "debounce"))
    pins = {n: p for n, p in gpio.items() if n in BUTTON_NAMES}
    for name, pin in pins.items():
        if isinstance(pin, bool) or not isinstance(pin, (int, str)):
            raise r.error(name, f"expected a pin number or name, got {pin!r}")
    return ButtonConfig(board=_frozen(by_index), gpio=_frozen(pins),
                        bounce_time=r.number("bounce_time", 0.05, 0.0, 1.0),
                        pull_up=r.get("pull_up", (bool,), True),
                        debounce=r.number("debounce", 0.15, 0.0, 5.0))


def _check_button(name: object, source: str, where: str) -> None:
    if name not in BUTTON_NAMES:
        raise ConfigError(f"{source}: {where}.{name}: unknown button (expected one of "
                          f"{', '.join(BUTTON_NAMES)})")


def config_from_mapping(data: Mapping[str, Any], source: str = "<config>") -> HardwareConfig:
    """A :class:`HardwareConfig` from a mapping with optional ``leds``, ``display``,
    ``buttons`` and ``gpio_buttons`` tables (other keys, e.g. a rig's modules, are ignored).

    Raises:
        ConfigError: any invalid table; the message names ``source`` and the key.
    """
    return HardwareConfig(
        leds=led_config(data.get("leds", {}), source),
        display=display_config(data.get("display", {}), source),
        buttons=button_config(data.get("buttons", {}), data.get("gpio_buttons", {}), source),
    )


def config_from_rig(rig: Any, gpio_buttons: Mapping[str, Any] | None = None) -> HardwareConfig:
    """A :class:`HardwareConfig` from a loaded ``firmware_bridge.rig.Rig`` (duck-typed: its
    ``leds``, ``display``, ``buttons``, ``gpio_buttons`` and ``source``). ``gpio_buttons``
    given here replaces the rig's own ``[gpio_buttons]`` table.

    Raises:
        ConfigError: the rig's hardware tables are invalid for this package.
    """
    source = str(getattr(rig, "source", "<rig>"))
    return config_from_mapping({"leds": dict(rig.leds), "display": dict(rig.display),
                                "buttons": dict(rig.buttons),
                                "gpio_buttons": dict(gpio_buttons if gpio_buttons is not None
                                                     else getattr(rig, "gpio_buttons", {}))},
                              source)
