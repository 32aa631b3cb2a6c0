"""Typed sensor events and the EVENTS.md line format.

Every event a board reports is a frozen dataclass deriving from :class:`SensorEvent` and carries
``t_ms``: milliseconds since the start of the stream (the sensor's ``open()`` for live boards,
the recording's origin for ``replay://``). Squares are NOTATION.md strings (``e4``,
``hell:d1``, ``a0``, ``limbo``, ``hours:b2``).

The text form, one event per line (see ``shared/sensing/EVENTS.md``)::

    <ms> lift <square>
    <ms> place <square> [<piece>]
    <ms> occupied <square>[=<colour>] <square>[=<colour>] ...
    <ms> button <name>
    <ms> die <n>

An ``occupied`` square may carry the colour of the piece on it, ``w`` or ``b`` (``e4=w``,
``hell:d1=b``), when the sensor can tell it (a camera). Why ``=``: ``:`` already prefixes the
region (``hell:d1``), and a square without ``=`` is exactly the line of a sensor that sees
occupancy only, so every plain ``occupied`` line parses and is written as before. Colours are
evidence, never required: a square without one says nothing about its piece. Colours let the
referee see a capture made without lifting the victim (the square stays occupied, its colour
changes) and rule out outcomes the colours contradict (docs/inference.md).

:class:`LinkState`, :class:`Withdraw` and :class:`Notice` are not part of that format:
:func:`format_event` writes them as ``#`` comment lines, which readers ignore, so a recording
keeps a trace of disconnects, withdrawals and notices without changing the replayed stream.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Final

from firmware_bridge.errors import EventFormatError

#: Names of the physical buttons, as written in event files.
BUTTON_NAMES: Final = ("clock-white", "clock-black", "confirm", "back", "roll")

#: Link states reported by :class:`LinkState`.
LINK_STATES: Final = ("connected", "reconnecting", "closed")

#: Piece colours an ``occupied`` square may carry: white, black.
COLOURS: Final = ("w", "b")

_NO_COLOURS: Final[Mapping[str, str]] = MappingProxyType({})

# A square: optional lower-case region prefix, then a file letter and a rank digit; or `limbo`.
_SQUARE_RE: Final = re.compile(r"(?:[a-z]+:)?[a-z][0-9]|limbo")
_PIECE_RE: Final = re.compile(r"[A-Za-z]")


def is_square(text: str) -> bool:
    """Return True if ``text`` has the syntax of a NOTATION.md square (``e4``, ``hell:d1``)."""
    return _SQUARE_RE.fullmatch(text) is not None


@dataclass(frozen=True, slots=True)
class SensorEvent:
    """Base of every sensor event; ``t_ms`` is milliseconds since the start of the stream."""

    t_ms: int


@dataclass(frozen=True, slots=True)
class Lift(SensorEvent):
    """``square`` became empty."""

    square: str


@dataclass(frozen=True, slots=True)
class Place(SensorEvent):
    """``square`` became occupied; ``piece`` is a letter (``Q``, ``p``) when the sensor knows it."""

    square: str
    piece: str | None = None


@dataclass(frozen=True, slots=True)
class Occupied(SensorEvent):
    """A full snapshot: exactly ``squares`` are occupied now (sent on (re)connect or resync).

    ``colours`` maps some of ``squares`` to the colour of the piece seen there (``w``, ``b``;
    see :data:`COLOURS`), when the sensor can tell it; a square without one says nothing about
    its piece. Stored as a read-only copy, so the event stays immutable (and hashable).

    Raises:
        ValueError: a colour other than ``w``/``b``, or for a square not in ``squares``.
    """

    squares: frozenset[str] = field(default_factory=frozenset)
    colours: Mapping[str, str] = field(default_factory=lambda: _NO_COLOURS)

    def __post_init__(self) -> None:
        colours = dict(self.colours)
        for square, colour in colours.items():
            if colour not in COLOURS:
                raise ValueError(f"colour {colour!r} of {square} is not one of "
                                 f"{', '.join(COLOURS)}")
            if square not in self.squares:
                raise ValueError(f"colour given for {square}, which is not occupied")
        object.__setattr__(self, "colours", MappingProxyType(colours) if colours
                           else _NO_COLOURS)

    def __hash__(self) -> int:
        return hash((self.t_ms, self.squares, frozenset(self.colours.items())))

    def __reduce__(self) -> tuple[type[Occupied], tuple[int, frozenset[str], dict[str, str]]]:
        # (the read-only view cannot be pickled or deep-copied itself)
        return (Occupied, (self.t_ms, self.squares, dict(self.colours)))


@dataclass(frozen=True, slots=True)
class Button(SensorEvent):
    """A physical button was pressed; ``name`` is one of :data:`BUTTON_NAMES`."""

    name: str


@dataclass(frozen=True, slots=True)
class Die(SensorEvent):
    """A physical die was read showing ``face`` (1 to 6)."""

    face: int


@dataclass(frozen=True, slots=True)
class LinkState(SensorEvent):
    """The link to the board changed state (one of :data:`LINK_STATES`); not a board event.

    Emitted only on transitions after the first connection (``reconnecting`` when the cable is
    pulled or the board falls silent, ``connected`` when it is back, ``closed`` never).
    """

    state: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Withdraw(SensorEvent):
    """The sensor takes back what it reported: the last ``actions`` it showed (NOTATION.md
    texts, oldest first) were a misreading, and the snapshots that follow show what was
    really played. Not a board event: a camera sends it when a later steady picture shows
    that a move it decoded was wrong (a piece put down on one square, then moved on); the
    live runner takes those actions back from the referee when they are its last ones.
    """

    actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Notice(SensorEvent):
    """Something the sensor must tell the people at the board that is not a board event: a
    camera that has seen, for a while, a board no legal move explains (a hand resting on it,
    pieces not where the game has them, or corners that are not the board's). One line of
    ``text``, for people; the game does not change."""

    text: str


def _sorted_squares(squares: Iterable[str]) -> list[str]:
    # Region first (main region, no prefix, sorts first), then file, then rank: stable output.
    return sorted(squares, key=lambda s: (s.count(":"), s.partition(":")[0], s))


def format_event(ev: SensorEvent, times: bool = True) -> str:
    """Return the EVENTS.md line for ``ev`` (no newline); the ``<ms>`` column only if ``times``.

    :class:`LinkState` becomes a ``# link <state> [detail]`` comment line, :class:`Withdraw`
    a ``# withdraw <action> ...`` one, :class:`Notice` a ``# notice <text>`` one.

    Raises:
        TypeError: ``ev`` is not one of the event classes of this module.
    """
    body = _format_body(ev)
    if isinstance(ev, LinkState | Withdraw | Notice):
        return body
    return f"{ev.t_ms} {body}" if times else body


def _format_body(ev: SensorEvent) -> str:
    if isinstance(ev, Lift):
        return f"lift {ev.square}"
    if isinstance(ev, Place):
        return f"place {ev.square}" + (f" {ev.piece}" if ev.piece else "")
    if isinstance(ev, Occupied):
        colours = ev.colours
        return " ".join(["occupied", *(f"{sq}={colours[sq]}" if sq in colours else sq
                                       for sq in _sorted_squares(ev.squares))])
    if isinstance(ev, Button):
        return f"button {ev.name}"
    if isinstance(ev, Die):
        return f"die {ev.face}"
    if isinstance(ev, LinkState):
        return f"# link {ev.state}" + (f" {ev.detail}" if ev.detail else "")
    if isinstance(ev, Withdraw):
        return " ".join(["# withdraw", *ev.actions])
    if isinstance(ev, Notice):
        return f"# notice {ev.text}"
    raise TypeError(f"not a sensor event: {ev!r}")


def parse_event_line(
    line: str, lineno: int | None = None, source: str | None = None
) -> SensorEvent | None:
    """Parse one EVENTS.md line; return None for a blank or ``#`` comment line.

    ``lineno`` and ``source`` (a file name) only make error messages precise.

    Raises:
        EventFormatError: the line is malformed; the message names the line number.
    """
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    try:
        return _parse_tokens(text.split())
    except ValueError as exc:
        where = f"{source}:" if source else ""
        where += f"line {lineno}" if lineno is not None else "line"
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise EventFormatError(f"{where}: {exc}: {shown!r}") from None


#: A time of more digits is not a recording (10**10 ms is 115 days); waiting for it would
#: overflow the platform's timer.
MAX_TIME_DIGITS = 10


def _parse_tokens(tokens: list[str]) -> SensorEvent:
    if len(tokens) < 2:
        raise ValueError("expected '<ms> <kind> ...'")
    if not tokens[0].isdigit():
        raise ValueError(f"time {tokens[0]!r} is not a whole number of milliseconds")
    if len(tokens[0]) > MAX_TIME_DIGITS:
        raise ValueError(f"time {tokens[0][:20]!r}... is out of range (at most "
                         f"{MAX_TIME_DIGITS} digits: {10**MAX_TIME_DIGITS // 86_400_000} days)")
    t_ms, kind, args = int(tokens[0]), tokens[1], tokens[2:]
    if kind == "lift":
        return Lift(t_ms, _one_square(kind, args))
    if kind == "place":
        return _parse_place(t_ms, args)
    if kind == "occupied":
        return _parse_occupied(t_ms, args)
    if kind == "button":
        return Button(t_ms, _button_name(args))
    if kind == "die":
        return Die(t_ms, _die_face(args))
    raise ValueError(f"unknown event kind {kind!r}")


def _check_square(text: str) -> str:
    if not is_square(text):
        raise ValueError(f"{text!r} is not a square")
    return text


def _parse_occupied(t_ms: int, args: list[str]) -> Occupied:
    squares: set[str] = set()
    colours: dict[str, str] = {}
    for arg in args:
        square, eq, colour = arg.partition("=")
        squares.add(_check_square(square))
        if not eq:
            continue
        if colour not in COLOURS:
            raise ValueError(f"{arg!r}: colour {colour!r} is not w (white) or b (black)")
        if colours.setdefault(square, colour) != colour:
            raise ValueError(f"{square} is given two colours")
    return Occupied(t_ms, frozenset(squares), colours)


def _one_square(kind: str, args: list[str]) -> str:
    if len(args) != 1:
        raise ValueError(f"'{kind}' takes exactly one square")
    return _check_square(args[0])


def _parse_place(t_ms: int, args: list[str]) -> Place:
    if len(args) not in (1, 2):
        raise ValueError("'place' takes a square and an optional piece letter")
    piece = args[1] if len(args) == 2 else None
    if piece is not None and _PIECE_RE.fullmatch(piece) is None:
        raise ValueError(f"{piece!r} is not a piece letter")
    return Place(t_ms, _check_square(args[0]), piece)


def _button_name(args: list[str]) -> str:
    if len(args) != 1 or args[0] not in BUTTON_NAMES:
        raise ValueError(f"'button' takes one of {', '.join(BUTTON_NAMES)}")
    return args[0]


def _die_face(args: list[str]) -> int:
    if len(args) != 1 or args[0] not in ("1", "2", "3", "4", "5", "6"):
        raise ValueError("'die' takes a face from 1 to 6")
    return int(args[0])


def iter_event_lines(lines: Iterable[str], source: str | None = None) -> Iterator[SensorEvent]:
    """Parse EVENTS.md lines lazily, checking that times never decrease.

    Raises:
        EventFormatError: a malformed line or a time earlier than the previous event's.
    """
    last = 0
    for lineno, line in enumerate(lines, start=1):
        ev = parse_event_line(line, lineno, source)
        if ev is None:
            continue
        if ev.t_ms < last:
            where = f"{source}:" if source else ""
            raise EventFormatError(
                f"{where}line {lineno}: time {ev.t_ms} ms is earlier than the previous {last} ms"
            )
        last = ev.t_ms
        yield ev


def read_event_file(path: str | Path) -> list[SensorEvent]:
    """Read a whole EVENTS.md file.

    Raises:
        BoardNotFound: the file does not exist or cannot be read.
        EventFormatError: a malformed line (the message names file and line).
    """
    from firmware_bridge.errors import BoardNotFound

    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_EVENT_FILE_BYTES + 1)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BoardNotFound(f"cannot read event file {str(path)!r}: {exc}") from exc
    if len(data) > MAX_EVENT_FILE_BYTES:
        raise BoardNotFound(f"cannot read event file {str(path)!r}: larger than "
                            f"{MAX_EVENT_FILE_BYTES // 2**20} MB, not an event file")
    return list(iter_event_lines(text.splitlines(), source=str(path)))


#: Days of events at a line per move are a few MB; more is not an event file (/dev/zero).
MAX_EVENT_FILE_BYTES = 64 * 2**20
