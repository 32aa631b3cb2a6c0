"""The state of a Die Chess game: where each die stands, its face count and the turn so far.

Kept apart from the rules (:mod:`referee.rules.variants.die`), as in every variant:
``X.py`` rules, ``X_state.py`` state, ``X_text.py`` position text.
"""

from __future__ import annotations

from typing import Final, Self

from referee.rules.state import State

#: Moves a die of each face kind may make between rolls (index = kind; RULINGS §3).
LIMIT: Final = (0, 2, 2, 2, 1, 1, 1)
FACE_NAMES: Final = ("", "pawn", "knight", "bishop", "rook", "queen", "king")


class DieState(State):
    """A Die Chess state: the board holds the two dice; this adds what the board does not show.

    Attributes:
        pos: square of each die, indexed by colour (index 0 unused); -1 once captured as king.
        count: the move counter ``c`` of each die, indexed by colour.
        rolls: rolls made in the current turn.
        moved: whether the current turn's move has been made.
        took: whether the current turn captured (the no-capture counter then restarts).
        fresh: whether the action that led to this state captured (repetitions are counted
            from there on); not copied.
    """

    __slots__ = ("pos", "count", "rolls", "moved", "took", "fresh")

    pos: list[int]
    count: list[int]
    rolls: int
    moved: bool
    took: bool
    fresh: bool

    def copy_extra(self, new: Self) -> None:
        new.pos = self.pos[:]
        new.count = self.count[:]
        new.rolls = self.rolls
        new.moved = self.moved
        new.took = self.took
        new.fresh = False
