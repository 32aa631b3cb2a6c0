"""The state of a Ghost Chess game: the board of living pieces and ghosts, and a pending spawn.

Kept apart from the rules (:mod:`referee.rules.variants.ghost`), as in every variant:
``X.py`` rules, ``X_state.py`` state, ``X_text.py`` position text.
"""

from __future__ import annotations

from typing import Self

from referee.rules.state import State


class GhostState(State):
    """A Ghost Chess state: the board (living pieces and ghosts) plus a pending spawn.

    ``pending`` is the piece code waiting for its owner to choose a ghost cell (0 if none),
    ``pending_from`` the square it was captured on (its spawn distances are measured from there),
    ``pending_id`` its identity.
    """

    __slots__ = ("pending", "pending_from", "pending_id")

    pending: int
    pending_from: int
    pending_id: int

    def __init__(self, size: int, turn: int, rng: int) -> None:
        super().__init__(size, turn, rng)
        self.pending = 0
        self.pending_from = -1
        self.pending_id = 0

    def copy_extra(self, new: Self) -> None:
        new.pending = self.pending
        new.pending_from = self.pending_from
        new.pending_id = self.pending_id
