"""Zombie Chess legality against an independent, naive oracle built on python-chess.

The oracle re-derives the legal actions of RULINGS.md §5.4 from scratch for every state of
seeded random games: it tries every pseudo-legal move on a python-chess board, reveals the
mover's own burials on the emptied squares (every promotion piece for a revealed pawn on its
last rank), removes the rotting zombies, and searches horde move sequences exhaustively. It
shares no code with the engine's move generator, trials or horde search.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import chess
import pytest

from referee.rules.game import Game
from referee.rules.pieces import WHITE
from referee.rules.variants import make_variant
from referee.rules.variants.zombie import Zombie
from referee.rules.variants.zombie_state import CHOOSE, OPEN, START, ZombieState

PROMOS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
ROOK_CASTLE = {chess.A1: "Q", chess.H1: "K", chess.A8: "q", chess.H8: "k"}


def _piece(code: int) -> chess.Piece:
    return chess.Piece(code & 15, code >> 4 == WHITE)


class Oracle:
    """Naive legal actions of one Zombie state (squares: python-chess = engine, a1 = 0)."""

    def __init__(self, variant: Zombie, st: ZombieState) -> None:
        o = variant.options
        self.either_or = o["zombie.turn_mode"] == "either_or"
        self.each_step = o["zombie.horde_check_each_step"]
        self.double = o["zombie.zombie_pawn_double_step"]
        self.st = st
        self.us = st.turn == WHITE
        self.own = {sq: _piece(p) for sq, p in st.burials_of(st.turn)}
        self.opp = ({sq: _piece(p) for sq, p in st.burials_of(3 - st.turn)}
                    if o["zombie.legality_includes_opponent_reveal"] else {})
        self.board = self._board(variant)

    def _board(self, variant: Zombie) -> chess.Board:
        fen = variant.fen(self.st).split()
        zombies = {sq for sq in range(64) if self.st.zombies >> sq & 1}
        rights = "".join(c for sq, c in ROOK_CASTLE.items() if c in fen[2] and sq not in zombies)
        fen[2] = "".join(c for c in "KQkq" if c in rights) or "-"
        if self.st.phase != START:
            fen[3] = "-"  # the opponent's en passant right lapses after the first move
        return chess.Board(" ".join(fen))

    def legal(self) -> set[str]:
        st = self.st
        if st.phase == CHOOSE:
            if st.promos:
                return {f"promote={chess.square_name(st.promos[0])}={p}" for p in "QRBN"}
            taken = {sq for sq, _ in st.burials_of(st.turn)}
            return {f"bury={chess.square_name(sq)}" for sq in range(64)
                    if st.board[sq] >> 4 == st.turn and sq not in taken}
        horde = frozenset(sq for sq in range(64) if st.horde >> sq & 1)
        if st.phase == OPEN:
            out = self._zombie_starts(self.board, horde, tuple(st.left))
            if self._safe(self.board, tuple(st.left), horde):
                out.add("end")
            return out
        normal = self._normal(horde)
        if self.either_or:
            return normal | self._zombie_starts(self.board, horde, ())
        return normal or self._zombie_starts(self.board, horde, ())

    def _normal(self, horde: frozenset[int]) -> set[str]:
        out = set()
        b = self.board
        for m in list(b.pseudo_legal_moves):
            if m.from_square in horde or (b.is_castling(m) and not b.is_legal(m)):
                continue
            after, left = self._push(b, m), self._left(b, m)
            if self.either_or or not horde:
                if self._safe(after, left, horde):
                    out.add(m.uci())
            elif (not self.each_step or self._safe(after, left, frozenset())) and \
                    self._completable(after, horde, left):
                out.add(m.uci())
        return out

    def _zombie_starts(self, b: chess.Board, horde: frozenset[int],
                       left: tuple[int, ...]) -> set[str]:
        out = set()
        for sq in horde:
            for m in self._zombie_moves(b, sq):
                after, left2 = self._push(b, m), left + (sq,)
                if self.each_step and not self._safe(after, left2, frozenset()):
                    continue
                if self._completable(after, horde - {sq}, left2):
                    out.add(m.uci())
        return out

    def _completable(self, b: chess.Board, horde: frozenset[int], left: tuple[int, ...]) -> bool:
        if self._safe(b, left, horde):
            return True
        for sq in horde:
            for m in self._zombie_moves(b, sq):
                after, left2 = self._push(b, m), left + (sq,)
                if self.each_step and not self._safe(after, left2, frozenset()):
                    continue
                if self._completable(after, horde - {sq}, left2):
                    return True
        return False

    def _zombie_moves(self, b: chess.Board, sq: int) -> Iterator[chess.Move]:
        second = 1 if self.us == chess.WHITE else 6
        for m in list(b.pseudo_legal_moves):
            if m.from_square != sq or b.piece_type_at(m.to_square) == chess.KING:
                continue  # the king is never captured (RULINGS 5.5), not even by a horde
            # python-chess also lets a pawn on its first rank double-step: only from the 2nd.
            if b.piece_type_at(sq) == chess.PAWN and abs(m.to_square - sq) == 16 and (
                    not self.double or chess.square_rank(sq) != second):
                continue
            yield m

    def _push(self, b: chess.Board, m: chess.Move) -> chess.Board:
        after = b.copy(stack=False)
        after.push(m)
        after.turn = self.us
        after.ep_square = None
        return after

    @staticmethod
    def _left(b: chess.Board, m: chess.Move) -> tuple[int, ...]:
        if b.is_castling(m):
            rook = chess.square(7 if chess.square_file(m.to_square) == 6 else 0,
                                chess.square_rank(m.from_square))
            return (m.from_square, rook)
        return (m.from_square,)

    def _safe(self, b: chess.Board, left: tuple[int, ...], rot: frozenset[int]) -> bool:
        """The mover's king is not attacked after reveals (own; opponent's with the option),
        every promotion choice of a revealed enemy pawn, and the rot."""
        b = b.copy(stack=False)
        promos = []
        for v in left:
            if b.piece_at(v) is not None:
                continue
            piece = self.own.get(v) or self.opp.get(v)
            if piece is None:
                continue
            b.set_piece_at(v, piece)
            last = 7 if piece.color == chess.WHITE else 0
            if v in self.own and piece.piece_type == chess.PAWN and chess.square_rank(v) == last:
                promos.append(v)
        for sq in rot:
            b.remove_piece_at(sq)
        king = b.king(self.us)
        assert king is not None
        for kind in PROMOS if promos else (None,):
            for v in promos:
                b.set_piece_at(v, chess.Piece(kind or chess.QUEEN, not self.us))
            if b.is_attacked_by(not self.us, king):
                return False
        return True


def zombie_loving_game(variant: Zombie, seed: int, plies: int,
                       check: Any = None) -> Game:
    """A random game that prefers zombie moves, so that hordes grow and survive."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    while game.outcome.result == "*" and len(game.played) < plies:
        if check:
            check(game)
        legal = game.legal()
        st = game.state
        zombie = [a for a in legal if a.kind == "move" and st.zombies >> a.frm & 1]  # type: ignore[attr-defined]
        pool = zombie if zombie and rng.random() < 0.85 else legal
        game.play(rng.choice(pool))
    return game


OPTION_SETS = [
    {},
    {"zombie.turn_mode": "normal_plus_zombies"},
    {"zombie.horde_check_each_step": True},
    {"zombie.turn_mode": "normal_plus_zombies", "zombie.horde_check_each_step": True},
    {"zombie.legality_includes_opponent_reveal": True},
    {"zombie.zombie_pawn_double_step": False, "zombie.captured_zombie": "dust_bin"},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=[str(o) for o in OPTION_SETS])
def test_legal_actions_match_the_oracle(options: dict[str, Any]) -> None:
    variant = make_variant("zombie", options)
    assert isinstance(variant, Zombie)
    seen = {"hordes": 0, "trials": 0}

    def check(game: Game) -> None:
        st = game.state
        assert isinstance(st, ZombieState)
        found = set(game.legal_texts())
        assert found == Oracle(variant, st).legal(), variant.position(st)
        seen["hordes"] += bin(st.horde).count("1") > 1
        seen["trials"] += any(st.board[sq] >> 4 == st.turn for sq, _ in st.burials_of(st.turn))

    # The oracle's exhaustive horde search is slow when normal moves need it: fewer games there.
    games, plies = (6, 140) if options.get("zombie.turn_mode") == "normal_plus_zombies" and \
        not options.get("zombie.horde_check_each_step") else (12, 160)
    for seed in range(games):
        zombie_loving_game(variant, seed, plies, check)
    assert seen["hordes"] > 5 and seen["trials"] > 100, seen  # the hard cases did occur
