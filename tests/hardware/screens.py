"""The screens the golden tests and the docs render: every screen type, with variations."""

from __future__ import annotations

from typing import Final

from hardware.display import screen as S
from hardware.display.screen import ClockFace, Screen
from referee.rules.pieces import BLACK, WHITE

RUNNING: Final = ClockFace(299.4, 300.0, running=WHITE)
LOW: Final = ClockFace(12.34, 185.0, running=WHITE)

#: A version-3 QR code (29 modules) of an upper-case join URL, as serve draws it.
JOIN_URL: Final = "HTTP://192.168.1.20:8443/P/MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U"


def _qr(text: str) -> tuple[str, ...]:
    import segno

    qr = segno.make(text, error="l", micro=False, boost_error=False)
    return tuple("".join("1" if m else "0" for m in row) for row in qr.matrix)


SCREENS: Final[dict[str, Screen]] = {
    "turn-white": S.turn(WHITE, RUNNING, "e2-e4"),
    "turn-black-long": S.turn(BLACK, ClockFace(5400.0, 3725.0, running=BLACK)),
    "turn-low-time": S.turn(WHITE, LOW, "Check"),
    "turn-no-clock": S.turn(BLACK, None, "Zombie knight rises on c6"),
    "prompt-hell-home": S.prompt(BLACK, "Black: put the pawn on a vacant Hell home", (),
                                 None, RUNNING),
    "prompt-promotion": S.promotion(WHITE, selected=0),
    "prompt-roll": S.roll_die(BLACK, ClockFace(60.0, 42.0, running=BLACK)),
    "announcement-zombie": S.announcement("Zombie knight rises on c6", RUNNING),
    "announcement-no-zombie": S.announcement("No zombie at e2"),
    "announcement-annihilated": S.announcement("Annihilated", RUNNING),
    "error-illegal": S.error("Illegal move", ("A knight cannot reach e5", "Put it back on g4")),
    "correction": S.correction(["e4"], [("e2", "P")], [("d1", "e1")]),
    "correction-long": S.correction(["a3", "b3", "c3"], [("e2", ""), ("f2", "")]),
    "paused-link": S.paused("Sensor link lost", ClockFace(61.0, 12.3, running=BLACK,
                                                          paused=True)),
    "game-over-ghost": S.game_over("0-1", "Ghost takes the king"),
    "game-over-flag": S.game_over("1-0", "Black's flag fell",
                                  ClockFace(4.2, 0.0, flagged=BLACK)),
    "game-over-draw": S.game_over("1/2-1/2", "Stalemate"),
    "code-join-white": S.code("White", _qr(JOIN_URL), ("scan to", "play"), WHITE),
}
