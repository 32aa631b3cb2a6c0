"""Open a sensor from a URL, pyserial style.

=====================  ===========================================================
URL                    sensor
=====================  ===========================================================
``sim://?opts``        a :class:`~firmware_bridge.sim.SimulatedBoard` behind a pty
``serial:///dev/X``    a Gravekeeper board on a serial device (``?baud=115200``)
``hwgrep://VID:PID``   the same, found by USB ids (pyserial's hwgrep)
``socket://host:port`` the same, over TCP (e.g. ser2net)
``loop://``            the driver over an in-process loopback (tests)
``replay://PATH``      an EVENTS.md file (``?speed=0`` for as fast as possible)
``dgt:///dev/X``       a DGT e-board (``dgt://sim`` for the built-in emulator)
=====================  ===========================================================

The scheme table maps names to ``"module:function"`` strings imported on first use, so
importing this package opens nothing and loads no driver it does not need.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from firmware_bridge.errors import BadSensorUrl, UnknownScheme
from firmware_bridge.rig import Rig
from firmware_bridge.sensor import Clock, Sensor
from firmware_bridge.urls import Url, shown
from firmware_bridge.urls import parse_url as parse_spec

#: scheme -> "module:builder"; each builder is ``(parsed, rig, clock, options) -> Sensor``.
SCHEMES: Final[Mapping[str, str]] = {
    "sim": "firmware_bridge.factory:_build_sim",
    "serial": "firmware_bridge.factory:_build_serial",
    "hwgrep": "firmware_bridge.factory:_build_serial",
    "socket": "firmware_bridge.factory:_build_serial",
    "loop": "firmware_bridge.factory:_build_loop",
    "replay": "firmware_bridge.factory:_build_replay",
    "dgt": "firmware_bridge.factory:_build_dgt",
}


#: A parsed sensor URL (the one grammar of :mod:`firmware_bridge.urls`; ``url`` is its text).
SensorUrl = Url


def parse_url(url: str) -> SensorUrl:
    """Split a sensor URL (the grammar of :mod:`firmware_bridge.urls`).

    Raises:
        BadSensorUrl: no ``scheme://``, a malformed query, an option given twice.
        UnknownScheme: a scheme not in :data:`SCHEMES`.
    """
    if "://" not in url.partition("?")[0]:
        raise BadSensorUrl(f"{shown(url)!r} is not a sensor URL (expected scheme://..., one of "
                           f"{', '.join(s + '://' for s in SCHEMES)})")
    parsed = parse_spec(url, BadSensorUrl)
    if parsed.scheme not in SCHEMES:
        raise UnknownScheme(f"{shown(url)!r}: unknown sensor scheme {parsed.scheme!r} (known: "
                            f"{', '.join(SCHEMES)})")
    return parsed


def make_sensor(url: str, *, rig: Rig | None = None, clock: Clock = time.monotonic,
                **options: Any) -> Sensor:
    """Build the sensor for ``url`` without opening it (see :func:`open_sensor`)."""
    parsed = parse_url(url)
    module_name, _, func_name = SCHEMES[parsed.scheme].partition(":")
    builder: Callable[..., Sensor] = getattr(importlib.import_module(module_name), func_name)
    return builder(parsed, rig, clock, options)


def open_sensor(url: str, *, rig: Rig | None = None, clock: Clock = time.monotonic,
                **options: Any) -> Sensor:
    """Open the sensor named by ``url`` and return it, already delivering events.

    ``rig`` maps the board's cells to squares (default: the built-in rig matching the board).
    ``clock`` gives monotonic seconds (events' ``t_ms`` count from ``open``). Other keyword
    options go to the driver, e.g. ``speed=0`` for ``replay://``, ``open_timeout=1.0`` for
    boards, ``record=path`` to record every event to an EVENTS.md file.

    Raises:
        UnknownScheme, BadSensorUrl: the URL is not understood.
        BoardNotFound: the device or file does not exist or cannot be opened.
        SensorTimeout: the device opened but the board did not answer.
        RigError: the rig is invalid or does not match the board.
    """
    record = options.pop("record", None)
    sensor = make_sensor(url, rig=rig, clock=clock, **options)
    if record is not None:
        from firmware_bridge.recorder import EventRecorder

        sensor.record_to(EventRecorder(record, header=f"recorded from {shown(url)}"))
    return sensor.open()


# -- builders (imported lazily through SCHEMES) ----------------------------------------------
_BOARD_OPTIONS: Final = ("open_timeout", "ping_interval", "dead_after", "backoff",
                         "wait_connected")


def _board_options(parsed: SensorUrl, options: Mapping[str, Any]) -> dict[str, Any]:
    for key in options:
        if key not in _BOARD_OPTIONS:
            raise parsed.fail(f"unknown option {key!r} for {parsed.scheme}:// "
                               f"(known: {', '.join(_BOARD_OPTIONS)})")
    return dict(options)


def _build_serial(parsed: SensorUrl, rig: Rig | None, clock: Clock,
                  options: Mapping[str, Any]) -> Sensor:
    from firmware_bridge.board import BAUDRATE, BoardSensor, pyserial_factory

    if parsed.scheme == "serial":
        if not parsed.target:
            raise parsed.fail("no device path (e.g. serial:///dev/ttyACM0)")
        target, exclusive = parsed.target, True
    else:
        target = f"{parsed.scheme}://{parsed.target}"
        exclusive = False
    parsed.check_options(("baud",))
    baud = parsed.integer("baud", BAUDRATE, 1, MAX_BAUD)
    factory = pyserial_factory(parsed.text, target, baudrate=baud, exclusive=exclusive)
    return BoardSensor(parsed.text, factory, rig=rig, clock=clock,
                       **_board_options(parsed, options))


def _build_loop(parsed: SensorUrl, rig: Rig | None, clock: Clock,
                options: Mapping[str, Any]) -> Sensor:
    from firmware_bridge.board import LoopbackSensor

    return LoopbackSensor(parsed.text, rig=rig, clock=clock, **_board_options(parsed, options))


def _build_sim(parsed: SensorUrl, rig: Rig | None, clock: Clock,
               options: Mapping[str, Any]) -> Sensor:
    from firmware_bridge.sim import build_sim

    if parsed.target not in ("", "board"):
        raise parsed.fail(f"write sim://?options (got {parsed.target!r})")
    return build_sim(parsed, rig, clock, _board_options(parsed, options))


def _build_replay(parsed: SensorUrl, rig: Rig | None, clock: Clock,
                  options: Mapping[str, Any]) -> Sensor:
    from firmware_bridge.replay import ReplaySensor

    if not parsed.target:
        raise parsed.fail("no file (e.g. replay://game.events)")
    parsed.check_options(("speed",))
    for key in options:
        if key not in ("speed", "wait"):
            raise parsed.fail(f"unknown option {key!r} for replay:// "
                               "(known: speed, wait)")
    speed = options.get("speed", parsed.number("speed", 1.0, 0.0, MAX_SPEED))
    if not (speed == 0 or MIN_SPEED <= speed <= MAX_SPEED):
        raise parsed.fail(f"option speed={speed:g} is out of range (0 for as fast as "
                          f"possible, or {MIN_SPEED:g} to {MAX_SPEED:g} times real time)")
    return ReplaySensor(parsed.text, parsed.target, speed=float(speed), clock=clock,
                        wait=options.get("wait"))


#: Serial speeds pyserial and USB CDC accept; beyond this a number is a typo.
MAX_BAUD: Final = 4_000_000
#: replay:// speeds: slower than 1/1000 of real time would look like a hang.
MIN_SPEED: Final = 0.001
MAX_SPEED: Final = 1_000_000.0


def _build_dgt(parsed: SensorUrl, rig: Rig | None, clock: Clock,
               options: Mapping[str, Any]) -> Sensor:
    """``dgt://sim`` is our emulator; any other target is a real DGT board."""
    if parsed.target in ("sim", "sim/"):
        from firmware_bridge.dgt_sim import build_dgt_sim

        return build_dgt_sim(parsed, rig, clock, options)
    from firmware_bridge.dgt import build_dgt

    return build_dgt(parsed, rig, clock, options)  # type: ignore[no-any-return]
