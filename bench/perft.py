"""Perft speed of our engine against python-chess on the same positions, in the same run.

Why this shape: one 0.3 s sample per position swung the ratio by +-0.12 on a shared machine,
so each round times ours and python-chess back to back on every position (the order swapped
every round so that neither side always runs on a warmer cache), and each side keeps its best
time over the rounds: the best is the run least disturbed by other processes. The counts must
match python-chess exactly, and the bench fails (exit 1) when our speed is below TARGET times
python-chess's on any position.

Run: .venv/bin/python bench/perft.py [ROUNDS]   (default 5)
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable

import chess

from referee.rules.perft import perft
from referee.rules.variants import make_variant

TARGET = 1.0
MIN_ROUNDS = 5

POSITIONS = [
    ("start", chess.STARTING_FEN, 4),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    # Kept from the first version of this bench: position 3 without Black's king.
    ("endgame", "8/2p5/3p4/KP5r/1R3p2/4P1P1/8/8 w - - 0 1", 4),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
    ("promotions", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3),
    ("talkchess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3),
]


def chess_perft(board: chess.Board, depth: int) -> int:
    """python-chess perft, the usual way (count at the last ply)."""
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += chess_perft(board, depth - 1)
        board.pop()
    return total


def timed(run: Callable[[], int]) -> tuple[int, float]:
    """(leaf count, CPU seconds) of one run, after a collection so both sides start clean.

    CPU time of this process, not wall time: on a machine shared with other jobs the wall
    clock mostly measures how long we waited for a core.
    """
    gc.collect()
    start = time.process_time()
    nodes = run()
    return nodes, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", nargs="?", type=int, default=MIN_ROUNDS,
                        help=f"rounds of timing (default and least {MIN_ROUNDS})")
    rounds = parser.parse_args().rounds
    if rounds < MIN_ROUNDS:
        print(f"at least {MIN_ROUNDS} rounds are needed, not {rounds}", file=sys.stderr)
        return 2
    variant = make_variant("standard")
    best: dict[tuple[str, str], float] = {}
    counts: dict[str, int] = {}
    for round_no in range(rounds):
        for name, fen, depth in POSITIONS:
            def ours(fen: str = fen, depth: int = depth) -> int:
                return perft(variant, variant.from_position(fen), depth)

            def theirs(fen: str = fen, depth: int = depth) -> int:
                return chess_perft(chess.Board(fen), depth)

            sides = [("ours", ours), ("python-chess", theirs)]
            if round_no % 2:
                sides.reverse()
            for side, run in sides:
                nodes, seconds = timed(run)
                if counts.setdefault(f"{name}/{side}", nodes) != nodes:
                    print(f"{name}: {side} counted {nodes}, then {counts[f'{name}/{side}']}")
                    return 1
                best[name, side] = min(best.get((name, side), seconds), seconds)
    print(f"best CPU time of {rounds} alternating rounds per side; "
          f"target ours >= {TARGET:.2f}x python-chess")
    print(f"{'position':12} {'nodes':>8} {'ours n/s':>10} {'p-chess n/s':>12} {'ratio':>6}")
    failed = []
    for name, _fen, _depth in POSITIONS:
        n_ours, n_ref = counts[f"{name}/ours"], counts[f"{name}/python-chess"]
        if n_ours != n_ref:
            print(f"{name}: perft differs, ours {n_ours}, python-chess {n_ref}")
            failed.append(name)
            continue
        t_ours, t_ref = best[name, "ours"], best[name, "python-chess"]
        ratio = t_ref / t_ours
        verdict = "ok" if ratio >= TARGET else "SLOWER"
        if ratio < TARGET:
            failed.append(name)
        print(f"{name:12} {n_ours:8d} {n_ours / t_ours:10.0f} {n_ref / t_ref:12.0f} "
              f"{ratio:6.2f}  {verdict}")
    total_ours = sum(best[n, "ours"] for n, _f, _d in POSITIONS)
    total_ref = sum(best[n, "python-chess"] for n, _f, _d in POSITIONS)
    nodes = sum(counts[f"{n}/ours"] for n, _f, _d in POSITIONS)
    print(f"{'total':12} {nodes:8d} {nodes / total_ours:10.0f} {nodes / total_ref:12.0f} "
          f"{total_ref / total_ours:6.2f}")
    if failed:
        print(f"FAIL: below {TARGET:.2f}x python-chess on {', '.join(failed)}")
        return 1
    print(f"ok: at least {TARGET:.2f}x python-chess on every position")
    return 0


if __name__ == "__main__":
    sys.exit(main())
