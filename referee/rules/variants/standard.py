"""Standard chess (FIDE Laws) on the shared engine: the reference every variant builds on."""

from __future__ import annotations

from typing import ClassVar, Final

from referee.rules import actions as A
from referee.rules.state import State
from referee.rules.variant import BOOL, OptionSpec
from referee.rules.variants.chesslike import ChessLike

MOVES: Final = A.moves("e4, Nf3, exd5, O-O, e8=Q (SAN) or e2e4, e2-e4, e7e8q: move a piece")


class Standard(ChessLike[State]):
    """FIDE chess: castling, en passant, promotion, check, mate, stalemate, the draw rules.

    Threefold repetition and the 50-move rule end the game automatically (a referee on a
    physical board has no arbiter to claim them from); both can be switched off.
    """

    name = "standard"
    title = "Standard chess"
    state_class = State
    action_kinds = (MOVES,)
    fifty_option = "standard.fifty_move"
    repetition_option = "standard.repetition_draw"
    option_specs: ClassVar = (
        OptionSpec(fifty_option, True, "the 50-move rule ends the game in a draw", BOOL),
        OptionSpec(repetition_option, True, "threefold repetition ends the game in a draw", BOOL),
    )
