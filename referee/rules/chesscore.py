"""Fast chess move generation on any geometry: the hot path shared by the chess-like variants.

:class:`ChessRules` is built once per variant (and per board, e.g. Earth and Hell) from a
:class:`~referee.rules.geometry.Geometry`.
It precomputes per-square tables (rays, leaps, pawn steps,
castling masks) so that generating moves allocates nothing but the resulting actions. Legality
uses checkers and pins computed once per position (the method python-chess uses), not a trial
move per candidate; only en passant is tried on the board.

Only the six chess kinds are understood here (:mod:`referee.rules.pieces`).
Boards are lists of piece
codes indexed by global square; squares outside the geometry are never looked at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.rules.actions import MOVE, Action
from referee.rules.geometry import DIAGONAL, KING_VECTORS, KNIGHT_VECTORS, ORTHOGONAL, Geometry
from referee.rules.pieces import (
    BISHOP,
    BLACK,
    CHESS_KIND_BY_LETTER,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    code,
)
from referee.rules.state import State

#: Directions each sliding chess kind moves along.
SLIDES: dict[int, tuple[int, ...]] = {
    BISHOP: DIAGONAL, ROOK: ORTHOGONAL, QUEEN: ORTHOGONAL + DIAGONAL,
}


@dataclass(frozen=True)
class CastleRule:
    """One castling move: its rights bit and the squares involved (global indices).

    ``empty`` must hold nothing (except the castling king and rook themselves); ``safe`` lists
    the squares the king passes through and lands on, which must not be attacked.
    """

    bit: int
    colour: int
    king_from: int
    king_to: int
    rook_from: int
    rook_to: int
    empty: tuple[int, ...]
    safe: tuple[int, ...]


@dataclass(frozen=True)
class MoveRecord:
    """What :meth:`ChessRules.make_move` did, for the variant's own consequences.

    ``captured`` / ``captured_id`` are the piece taken (0 if none) and ``captured_on`` the square
    it stood on (differs from the destination for en passant). ``rook`` is the castling rook's
    (from, to), or None.
    """

    piece: int
    captured: int
    captured_id: int
    captured_on: int
    rook: tuple[int, int] | None


class ChessRules:
    """Move generation and execution for chess pieces on one geometry.

    Args:
        geo: the squares and their rays.
        squares: the squares this rule set generates moves from (e.g. only Earth).
        double_step: per colour, the squares a pawn may double-step from.
        promotion: per colour, the squares where a pawn promotes.
        promo_letters: the kinds a pawn may promote to, as upper-case letters.
        castles: the castling rules (may be empty).
    """

    def __init__(
        self, geo: Geometry, squares: Sequence[int], *,
        double_step: dict[int, frozenset[int]], promotion: dict[int, frozenset[int]],
        promo_letters: str = "QRBN", castles: Sequence[CastleRule] = (),
    ) -> None:
        self.geo = geo
        self.squares = tuple(squares)
        self.rays = geo.rays
        self.knight = geo.leap_targets(KNIGHT_VECTORS)
        self.king = geo.leap_targets(KING_VECTORS)
        self.promotion = promotion
        self.promo_letters = promo_letters
        fwd = {WHITE: 1, BLACK: -1}
        self.push1 = {c: geo.leap((0, fwd[c])) for c in (WHITE, BLACK)}
        self.push2 = {
            c: [t if sq in double_step[c] else -1 for sq, t in enumerate(geo.leap((0, 2 * fwd[c])))]
            for c in (WHITE, BLACK)
        }
        self.caps = {c: geo.leap_targets(((-1, fwd[c]), (1, fwd[c]))) for c in (WHITE, BLACK)}
        # Squares from which a pawn of colour c attacks a square: its captures seen backwards.
        self.pawn_from = {
            c: geo.leap_targets(((-1, -fwd[c]), (1, -fwd[c]))) for c in (WHITE, BLACK)
        }
        self.castles = {c: tuple(r for r in castles if r.colour == c) for c in (WHITE, BLACK)}
        full = sum(r.bit for r in castles)
        self.keep = [full] * geo.size  # castling bits that survive a move touching a square
        for r in castles:
            for sq in (r.king_from, r.rook_from):
                self.keep[sq] &= ~r.bit

    # ----------------------------------------------------------------------------- attacks

    def attacked(self, board: list[int], sq: int, by: int) -> bool:
        """Whether any chess piece of colour ``by`` attacks ``sq`` (blocking as on ``board``)."""
        shift = by << 4
        knight = KNIGHT | shift
        for t in self.knight[sq]:
            if board[t] == knight:
                return True
        king = KING | shift
        for t in self.king[sq]:
            if board[t] == king:
                return True
        pawn = PAWN | shift
        for t in self.pawn_from[by][sq]:
            if board[t] == pawn:
                return True
        queen = QUEEN | shift
        rook = ROOK | shift
        rays = self.rays
        for d in ORTHOGONAL:
            for t in rays[d][sq]:
                p = board[t]
                if p:
                    if p == rook or p == queen:
                        return True
                    break
        bishop = BISHOP | shift
        for d in DIAGONAL:
            for t in rays[d][sq]:
                p = board[t]
                if p:
                    if p == bishop or p == queen:
                        return True
                    break
        return False

    def king_square(self, board: list[int], colour: int) -> int:
        """The square of ``colour``'s king among this rule set's squares, or -1."""
        king = KING | colour << 4
        for sq in self.squares:
            if board[sq] == king:
                return sq
        return -1

    def in_check(self, board: list[int], colour: int) -> bool:
        """Whether ``colour``'s king (if it has one here) is attacked."""
        ksq = self.king_square(board, colour)
        return ksq >= 0 and self.attacked(board, ksq, 3 - colour)

    def checkers_and_pins(
        self, board: list[int], ksq: int, us: int,
    ) -> tuple[list[int], dict[int, frozenset[int]]]:
        """Enemy pieces giving check to the king on ``ksq``, and our pinned pieces.

        Returns (checker squares, {pinned square: squares it may move to along the pin}).
        """
        them = 3 - us
        shift = them << 4
        checkers = [t for t in self.knight[ksq] if board[t] == KNIGHT | shift]
        checkers += [t for t in self.pawn_from[them][ksq] if board[t] == PAWN | shift]
        pins: dict[int, frozenset[int]] = {}
        queen = QUEEN | shift
        for d in range(8):
            slider = (ROOK if d < 4 else BISHOP) | shift
            ray = self.rays[d][ksq]
            blocker = -1
            for i, t in enumerate(ray):
                p = board[t]
                if not p:
                    continue
                if p >> 4 == us:
                    if blocker >= 0:
                        break
                    blocker = t
                    continue
                if p == slider or p == queen:
                    if blocker < 0:
                        checkers.append(t)
                    else:
                        pins[blocker] = frozenset(ray[: i + 1])
                break
        return checkers, pins

    # ----------------------------------------------------------------------------- generation

    def legal_moves(
        self, board: list[int], us: int, castling: int, ep: int,
        squares: Sequence[int] | None = None,
    ) -> list[Action]:
        """All legal moves of ``us`` from ``squares`` (default: all of this rule set's squares).

        Legal means the mover's king (if it has one on this geometry) is not attacked afterwards.
        Without a king the moves are only pseudo-legal.
        """
        ksq = self.king_square(board, us)
        if ksq < 0:
            return self.pseudo_moves(board, us, ep, squares)
        checkers, pins = self.checkers_and_pins(board, ksq, us)
        out: list[Action] = []
        if len(checkers) < 2:
            block: frozenset[int] | None = None
            if checkers:
                block = frozenset(self.geo.between(ksq, checkers[0]) + (checkers[0],))
            for sq in self.squares if squares is None else squares:
                p = board[sq]
                if p and p >> 4 == us and p & 15 != KING:
                    self._piece_moves(board, sq, p & 15, us, ep, out, ksq, pins.get(sq), block)
        self._king_moves(board, ksq, us, out)
        if castling and not checkers:
            self._castling(board, ksq, us, castling, out)
        return out

    def pseudo_moves(
        self, board: list[int], us: int, ep: int, squares: Sequence[int] | None = None,
    ) -> list[Action]:
        """Moves that follow the pieces' patterns, without looking at king safety or castling."""
        out: list[Action] = []
        for sq in self.squares if squares is None else squares:
            p = board[sq]
            if p and p >> 4 == us:
                if p & 15 == KING:
                    out.extend(Action(MOVE, sq, t) for t in self.king[sq]
                               if not board[t] or board[t] >> 4 != us)
                else:
                    self._piece_moves(board, sq, p & 15, us, ep, out, -1, None, None)
        return out

    def _piece_moves(
        self, board: list[int], sq: int, kind: int, us: int, ep: int, out: list[Action],
        ksq: int, pin: frozenset[int] | None, block: frozenset[int] | None,
    ) -> None:
        if kind == PAWN:
            self._pawn_moves(board, sq, us, ep, out, ksq, pin, block)
            return
        append = out.append
        if pin is None and block is None:
            for d in SLIDES.get(kind, ()):
                for t in self.rays[d][sq]:
                    q = board[t]
                    if q:
                        if q >> 4 != us:
                            append(Action(MOVE, sq, t))
                        break
                    append(Action(MOVE, sq, t))
            if kind == KNIGHT:
                for t in self.knight[sq]:
                    q = board[t]
                    if not q or q >> 4 != us:
                        append(Action(MOVE, sq, t))
            return
        targets: list[int] = []
        for d in SLIDES.get(kind, ()):
            for t in self.rays[d][sq]:
                q = board[t]
                if q:
                    if q >> 4 != us:
                        targets.append(t)
                    break
                targets.append(t)
        if kind == KNIGHT:
            targets.extend(t for t in self.knight[sq] if not board[t] or board[t] >> 4 != us)
        for t in targets:
            if (pin is None or t in pin) and (block is None or t in block):
                append(Action(MOVE, sq, t))

    def _pawn_moves(
        self, board: list[int], sq: int, us: int, ep: int, out: list[Action],
        ksq: int, pin: frozenset[int] | None, block: frozenset[int] | None,
    ) -> None:
        targets = self.pawn_pushes(board, sq, us)
        them = 3 - us
        for t in self.caps[us][sq]:
            q = board[t]
            if q and q >> 4 == them:
                targets.append(t)
            elif t == ep and self._ep_is_safe(board, sq, t, us, ksq):
                out.append(Action(MOVE, sq, t))
        promo = self.promotion[us]
        for t in targets:
            if (pin is not None and t not in pin) or (block is not None and t not in block):
                continue
            if t in promo:
                out.extend(Action(MOVE, sq, t, letter) for letter in self.promo_letters)
            else:
                out.append(Action(MOVE, sq, t))

    def pawn_pushes(self, board: list[int], sq: int, us: int) -> list[int]:
        """Empty squares a pawn of ``us`` on ``sq`` may step to (single, then double step)."""
        one = self.push1[us][sq]
        if one < 0 or board[one]:
            return []
        two = self.push2[us][sq]
        return [one, two] if two >= 0 and not board[two] else [one]

    def _ep_is_safe(self, board: list[int], frm: int, to: int, us: int, ksq: int) -> bool:
        """En passant can uncover a rank attack on the king: try it on the board and undo."""
        victim_sq = self.push1[3 - us][to]
        if victim_sq < 0 or board[victim_sq] != code(PAWN, 3 - us):
            return False
        if ksq < 0:
            return True
        pawn, victim = board[frm], board[victim_sq]
        board[frm], board[to], board[victim_sq] = 0, pawn, 0
        safe = not self.attacked(board, ksq, 3 - us)
        board[frm], board[to], board[victim_sq] = pawn, 0, victim
        return safe

    def _king_moves(self, board: list[int], ksq: int, us: int, out: list[Action]) -> None:
        king = board[ksq]
        board[ksq] = 0  # so that the king does not shield squares behind it from a slider
        them = 3 - us
        for t in self.king[ksq]:
            q = board[t]
            if (not q or q >> 4 != us) and not self.attacked(board, t, them):
                out.append(Action(MOVE, ksq, t))
        board[ksq] = king

    def _castling(
        self, board: list[int], ksq: int, us: int, rights: int, out: list[Action],
    ) -> None:
        rook = ROOK | us << 4
        for rule in self.castles[us]:
            if not rights & rule.bit or ksq != rule.king_from or board[rule.rook_from] != rook:
                continue
            if any(board[s] and s not in (rule.king_from, rule.rook_from) for s in rule.empty):
                continue
            if any(self.attacked(board, s, 3 - us) for s in rule.safe):
                continue
            out.append(Action(MOVE, ksq, rule.king_to))

    def ep_capturable(self, board: list[int], us: int, ep: int) -> bool:
        """Whether a pawn of ``us`` stands ready to capture en passant on ``ep`` (pseudo-legal)."""
        if ep < 0:
            return False
        pawn = PAWN | us << 4
        return any(board[s] == pawn for s in self.pawn_from[us][ep])

    # ----------------------------------------------------------------------------- execution

    def make_move(self, st: State, action: Action) -> MoveRecord:
        """Carry out a chess move on ``st`` (a fresh copy), in place.

        Handles captures (including en passant), promotion, castling's rook, castling rights,
        the en passant square and the halfmove clock. It does not switch the side to move or
        decide what happens to a captured piece: that is the variant's business.
        """
        board = st.board
        frm, to = action.frm, action.to
        piece = board[frm]
        us = piece >> 4
        kind = piece & 15
        captured_on = -1
        if board[to]:
            captured_on = to
        elif kind == PAWN and to == st.ep:
            captured_on = self.push1[3 - us][to]
        captured, captured_id = st.clear(captured_on) if captured_on >= 0 else (0, 0)
        st.shift(frm, to)
        if action.promo:
            board[to] = code(CHESS_KIND_BY_LETTER[action.promo], us)
        rook: tuple[int, int] | None = None
        if kind == KING:
            for rule in self.castles[us]:
                if frm == rule.king_from and to == rule.king_to and board[rule.rook_from]:
                    st.shift(rule.rook_from, rule.rook_to)
                    rook = (rule.rook_from, rule.rook_to)
        st.castling &= self.keep[frm] & self.keep[to]
        st.ep = self.push1[us][frm] if kind == PAWN and to == self.push2[us][frm] else -1
        st.halfmove = 0 if kind == PAWN or captured else st.halfmove + 1
        return MoveRecord(piece, captured, captured_id, captured_on, rook)

    def castle_rule(self, frm: int, to: int, colour: int) -> CastleRule | None:
        """The castling rule a king move from ``frm`` to ``to`` would be, if any."""
        for rule in self.castles[colour]:
            if rule.king_from == frm and rule.king_to == to:
                return rule
        return None


def standard_castles(geo: Geometry, plane: str, first_bit: int = 0) -> list[CastleRule]:
    """The four FIDE castling rules of an 8x8 board on ``plane`` (a1 at (0, 0)).

    Bits: white king side, white queen side, black king side, black queen side (shifted by
    ``first_bit``).
    """
    rules: list[CastleRule] = []
    for i, (colour, y) in enumerate(((WHITE, 0), (BLACK, 7))):
        def sq(x: int, y: int = y) -> int:
            return geo.at(plane, x, y)
        k = sq(4)
        rules.append(CastleRule(1 << (first_bit + 2 * i), colour, k, sq(6), sq(7), sq(5),
                                (sq(5), sq(6)), (sq(5), sq(6))))
        rules.append(CastleRule(1 << (first_bit + 2 * i + 1), colour, k, sq(2), sq(0), sq(3),
                                (sq(1), sq(2), sq(3)), (sq(3), sq(2))))
    return rules


def standard_rules(geo: Geometry, squares: Sequence[int], plane: str, *,
                   castling: bool = True, promo_letters: str = "QRBN") -> ChessRules:
    """FIDE chess on an 8x8 plane whose a1 is at (0, 0)."""
    rank = {sq: geo.coords(sq)[2] for sq in squares}
    return ChessRules(
        geo, squares,
        double_step={WHITE: frozenset(s for s in squares if rank[s] == 1),
                     BLACK: frozenset(s for s in squares if rank[s] == 6)},
        promotion={WHITE: frozenset(s for s in squares if rank[s] == 7),
                   BLACK: frozenset(s for s in squares if rank[s] == 0)},
        promo_letters=promo_letters,
        castles=standard_castles(geo, plane) if castling else (),
    )
