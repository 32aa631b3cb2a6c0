"""The state of a Dead Man's Chess game: tombstones, a pending Hell home choice, identities.

Kept apart from the rules (:mod:`referee.rules.variants.deadmans`) and shared by them and the
position text, as in every variant: ``X.py`` rules, ``X_state.py`` state, ``X_text.py`` text.
"""

from __future__ import annotations

from typing import NamedTuple, Self

from referee.rules.state import State


class Pending(NamedTuple):
    """A dead piece waiting for its Hell home to be chosen."""

    piece: int
    ident: int
    homes: tuple[int, ...]
    chooser: int


class DeadMansState(State):
    """The shared state plus tombstones, a pending home choice and piece identities.

    Attributes:
        tombs: bit set of Earth squares with a tombstone (bit = Earth square index).
        pending: the piece whose Hell home is being chosen, or None.
        origin: identity -> the file (0-7) it started on as a pawn. Built once when a game
            starts or a position is read, then shared and never changed (no piece is created
            in play; promotion keeps the identity).
        promoted: identities of pieces that are promoted pawns.
    """

    __slots__ = ("tombs", "pending", "origin", "promoted")

    tombs: int
    pending: Pending | None
    origin: dict[int, int]
    promoted: frozenset[int]

    def __init__(self, size: int, turn: int, rng: int) -> None:
        super().__init__(size, turn, rng)
        self.tombs = 0
        self.pending = None
        self.origin = {}
        self.promoted = frozenset()

    def copy_extra(self, new: Self) -> None:
        new.tombs = self.tombs
        new.pending = self.pending
        new.origin = self.origin
        new.promoted = self.promoted
