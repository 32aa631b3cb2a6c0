"""The state of a Zombie Chess game and the small helpers over its burial maps.

Squares are the board's global indices (``rank * 8 + file``: a1 = 0, h8 = 63). A burial map is a
sorted tuple of ``(square, piece code)`` pairs: the squares where one player buried a captured
enemy piece, and which piece (the piece keeps its own colour). Everything here is immutable so
that :meth:`ZombieState.copy_extra` copies references only.
"""

from __future__ import annotations

from typing import Self

from referee.rules.fields import bits as bits  # re-exported for the zombie modules
from referee.rules.state import State

#: Phases of a turn: the first action, a horde turn still open (more zombie moves or ``end``),
#: and the choices after the moves (promotion of revealed pawns, then burials).
START, OPEN, CHOOSE = 0, 1, 2

Burials = tuple[tuple[int, int], ...]


class ZombieState(State):
    """A :class:`~referee.rules.state.State` with the zombie coins, both burial maps and the turn.

    Attributes:
        zombies: bit set of squares holding a zombie (either colour).
        burials: (White's burial map, Black's burial map); secret to each burier.
        phase: START, OPEN or CHOOSE (see above).
        horde: bit set of the mover's zombies that were on the board at the start of its turn
            and have not moved yet (they rot at the end of the turn).
        left: squares the mover's pieces left this turn, in order (checked for reveals at the
            end of the moves).
        to_bury: pieces captured this turn still waiting for their burial, in capture order.
        promos: squares of revealed pawns on their last rank waiting for their owner's choice.
    """

    __slots__ = ("zombies", "burials", "phase", "horde", "left", "to_bury", "promos")

    zombies: int
    burials: tuple[Burials, Burials]
    phase: int
    horde: int
    left: tuple[int, ...]
    to_bury: tuple[int, ...]
    promos: tuple[int, ...]

    def __init__(self, size: int, turn: int, rng: int) -> None:
        super().__init__(size, turn, rng)
        self.zombies = 0
        self.burials = ((), ())
        self.phase = START
        self.horde = 0
        self.left = ()
        self.to_bury = ()
        self.promos = ()

    def copy_extra(self, new: Self) -> None:
        new.zombies = self.zombies
        new.burials = self.burials
        new.phase = self.phase
        new.horde = self.horde
        new.left = self.left
        new.to_bury = self.to_bury
        new.promos = self.promos

    def burials_of(self, colour: int) -> Burials:
        """The burial map of ``colour`` (WHITE=1, BLACK=2)."""
        return self.burials[colour - 1]

    def set_burials(self, colour: int, burials: Burials) -> None:
        """Replace the burial map of ``colour``."""
        self.burials = (burials, self.burials[1]) if colour == 1 else (self.burials[0], burials)


def buried_at(burials: Burials, sq: int) -> int:
    """The piece code buried on ``sq`` in this map, or 0."""
    for s, piece in burials:
        if s == sq:
            return piece
    return 0


def add_burial(burials: Burials, sq: int, piece: int) -> Burials:
    """The map with ``piece`` buried on ``sq`` (the caller checks ``sq`` is free)."""
    return tuple(sorted(burials + ((sq, piece),)))


def remove_burial(burials: Burials, sq: int) -> Burials:
    """The map without the burial on ``sq``."""
    return tuple(e for e in burials if e[0] != sq)
