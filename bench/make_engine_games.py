"""Write engine games for bench/vision_games.py: crowded, realistic positions, long endgames.

Why: the camera bench needs whole games of real-looking play, more of them than the shared
data holds, and a fresh set of games to hold out whenever one held-out set has been looked at
("tune on some, report on the others"). The files in bench/data were made this way; their
header says with which seed.

How: Stockfish (Debian's package, /usr/games/stockfish) plays both sides from a random ECO
opening line of 8 plies or more (pgn-extract's eco.pgn, Debian's package pgn-extract), at
depth 9 with MultiPV 3, playing a random move among those within 40 centipawns of the best,
up to 130 plies, stopped after ply 50 once one side is 7 pawns ahead; a pawn is promoted to
a queen whenever that is among those moves (the seventh set and earlier were made without that).

Run: .venv/bin/python bench/make_engine_games.py [OUT.pgn] [--seed N] [--games 24] [--title T]
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from datetime import date
from pathlib import Path

import chess
import chess.engine
import chess.pgn

ECO = Path("/usr/share/pgn-extract/eco.pgn")
ENGINE = "/usr/games/stockfish"
DEPTH = 9
MULTIPV = 3
WINDOW_CP = 40
MAX_PLIES = 130
DECIDED_AFTER = 50
DECIDED_CP = 700
MIN_OPENING = 8


def openings(path: Path) -> list[tuple[str, list[chess.Move]]]:
    """(ECO code, moves) of every line in ``path`` of at least MIN_OPENING plies."""
    lines = []
    with path.open(encoding="utf-8", errors="replace") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            moves = list(game.mainline_moves())
            if len(moves) >= MIN_OPENING:
                lines.append((game.headers.get("ECO", "?"), moves))
    return lines


def play(engine: chess.engine.SimpleEngine, opening: list[chess.Move],
         rng: random.Random) -> chess.Board:
    """One game from ``opening``: a random move among those near the best, until it ends."""
    board = chess.Board()
    for move in opening:
        board.push(move)
    engine.configure({"Clear Hash": None})
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        infos = engine.analyse(board, chess.engine.Limit(depth=DEPTH), multipv=MULTIPV)
        scored = [(i["score"].relative.score(mate_score=100_000), i["pv"][0])
                  for i in infos if i.get("pv")]
        best = max(score for score, _ in scored)
        if board.ply() > DECIDED_AFTER and abs(best) >= DECIDED_CP:
            break
        board.push(rng.choice(as_players_would([m for score, m in scored
                                                 if score >= best - WINDOW_CP])))
    return board


def as_players_would(near: list[chess.Move]) -> list[chess.Move]:
    """``near`` less each under-promotion whose promotion to a queen is among them too.

    Why: an engine scores a pawn promoted and taken at once the same whatever it became, and
    a random pick among equals made rooks that no player would (the sixth held-out set's
    games 13 and 16: e7-e8=R and a2-a1=R, each taken at the next move). No picture tells
    which piece stood there for one move; a camera guesses the queen, as players choose."""
    queened = {(m.from_square, m.to_square) for m in near if m.promotion == chess.QUEEN}
    return [m for m in near if m.promotion in (None, chess.QUEEN)
            or (m.from_square, m.to_square) not in queened]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", help="the PGN file (default: print it)")
    parser.add_argument("--seed", type=int, default=1, help="the random seed (default 1)")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--title", default="Engine game", help="each game's Event")
    args = parser.parse_args()
    if not ECO.is_file() or shutil.which(ENGINE) is None:
        print(f"needs {ENGINE} and {ECO}: apt-get install stockfish pgn-extract",
              file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    lines = openings(ECO)
    with chess.engine.SimpleEngine.popen_uci(ENGINE) as engine:
        engine.configure({"Threads": 1})
        name = engine.id.get("name", "Stockfish")
        out = [f"% Engine games for bench/vision_games.py: {name} playing both sides from a "
               f"random ECO opening line of {MIN_OPENING} plies or more (pgn-extract's eco.pgn),",
               f"% depth {DEPTH}, MultiPV {MULTIPV}, a random move among those within "
               f"{WINDOW_CP} centipawns of the best (random seed {args.seed}),",
               f"% up to {MAX_PLIES} plies, stopped after ply {DECIDED_AFTER} once one side is "
               f"{DECIDED_CP // 100} pawns ahead, promoting to a queen when that is among "
               f"those moves (bench/make_engine_games.py).", ""]
        for k in range(1, args.games + 1):
            eco, opening = rng.choice(lines)
            board = play(engine, opening, rng)
            game = chess.pgn.Game.from_board(board)
            game.headers.update({"Event": f"{args.title} {k}", "Site": "?",
                                 "Date": date.today().strftime("%Y.%m.%d"), "Round": str(k),
                                 "White": name, "Black": name, "Result": "*", "ECO": eco})
            out += [str(game), ""]
            print(f"game {k}: {board.ply()} plies", file=sys.stderr)
    text = "\n".join(out)
    if args.out is None:
        print(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
