"""The game state shared by every variant.

A :class:`State` is a value: once a variant's ``apply`` returns it, nobody changes it (``apply``
works on a :meth:`State.copy`). That gives undo for free (keep the previous state), safe sharing
with other threads (outputs get the state itself, or a view of it), and the repetition history
(``parent`` links back through the game).

Variants with more state subclass it, add ``__slots__`` and extend :meth:`State.copy_extra`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any, Final, Self

from referee.rules.actions import Action

#: Memo entries a past state keeps: its position key, which later positions compare against
#: for repetitions. Everything else (legal lists, candidate after-states) is dropped once the
#: state is no longer current, so memory stays flat over a long game.
PAST_CACHE: Final = ("key",)
#: What the state just before the current one keeps as well: running tables the next state
#: builds on (Die Chess's positions seen since the last capture).
RECENT_CACHE: Final = ("key", "seen")


class State:
    """Full state of one game, hidden information included.

    Attributes:
        board: piece code per global square (0 = empty); see :mod:`referee.rules.pieces`.
        ids: identity per square (0 = empty); an identity stays with a piece wherever it goes.
        turn: the side to move (WHITE/BLACK).
        to_act: the side that must act next; differs from ``turn`` while a player not on move
            makes a choice (Hell home, ghost cell, burial, Twelve-Hours cell).
        castling: bit set of remaining castling rights (bits defined by the variant's rules).
        ep: en passant target square, or -1.
        halfmove: plies since the last capture or pawn move (50-move rule).
        fullmove: move number, starting at 1, incremented after Black's move.
        ply: actions applied since the start.
        result: ``*`` while the game goes on, else ``1-0``, ``0-1`` or ``1/2-1/2``, set only by
            resign/draw agreement (rule outcomes are computed by the variant).
        reason: why a result set here happened.
        removed: piece codes gone for good (annihilated, dust bin, Ceased to Exist).
        rng: the private random generator state (:mod:`referee.rules.rng`).
        next_id: the next unused identity.
        parent: the state before the last action (None at the start or after loading a position).
        action: the action that led here from ``parent`` (as resolved: a bare roll with its face).
        cache: per-state memo of derived values (legal actions, position key); never copied;
            trimmed by :meth:`retire` once the state is in the past.
    """

    __slots__ = (
        "board", "ids", "turn", "to_act", "castling", "ep", "halfmove", "fullmove", "ply",
        "result", "reason", "removed", "rng", "next_id", "parent", "action", "cache",
    )

    board: list[int]
    ids: list[int]
    turn: int
    to_act: int
    castling: int
    ep: int
    halfmove: int
    fullmove: int
    ply: int
    result: str
    reason: str
    removed: tuple[int, ...]
    rng: int
    next_id: int
    parent: Self | None
    action: Action | None
    cache: dict[str, Any]

    def __init__(self, size: int, turn: int, rng: int) -> None:
        self.board = [0] * size
        self.ids = [0] * size
        self.turn = turn
        self.to_act = turn
        self.castling = 0
        self.ep = -1
        self.halfmove = 0
        self.fullmove = 1
        self.ply = 0
        self.result = "*"
        self.reason = ""
        self.removed = ()
        self.rng = rng
        self.next_id = 1
        self.parent = None
        self.action = None
        self.cache = {}

    def copy(self) -> Self:
        """A copy to build the next state on; ``parent`` points back at this one."""
        new = object.__new__(type(self))
        new.board = self.board[:]
        new.ids = self.ids[:]
        new.turn = self.turn
        new.to_act = self.to_act
        new.castling = self.castling
        new.ep = self.ep
        new.halfmove = self.halfmove
        new.fullmove = self.fullmove
        new.ply = self.ply + 1
        new.result = self.result
        new.reason = self.reason
        new.removed = self.removed
        new.rng = self.rng
        new.next_id = self.next_id
        new.parent = self
        new.action = None
        new.cache = {}
        self.copy_extra(new)
        return new

    def retire(self, keep: Iterable[str] = PAST_CACHE) -> None:
        """This state is no longer current: forget every memo entry but ``keep``."""
        if self.cache:
            kept = set(keep)
            self.cache = {k: v for k, v in self.cache.items() if k in kept}

    def copy_extra(self, new: Self) -> None:
        """Copy subclass fields into ``new`` (mutable ones must be copied, not shared)."""

    def place(self, sq: int, piece: int, ident: int = 0) -> int:
        """Put ``piece`` on ``sq`` with identity ``ident`` (a fresh one if 0); returns the id."""
        if not ident:
            ident = self.next_id
            self.next_id += 1
        self.board[sq] = piece
        self.ids[sq] = ident
        return ident

    def clear(self, sq: int) -> tuple[int, int]:
        """Empty ``sq``; returns the (piece, identity) that was there."""
        piece, ident = self.board[sq], self.ids[sq]
        self.board[sq] = 0
        self.ids[sq] = 0
        return piece, ident

    def shift(self, frm: int, to: int) -> None:
        """Move whatever is on ``frm`` (piece and identity) to ``to``, overwriting it."""
        self.board[to] = self.board[frm]
        self.ids[to] = self.ids[frm]
        self.board[frm] = 0
        self.ids[frm] = 0

    def history(self) -> list[State]:
        """All states from the first one to this one (oldest first)."""
        out: list[State] = []
        node: State | None = self
        while node is not None:
            out.append(node)
            node = node.parent
        out.reverse()
        return out


def repetition_count(state: State, key_of: Any) -> int:
    """How many times the position of ``state`` has occurred since the last irreversible action.

    ``key_of(state)`` returns a hashable key; positions are compared only back to the last
    state whose halfmove clock is 0 (a capture or pawn move can never be undone).
    """
    if state.halfmove == 0:
        return 1
    key: Hashable = key_of(state)
    count = 1
    node = state.parent
    while node is not None:
        if node.turn == state.turn and node.to_act == state.to_act and key_of(node) == key:
            count += 1
        if node.halfmove == 0:
            break
        node = node.parent
    return count
