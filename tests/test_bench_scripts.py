"""The benches run as files, as README shows (``python bench/vision.py``), not only as modules:
a bench named like a package (``bench/vision.py``) once stood in for the ``vision`` package
when run as a file and stopped with an import error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("bench", "argument", "said"), [
    ("vision.py", "/nonexistent", "no videos/scholarsmate.avi in /nonexistent"),
    ("camera_memory.py", "10", "10 actions are too few"),
    ("vision_games.py", "/nonexistent.pgn", "no such PGN file: /nonexistent.pgn"),
    ("vision_games.py", "README.md", "no standard game of 20 plies or more"),
])
def test_a_bench_run_as_a_file_answers_a_bad_argument_in_one_line(
        bench: str, argument: str, said: str) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / bench), argument], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    out = (proc.stdout + proc.stderr).strip()
    assert proc.returncode == 2, out
    assert out.startswith(said) and len(out.splitlines()) == 1, out


BENCHES = sorted(path.name for path in (ROOT / "bench").glob("*.py"))


@pytest.mark.parametrize("bench", BENCHES)
def test_every_bench_says_how_it_is_run_and_refuses_a_bad_argument(bench: str) -> None:
    """``--help`` prints the bench's usage; an argument of the wrong kind is refused with
    argparse's usage and error lines and exit 2 (several benches once read ``sys.argv`` by
    hand: ``--help`` was taken for a number and ended in a traceback)."""
    script = str(ROOT / "bench" / bench)
    helped = subprocess.run([sys.executable, script, "--help"], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, check=False)
    assert helped.returncode == 0 and helped.stdout.startswith("usage: "), helped.stderr
    bad = subprocess.run([sys.executable, script, "--no-such-option"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == 2, bad.stdout + bad.stderr
    assert "Traceback" not in bad.stderr and "error: unrecognized arguments" in bad.stderr


def test_vision_games_reads_what_a_board_can_show(tmp_path: Path) -> None:
    """bench/vision_games.py takes standard games from the start position, each up to its
    first null move (Anastasian-Lewis 2016 in python-chess's records has one at ply 82),
    and leaves out set-up positions, other variants and games under 20 plies."""
    from bench.vision_games import ENGINE_GAMES, load

    long_game = " ".join(["Nf3 Nf6 Ng1 Ng8"] * 6)
    pgn = tmp_path / "games.pgn"
    pgn.write_text(
        f'[White "A"]\n[Black "B"]\n\n{long_game} Nf3 -- Ng1 *\n\n'
        f'[White "C"]\n[Black "D"]\n[FEN "8/8/8/8/8/8/k7/K7 w - - 0 1"]\n[SetUp "1"]\n\n'
        '1. Kb1 *\n\n'
        f'[White "E"]\n[Black "F"]\n[Variant "Atomic"]\n\n{long_game} *\n\n'
        '[White "G"]\n[Black "H"]\n\n1. e4 e5 *\n')
    games = load([pgn])
    assert [name for name, _ in games] == ["A - B"]
    assert len(games[0][1]) == 25 and games[0][1][-1] == "g1f3"
    engine = load([ENGINE_GAMES])
    assert len(engine) == 34 and all(len(moves) >= 20 for _, moves in engine)


def test_engine_games_promote_to_a_queen_when_she_is_as_good() -> None:
    """bench/make_engine_games.py picks at random among moves near the best; an engine scores
    a pawn promoted and taken at once alike whatever it became, and no player would make it a
    rook then. An under-promotion stays where the queen is not among the moves near the best
    (a knight's fork, a stalemate avoided)."""
    import chess

    from bench.make_engine_games import as_players_would

    near = [chess.Move.from_uci(m) for m in ("e7e8r", "e7e8q", "a2a3", "b7b8n")]
    assert [m.uci() for m in as_players_would(near)] == ["e7e8q", "a2a3", "b7b8n"]
