"""One style of command-line error handling for every ``gravekeeper`` command.

Why: a user who mistypes a file name, points at a binary file, pastes 30,000 letters or presses
Ctrl-C must get one clear line and exit code 2 (BRIEF: "bad input gets ONE clear line on stderr
and loses nothing"), never a Python traceback. Commands used to carry their own try/excepts, each
catching a different subset, and the gaps were where the tracebacks came from. Now every
command runs through :func:`run_command`, which maps the project's error classes and the
builtin errors bad input raises (``OSError``, ``UnicodeDecodeError``, ``ValueError``,
``RecursionError``...) to one line; and every command parser is a :class:`CommandParser`, whose
usage errors are one line too (argparse prints the usage block and a second line).

Commands still handle errors themselves where they have something to keep (``watch`` prints
its summary); this is the net below them.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import NoReturn

from firmware_bridge.errors import BridgeError
from hardware.errors import HardwareError
from referee.rules.errors import RefereeError
from vision.errors import VisionError

#: Messages longer than this are cut (they may quote a huge input back).
MAX_MESSAGE = 300

#: Exit status for bad input and for anything the command refuses.
BAD_INPUT = 2
#: Exit status after Ctrl-C (the shell convention 128 + SIGINT).
INTERRUPTED = 130


class UsageError(ValueError):
    """A command-line usage error: a bad option or argument (reported as one line)."""


#: The project's own error classes: each already names its problem.
EXPECTED = (RefereeError, BridgeError, VisionError, HardwareError, UsageError)


class CommandParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors raise :class:`UsageError` instead of printing usage
    and exiting, so that :func:`run_command` reports them as one line."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def describe(err: BaseException) -> str:
    """One line saying what went wrong, without Python jargon where we can avoid it."""
    if isinstance(err, UnicodeDecodeError):
        text = f"not UTF-8 text (byte 0x{err.object[err.start]:02x} at position {err.start})"
    elif isinstance(err, RecursionError):
        text = "input nested too deeply"
    elif isinstance(err, MemoryError):
        text = "input too large"
    elif isinstance(err, OSError) and not isinstance(err, (BridgeError, VisionError)) \
            and err.strerror:
        where = err.filename if err.filename is not None else ""
        text = f"{err.strerror}: {where}" if where != "" else err.strerror
    else:
        text = str(err) or type(err).__name__
    return one_line(text)


def one_line(text: str) -> str:
    """``text`` on one line, cut to :data:`MAX_MESSAGE` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_MESSAGE else flat[: MAX_MESSAGE - 3] + "..."


def fail(prog: str, err: BaseException | str) -> int:
    """Print ``prog: problem`` as one line on stderr; returns :data:`BAD_INPUT`."""
    message = one_line(err) if isinstance(err, str) else describe(err)
    sys.stderr.write(f"{prog}: {message}\n")
    sys.stderr.flush()
    return BAD_INPUT


def run_command(prog: str, func: Callable[[list[str]], int], argv: list[str]) -> int:
    """Run a command's main function; every bad input becomes one line and exit code 2.

    Ctrl-C ends quietly with 130; a closed output pipe (``| head -1``) ends quietly with 0.
    """
    replace_closed_streams()
    try:
        status = func(argv)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except (*EXPECTED, OSError, UnicodeError, ValueError, RecursionError, MemoryError,
            OverflowError) as err:
        return fail(prog, err)


def replace_closed_streams() -> None:
    """Started with a standard stream closed (``>&-``, ``<&-``), Python sets it to None and
    the first print or read would crash: read nothing from and write nothing to /dev/null."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (lives as long as we do)
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush does
    not print "Exception ignored ... BrokenPipeError"."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


# -- argparse types for numbers with a sane range ---------------------------------------------

def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type`` accepting whole numbers in ``low..high``."""

    def parse(text: str) -> int:
        if len(text) > 30:
            raise argparse.ArgumentTypeError(f"{text[:20]}...: not a number from {low} to {high}")
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range ({low} to {high})")
        return value

    return parse


def float_in(low: float, high: float) -> Callable[[str], float]:
    """An argparse ``type`` accepting finite numbers in ``low..high`` (no nan, no inf)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:30]!r} is not a number") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text[:30]} is out of range ({low:g} to {high:g})")
        return value

    return parse


def whole_number(text: str) -> int:
    """An argparse ``type`` for any whole number of a sane length (seeds)."""
    return int_in(-(2**63), 2**63 - 1)(text)

