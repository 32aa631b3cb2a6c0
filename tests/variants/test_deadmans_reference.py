"""An independent, deliberately naive Dead Man's Chess referee, and the engine checked against it.

The reference reads RULINGS.md §1 straight: python-chess plays Earth (its legal moves, castling,
en passant, check), Hell is a plain dict of squares moved over with (file, rank) arithmetic, and
every resurrection is tried on a copy of the Earth board to see whether the mover's king is
left attacked. Nothing is shared with ``referee.rules.variants.deadmans``
(no tables, no geometry, no
shortcut for check). The tests play random games in both at once and compare, at every step,
the legal actions, the result, both boards and the tombstones; and they recount the golden perft
positions (tests/perft/deadmans*.perft) with the reference.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

import chess
import pytest

from referee.rules.game import Game
from referee.rules.perft import perft
from tests.perftfile import PERFT_DIR, PerftCase, read_perft_file

Piece = tuple[bool, int, int]  # (colour, python-chess piece type, identity)
DEFAULTS: dict[str, Any] = {
    "dmc.bishop_home": "by_colour", "dmc.pawn_home": "any_vacant",
    "dmc.promoted_home": "current_type", "dmc.home_chooser": "owner",
    "dmc.resurrection_kill_leaves_tombstone": True, "dmc.promote_before_resurrect": True,
    "dmc.pawn_resurrect_first_rank": "allow", "dmc.hell_pawn_double_step": True,
    "dmc.fifty_move": True,
}
LETTERS = "pnbrqk"
PROMOS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
SLIDES = {chess.BISHOP: ((1, 1), (1, -1), (-1, 1), (-1, -1)),
          chess.ROOK: ((1, 0), (-1, 0), (0, 1), (0, -1))}
SLIDES[chess.QUEEN] = SLIDES[chess.BISHOP] + SLIDES[chess.ROOK]
JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def letter(colour: bool, kind: int) -> str:
    text = LETTERS[kind - 1]
    return text.upper() if colour else text


def at(x: int, y: int) -> int | None:
    return y * 8 + x if 0 <= x < 8 and 0 <= y < 8 else None


@dataclass
class Pos:
    """Both boards, the tombstones and everything else the rules need, as plain data."""

    earth: chess.Board
    ids: dict[int, int]
    hell: dict[int, Piece]
    tombs: frozenset[int] = frozenset()
    hell_ep: int | None = None
    pending: tuple[Piece, tuple[int, ...], bool] | None = None  # piece, homes, chooser
    halfmove: int = 0
    removed: tuple[str, ...] = ()
    origin: dict[int, int] = field(default_factory=dict)
    promoted: frozenset[int] = frozenset()
    seen: tuple[Any, ...] = ()  # position keys since the last capture or pawn move

    def clone(self) -> Pos:
        return replace(self, earth=self.earth.copy(stack=False), ids=dict(self.ids),
                       hell=dict(self.hell))


class Reference:
    """Dead Man's Chess from the rules text, slow and plain."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.opt = {**DEFAULTS, **options}

    def start(self) -> Pos:
        board = chess.Board()
        ids = {sq: i + 1 for i, sq in enumerate(sorted(board.piece_map()))}
        origin = {ids[sq]: chess.square_file(sq) for sq, p in board.piece_map().items()
                  if p.piece_type == chess.PAWN}
        pos = Pos(board, ids, {}, origin=origin)
        return replace(pos, seen=(self.key(pos),))

    # ------------------------------------------------------------------ legal actions

    def legal(self, pos: Pos) -> list[str]:
        if pos.pending is not None:
            return [f"home=hell:{chess.square_name(h)}" for h in pos.pending[1]]
        board = pos.earth
        out = [m.uci() for m in board.legal_moves if not self.first_rank_double(board, m)]
        for frm, (colour, kind, _) in pos.hell.items():
            if colour != board.turn:
                continue
            for to, promo, capture in self.hell_moves(pos, frm, colour, kind):
                out.extend(self.hell_actions(pos, frm, to, promo, capture, kind))
        return out

    @staticmethod
    def first_rank_double(board: chess.Board, move: chess.Move) -> bool:
        """python-chess lets a pawn on its own first rank double-step; §1.5 says one step."""
        first = 0 if board.turn else 7
        return (board.piece_type_at(move.from_square) == chess.PAWN
                and chess.square_rank(move.from_square) == first
                and abs(move.to_square - move.from_square) == 16)

    def hell_moves(self, pos: Pos, frm: int, colour: bool,
                   kind: int) -> list[tuple[int, int | None, bool]]:
        """(to, promotion piece, captures) of a Hell piece: chess moves on an empty-ish board."""
        x, y = chess.square_file(frm), chess.square_rank(frm)
        hell = pos.hell
        found: list[tuple[int, bool]] = []
        if kind == chess.PAWN:
            up = 1 if colour else -1
            one = at(x, y + up)
            if one is not None and one not in hell:
                found.append((one, False))
                start = 1 if colour else 6
                two = at(x, y + 2 * up)
                if self.opt["dmc.hell_pawn_double_step"] and y == start and two not in hell:
                    assert two is not None
                    found.append((two, False))
            for dx in (-1, 1):
                t = at(x + dx, y + up)
                if t is None:
                    continue
                if (t in hell and hell[t][0] != colour) or t == pos.hell_ep:
                    found.append((t, True))
            last = 7 if colour else 0
            out: list[tuple[int, int | None, bool]] = []
            for t, cap in found:
                if chess.square_rank(t) == last:
                    out.extend((t, p, cap) for p in PROMOS)
                else:
                    out.append((t, None, cap))
            return out
        if kind == chess.KNIGHT:
            for dx, dy in JUMPS:
                t = at(x + dx, y + dy)
                if t is not None and (t not in hell or hell[t][0] != colour):
                    found.append((t, t in hell))
        for dx, dy in SLIDES.get(kind, ()):
            cx, cy = x + dx, y + dy
            while (t := at(cx, cy)) is not None:
                if t in hell:
                    if hell[t][0] != colour:
                        found.append((t, True))
                    break
                found.append((t, False))
                cx, cy = cx + dx, cy + dy
        return [(t, None, cap) for t, cap in found]

    def hell_actions(self, pos: Pos, frm: int, to: int, promo: int | None, capture: bool,
                     kind: int) -> list[str]:
        board = pos.earth
        us = board.turn
        base = f"hell:{chess.square_name(frm)}-hell:{chess.square_name(to)}"
        suffix = f"={letter(True, promo)}" if promo else ""
        out = []
        if not board.is_check():  # a plain Hell move leaves Earth as it is
            out.append(base + suffix)
        if not capture:
            return out
        promote_first = self.opt["dmc.promote_before_resurrect"]
        forbid_first = self.opt["dmc.pawn_resurrect_first_rank"] == "forbid"
        if promo and not promote_first and promo != chess.QUEEN:
            return out  # rising unpromoted: counted once, from the queen's line
        for t in sorted(pos.tombs):
            occupant = board.piece_at(t)
            if occupant and (occupant.color == us or occupant.piece_type == chess.KING):
                continue
            rising = [(promo if promo and promote_first else kind, suffix if promote_first else "")]
            if kind == chess.PAWN and not (promo and promote_first):
                rank = chess.square_rank(t)
                if rank == (7 if us else 0):
                    rising = [(p, f"={letter(True, p)}") for p in PROMOS]
                elif rank == (0 if us else 7) and forbid_first:
                    continue
                else:
                    rising = [(chess.PAWN, "")]
            for piece_type, text in rising:
                trial = board.copy(stack=False)
                trial.set_piece_at(t, chess.Piece(piece_type, us))
                king = trial.king(us)
                assert king is not None
                if not trial.is_attacked_by(not us, king):
                    out.append(f"{base}{text}@{chess.square_name(t)}")
        return out

    # ------------------------------------------------------------------ applying

    def apply(self, pos: Pos, text: str) -> Pos:
        new = pos.clone()
        if text.startswith("home="):
            piece, _homes, _chooser = new.pending  # type: ignore[misc]
            new.hell[chess.parse_square(text.split(":")[1])] = piece
            new.pending = None
        elif text.startswith("hell:"):
            self.hell_move(new, text)
        else:
            self.earth_move(new, chess.Move.from_uci(text))
        if new.pending is None:
            key = self.key(new)
            new.seen = (key,) if new.halfmove == 0 else pos.seen + (key,)
        return new

    def earth_move(self, pos: Pos, move: chess.Move) -> None:
        board = pos.earth
        us = board.turn
        mover = board.piece_at(move.from_square)
        assert mover is not None
        victim_sq = move.to_square
        if board.is_en_passant(move):
            victim_sq = move.to_square + (-8 if us else 8)
        victim = board.piece_at(victim_sq)
        victim_id = pos.ids.pop(victim_sq, 0)
        if board.is_castling(move):
            rank = chess.square_rank(move.from_square)
            kingside = chess.square_file(move.to_square) == 6
            rook_from = chess.square(7 if kingside else 0, rank)
            rook_to = chess.square(5 if kingside else 3, rank)
            pos.ids[rook_to] = pos.ids.pop(rook_from)
        pos.ids[move.to_square] = pos.ids.pop(move.from_square)
        board.push(move)
        if move.promotion:
            pos.promoted = pos.promoted | {pos.ids[move.to_square]}
        pos.hell_ep = None
        pos.halfmove = 0 if victim or mover.piece_type == chess.PAWN else pos.halfmove + 1
        if mover.piece_type == chess.KING:
            pos.tombs = pos.tombs - {move.to_square}
        if victim:
            if mover.piece_type != chess.KING:
                pos.tombs = pos.tombs | {victim_sq}
            self.bury(pos, (victim.color, victim.piece_type, victim_id), victim_sq, us)

    def hell_move(self, pos: Pos, text: str) -> None:
        head, _, rise_text = text.partition("@")
        squares, _, promo_text = head.partition("=")
        frm_text, to_text = squares.split("-")
        frm, to = chess.parse_square(frm_text[5:]), chess.parse_square(to_text[5:])
        promo = chess.Piece.from_symbol(promo_text).piece_type if promo_text else None
        rise = chess.parse_square(rise_text) if rise_text else None
        board = pos.earth
        us = board.turn
        colour, kind, ident = pos.hell.pop(frm)
        victim = pos.hell.pop(to, None)
        if victim is None and kind == chess.PAWN and to == pos.hell_ep:
            victim = pos.hell.pop(to + (-8 if us else 8))
        if victim:
            pos.removed = pos.removed + (letter(victim[0], victim[1]),)
        double = kind == chess.PAWN and abs(to - frm) == 16
        pos.hell_ep = (frm + to) // 2 if double else None
        pos.halfmove = 0 if victim or kind == chess.PAWN else pos.halfmove + 1
        board.push(chess.Move.null())
        if promo and (rise is None or self.opt["dmc.promote_before_resurrect"]):
            kind = promo
            pos.promoted = pos.promoted | {ident}
        if rise is None:
            pos.hell[to] = (colour, kind, ident)
            return
        if kind == chess.PAWN and promo:  # rises onto its last rank
            kind = promo
            pos.promoted = pos.promoted | {ident}
        occupant = board.piece_at(rise)
        occupant_id = pos.ids.get(rise, 0)
        board.set_piece_at(rise, chess.Piece(kind, colour))
        pos.ids[rise] = ident
        pos.tombs = pos.tombs - {rise}
        if occupant:
            board.castling_rights &= ~chess.BB_SQUARES[rise]
            if self.opt["dmc.resurrection_kill_leaves_tombstone"]:
                pos.tombs = pos.tombs | {rise}
            self.bury(pos, (occupant.color, occupant.piece_type, occupant_id), rise, us)

    def bury(self, pos: Pos, piece: Piece, death: int, capturer: bool) -> None:
        """RULINGS §1.3: the Hell homes, the owner's (or capturer's) choice, annihilation."""
        colour, kind, ident = piece
        if ident in pos.promoted and self.opt["dmc.promoted_home"] == "pawn":
            kind = chess.PAWN
            pos.promoted = pos.promoted - {ident}
        back, second = (0, 1) if colour else (7, 6)
        files = {chess.QUEEN: [3], chess.ROOK: [0, 7], chess.KNIGHT: [1, 6],
                 chess.BISHOP: [2, 5]}.get(kind, list(range(8)))
        rank = second if kind == chess.PAWN else back
        if kind == chess.BISHOP and self.opt["dmc.bishop_home"] == "by_colour":
            shade = (chess.square_file(death) + chess.square_rank(death)) % 2
            files = [f for f in files if (f + rank) % 2 == shade]
        if kind == chess.PAWN:
            mode = self.opt["dmc.pawn_home"]
            if mode == "original_file" and ident in pos.origin:
                files = [pos.origin[ident]]
            elif mode == "same_file_as_death":
                files = [chess.square_file(death)]
        vacant = tuple(chess.square(f, rank) for f in files
                       if chess.square(f, rank) not in pos.hell)
        if not vacant:
            pos.removed = pos.removed + (letter(colour, kind),)
        elif len(vacant) == 1:
            pos.hell[vacant[0]] = (colour, kind, ident)
        else:
            chooser = colour if self.opt["dmc.home_chooser"] == "owner" else capturer
            pos.pending = ((colour, kind, ident), vacant, chooser)

    # ------------------------------------------------------------------ results

    def key(self, pos: Pos) -> Any:
        board = pos.earth
        ep = board.ep_square if board.has_pseudo_legal_en_passant() else None
        hell_ep = None
        if pos.hell_ep is not None:
            pawn_from = pos.hell_ep + (-8 if board.turn else 8)
            for dx in (-1, 1):
                x = chess.square_file(pawn_from) + dx
                sq = at(x, chess.square_rank(pawn_from))
                if sq is not None and pos.hell.get(sq, (None, 0))[:2] == (board.turn, chess.PAWN):
                    hell_ep = pos.hell_ep
        idents: tuple[Any, ...] = ()
        if (self.opt["dmc.pawn_home"] == "original_file"
                or self.opt["dmc.promoted_home"] == "pawn"):
            def mark(i: int) -> Any:
                return pos.origin.get(i, -1), i in pos.promoted
            idents = (tuple(sorted((sq, mark(i)) for sq, i in pos.ids.items())),
                      tuple(sorted((sq, mark(p[2])) for sq, p in pos.hell.items())))
        return (board.board_fen(), board.turn, board.clean_castling_rights(), ep,
                tuple(sorted((sq, p[:2]) for sq, p in pos.hell.items())), hell_ep,
                pos.tombs, idents)

    def result(self, pos: Pos, legal: list[str]) -> str:
        if pos.pending is not None:
            return "*"
        board = pos.earth
        if not legal:
            if board.is_check():
                return "0-1" if board.turn else "1-0"
            return "1/2-1/2"
        if not pos.hell and board.is_insufficient_material():
            return "1/2-1/2"
        if self.opt["dmc.fifty_move"] and pos.halfmove >= 100:
            return "1/2-1/2"
        if pos.seen.count(pos.seen[-1]) >= 3:
            return "1/2-1/2"
        return "*"

    def perft(self, pos: Pos, depth: int) -> int:
        legal = self.legal(pos)
        if self.result(pos, legal) != "*":
            return 0
        if depth == 1:
            return len(legal)
        return sum(self.perft(self.apply(pos, a), depth - 1) for a in legal)


# ---------------------------------------------------------------------------- comparing


def snapshot(game: Game) -> tuple[dict[str, str], list[str]]:
    """Pieces by square name (Earth and Hell) and tombstones, from the engine."""
    variant, state = game.variant, game.state
    pieces = {variant.layout.name(sq): variant.piece_letter(p)
              for sq, p in enumerate(state.board) if p}
    return pieces, sorted(variant.expectation(state, "tombstones"))


def ref_snapshot(pos: Pos) -> tuple[dict[str, str], list[str]]:
    pieces = {chess.square_name(sq): p.symbol() for sq, p in pos.earth.piece_map().items()}
    pieces.update({f"hell:{chess.square_name(sq)}": letter(c, k)
                   for sq, (c, k, _) in pos.hell.items()})
    return pieces, sorted(chess.square_name(t) for t in pos.tombs)


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"dmc.promote_before_resurrect": False, "dmc.pawn_resurrect_first_rank": "forbid",
     "dmc.resurrection_kill_leaves_tombstone": False},
    {"dmc.home_chooser": "capturer", "dmc.pawn_home": "original_file",
     "dmc.promoted_home": "pawn", "dmc.bishop_home": "any_vacant"},
    {"dmc.pawn_home": "same_file_as_death", "dmc.hell_pawn_double_step": False,
     "dmc.fifty_move": False},
]


def lock_step(options: dict[str, Any], seed: int, plies: int = 200) -> int:
    """Play one random game in the engine and the reference; returns the plies compared.

    Resurrections are picked more often than a uniform choice would, so that games reach
    kills, choices and annihilations quickly.
    """
    game = Game("deadmans", options, seed=seed)
    ref = Reference(options)
    pos = ref.start()
    rng = random.Random(seed)
    for ply in range(plies):
        theirs = sorted(ref.legal(pos))
        where = (options, seed, game.action_texts())
        assert game.outcome.result == ref.result(pos, theirs), where
        assert snapshot(game) == ref_snapshot(pos), where
        if game.outcome.result != "*":
            return ply
        mine = sorted(game.legal_texts())
        assert mine == theirs, where
        rising = [a for a in mine if "@" in a]
        choice = rng.choice(rising if rising and rng.random() < 0.3 else mine)
        game.play(choice)
        pos = ref.apply(pos, choice)
    return plies


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(map(str, o.values())))
def test_engine_matches_reference_in_random_games(options: dict[str, Any]) -> None:
    compared = sum(lock_step(options, seed) for seed in range(12))
    assert compared > 1000


def golden_cases() -> list[PerftCase]:
    return [c for p in sorted(PERFT_DIR.glob("deadmans*.perft")) for c in read_perft_file(p)]


@pytest.mark.parametrize("case", golden_cases(), ids=lambda c: f"{c.file}:{c.id}")
def test_golden_counts_match_reference(case: PerftCase) -> None:
    game = Game("deadmans", case.options, seed=case.seed)
    ref = Reference(case.options)
    pos = ref.start()
    for text in case.moves:
        game.play(text)
        pos = ref.apply(pos, text)
    assert {d: ref.perft(pos, d) for d in case.counts} == case.counts
    assert {d: perft(game.variant, game.state, d) for d in case.counts} == case.counts
