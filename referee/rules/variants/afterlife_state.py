"""Afterlife Chess: its piece kinds, zones, fixed squares and the state of a game.

Kept apart from :mod:`referee.rules.variants.afterlife` so that the position text
(:mod:`referee.rules.variants.afterlife_text`) and the rules both build on it without importing
each other.
"""

from __future__ import annotations

from typing import Final, Self

from referee.rules.state import State

# Piece kinds (the low four bits of a piece code); letters by kind in LETTERS.
PHARAOH: Final = 1
PRIEST: Final = 2
WARRIOR: Final = 3
SLAVE: Final = 4
MERCENARY: Final = 5
SETHLING: Final = 6
LETTERS: Final = " PHWSME"
KIND_BY_LETTER: Final = {c: i for i, c in enumerate(LETTERS) if c != " "}
NAMES: Final = ("", "Pharaoh", "High Priest", "Warrior", "Slave", "Mercenary", "Sethling")

# Zones (regions) of a square.
WORLD: Final = 0
LIMBO_ZONE: Final = 1
HOURS: Final = 2
HALL: Final = 3

WIDTH: Final = 4
HEIGHT: Final = 7
LIMBO: Final = 28


class AfterlifeState(State):
    """The state plus what Afterlife adds (all of it public, RULINGS §4.7).

    Attributes:
        limbo_ply: the ply on which the piece in Limbo arrived (-1 when Limbo is empty).
        limbo_ready: its owner has moved since it arrived (it may leave; ``optional`` mode).
        pending: the owner must choose a Twelve-Hours cell for the piece in Limbo (``drop=``).
        flagged: identities with ``captured_this_life``.
        promoted: identities of promoted Slaves.
        ep_to: square of the piece an en passant capture on ``ep`` takes (-1 if none).
        passes: consecutive ``pass`` actions.
        last_gray: (from, to) of the last turn action if it moved a gray piece, else None.
    """

    __slots__ = ("limbo_ply", "limbo_ready", "pending", "flagged", "promoted", "ep_to",
                 "passes", "last_gray")

    limbo_ply: int
    limbo_ready: bool
    pending: bool
    flagged: frozenset[int]
    promoted: frozenset[int]
    ep_to: int
    passes: int
    last_gray: tuple[int, int] | None

    def __init__(self, size: int, turn: int, rng: int) -> None:
        super().__init__(size, turn, rng)
        self.limbo_ply = -1
        self.limbo_ready = False
        self.pending = False
        self.flagged = frozenset()
        self.promoted = frozenset()
        self.ep_to = -1
        self.passes = 0
        self.last_gray = None

    def copy_extra(self, new: Self) -> None:
        new.limbo_ply = self.limbo_ply
        new.limbo_ready = self.limbo_ready
        new.pending = self.pending
        new.flagged = self.flagged
        new.promoted = self.promoted
        new.ep_to = self.ep_to
        new.passes = self.passes
        new.last_gray = self.last_gray
