"""Actions: everything a player (or the referee's dice) can do.

One small immutable tuple type serves every variant, so that actions hash, compare and store
cheaply in the hot path of move generation. Squares are global indices of the variant's
:class:`~referee.rules.geometry.Layout`; text forms live in :mod:`referee.rules.notation`.
"""

from __future__ import annotations

from typing import Final, NamedTuple

MOVE: Final = "move"        # frm -> to, optional promo letter, optional rise (resurrection square)
HOME: Final = "home"        # Dead Man's Chess: the owner's choice of Hell home (to)
SPAWN: Final = "spawn"      # Ghost Chess: the owner's choice of ghost cell (to), optional promo
ROLL: Final = "roll"        # Die Chess: value "1".."6" read from a die, or "" (the referee rolls)
PASS: Final = "pass"
BURY: Final = "bury"        # Zombie Chess: secret burial square (to)
END: Final = "end"          # Zombie Chess: end a horde turn
ASSIGN: Final = "assign"    # Masquerade: value "white:KR,QK,RN,BB,NQ"
DEPART: Final = "depart"    # Afterlife: leave Limbo (optional departure)
DROP: Final = "drop"        # Afterlife: the owner's choice of a Twelve-Hours cell (to)
PROMOTE: Final = "promote"  # Zombie Chess: the owner's piece for a revealed pawn (to, promo)
RESIGN: Final = "resign"
DRAW: Final = "draw"        # agreed draw

CHOICE_KINDS: Final = (HOME, SPAWN, BURY, DROP, PROMOTE)
META_KINDS: Final = (RESIGN, DRAW)


class Action(NamedTuple):
    """One action. Unused fields keep their defaults so equal actions compare equal.

    Attributes:
        kind: one of the constants of this module.
        frm: origin square index of a move, else -1.
        to: destination square of a move, or the square a choice names, else -1.
        promo: promotion piece letter in upper case (``"Q"``), else ``""``.
        rise: Dead Man's resurrection square, else -1.
        value: a roll face or an assignment, else ``""``.
    """

    kind: str
    frm: int = -1
    to: int = -1
    promo: str = ""
    rise: int = -1
    value: str = ""


def move(frm: int, to: int, promo: str = "", rise: int = -1) -> Action:
    """A move action."""
    return Action(MOVE, frm, to, promo, rise)


def choice(kind: str, square: int, promo: str = "") -> Action:
    """A choice action (``home=``, ``spawn=``, ``bury=``, ``drop=``, ``promote=``)."""
    return Action(kind, -1, square, promo)


def simple(kind: str, value: str = "") -> Action:
    """An action without squares (``pass``, ``end``, ``roll=N``, ``assign=...``)."""
    return Action(kind, value=value)
