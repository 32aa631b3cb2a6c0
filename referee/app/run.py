"""``gravekeeper run --rig FILE``: the one command a Raspberry Pi runs for a board.

The rig file says everything: the sensor URL (``sensor = "serial:///dev/ttyACM0"``), the
board's modules and buttons, the LEDs, the display, Pi buttons, and the game's defaults in a
``[game]`` table (docs/rig.md)::

    sensor = "serial:///dev/ttyACM0"
    [game]
    variant = "deadmans"
    options = { "dmc.pawn_home" = "any_vacant" }
    clock = "15+10"          # time control; omit for none
    settle = 150             # ms
    clock_confirm = false
    journal = "/var/lib/gravekeeper/game.jsonl"

Command-line options override the rig's. The session is :mod:`referee.app.runner`'s, the same
as ``watch``'s; the output is ``watch``'s.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any, Final

from firmware_bridge.errors import BridgeError
from firmware_bridge.rig import Rig, load_rig
from referee.app.errors import CommandParser
from referee.app.runner import SessionSettings, add_board_arguments
from referee.app.watch import run_live
from referee.rules.errors import RefereeError

GAME_KEYS: Final = ("variant", "options", "seed", "clock", "settle", "clock_confirm", "journal",
                    "private")


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``gravekeeper run``."""
    parser = CommandParser(prog="gravekeeper run")
    parser.add_argument("--rig", required=True, help="rig file (TOML) naming the sensor, "
                        "LEDs, display, buttons and game defaults")
    parser.add_argument("--sensor", help="sensor URL instead of the rig's")
    parser.add_argument("--variant", help="variant instead of the rig's")
    parser.add_argument("--options", help="variant options (JSON) instead of the rig's")
    parser.add_argument("--journal", help="journal file instead of the rig's")
    add_board_arguments(parser)
    return parser


def settings_from_rig(rig: Rig, args: argparse.Namespace
                      ) -> tuple[str, SessionSettings, str | None]:
    """(sensor URL, session settings, journal path) from the rig, overridden by ``args``.

    Raises:
        RefereeError: no sensor URL, or a ``[game]`` key or value that is not understood.
    """
    from referee.app.cli import _options

    game: Mapping[str, Any] = rig.game
    for key in game:
        if key not in GAME_KEYS:
            raise RefereeError(f"{rig.source}: game.{key}: unknown key (expected one of "
                               f"{', '.join(GAME_KEYS)})")
    url = args.sensor or rig.sensor
    if not url:
        raise RefereeError(f"{rig.source}: no sensor: write sensor = \"serial:///dev/ttyACM0\" "
                           "(or give --sensor URL)")
    options = _options(args.options) if args.options else dict(_table(rig, "options", dict, {}))
    journal = args.journal or _table(rig, "journal", str, None)
    private = _table(rig, "private", str, "")
    settings = SessionSettings(
        variant=args.variant or _table(rig, "variant", str, rig.name if rig.name in _variants()
                                       else "standard"),
        options=json.loads(json.dumps(options)), seed=_table(rig, "seed", int, 0),
        settle_ms=_table(rig, "settle", int, 150),
        clock_confirm=_table(rig, "clock_confirm", bool, False),
        private=tuple(private.split()), time_control=args.clock or _table(rig, "clock", str, None),
        leds=args.leds, display=args.display)
    return url, settings, journal


def _table(rig: Rig, key: str, typ: type, default: Any) -> Any:
    value = rig.game.get(key, default)
    if value is not default and (not isinstance(value, typ) or
                                 (typ is int and isinstance(value, bool))):
        raise RefereeError(f"{rig.source}: game.{key}: expected {typ.__name__}, got {value!r}")
    return value


def _variants() -> tuple[str, ...]:
    from referee.rules.variants import VARIANTS

    return tuple(VARIANTS)


def run_main(argv: list[str]) -> int:
    """Entry point; returns the exit status (2 for a bad rig or an unusable device)."""
    args = build_parser().parse_args(argv)
    try:
        rig = load_rig(args.rig)
        url, settings, journal = settings_from_rig(rig, args)
    except (RefereeError, BridgeError) as err:
        sys.stderr.write(f"gravekeeper run: {err}\n")
        return 2
    return run_live(url, settings, rig, journal, command="run", hub=args.hub, board=args.board)
