"""Fields of position texts that several variants write the same way.

A variant's position text (RULINGS/NOTATION) is a row of fields; the FEN-like ones recur:
piece rows, castling rights, a private ``rng:`` generator field, and square bit sets. They are
written and read here once, so that every variant spells them alike and reports a bad field
with the same words. Readers raise :class:`~referee.rules.errors.RecordError` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Final

from referee.rules.errors import RecordError
from referee.rules.pieces import BLACK, CHESS_KIND_BY_LETTER, WHITE, code
from referee.rules.state import State

#: Castling rights in bit order (chesscore.standard_castles): K=1, Q=2, k=4, q=8.
CASTLE_LETTERS: Final = "KQkq"


def side_text(colour: int) -> str:
    """The side-to-move field: ``w`` or ``b``."""
    return "w" if colour == WHITE else "b"


def read_side(text: str) -> int:
    """The colour of a side-to-move field."""
    if text not in ("w", "b"):
        raise RecordError(f"side to move must be w or b, not {text!r}")
    return WHITE if text == "w" else BLACK


def castling_text(rights: int) -> str:
    """The FEN castling field of a bit set of rights (``-`` for none)."""
    return "".join(c for i, c in enumerate(CASTLE_LETTERS) if rights >> i & 1) or "-"


def read_castling(text: str) -> int:
    """The bit set of rights of a FEN castling field."""
    if text != "-" and (not text or set(text) - set(CASTLE_LETTERS)):
        raise RecordError(f"bad castling field {text!r}")
    return sum(1 << i for i, c in enumerate(CASTLE_LETTERS) if c in text)


def rng_text(rng: int) -> str:
    """The private generator field (``rng:`` and 16 hex digits)."""
    return f"rng:{rng:016x}"


def pop_rng(fields: list[str], default: int, text: str) -> int:
    """The generator of a trailing ``rng:`` field, removed from ``fields``; else ``default``."""
    if not fields or not fields[-1].startswith("rng:"):
        return default
    try:
        return int(fields.pop()[4:], 16)
    except ValueError:
        raise RecordError(f"bad generator field in {text!r}") from None


def fen_rows(board: list[int], ranks: Sequence[Sequence[int]],
             token: Callable[[int], str]) -> str:
    """FEN piece placement of the squares in ``ranks`` (top rank first, files left to right);
    ``token(sq)`` writes the piece on an occupied square (its letter, and any marks)."""
    rows = []
    for rank in ranks:
        row, empty = "", 0
        for sq in rank:
            if board[sq]:
                row += (str(empty) if empty else "") + token(sq)
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def read_rows(st: State, placement: str, ranks: Sequence[Sequence[int]],
              piece_of: Callable[[str], int | None], field: str = "board") -> None:
    """Place the pieces of FEN rows on ``st`` (``ranks`` as for :func:`fen_rows`).

    ``piece_of`` gives a letter's piece code, or None where the letter is not allowed.
    """
    rows = placement.split("/")
    if len(rows) != len(ranks):
        raise RecordError(f"{field} field needs {len(ranks)} ranks, has {len(rows)}")
    for squares, row in zip(ranks, rows, strict=True):
        x = 0
        for ch in row:
            if "1" <= ch <= "9":
                x += int(ch)
                continue
            piece = piece_of(ch)
            if piece is None or x >= len(squares):
                raise RecordError(f"bad rank {row!r} in {field} field")
            st.place(squares[x], piece)
            x += 1
        if x != len(squares):
            raise RecordError(f"rank {row!r} does not have {len(squares)} squares")


def chess_piece(letter: str) -> int | None:
    """The piece code of a FEN letter (upper case White), or None."""
    kind = CHESS_KIND_BY_LETTER.get(letter.upper())
    return None if kind is None else code(kind, WHITE if letter.isupper() else BLACK)


def bits(mask: int) -> Iterator[int]:
    """The squares of a bit set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
