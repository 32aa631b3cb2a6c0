"""PGN of a game the hub knows only by its public moves.

Standard chess becomes standard PGN (SAN through python-chess) so that chess broadcast services
and readers take it as it is; any other variant gets a ``Variant`` tag and the public action
texts of NOTATION.md as move text. A token a PGN reader would misread (a hidden burial written
``bury=(secret)``, anything with braces or parentheses) goes into a comment. The hub never has
a secret to write: it receives public texts only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

import chess
import chess.pgn

from referee.rules.pgn import tag_value, wrap_words

_TOKEN: Final = re.compile(r"^[A-Za-z0-9=:@+#,./*_-]+$")
SEVEN_TAGS: Final = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


def public_pgn(variant: str, title: str, moves: Sequence[str], sides: Sequence[str],
               result: str, headers: Mapping[str, str]) -> str:
    """One game as PGN (see the module docstring)."""
    tags = {key: "?" for key in SEVEN_TAGS} | {"Date": "????.??.??"} | dict(headers)
    tags["Result"] = result
    if variant == "standard":
        standard = _standard(moves, tags)
        if standard is not None:
            return standard
    tags["Variant"] = title
    lines = [f'[{key} "{tag_value(value)}"]' for key, value in tags.items()]
    return "\n".join(lines) + "\n\n" + wrap_words(_movetext(moves, sides) + [result]) + "\n"


def _standard(moves: Sequence[str], tags: Mapping[str, str]) -> str | None:
    board = chess.Board()
    game = chess.pgn.Game()
    node: chess.pgn.GameNode = game
    for text in moves:
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            return None
        if move not in board.legal_moves:
            return None
        board.push(move)
        node = node.add_variation(move)
    for key, value in tags.items():
        game.headers[key] = value
    return str(game) + "\n"


def _movetext(moves: Sequence[str], sides: Sequence[str]) -> list[str]:
    words: list[str] = []
    number, last = 0, ""
    for i, text in enumerate(moves):
        side = sides[i] if i < len(sides) else ("white" if i % 2 == 0 else "black")
        if side == "white" and last != "white":
            number += 1
            words.append(f"{number}.")
        elif not words:
            number = 1
            words.append("1...")
        last = side
        words.append(text if _TOKEN.match(text) else "{" + text.replace("}", ")") + "}")
    return words
