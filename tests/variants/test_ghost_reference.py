"""An independent, deliberately naive Ghost Chess referee, and the engine checked against it.

The reference uses python-chess for the living pieces and plain (x, y) arithmetic on the 10x10
grid of RULINGS.md §2.2 for the ghosts, read straight from the rules text: no tables, no
geometry objects, nothing shared with ``referee.rules.variants.ghost``. The tests play random games
in both at once and compare the legal actions at every step, and compare perft counts from the
golden positions (tests/perft/ghost.perft) at every depth given there.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

import chess
import pytest

from referee.rules.game import Game
from referee.rules.perft import perft
from tests.perftfile import PERFT_DIR, PerftCase, read_perft_file

FILES = "abcdefgh"
Cell = tuple[int, int]
Ghost = tuple[bool, int]  # (colour, python-chess piece type)
LETTER = {chess.PAWN: "p", chess.KNIGHT: "n", chess.BISHOP: "b", chess.ROOK: "r",
          chess.QUEEN: "q"}
PROMO = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}
ORTH = ((0, 1), (0, -1), (1, 0), (-1, 0))
DIAG = ((1, 1), (-1, 1), (1, -1), (-1, -1))
KNIGHT_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def cell_name(c: Cell) -> str:
    x, y = c
    if x == 0:
        return f"z{y}"
    if x == 9:
        return f"i{y}"
    return f"{FILES[x - 1]}{y}"


def parse_cell(text: str) -> Cell:
    letter, digit = text[0], int(text[1:])
    if letter == "z":
        return (0, digit)
    if letter == "i":
        return (9, digit)
    return (FILES.index(letter) + 1, digit)


def to_square(c: Cell) -> int:
    return chess.square(c[0] - 1, c[1] - 1)


def to_cell(sq: int) -> Cell:
    return (chess.square_file(sq) + 1, chess.square_rank(sq) + 1)


def full_ring() -> set[Cell]:
    ring = {(x, y) for x in range(1, 9) for y in (0, 9)}
    return ring | {(x, y) for x in (0, 9) for y in range(1, 9)}


@dataclass
class Rules:
    ring: set[Cell] = field(default_factory=full_ring)
    friendly: bool = False
    bishop_e2e: bool = True
    knight_l: bool = False
    far_row: bool = True


@dataclass
class Pos:
    board: chess.Board
    ghosts: dict[Cell, Ghost]
    turn: bool = chess.WHITE
    pending: tuple[bool, int, Cell] | None = None  # owner, type, square it was captured on


class Reference:
    """The naive referee: legal action texts and their application."""

    def __init__(self, rules: Rules) -> None:
        self.r = rules

    def start(self) -> Pos:
        return Pos(chess.Board(), {})

    # -- squares
    def exists(self, c: Cell) -> bool:
        return self.on_board(c) or c in self.r.ring

    @staticmethod
    def on_board(c: Cell) -> bool:
        return 1 <= c[0] <= 8 and 1 <= c[1] <= 8

    def ray(self, c: Cell, d: Cell) -> list[Cell]:
        out = []
        x, y = c
        while True:
            x, y = x + d[0], y + d[1]
            if not self.exists((x, y)):
                return out
            out.append((x, y))

    # -- legality
    def king_gone(self, pos: Pos) -> bool:
        return pos.board.king(chess.WHITE) is None or pos.board.king(chess.BLACK) is None

    def legal(self, pos: Pos) -> list[str]:
        if self.king_gone(pos):
            return []
        if pos.pending:
            return self.spawn_texts(pos, *pos.pending)
        board = pos.board
        out = [m.uci() for m in board.legal_moves]
        for c, (colour, kind) in pos.ghosts.items():
            if colour == pos.turn:
                out += self.ghost_texts(pos, c, colour, kind)
        return out

    def ghost_texts(self, pos: Pos, c: Cell, colour: bool, kind: int) -> list[str]:
        board = pos.board
        out = []
        for t in self.ghost_targets(c, colour, kind, pos.ghosts):
            if self.on_board(t):
                victim = board.piece_at(to_square(t))
                if victim is None or victim.color == colour:
                    continue
                if victim.piece_type != chess.KING and not self.safe_after_removal(
                        board, colour, to_square(t)):
                    continue
                out.append(cell_name(c) + cell_name(t))
            else:
                there = pos.ghosts.get(t)
                if there is not None and there[0] == colour:
                    continue
                if board.is_check():  # python-chess: the side to move, ghosts are not on it
                    continue
                if kind == chess.PAWN and self.promotes(colour, t):
                    out += [cell_name(c) + cell_name(t) + p for p in "qrbn"]
                else:
                    out.append(cell_name(c) + cell_name(t))
        return out

    @staticmethod
    def safe_after_removal(board: chess.Board, colour: bool, sq: int) -> bool:
        probe = board.copy(stack=False)
        probe.remove_piece_at(sq)
        king = probe.king(colour)
        return king is None or not probe.is_attacked_by(not colour, king)

    def promotes(self, colour: bool, c: Cell) -> bool:
        last, far = (8, 9) if colour == chess.WHITE else (1, 0)
        return (c[0] in (0, 9) and c[1] == last) or (self.r.far_row and c[1] == far)

    def ghost_targets(self, c: Cell, colour: bool, kind: int,
                      ghosts: dict[Cell, Ghost]) -> list[Cell]:
        """Every cell the ghost's pattern reaches (phasing: whole rays), before the
        'what may it stop on' filter. Without edge-to-edge crossing a bishop's diagonal may
        still end on a ghost: taking an enemy ghost is a capture, not a crossing (§2.3)."""
        out: list[Cell] = []
        if kind in (chess.ROOK, chess.QUEEN):
            for d in ORTH:
                out += self.ray(c, d)
        if kind in (chess.BISHOP, chess.QUEEN):
            for d in DIAG:
                out += [t for t in self.ray(c, d)
                        if self.on_board(t) or kind == chess.QUEEN or self.r.bishop_e2e
                        or t in ghosts]
        if kind in (chess.BISHOP, chess.KNIGHT):
            for d in ORTH:  # 1-3 cells along the edge line; the first board cell ends it
                for t in self.ray(c, d)[:3]:
                    if self.on_board(t):
                        break
                    out.append(t)
        if kind == chess.KNIGHT:
            for dx, dy in KNIGHT_JUMPS:
                t = (c[0] + dx, c[1] + dy)
                if self.on_board(t) or (t in self.r.ring and self.r.knight_l):
                    out.append(t)
        if kind == chess.PAWN:
            f = 1 if colour == chess.WHITE else -1
            for dx, dy in ((0, f), (1, 0), (-1, 0)):
                t = (c[0] + dx, c[1] + dy)
                if t in self.r.ring:
                    out.append(t)
            for dx in (1, -1):
                t = (c[0] + dx, c[1] + f)
                if self.on_board(t):
                    out.append(t)
        return out

    def spawn_cells(self, pos: Pos, owner: bool, frm: Cell) -> list[Cell]:
        """Walk the ring nearest first; a distance holding an empty cell is the last one."""
        by_distance: dict[float, list[Cell]] = {}
        for cell in self.r.ring:
            by_distance.setdefault(math.dist(cell, frm), []).append(cell)
        out: list[Cell] = []
        for dist in sorted(by_distance):
            empty = False
            for cell in by_distance[dist]:
                there = pos.ghosts.get(cell)
                if there is None:
                    empty = True
                    out.append(cell)
                elif there[0] != owner or self.r.friendly:
                    out.append(cell)
            if empty:
                break
        return out

    def spawn_texts(self, pos: Pos, owner: bool, kind: int, frm: Cell) -> list[str]:
        out = []
        for cell in self.spawn_cells(pos, owner, frm):
            if kind == chess.PAWN and self.promotes(owner, cell):
                out += [f"spawn={cell_name(cell)}={p}" for p in "QRBN"]
            else:
                out.append(f"spawn={cell_name(cell)}")
        return out

    # -- application
    def apply(self, pos: Pos, text: str) -> Pos:
        new = Pos(pos.board.copy(stack=False), dict(pos.ghosts), pos.turn, pos.pending)
        if text.startswith("spawn="):
            self.place_spawn(new, text)
            new.turn = not new.turn
            return new
        frm = parse_cell(text[:2])
        if not self.on_board(frm):
            self.ghost_move(new, text)
        else:
            self.living_move(new, chess.Move.from_uci(text))
        if new.pending is None:
            new.turn = not new.turn
        new.board.turn = new.turn
        return new

    def place_spawn(self, pos: Pos, text: str) -> None:
        assert pos.pending is not None
        owner, kind, _frm = pos.pending
        body = text[len("spawn="):]
        cell = parse_cell(body[:2])
        if "=" in body:
            kind = PROMO[body[-1].lower()]
        pos.ghosts[cell] = (owner, kind)
        pos.pending = None
        pos.board.turn = not pos.turn

    def living_move(self, pos: Pos, move: chess.Move) -> None:
        board = pos.board
        victim_sq = None
        if board.is_en_passant(move):
            victim_sq = move.to_square + (-8 if board.turn == chess.WHITE else 8)
        elif board.piece_at(move.to_square) is not None:
            victim_sq = move.to_square
        victim = board.piece_at(victim_sq) if victim_sq is not None else None
        board.push(move)
        if victim is not None:
            self.captured(pos, victim.color, victim.piece_type, to_cell(victim_sq))

    def ghost_move(self, pos: Pos, text: str) -> None:
        frm, to = parse_cell(text[:2]), parse_cell(text[2:4])
        colour, kind = pos.ghosts.pop(frm)
        board = pos.board
        board.ep_square = None
        if self.on_board(to):
            sq = to_square(to)
            victim = board.piece_at(sq)
            assert victim is not None
            board.remove_piece_at(sq)
            board.castling_rights &= ~chess.BB_SQUARES[sq]
            board.halfmove_clock = 0
            if victim.piece_type != chess.KING:
                self.captured(pos, victim.color, victim.piece_type, to)
            return
        if to in pos.ghosts:
            del pos.ghosts[to]
        if len(text) == 5:
            kind = PROMO[text[4]]
        pos.ghosts[to] = (colour, kind)

    def captured(self, pos: Pos, owner: bool, kind: int, frm: Cell) -> None:
        options = self.spawn_texts(pos, owner, kind, frm)
        if len(options) == 1:
            pos.pending = (owner, kind, frm)
            self.place_spawn(pos, options[0])
        elif options:
            pos.pending = (owner, kind, frm)

    def perft(self, pos: Pos, depth: int) -> int:
        if depth == 0:
            return 1
        moves = self.legal(pos)
        if depth == 1:
            return len(moves)
        return sum(self.perft(self.apply(pos, m), depth - 1) for m in moves)


# ---------------------------------------------------------------------------- tests

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"ghost.edge_ring": "two_sided"},
    {"ghost.edge_ring": "two_sided", "ghost.two_sided_edges": "top,right"},
    {"ghost.edge_ring": ["a0", "c0", "d0", "z4", "z5", "i1", "i8", "h9", "e9"]},
    {"ghost.spawn_capture_friendly": True, "ghost.knight_edge_L": True},
    {"ghost.bishop_diagonal_edge_to_edge": False, "ghost.far_row_promotes": False},
]


def rules_for(options: dict[str, Any]) -> Rules:
    mode = options.get("ghost.edge_ring", "full")
    ring = full_ring()
    if mode == "two_sided":
        sides = options.get("ghost.two_sided_edges", "bottom,left").split(",")
        keep = {"bottom": lambda c: c[1] == 0, "top": lambda c: c[1] == 9,
                "left": lambda c: c[0] == 0, "right": lambda c: c[0] == 9}
        ring = {c for c in ring if any(keep[s](c) for s in sides)}
    elif isinstance(mode, list):
        ring = {parse_cell(n) for n in mode}
    return Rules(ring, options.get("ghost.spawn_capture_friendly", False),
                 options.get("ghost.bishop_diagonal_edge_to_edge", True),
                 options.get("ghost.knight_edge_L", False),
                 options.get("ghost.far_row_promotes", True))


def lock_step(options: dict[str, Any], seed: int, plies: int = 200) -> int:
    """Play one random game in the engine and the reference; returns the plies compared."""
    game = Game("ghost", options, seed=seed)
    ref = Reference(rules_for(options))
    pos = ref.start()
    rng = random.Random(seed)
    for ply in range(plies):
        theirs = sorted(ref.legal(pos))
        end = game.outcome
        if end.result != "*":
            if end.reason in ("checkmate", "stalemate", "a ghost captured the king"):
                assert not theirs and (end.reason == "stalemate") == (
                    not ref.king_gone(pos) and not pos.board.is_check())
            return ply
        mine = sorted(game.legal_texts())
        assert mine == theirs, (options, seed, game.action_texts())
        choice = rng.choice(mine)
        game.play(choice)
        pos = ref.apply(pos, choice)
    return plies


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(map(str, o.values())))
def test_engine_matches_reference_in_random_games(options: dict[str, Any]) -> None:
    compared = sum(lock_step(options, seed) for seed in range(12))
    assert compared > 500  # the games were long enough to meet ghosts, spawns and crowding


def golden_cases() -> list[PerftCase]:
    return read_perft_file(PERFT_DIR / "ghost.perft")


@pytest.mark.parametrize("case", golden_cases(), ids=lambda c: c.id)
def test_golden_counts_match_reference(case: PerftCase) -> None:
    game = Game("ghost", case.options, seed=case.seed)
    ref = Reference(rules_for(case.options))
    pos = ref.start()
    for text in case.moves:
        game.play(text)
        pos = ref.apply(pos, game.variant.format_action(game.played[-1].action))
    assert {d: ref.perft(pos, d) for d in case.counts} == case.counts
    assert {d: perft(game.variant, game.state, d) for d in case.counts} == case.counts
