"""Standard algebraic notation (``e4``, ``Nf3``, ``exd5``, ``Rad1``, ``e8=Q+``) read against the
engine's own legal actions.

Chess players type SAN; our NOTATION.md form is coordinates. Rather than a second move
generator, a SAN text is matched against :meth:`Variant.legal_actions`: the destination, the
piece letter (none for a pawn), the disambiguating file/rank and the promotion piece must fit
exactly one legal move. So every variant whose men are chess men on an 8x8 main board (standard,
Dead Man's Earth, Ghost's living pieces, Zombie, Masquerade attempts, Die faces) gets SAN
for free, and it can never accept a move the rules refuse. Castling (``O-O``) is already part of
NOTATION.md. Ring cells, Hell squares and choices keep their NOTATION.md form.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.errors import NotationError

if TYPE_CHECKING:
    from referee.rules.state import State
    from referee.rules.variant import Variant

_SAN: Final = re.compile(
    r"^(?P<piece>[KQRBN])?(?P<file>[a-h])?(?P<rank>[1-8])?(?P<x>x)?(?P<to>[a-h][1-8])"
    r"(?:=?(?P<promo>[QRBNK]))?[+#]?[!?]*$")
_CASTLE: Final = re.compile(r"^[O0]-[O0](?P<long>-[O0])?[+#]?[!?]*$")
_CHESS_MEN: Final = frozenset("KQRBNP")


def looks_like_san(text: str) -> bool:
    """Whether ``text`` has the form of a SAN move (castling included)."""
    return _SAN.match(text.strip()) is not None or _CASTLE.match(text.strip()) is not None


def speaks_san(variant: Variant[Any]) -> bool:
    """Whether SAN makes sense in ``variant``: chess men (its promotion pieces are chess
    letters) on a main board with files a-h and ranks 1-8."""
    layout = variant.layout
    return set(variant.promo_letters) <= _CHESS_MEN and all(
        layout.has_square(sq) for sq in ("a1", "h8"))


def parse_san(text: str, variant: Variant[Any], state: State) -> Action:
    """The one legal action of ``state`` that the SAN ``text`` names.

    Raises:
        NotationError: not SAN, no legal move fits, or several do (the text says which).
    """
    raw = text.strip()
    castle = _CASTLE.match(raw)
    if castle and speaks_san(variant):
        king = variant.castling_action(state, bool(castle.group("long")))
        if king not in variant.legal_actions(state):
            raise NotationError(f"{raw!r}: castling is not legal now")
        return king
    m = _SAN.match(raw)
    if m is None or not speaks_san(variant):
        raise NotationError(f"cannot read {raw!r} as a move of {variant.name}")
    layout = variant.layout
    to = layout.square(m.group("to"))
    letter = m.group("piece") or "P"
    file, rank, promo = m.group("file"), m.group("rank"), m.group("promo") or ""
    fits = []
    for action in variant.legal_actions(state):
        if action.kind != A.MOVE or action.to != to or action.rise >= 0:
            continue
        origin = layout.name(action.frm)
        if len(origin) != 2 or variant.piece_letter(state.board[action.frm]).upper() != letter:
            continue
        if (file and origin[0] != file) or (rank and origin[1] != rank):
            continue
        if promo and action.promo != promo:
            continue
        fits.append(action)
    if not promo and any(not a.promo for a in fits):
        fits = [a for a in fits if not a.promo]
    if len(fits) == 1:
        return fits[0]
    if not fits:
        who = "pawn" if letter == "P" else letter
        raise NotationError(f"{raw!r}: no legal {who} move to {m.group('to')}")
    if {a.frm for a in fits} == {fits[0].frm}:
        pieces = "/".join(f"={a.promo}" for a in fits)
        raise NotationError(f"{raw!r}: say the promotion piece ({pieces})")
    starts = ", ".join(sorted(layout.name(a.frm) for a in fits))
    raise NotationError(f"{raw!r} is ambiguous: the {letter} on {starts} can go there")
