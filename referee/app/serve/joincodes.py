"""The player pages as QR codes on the board's own display, for the players' phones.

Why on the display: the players stand at the board, not at the terminal ``serve`` printed its
lines on. Before the game's first action the display shows White's code, then Black's, in
turn (a screen the game draws, a prompt or a move, stays up for :data:`HOLD_S` first, so
nothing the players must read is hidden for long; a wrong board, or a correction to make, stays
until the board is right: the players are setting it up and must see what to fix); the
arbiter's page may ask for them again
at any time (``show_qr``), after which the game's screen comes back.

Why the codes fit a 128x64 display: new tokens are upper-case base32 and the URL on the display
is written in upper case (``HTTP://HOST:PORT/P/TOKEN``, which the service also serves), so the
QR code uses its alphanumeric mode: a version-3 code (29 modules a side) holds it, drawn at two
pixels a module with a light margin. Older lower-case tokens still work, in a denser code.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from hardware.display import screen as screens
from hardware.display.screen import Screen
from referee.rules.pieces import BLACK, WHITE

if TYPE_CHECKING:
    from referee.app.runner import HardwareOutput
    from referee.rules.game import Game

#: Seconds each code stays on the display.
PERIOD_S: Final = 8.0
#: Seconds a screen drawn by the game stays up before the codes come back (before the start).
HOLD_S: Final = 10.0
SIDES: Final = (("white", WHITE), ("black", BLACK))
#: Screens that stay until the game replaces them (the board is wrong: what to fix).
UNTIL_FIXED: Final = (screens.ScreenKind.ERROR, screens.ScreenKind.CORRECTION)


def display_url(url: str) -> str:
    """``url`` as written in a code: in upper case when that names the same page (scheme and
    host are case-blind, the service also answers ``/P/TOKEN``), for the compact alphanumeric
    QR mode; else unchanged."""
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    token = path[2:]
    if sep and path.startswith("p/") and token.isalnum() and token == token.upper():
        return f"{scheme.upper()}://{host.upper()}/P/{token}"
    return url


def code_matrix(text: str) -> tuple[str, ...]:
    """The QR code of ``text`` (error correction L, the smallest version that holds it) as
    rows of ``1`` (dark) and ``0`` (light) modules, without the quiet zone."""
    import segno

    qr = segno.make(text, error="l", micro=False, boost_error=False)
    return tuple("".join("1" if module else "0" for module in row) for row in qr.matrix)


def code_screens(urls: dict[str, str]) -> list[Screen]:
    """White's and Black's join screens."""
    return [screens.code(name.capitalize(), code_matrix(display_url(urls[name])),
                         ("scan to", "play"), colour) for name, colour in SIDES]


class JoinCodes:
    """Shows the join codes on ``output``'s display (see the module docstring). Driven from the
    live game's thread: :meth:`idle` between steps, :meth:`request` from the arbiter."""

    def __init__(self, output: HardwareOutput, urls: dict[str, str], game: Game, *,
                 period: float = PERIOD_S, hold: float = HOLD_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.output = output
        self.game = game
        self.codes = code_screens(urls)
        self.period, self.hold, self.clock = period, hold, clock
        self._next = 0            # which code comes next
        self._until = 0.0         # when the code shown now gives way
        self._requested = 0       # codes still to show on the arbiter's request
        self._foreign_since: float | None = None

    def request(self) -> None:
        """Show both codes once now (the arbiter's ``show_qr``)."""
        self._requested = len(self.codes)
        self._next = 0
        self._show(self.clock())

    def idle(self) -> None:
        """Switch codes when their time is up; give the game's screens their due."""
        now = self.clock()
        shown = self.output.screen
        if any(shown is code for code in self.codes):
            if now < self._until:
                return
            if self._requested:
                self._requested -= 1
            if self._requested or not (self.game.played or self._after_request):
                self._show(now)
            else:
                self._after_request = False
                self.output.restore()
            return
        # the game drew a screen of its own (or nothing is drawn yet)
        self._requested = 0
        self._after_request = False
        if self.game.played:
            self._foreign_since = None
            return
        if shown is not None:
            if shown.kind in UNTIL_FIXED:
                self._foreign_since = None  # the hold starts once the board is right
                return
            if self._foreign_since is None:
                self._foreign_since = now
            if now - self._foreign_since < self.hold:
                return
        self._show(now)

    _after_request = False

    def _show(self, now: float) -> None:
        if self._requested:
            self._after_request = True
        self._foreign_since = None
        self.output.show_screen(self.codes[self._next])
        self._next = (self._next + 1) % len(self.codes)
        self._until = now + self.period
