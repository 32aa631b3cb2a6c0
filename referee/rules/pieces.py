"""Colours, piece codes and letters.

A piece on a square is one small ``int``: ``kind | colour << 4`` (0 is an empty square). The
kind is an index into the variant's piece table (1..15); for chess-like variants the kinds are
the constants below. Identity (which rook, which pawn) is kept beside it in ``State.ids``.
"""

from __future__ import annotations

from typing import Final

WHITE: Final = 1
BLACK: Final = 2
GRAY: Final = 3
COLOURS: Final = (WHITE, BLACK)
COLOUR_NAMES: Final = {WHITE: "white", BLACK: "black", GRAY: "gray"}
COLOUR_BY_NAME: Final = {v: k for k, v in COLOUR_NAMES.items()}

PAWN: Final = 1
KNIGHT: Final = 2
BISHOP: Final = 3
ROOK: Final = 4
QUEEN: Final = 5
KING: Final = 6

#: Letters of the chess kinds, indexed by kind (index 0 unused).
CHESS_LETTERS: Final = " PNBRQK"
CHESS_KIND_BY_LETTER: Final = {c: i for i, c in enumerate(CHESS_LETTERS) if c != " "}


def code(kind: int, colour: int) -> int:
    """The piece code of ``kind`` owned by ``colour``."""
    return kind | colour << 4


def kind_of(piece: int) -> int:
    """The kind of a piece code (0 for an empty square)."""
    return piece & 15


def colour_of(piece: int) -> int:
    """The owner of a piece code: WHITE, BLACK, GRAY (0 for an empty square)."""
    return piece >> 4


def other(colour: int) -> int:
    """The opponent of WHITE or BLACK."""
    return 3 - colour


def chess_letter(piece: int) -> str:
    """``P``..``K`` for White, ``p``..``k`` for Black, ``""`` for empty."""
    if not piece:
        return ""
    letter = CHESS_LETTERS[piece & 15]
    return letter if piece >> 4 == WHITE else letter.lower()
