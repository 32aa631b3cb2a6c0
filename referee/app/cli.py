"""The ``gravekeeper`` command: one entry point, each subcommand in its own module.

``COMMANDS`` maps a subcommand to ``"module:function"``; the module is imported only when the
subcommand runs, so ``gravekeeper check`` never loads the camera code.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from importlib import import_module
from typing import Any, Final

from referee.app.errors import (
    CommandParser,
    fail,
    int_in,
    replace_closed_streams,
    run_command,
    whole_number,
)
from referee.rules.errors import RefereeError

COMMANDS: Final = {
    "check": ("referee.app.cli:check_main", "run conformance scenarios"),
    "perft": ("referee.app.cli:perft_main", "count legal action sequences"),
    "play": ("referee.app.cli:play_main", "play a game in the terminal"),
    "sense": ("firmware_bridge.cli:sense_main", "print a sensor's events"),
    "watch": ("referee.app.watch:watch_main", "referee a game from a sensor"),
    "serve": ("referee.app.serve.main:serve_main", "the web pages and service for one board"),
    "doctor": ("referee.app.doctor:doctor_main", "list the hardware found, in plain words"),
    "run": ("referee.app.run:run_main", "run a board as its rig file says (the Pi's command)"),
    "demo": ("referee.app.demo:demo_main",
             "a demonstration game on the simulated board (or any sensor's), LEDs and display"),
    "vision-eval": ("referee.app.vision_cli:eval_main",
                    "score the camera pipeline on labelled photos"),
    "vision-track": ("referee.app.vision_cli:track_main", "follow a game on video"),
    "hub": ("referee.app.hub.command:hub_main", "the club event's hub: dashboard, PGN broadcast"),
}


def main(argv: list[str] | None = None) -> int:
    """Dispatch to a subcommand; returns the exit status."""
    args = sys.argv[1:] if argv is None else argv
    replace_closed_streams()
    if not args or args[0] in ("-h", "--help", "help"):
        print("usage: gravekeeper COMMAND [ARGS]\n\ncommands:")
        for name, (_, doc) in COMMANDS.items():
            print(f"  {name:13} {doc}")
        return 0 if args else fail("gravekeeper", "name a command (see the list above)")
    name = args[0]
    if name not in COMMANDS:
        return fail("gravekeeper", f"unknown command {name!r} (try: gravekeeper --help)")
    return run_command(f"gravekeeper {name}", _command(name), args[1:])


def _command(name: str) -> Callable[[list[str]], int]:
    """The main function of command ``name``, its module imported only when it runs."""
    module_name, _, func = COMMANDS[name][0].partition(":")

    def run(argv: list[str]) -> int:
        try:
            module = import_module(module_name)
        except ModuleNotFoundError as err:
            if err.name and module_name.startswith(err.name):
                return fail(f"gravekeeper {name}", "not available in this build yet")
            raise
        status: int = getattr(module, func)(argv)
        return status

    return run


def _options(text: str | None) -> dict[str, Any]:
    """The variant options given as a JSON object on the command line."""
    from referee.rules.jsontext import loads

    if not text:
        return {}
    try:
        value = loads(text, RefereeError)
    except RefereeError as err:
        raise RefereeError(f"--options is {err}") from None
    if not isinstance(value, dict):
        raise RefereeError("--options must be a JSON object")
    return value


#: perft deeper than this would not finish in a lifetime (and would exhaust the stack).
MAX_PERFT_DEPTH = 20


def check_main(argv: list[str]) -> int:
    """``gravekeeper check FILE_OR_FOLDER...``"""
    from referee.rules.conformance import check

    parser = CommandParser(prog="gravekeeper check")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args(argv)
    results, status = check(args.paths)
    for result in results:
        for line in result.failures:
            print(line)
    passed = sum(r.passed for r in results)
    print(f"{passed} passed, {len(results) - passed} failed", flush=True)
    invalid = [r for r in results if r.invalid]
    if invalid:  # the one line on stderr; the details are in the report above
        more = f" (and {len(invalid) - 1} more)" if len(invalid) > 1 else ""
        return fail("gravekeeper check", invalid[0].failures[0] + more)
    return status


def perft_main(argv: list[str]) -> int:
    """``gravekeeper perft --variant V [--options JSON] [--moves "a b c"] [--divide] DEPTH``"""
    from referee.rules.game import Game
    from referee.rules.perft import divide, perft

    parser = CommandParser(prog="gravekeeper perft")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--options")
    parser.add_argument("--seed", type=whole_number, default=0)
    parser.add_argument("--moves", default="")
    parser.add_argument("--divide", action="store_true")
    parser.add_argument("depth", type=int_in(0, MAX_PERFT_DEPTH))
    args = parser.parse_args(argv)
    game = Game(args.variant, _options(args.options), seed=args.seed)
    for text in args.moves.split():
        game.play(text)
    if args.divide:
        rows = divide(game.variant, game.state, args.depth)
        for text, count in rows:
            print(f"{text}: {count}")
        print()
        print(sum(c for _, c in rows))
    else:
        print(perft(game.variant, game.state, args.depth))
    return 0


def play_main(argv: list[str]) -> int:
    """``gravekeeper play --variant V [--options JSON] [--seed N] [--load FILE]``"""
    from referee.app.play import TerminalGame
    from referee.rules.errors import RecordError
    from referee.rules.game import Game
    from referee.rules.jsontext import read_text
    from referee.rules.records import GameRecord, replay

    parser = CommandParser(prog="gravekeeper play")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--options")
    parser.add_argument("--seed", type=whole_number, default=0)
    parser.add_argument("--load", help="resume a saved game record")
    args = parser.parse_args(argv)
    if args.load:
        game = replay(GameRecord.from_json(read_text(args.load, RecordError)))
    else:
        game = Game(args.variant, _options(args.options), seed=args.seed)
    if isinstance(sys.stdin, io.TextIOWrapper):  # a line that is not UTF-8 is refused, not fatal
        sys.stdin.reconfigure(errors="replace")
    return TerminalGame(game, sys.stdout).run(sys.stdin)
