"""PGN export of standard games through python-chess."""

from __future__ import annotations

import chess
import chess.pgn

from referee.rules.errors import RecordError
from referee.rules.game import Game


def to_pgn(game: Game, headers: dict[str, str] | None = None) -> str:
    """The game as PGN text (standard chess only; raises RecordError otherwise)."""
    if game.variant.name != "standard":
        raise RecordError(f"PGN export is for standard chess, not {game.variant.name}")
    board = chess.Board(game.variant.position(game.start))
    pgn = chess.pgn.Game()
    if board.fen() != chess.STARTING_FEN:
        pgn.setup(board)
    node: chess.pgn.GameNode = pgn
    for played in game.played:
        if played.action.kind != "move":
            continue
        node = node.add_variation(chess.Move.from_uci(played.text))
    for key, value in (headers or {}).items():
        pgn.headers[key] = value
    pgn.headers["Result"] = game.outcome.result
    return str(pgn)
