"""``gravekeeper watch SENSOR_URL --variant V``: referee a game from a sensor.

Prints every recognised action on its own line in canonical NOTATION.md form as soon as it is
certain. Everything else (illegal moves, unknown positions, corrections, prompts, the closing
summary) is printed on lines starting with ``# `` so that the action lines can be read as a
plain move list.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from firmware_bridge.errors import BridgeError, SensorTimeout
from firmware_bridge.rig import load_rig
from referee.app.camera import open_sensor as open_app_sensor
from referee.live.journal import open_journal
from referee.live.session import Referee, Update
from referee.rules.errors import RefereeError
from referee.rules.game import Game


class TextOutput:
    """A subscriber that writes updates as watch lines."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def __call__(self, update: Update) -> None:
        line = update.text if update.kind == "action" else f"# {update.kind}: {update.text}"
        self.out.write(line + "\n")
        self.out.flush()


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``gravekeeper watch``."""
    parser = argparse.ArgumentParser(prog="gravekeeper watch")
    parser.add_argument("url", help="sensor URL: replay://FILE, sim://..., serial://..., dgt://...")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--options", help="variant options as a JSON object")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rig", help="rig file (TOML) mapping the board to squares")
    parser.add_argument("--settle", type=int, default=150, help="stillness before judging, ms")
    parser.add_argument("--clock-confirm", action="store_true",
                        help="recognise a move only when its player presses the clock")
    parser.add_argument("--private", default="",
                        help="off-board choices to use in order (e.g. 'bury=b2 bury=e8')")
    parser.add_argument("--realtime", action="store_true",
                        help="replay files at their own pace instead of as fast as possible")
    parser.add_argument("--journal", help="write every action here at once; if the file "
                        "already holds this game, resume it (after a crash or power cut)")
    return parser


def watch_main(argv: list[str]) -> int:
    """Entry point; returns the exit status (2 for bad arguments or an unusable sensor)."""
    from referee.app.cli import _options

    args = build_parser().parse_args(argv)
    journal = None
    try:
        game = Game(args.variant, _options(args.options), seed=args.seed)
        rig = load_rig(args.rig) if args.rig else None
        if args.journal:
            journal, game = open_journal(args.journal, game)
    except (RefereeError, BridgeError, OSError) as err:
        print(f"gravekeeper watch: {err}", file=sys.stderr)
        return 2
    out = TextOutput(sys.stdout)
    if game.played:
        out.out.write(f"# resumed from {args.journal} after {len(game.played)} actions\n")
    referee = Referee(game, [out], private=args.private.split(), settle_ms=args.settle,
                      confirm_with_clock=args.clock_confirm, journal=journal)
    options = {"speed": 1.0 if args.realtime else 0.0} if args.url.startswith("replay:") else {}
    try:
        run(referee, args.url, rig, options)
    except BridgeError as err:
        print(f"gravekeeper watch: {err}", file=sys.stderr)
        summary(referee, sys.stdout)
        return 2
    except KeyboardInterrupt:
        pass
    finally:
        if journal is not None:
            journal.close()
    summary(referee, sys.stdout)
    return 0


def run(referee: Referee, url: str, rig: object, options: dict[str, float]) -> None:
    """Feed every event of the sensor at ``url`` to ``referee`` until the stream ends."""
    referee.start()
    with open_app_sensor(url, referee.game, rig=rig, **options) as sensor:
        start = time.monotonic()
        while True:
            try:
                event = sensor.get(timeout=0.1)
            except SensorTimeout:  # a quiet board: let held moves and settling time run
                referee.tick(int((time.monotonic() - start) * 1000))
                continue
            if event is None:
                break
            referee.feed(event)
    referee.finish()


def summary(referee: Referee, out: TextIO) -> None:
    """The closing lines: counts, result, final position."""
    game = referee.game
    end = game.outcome
    result = f"{end.result} ({end.reason})" if end.result != "*" else "* (game goes on)"
    out.write(f"# summary: {referee.stats.actions} actions, {referee.stats.problems} problems, "
              f"result {result}\n")
    out.write(f"# moves: {' '.join(game.action_texts())}\n")
