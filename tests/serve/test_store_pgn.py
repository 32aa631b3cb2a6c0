"""The game store (SQLite) and PGN for every variant."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import chess.pgn
import pytest

from referee.app.serve.store import GameStore
from referee.rules.errors import RecordError
from referee.rules.game import Game
from referee.rules.pgn import game_pgn


def test_store_replays_actions_adjudications_and_take_backs(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite")
    stored = store.new_game("zombie", {}, 7)
    game = Game("zombie", seed=7)
    for text in ("e2e4", "d7d5", "e4d5", "bury=b2", "g8f6"):
        store.append(stored.id, game.play(text))
    assert store.replay(stored).action_texts() == game.action_texts()
    assert store.drop_last(stored.id)
    assert store.replay(stored).action_texts()[-1] == "bury=b2"
    store.append(stored.id, Game("zombie", seed=7).adjudicate("0-1", "white's flag fell"))
    assert store.latest_open("zombie", {}) is None  # the game is over
    store.close()
    again = GameStore(tmp_path / "games.sqlite")
    replayed = again.replay(again.game(stored.id))
    assert replayed.outcome.result == "0-1" and replayed.outcome.reason == "white's flag fell"
    assert again.game(stored.id).result == "0-1"
    assert again.drop_last(stored.id) and again.latest_open("zombie", {}) is not None
    assert sqlite3.connect(tmp_path / "games.sqlite").execute(
        "PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_store_edited_by_hand_is_a_clear_error(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite")
    stored = store.new_game("standard", {}, 0)
    store.db.execute("INSERT INTO actions VALUES (?, 1, 'move', 'e2e5', '', 1, 0)", (stored.id,))
    with pytest.raises(RecordError, match="action 1 .* cannot be replayed"):
        store.replay(stored)
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all" * 100)
    with pytest.raises(RecordError, match="not a usable game store"):
        GameStore(tmp_path / "junk.sqlite")


def test_standard_pgn_reads_back_with_python_chess() -> None:
    game = Game("standard")
    for text in ("e2e4", "e7e5", "g1f3"):
        game.play(text)
    parsed = chess.pgn.read_game(io.StringIO(game_pgn(game, {"White": "Ann"})))
    assert parsed is not None and parsed.headers["White"] == "Ann"
    assert [m.uci() for m in parsed.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]


def test_variant_pgn_hides_secrets_until_the_game_ends() -> None:
    game = Game("zombie")
    for text in ("e2e4", "d7d5", "e4d5", "bury=b2", "g8f6"):
        game.play(text)
    text = game_pgn(game)
    assert '[Variant "Zombie Chess"]' in text and '[Result "*"]' in text
    assert "1. e2e4 d7d5 2. e4d5 {bury=(secret)} g8f6 *" in text
    assert "b2" not in text.split("\n\n")[1]
    game.play("resign")
    text = game_pgn(game)
    assert "2. e4d5 bury=b2 g8f6 3. resign 0-1" in text
    assert '[Termination "white resigned"]' in text
    # python-chess reads the tags (move text of variants is ours, documented in docs/pgn.md)
    parsed = chess.pgn.read_game(io.StringIO(text))
    assert parsed is not None and parsed.headers["Variant"] == "Zombie Chess"


def test_masquerade_pgn_starts_with_the_assignments() -> None:
    game = Game("masquerade")
    game.play("assign=black:KK,QQ,RN,BB,NR")
    game.play("assign=white:KK,QR,RQ,BN,NB")
    game.play("e2e4")
    movetext = game_pgn(game).split("\n\n")[1]
    assert movetext.startswith("1. {assign=black:(secret)} {assign=white:(secret)} 2. e2e4")
    assert "KK" not in movetext
