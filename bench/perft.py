"""Perft speed of our engine against python-chess on the same positions, in the same run.

Prints nodes (leaves) per second for both and the ratio ours / python-chess. The issue's floor
is a ratio of 0.2; the goal is parity. Run: .venv/bin/python bench/perft.py
"""

from __future__ import annotations

import time

import chess

from referee.rules.perft import perft
from referee.rules.variants import make_variant

POSITIONS = [
    ("start", chess.STARTING_FEN, 4),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("endgame", "8/2p5/3p4/KP5r/1R3p2/4P1P1/8/8 w - - 0 1", 4),
    ("promotions", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3),
    ("talkchess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3),
]


def chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += chess_perft(board, depth - 1)
        board.pop()
    return total


def main() -> None:
    variant = make_variant("standard")
    ours_n = ours_t = ref_n = ref_t = 0.0
    print(f"{'position':12} {'nodes':>8} {'ours n/s':>10} {'p-chess n/s':>12} {'ratio':>6}")
    for name, fen, depth in POSITIONS:
        state = variant.from_position(fen)
        t = time.perf_counter()
        n1 = perft(variant, state, depth)
        t1 = time.perf_counter() - t
        board = chess.Board(fen)
        t = time.perf_counter()
        n2 = chess_perft(board, depth)
        t2 = time.perf_counter() - t
        assert n1 == n2, (name, n1, n2)
        ours_n, ours_t, ref_n, ref_t = ours_n + n1, ours_t + t1, ref_n + n2, ref_t + t2
        print(f"{name:12} {n1:8d} {n1 / t1:10.0f} {n2 / t2:12.0f} {(n1 / t1) / (n2 / t2):6.2f}")
    ratio = (ours_n / ours_t) / (ref_n / ref_t)
    print(f"{'total':12} {int(ours_n):8d} {ours_n / ours_t:10.0f} {ref_n / ref_t:12.0f} "
          f"{ratio:6.2f}  (floor 0.2, goal 1.0)")


if __name__ == "__main__":
    main()
