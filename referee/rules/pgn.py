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


def game_pgn(game: Game, headers: dict[str, str] | None = None) -> str:
    """The game as PGN for any variant (docs/pgn.md).

    Standard chess is standard PGN (:func:`to_pgn`). Other variants get a ``Variant`` tag and
    their NOTATION.md actions as move text. While the game goes on, an action with a secret
    (a burial square, an assignment) is written only in its public form, inside a comment so
    that PGN readers skip it; once the game is over every action is written in full.
    """
    tags = dict(headers or {})
    if game.variant.name == "standard":
        return to_pgn(game, tags)
    result = game.outcome.result
    over = result != "*"
    lines = [f'[{key} "{tag_value(value)}"]' for key, value in
             {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?",
              "Black": "?", **tags, "Result": result, "Variant": game.variant.title}.items()]
    if game.outcome.reason:
        lines.append(f'[Termination "{tag_value(game.outcome.reason)}"]')
    words: list[str] = []
    number = 0
    last_actor = 0
    for played in game.played:
        if played.action.kind == "adjudicate":
            continue
        if played.actor != last_actor and played.actor == 1:
            number += 1
            words.append(f"{number}.")
        elif not words:
            number = 1
            words.append("1...")
        last_actor = played.actor
        public = game.variant.public_action_text(played.action)
        if over or public == played.text:
            words.append(played.text)
        else:
            words.append("{" + public.replace("}", ")") + "}")
    words.append(result)
    return "\n".join(lines) + "\n\n" + wrap_words(words) + "\n"


def tag_value(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def wrap_words(words: list[str], width: int = 79) -> str:
    out: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    out.append(line)
    return "\n".join(out)
