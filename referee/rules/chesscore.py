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
from typing import NamedTuple

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


class MoveRecord(NamedTuple):
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


#: A target square and the move object that goes there.
Pair = tuple[int, Action]
#: The moves to one target: one, or one per promotion letter.
Moves = tuple[Action, ...]


class ChessRules:
    """Move generation and execution for chess pieces on one geometry.

    Args:
        geo: the squares and their rays.
        squares: the squares this rule set generates moves from (e.g. only Earth).
        double_step: per colour, the squares a pawn may double-step from.
        promotion: per colour, the squares where a pawn promotes.
        promo_letters: the kinds a pawn may promote to, as upper-case letters.
        castles: the castling rules (may be empty).

    Every move the pieces could ever make is built once here as an :class:`Action` and kept
    beside its target square (``slide_moves``, ``knight_moves``, ``king_moves``, the pawn
    tables), so generation only walks tables and appends ready objects: building a tuple per
    generated move was a fifth of perft's time.
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
        # A contiguous run of squares lets list.index find the king in C.
        ordered = self.squares == tuple(range(self.squares[0], self.squares[-1] + 1)) \
            if self.squares else False
        self._span = (self.squares[0], self.squares[-1] + 1) if ordered else None
        # Attacks by sliders can be found from a list of the enemy's sliders (few) instead of
        # walking eight rays per square, when every ray stays inside the span searched.
        self._lines = self._build_lines() if self._rays_stay_in_span() else None
        self._slider_codes = {c: frozenset(k | c << 4 for k in (ROOK, BISHOP, QUEEN))
                              for c in (WHITE, BLACK)}
        self._orth_rays = [tuple(ray for d in ORTHOGONAL if (ray := self.rays[d][sq]))
                           for sq in range(geo.size)]
        self._diag_rays = [tuple(ray for d in DIAGONAL if (ray := self.rays[d][sq]))
                           for sq in range(geo.size)]
        self._build_move_tables()

    def _rays_stay_in_span(self) -> bool:
        if self._span is None:
            return False
        lo, hi = self._span
        return all(lo <= t < hi for d in range(8) for sq in self.squares for t in self.rays[d][sq])

    def _build_lines(self) -> list[dict[int, tuple[int, tuple[int, ...]]]]:
        """Per square: {square on one of its rays: (direction, squares strictly between)}."""
        lines: list[dict[int, tuple[int, tuple[int, ...]]]] = [{} for _ in range(self.geo.size)]
        for sq in self.squares:
            for d in range(8):
                ray = self.rays[d][sq]
                for i, t in enumerate(ray):
                    lines[sq][t] = (d, ray[:i])
        return lines

    def _build_move_tables(self) -> None:
        """The tables, filled for this rule set's own squares (empty for the rest: a rule set
        over part of a large layout builds only what it uses)."""
        size = self.geo.size
        #: Per direction, per square: the ray as (target, move) pairs, nearest first.
        self._ray_moves: list[list[tuple[Pair, ...]]] = [[()] * size for _ in range(8)]
        #: Per kind (index = kind), per square: its rays (only the non-empty ones).
        self.slide_moves: list[list[tuple[tuple[Pair, ...], ...]]] = [[()] * size] * 16
        for kind in SLIDES:
            self.slide_moves[kind] = [()] * size
        self.knight_moves: list[tuple[Pair, ...]] = [()] * size
        self.king_moves: list[tuple[Pair, ...]] = [()] * size
        self.pawn_one: dict[int, list[tuple[int, Moves] | None]] = {
            c: [None] * size for c in (WHITE, BLACK)}
        self.pawn_two: dict[int, list[tuple[int, Moves] | None]] = {
            c: [None] * size for c in (WHITE, BLACK)}
        self.pawn_caps: dict[int, list[tuple[tuple[int, Moves], ...]]] = {
            c: [()] * size for c in (WHITE, BLACK)}
        self._own = frozenset(self.squares)
        for sq in self.squares:
            self._fill(sq)
        # Castling: the squares that must be empty (other than the king's and rook's own).
        self._castle_tests = {
            c: tuple((r, tuple(s for s in r.empty if s not in (r.king_from, r.rook_from)),
                      Action(MOVE, r.king_from, r.king_to)) for r in rules)
            for c, rules in self.castles.items()
        }

    def _own_squares(self, squares: Sequence[int]) -> Sequence[int]:
        """``squares``, checked to be this rule set's (the tables cover no others)."""
        if not self._own.issuperset(squares):
            outside = sorted(set(squares) - self._own)
            raise ValueError(f"squares {outside} are not among this rule set's squares")
        return squares

    def _fill(self, sq: int) -> None:
        rays = [self.rays[d][sq] for d in range(8)]
        targets = {t for ray in rays for t in ray}
        targets.update(self.knight[sq])
        for c in (WHITE, BLACK):
            targets.update(self.caps[c][sq])
            targets.update(t for t in (self.push1[c][sq], self.push2[c][sq]) if t >= 0)
        # One move object per target, shared by the tables (tuple.__new__: half the cost of
        # the named tuple's constructor, which is felt when a variant is built).
        new = tuple.__new__
        moves = {t: new(Action, (MOVE, sq, t, "", -1, "")) for t in targets}
        ray_moves = [tuple((t, moves[t]) for t in ray) for ray in rays]
        for d in range(8):
            self._ray_moves[d][sq] = ray_moves[d]
        for kind, dirs in SLIDES.items():
            self.slide_moves[kind][sq] = tuple(ray_moves[d] for d in dirs if ray_moves[d])
        self.knight_moves[sq] = tuple((t, moves[t]) for t in self.knight[sq])
        self.king_moves[sq] = tuple((t, moves[t]) for t in self.king[sq])
        for c in (WHITE, BLACK):
            promo = self.promotion[c]

            def target(t: int) -> tuple[int, Moves] | None:
                if t < 0:
                    return None
                if t in promo:  # noqa: B023 - used at once, in this iteration
                    return t, tuple(new(Action, (MOVE, sq, t, letter, -1, ""))
                                    for letter in self.promo_letters)
                return t, (moves[t],)

            self.pawn_one[c][sq] = target(self.push1[c][sq])
            self.pawn_two[c][sq] = target(self.push2[c][sq])
            self.pawn_caps[c][sq] = tuple(
                m for t in self.caps[c][sq] if (m := target(t)) is not None)

    # ----------------------------------------------------------------------------- attacks

    def _leaper_attacks(self, board: list[int], sq: int, by: int) -> bool:
        """Whether a knight, king or pawn of colour ``by`` attacks ``sq``."""
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
        return False

    def attacked(self, board: list[int], sq: int, by: int) -> bool:
        """Whether any chess piece of colour ``by`` attacks ``sq`` (blocking as on ``board``)."""
        if self._leaper_attacks(board, sq, by):
            return True
        shift = by << 4
        queen = QUEEN | shift
        rook = ROOK | shift
        for ray in self._orth_rays[sq]:
            for t in ray:
                p = board[t]
                if p:
                    if p == rook or p == queen:
                        return True
                    break
        bishop = BISHOP | shift
        for ray in self._diag_rays[sq]:
            for t in ray:
                p = board[t]
                if p:
                    if p == bishop or p == queen:
                        return True
                    break
        return False

    def _sliders(self, board: list[int], colour: int) -> list[tuple[int, int]]:
        """(square, kind) of every rook, bishop and queen of ``colour`` in the span."""
        assert self._span is not None
        lo, hi = self._span
        codes = self._slider_codes[colour]
        return [(sq, p & 15) for sq, p in enumerate(board[lo:hi], lo) if p in codes]

    def _attacked_fast(self, board: list[int], sq: int, by: int,
                       sliders: list[tuple[int, int]]) -> bool:
        """:meth:`attacked`, given ``sliders`` = :meth:`_sliders` of ``by`` on this board."""
        if self._leaper_attacks(board, sq, by):
            return True
        assert self._lines is not None
        line = self._lines[sq]
        for s, kind in sliders:
            found = line.get(s)
            if found is None:
                continue
            d, between = found
            if (kind == ROOK and d >= 4) or (kind == BISHOP and d < 4):
                continue
            for t in between:
                if board[t]:
                    break
            else:
                return True
        return False

    def king_square(self, board: list[int], colour: int) -> int:
        """The square of ``colour``'s king among this rule set's squares, or -1."""
        king = KING | colour << 4
        if self._span is not None:
            try:
                return board.index(king, *self._span)
            except ValueError:
                return -1
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
        knight = KNIGHT | shift
        pawn = PAWN | shift
        checkers = [t for t in self.knight[ksq] if board[t] == knight]
        for t in self.pawn_from[them][ksq]:
            if board[t] == pawn:
                checkers.append(t)
        pins: dict[int, frozenset[int]] = {}
        queen = QUEEN | shift
        rook = ROOK | shift
        bishop = BISHOP | shift
        rays = self.rays
        for d in range(8):
            slider = rook if d < 4 else bishop
            ray = rays[d][ksq]
            blocker = -1
            for t in ray:
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
                        pins[blocker] = frozenset(ray[: ray.index(t) + 1])
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
            squares = self.squares if squares is None else self._own_squares(squares)
            self._generate(board, us, ep, squares, out, ksq, pins, block, False)
        self._king_moves(board, ksq, us, out)
        if castling and not checkers:
            self._castling(board, ksq, us, castling, out)
        return out

    def pseudo_moves(
        self, board: list[int], us: int, ep: int, squares: Sequence[int] | None = None,
    ) -> list[Action]:
        """Moves that follow the pieces' patterns, without looking at king safety or castling."""
        out: list[Action] = []
        squares = self.squares if squares is None else self._own_squares(squares)
        self._generate(board, us, ep, squares, out, -1, {}, None, True)
        return out

    def _generate(
        self, board: list[int], us: int, ep: int, squares: Sequence[int], out: list[Action],
        ksq: int, pins: dict[int, frozenset[int]], block: frozenset[int] | None, kings: bool,
    ) -> None:
        """Moves of the pieces of ``us`` on ``squares``, in square order, into ``out``.

        Kings move only when ``kings`` (pseudo-legal generation); pinned pieces and, in check,
        every piece go through :meth:`_restricted_moves`. For each pawn: en passant first,
        then pushes, then captures (the order the records and seeded playouts rely on).
        """
        append = out.append
        them = 3 - us
        slide_moves = self.slide_moves
        knight_moves = self.knight_moves
        pawn_one = self.pawn_one[us]
        pawn_two = self.pawn_two[us]
        pawn_caps = self.pawn_caps[us]
        for sq in squares:
            p = board[sq]
            if not p or p >> 4 != us:
                continue
            kind = p & 15
            if block is not None or (pins and sq in pins):
                if kind != KING:
                    self._restricted_moves(board, sq, kind, us, ep, out, ksq, pins.get(sq), block)
                continue
            if kind == PAWN:
                caps = pawn_caps[sq]
                if ep >= 0:
                    for t, _ in caps:
                        if t == ep:
                            q = board[t]
                            if not (q and q >> 4 == them) and self._ep_is_safe(board, sq, t, us,
                                                                               ksq):
                                append(Action(MOVE, sq, t))
                one = pawn_one[sq]
                if one is not None and not board[one[0]]:
                    out += one[1]
                    two = pawn_two[sq]
                    if two is not None and not board[two[0]]:
                        out += two[1]
                for t, acts in caps:
                    q = board[t]
                    if q and q >> 4 == them:
                        out += acts
            elif kind == KNIGHT:
                for t, a in knight_moves[sq]:
                    q = board[t]
                    if not q or q >> 4 != us:
                        append(a)
            elif kind == KING:
                if kings:
                    for t, a in self.king_moves[sq]:
                        q = board[t]
                        if not q or q >> 4 != us:
                            append(a)
            else:
                for ray in slide_moves[kind][sq]:
                    for t, a in ray:
                        q = board[t]
                        if q:
                            if q >> 4 != us:
                                append(a)
                            break
                        append(a)

    def _restricted_moves(
        self, board: list[int], sq: int, kind: int, us: int, ep: int, out: list[Action],
        ksq: int, pin: frozenset[int] | None, block: frozenset[int] | None,
    ) -> None:
        """Moves of a pinned piece, or of any piece while the king is in check."""
        targets: list[tuple[int, Moves]] = []
        if kind == PAWN:
            them = 3 - us
            caps = self.pawn_caps[us][sq]
            for t, _ in caps:
                if t == ep:
                    q = board[t]
                    if not (q and q >> 4 == them) and self._ep_is_safe(board, sq, t, us, ksq):
                        out.append(Action(MOVE, sq, t))
            one = self.pawn_one[us][sq]
            if one is not None and not board[one[0]]:
                targets.append(one)
                two = self.pawn_two[us][sq]
                if two is not None and not board[two[0]]:
                    targets.append(two)
            targets.extend(m for m in caps if board[m[0]] and board[m[0]] >> 4 == them)
        else:
            for ray in self.slide_moves[kind][sq]:
                for t, a in ray:
                    q = board[t]
                    if q:
                        if q >> 4 != us:
                            targets.append((t, (a,)))
                        break
                    targets.append((t, (a,)))
            if kind == KNIGHT:
                targets.extend((t, (a,)) for t, a in self.knight_moves[sq]
                               if not board[t] or board[t] >> 4 != us)
        for t, acts in targets:
            if (pin is None or t in pin) and (block is None or t in block):
                out += acts

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
        """Append the king's safe steps.

        Each target needs an attack test. Walking eight rays per target is what costs in open
        positions, so with four or more targets the enemy's sliders are listed once and each
        target only checks the lines to them (:meth:`_attacked_fast`).
        """
        targets = [(t, a) for t, a in self.king_moves[ksq]
                   if not board[t] or board[t] >> 4 != us]
        if not targets:
            return
        king = board[ksq]
        board[ksq] = 0  # so that the king does not shield squares behind it from a slider
        them = 3 - us
        if len(targets) < 4 or self._lines is None:
            for t, a in targets:
                if not self.attacked(board, t, them):
                    out.append(a)
        else:
            sliders = self._sliders(board, them)
            for t, a in targets:
                if not self._attacked_fast(board, t, them, sliders):
                    out.append(a)
        board[ksq] = king

    def _castling(
        self, board: list[int], ksq: int, us: int, rights: int, out: list[Action],
    ) -> None:
        rook = ROOK | us << 4
        them = 3 - us
        for rule, clear, action in self._castle_tests[us]:
            if not rights & rule.bit or ksq != rule.king_from or board[rule.rook_from] != rook:
                continue
            if any(board[s] for s in clear):
                continue
            if any(self.attacked(board, s, them) for s in rule.safe):
                continue
            out.append(action)

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
