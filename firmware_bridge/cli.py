"""``gravekeeper sense URL [--rig FILE] [--times] [--record FILE]``: print sensor events.

Events are printed in the EVENTS.md line format as they arrive (the ``<ms>`` column only with
``--times``); link changes appear as ``#`` comment lines. The command stops at the end of a
``replay://`` file, after ``--timeout`` seconds without an event, or on Ctrl-C or SIGTERM
(``kill``): the sensor is closed either way, so a ``sim://`` board's pseudo-terminal and folder
go too. Errors are one line on stderr and exit code 2, never a traceback.

Why the signals are taken explicitly: a process started in the background by a shell script
(``gravekeeper sense sim:// &``) inherits SIGINT ignored, and SIGTERM's default ends the process
without closing anything.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any, NoReturn

from firmware_bridge.errors import BridgeError
from firmware_bridge.events import format_event
from firmware_bridge.factory import open_sensor
from firmware_bridge.rig import load_rig


class _UsageError(BridgeError, ValueError):
    """A bad option or argument, reported as one line like every other error."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{message} (see {self.prog} --help)")


#: Messages are cut to this length (they may quote a huge input back).
MAX_MESSAGE = 300
#: A --timeout longer than a day is a typo (and ``nan`` would wait for ever).
MAX_TIMEOUT = 86_400.0


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:30]!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0 <= value <= MAX_TIMEOUT):
        raise argparse.ArgumentTypeError(f"{text[:30]} is out of range (0 to {MAX_TIMEOUT:g} s)")
    return value


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="gravekeeper sense",
        description="Print a board's sensor events (EVENTS.md format) as they arrive.")
    p.add_argument("url", help="sensor URL: sim://, serial:///dev/ttyACM0, hwgrep://VID:PID, "
                               "socket://host:port, replay://FILE, dgt:///dev/ttyACM0")
    p.add_argument("--rig", help="rig file (TOML) or built-in rig name (standard, deadmans...)")
    p.add_argument("--times", action="store_true", help="print the <ms> time column")
    p.add_argument("--record", metavar="FILE", help="also write the events to FILE "
                                                    "(EVENTS.md, replayable with replay://)")
    p.add_argument("--timeout", type=_seconds, default=None, metavar="S",
                   help="stop after S seconds without an event (default: never)")
    p.add_argument("--fast", action="store_true",
                   help="replay:// files as fast as possible instead of in real time")
    return p


@contextlib.contextmanager
def _signals_interrupt() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise KeyboardInterrupt in the main thread (even
    when SIGINT was inherited ignored); the previous handlers come back after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def sense_main(argv: list[str]) -> int:
    """Run ``gravekeeper sense`` with ``argv`` (without the program name); return the exit
    code: 0 at the end of the stream or on Ctrl-C or SIGTERM, 2 on any error (printed as one
    line)."""
    try:
        args = _parser().parse_args(argv)
        options: dict[str, Any] = {}
        if args.fast and args.url.startswith("replay://"):
            options["speed"] = 0.0
        if args.record is not None:
            if not args.record:
                raise _UsageError("--record needs a file name")
            options["record"] = args.record
        rig = load_rig(args.rig) if args.rig else None
        with _signals_interrupt(), open_sensor(args.url, rig=rig, **options) as sensor:
            for ev in sensor.events(timeout=args.timeout):
                sys.stdout.write(format_event(ev, args.times) + "\n")  # one write: whole lines
                sys.stdout.flush()
    except KeyboardInterrupt:
        return 0
    except BridgeError as exc:
        message = " ".join(str(exc).split())
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 3] + "..."
        print(f"gravekeeper sense: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return 0


def main() -> None:
    """Entry point for ``python -m firmware_bridge.cli``."""
    sys.exit(sense_main(sys.argv[1:]))


if __name__ == "__main__":
    main()
