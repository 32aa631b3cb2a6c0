"""What the shared display should show: an immutable :class:`Screen`, built by pure functions.

A screen is a *kind* (turn, prompt, announcement, error, correction, paused, game over), a
title, a few text lines, the options of a prompt and the clock. It knows nothing about pixels:
:mod:`hardware.display.render` draws it on a 128x64 OLED or writes it on a character LCD.

The display is shared by both players, so builders take only public text. Callers filter game
events with ``referee.rules.events.visible_to(event, None)`` first
(:mod:`referee.app.present` does).
Colours are ``hardware.sides`` values: WHITE = 1, BLACK = 2.
"""

from __future__ import annotations

import enum
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from hardware.sides import BLACK, GRAY, WHITE

_NAMES: Final = {WHITE: "White", BLACK: "Black", GRAY: "Gray"}
#: Characters of one text line on every supported display (a 20x4 LCD; the OLED has 21).
LINE_COLUMNS: Final = 20
#: Text lines under the title that every supported display shows (OLED announcement/prompt).
TEXT_ROWS: Final = 3


def colour_name(colour: int) -> str:
    """``"White"``, ``"Black"`` or ``"Gray"``.

    Raises:
        ValueError: not a colour.
    """
    try:
        return _NAMES[colour]
    except KeyError:
        raise ValueError(f"not a colour: {colour!r}") from None


class ScreenKind(enum.Enum):
    """The screen types; each has its own layout (and golden picture)."""

    TURN = "turn"
    PROMPT = "prompt"
    ANNOUNCEMENT = "announcement"
    ERROR = "error"
    CORRECTION = "correction"
    PAUSED = "paused"
    GAME_OVER = "game over"
    CODE = "code"


@dataclass(frozen=True)
class ClockFace:
    """The clock as shown: seconds left for each side, which side runs (None: stopped),
    whether it is paused and whose flag fell (None: nobody's)."""

    white: float
    black: float
    running: int | None = None
    paused: bool = False
    flagged: int | None = None

    def seconds(self, colour: int) -> float:
        """Seconds left for ``colour``."""
        return self.white if colour == WHITE else self.black


@dataclass(frozen=True)
class Screen:
    """One screenful. ``lines`` are short sentences (wrapped by the renderer); ``options`` are
    a prompt's choices (``selected`` is the highlighted index); ``hint`` says which button does
    what; ``colour`` is whose turn or choice it is (None: nobody's). ``picture`` is a square
    matrix of dark modules (``"1"``) and light ones (``"0"``), one string a row: a QR code."""

    kind: ScreenKind
    title: str
    lines: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    selected: int | None = None
    clock: ClockFace | None = None
    hint: str = ""
    colour: int | None = None
    picture: tuple[str, ...] = ()


def turn(colour: int, clock: ClockFace | None = None, note: str = "") -> Screen:
    """Whose turn it is, with the clock and an optional ``note`` (the last move, "Check")."""
    return Screen(ScreenKind.TURN, f"{colour_name(colour)} to move", (note,) if note else (),
                  clock=clock, colour=colour)


def prompt(colour: int, text: str, options: Iterable[str] = (), selected: int | None = None,
           clock: ClockFace | None = None, hint: str = "") -> Screen:
    """A choice ``colour`` must make: ``text`` says what ("put the pawn on a vacant Hell
    home"); ``options`` are shown as boxes when they are short (letters, faces)."""
    opts = tuple(options)
    return Screen(ScreenKind.PROMPT, f"{colour_name(colour)}: your choice", (text,), opts,
                  selected, clock,
                  hint or ("back/confirm: pick" if opts else "place the piece"), colour)


def promotion(colour: int, options: Iterable[str] = ("Q", "R", "B", "N"),
              selected: int | None = 0, clock: ClockFace | None = None) -> Screen:
    """"Promote to? Q R B N": the choice is made with back (next) and confirm."""
    return prompt(colour, "Promote to?", options, selected, clock, "back:next confirm:ok")


def roll_die(colour: int, clock: ClockFace | None = None) -> Screen:
    """"Roll the die" (Die Chess), or press roll to let the referee roll."""
    return prompt(colour, "Roll the die", (), None, clock, "or press roll")


def announcement(text: str, clock: ClockFace | None = None, colour: int | None = None) -> Screen:
    """A public sentence from the referee: "Zombie knight rises on c6", "No zombie at e2"."""
    return Screen(ScreenKind.ANNOUNCEMENT, "Referee", (text,), clock=clock, colour=colour)


def error(text: str, hints: Iterable[str] = (), clock: ClockFace | None = None) -> Screen:
    """Something is wrong ("Illegal move"), with what to do about it."""
    return Screen(ScreenKind.ERROR, "Illegal move" if not text else text, tuple(hints),
                  clock=clock, hint="back: take back")


def correction(empty: Iterable[str] = (), fill: Iterable[tuple[str, str]] = (),
               swap: Iterable[tuple[str, str]] = (), clock: ClockFace | None = None) -> Screen:
    """Guided correction: squares to clear, (square, piece name or "") to fill, pairs to swap.
    The LEDs show the same squares (:func:`hardware.leds.language.correction`)."""
    lines = [f"Clear {sq}" for sq in empty]
    lines += [f"Put {piece} on {sq}" if piece else f"Put a piece on {sq}" for sq, piece in fill]
    lines += [f"Swap {a} and {b}" for a, b in swap]
    return Screen(ScreenKind.CORRECTION, "Fix the board", tuple(lines), clock=clock)


def paused(reason: str, clock: ClockFace | None = None) -> Screen:
    """The game and the clock are paused (``reason``: "Sensor link lost", "Arbiter")."""
    return Screen(ScreenKind.PAUSED, "Paused", (reason,), clock=clock,
                  hint="confirm: resume")


def game_over(result: str, text: str = "", clock: ClockFace | None = None) -> Screen:
    """The end: ``result`` ("1-0", "0-1", "1/2-1/2") and how ("Ghost takes the king")."""
    return Screen(ScreenKind.GAME_OVER, "Game over", (result, text) if text else (result,),
                  clock=clock)


def code(title: str, matrix: Iterable[str], lines: Iterable[str] = (),
         colour: int | None = None) -> Screen:
    """A code to scan (a QR code of a page to open) beside ``title`` and a few short
    ``lines``; ``matrix`` rows are strings of ``1`` (dark) and ``0`` (light) modules, without
    the quiet zone (the renderer adds it). A character display shows the text only."""
    rows = tuple(matrix)
    if any(len(row) != len(rows) or set(row) - {"0", "1"} for row in rows):
        raise ValueError("a code is a square matrix of 0 and 1")
    return Screen(ScreenKind.CODE, title, tuple(lines), colour=colour, picture=rows)


def fit_lines(items: Iterable[tuple[int, str]], cols: int = LINE_COLUMNS,
              rows: int = TEXT_ROWS) -> tuple[str, ...]:
    """The sentences of ``items`` ((rank, sentence), lower rank = more important) that fit
    together in ``rows`` lines of ``cols`` characters once word-wrapped, in their given order.

    The most important sentence is always kept (the renderer then cuts it); the others are
    taken by rank (the later one first among equals) while they fit, so a long batch of news
    never pushes the important part off the screen. Repeated sentences are said once.
    """
    listed = list(dict.fromkeys((rank, text) for rank, text in items if text))
    if not listed:
        return ()
    chosen: set[int] = set()
    used = 0
    # Equal ranks: the later sentence first (the consequence: where the victim went).
    for i in sorted(range(len(listed)), key=lambda k: (listed[k][0], -k)):
        need = len(textwrap.wrap(listed[i][1], cols)) or 1
        if not chosen or used + need <= rows:
            chosen.add(i)
            used += need
    texts = [listed[i][1] for i in sorted(chosen)]
    return tuple(dict.fromkeys(texts))


def format_time(seconds: float) -> str:
    """Clock text: ``h:mm:ss`` from an hour, ``m:ss`` from 20 s, ``s.t`` (tenths) below."""
    s = max(0.0, seconds)
    if s >= 3600:
        whole = int(s)
        return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"
    if s >= 20:
        whole = int(s)
        return f"{whole // 60}:{whole % 60:02d}"
    return f"{int(s * 10) / 10:.1f}"
