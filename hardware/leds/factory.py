"""Open an LED backend by name or URL, gpiozero-style.

The name comes from the ``spec`` argument, else the ``GRAVEKEEPER_LEDS`` environment variable,
else the rig's ``[leds] kind``. Known names (aliases: ``ws2812``/``neopixel`` -> ``ws281x``,
``sensor`` -> ``board``):

* ``mock`` - records frames in memory (:class:`~hardware.leds.backends.MockLeds`)
* ``board`` - the sensor board's LEDs over the protocol; needs ``sink=`` (a Sensor)
* ``ws281x://?pin=18&brightness=0.3&order=GRB`` - a WS2812 chain on the Pi
* ``gpio://?pwm=0`` - single-colour LEDs, pins from ``[leds] pins``

Each backend module is imported only when asked for, from a constant name -> "module:Class" map.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import import_module
from typing import Any, Final

from hardware.config import LedConfig, canonical_led_kind
from hardware.errors import ConfigError, UnknownBackend
from hardware.leds.backends import LedBackend, LedSink
from hardware.leds.player import LedPlayer
from hardware.timer import Clock, Wait, event_wait, monotonic
from hardware.urls import choose, parse_spec

#: Environment variable that overrides the configured LED backend.
ENV_VAR: Final = "GRAVEKEEPER_LEDS"
#: Backend name -> "module:Class".
BACKENDS: Final[Mapping[str, str]] = {
    "mock": "hardware.leds.backends:MockLeds",
    "board": "hardware.leds.backends:BoardLeds",
    "ws281x": "hardware.leds.backends:Ws281xLeds",
    "gpio": "hardware.leds.backends:GpioLeds",
}


def open_leds(spec: str | None = None, *, config: LedConfig | None = None,
              sink: LedSink | None = None, rig: Any = None, squares: Iterable[str] = (),
              clock: Clock = monotonic, pin_factory: Any = None,
              module: Any = None) -> LedBackend:
    """Open the LED backend named by ``spec`` / ``$GRAVEKEEPER_LEDS`` / ``config.kind``.

    ``rig`` (a ``firmware_bridge`` Rig) maps squares to ws281x pixels in ``config.chain``
    order and lists the squares that have LEDs; ``squares`` does the latter without a rig.
    ``pin_factory`` (gpiozero) and ``module`` (a stand-in for ``rpi_ws281x``) are for tests.

    Raises:
        UnknownBackend: no such backend. ConfigError: a bad option, or ``board`` with no
        ``sink``. BackendUnavailable / DeviceNotFound: the hardware cannot be opened here.
    """
    config = config or LedConfig()
    parsed = parse_spec(choose(spec, ENV_VAR, config.kind))
    try:
        kind = canonical_led_kind(parsed.scheme)
    except ConfigError:
        raise UnknownBackend(f"unknown LED backend {parsed.text!r} (known: "
                             f"{', '.join(BACKENDS)})") from None
    parsed.check_options(_LED_OPTIONS[kind])
    all_squares = tuple(squares) or _rig_squares(rig)
    cls = _backend_class(kind)
    if kind == "mock":
        return cls(all_squares, clock=clock)  # type: ignore[no-any-return]
    if kind == "board":
        if sink is None:
            raise ConfigError("the board LED backend needs the sensor: open_leds('board', "
                              "sink=sensor)")
        return cls(sink, frozenset(all_squares) or None)  # type: ignore[no-any-return]
    if kind == "ws281x":
        order = parsed.options.get("order", config.order).upper()
        if sorted(order) != ["B", "G", "R"]:
            raise parsed.fail(f"option order={order!r} is not an order of R, G and B "
                              "(e.g. GRB)")
        return cls(_pixels(rig, config), pin=parsed.integer("pin", config.pin, 0, 53),  # type: ignore[no-any-return]
                   brightness=parsed.number("brightness", config.brightness, 0.0, 1.0),
                   order=order, module=module).open()
    pwm = parsed.flag("pwm", config.pwm)
    return cls(dict(config.pins), pwm=pwm, pin_factory=pin_factory).open()  # type: ignore[no-any-return]


#: The URL options of each LED backend (ranges as in a rig's ``[leds]`` table).
_LED_OPTIONS: Final[Mapping[str, tuple[str, ...]]] = {
    "mock": (), "board": (), "ws281x": ("pin", "brightness", "order"), "gpio": ("pwm",)}


def open_player(spec: str | None = None, *, config: LedConfig | None = None,
                clock: Clock = monotonic, wait: Wait = event_wait, **kwargs: Any) -> LedPlayer:
    """An :class:`LedPlayer` over :func:`open_leds` (same arguments).

    The player scales frames by ``config.brightness``, except for ws281x (the chip does it)
    and mock (which records full values for pictures and tests).
    """
    config = config or LedConfig()
    backend = open_leds(spec, config=config, clock=clock, **kwargs)
    unscaled = type(backend).__name__ in ("Ws281xLeds", "MockLeds")
    return LedPlayer(backend, brightness=1.0 if unscaled else config.brightness,
                     max_fps=config.fps, clock=clock, wait=wait)


def _backend_class(kind: str) -> Any:
    module_name, _, class_name = BACKENDS[kind].partition(":")
    return getattr(import_module(module_name), class_name)


def _rig_squares(rig: Any) -> tuple[str, ...]:
    if rig is None:
        return ()
    return tuple(sq for m in rig.modules for sq in m.cells if sq is not None)


def _pixels(rig: Any, config: LedConfig) -> dict[str, int]:
    """Square -> pixel index along the chain: the rig's modules in ``config.chain`` order
    (all modules in rig order when empty), each module's cells in cell order. Without a rig:
    one 8x8 board, a1 = 0, b1 = 1, ..., h8 = 63.

    Raises:
        ConfigError: a chain naming a module the rig does not have.
    """
    if rig is None:
        return {f"{f}{r}": (r - 1) * 8 + i for r in range(1, 9) for i, f in enumerate("abcdefgh")}
    modules = {m.name: m for m in rig.modules}
    order = config.chain or tuple(modules)
    pixels: dict[str, int] = {}
    offset = 0
    for name in order:
        if name not in modules:
            raise ConfigError(f"leds.chain: the rig has no module {name!r}")
        for i, square in enumerate(modules[name].cells):
            if square is not None:
                pixels[square] = offset + i
        offset += len(modules[name].cells)
    return pixels

