"""Game records save and load exactly; PGN export goes through python-chess."""

from __future__ import annotations

import io

import chess.pgn
import pytest

from referee.rules.errors import IllegalActionError, RecordError
from referee.rules.game import Game
from referee.rules.pgn import to_pgn
from referee.rules.records import GameRecord, record_of, replay

MOVES = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 f7f6".split()


def played(moves: list[str] = MOVES) -> Game:
    game = Game("standard", seed=7)
    for move in moves:
        game.play(move)
    return game


def test_record_round_trip_is_exact() -> None:
    game = played()
    text = record_of(game).to_json()
    loaded = replay(GameRecord.from_json(text))
    assert loaded.action_texts() == game.action_texts() == MOVES
    assert loaded.variant.position(loaded.state) == game.variant.position(game.state)
    assert loaded.seed == 7
    assert record_of(loaded).to_json() == text


def test_record_from_a_set_up_position() -> None:
    game = Game("standard")
    game = Game(game.variant, state=game.variant.from_position("k7/8/8/8/8/8/8/R6K w - - 0 1"))
    game.play("a1a2")
    record = record_of(game)
    assert record.start == "k7/8/8/8/8/8/8/R6K w - - 0 1"
    assert replay(GameRecord.from_json(record.to_json())).action_texts() == ["a1a2"]


@pytest.mark.parametrize("text,problem", [
    ("not json", "not JSON"), ("[]", "not a gravekeeper-record"),
    ('{"format": "gravekeeper-record/1"}', "variant"),
    ('{"format": "gravekeeper-record/1", "variant": "standard", "actions": ["e2e5"]}',
     "does not replay"),
    ('{"format": "gravekeeper-record/1", "variant": "nope"}', "unknown variant"),
    ('{"format": "gravekeeper-record/1", "variant": "standard", "options": {"x": 1}}',
     "unknown option"),
])
def test_bad_records_are_refused_clearly(text: str, problem: str) -> None:
    with pytest.raises(RecordError, match=problem):
        replay(GameRecord.from_json(text))


def test_undo_and_resign() -> None:
    game = played(["e2e4", "e7e5"])
    game.undo()
    assert game.action_texts() == ["e2e4"] and game.state.to_act == 2
    game.play("resign")
    assert game.outcome.result == "1-0" and "resigned" in game.outcome.reason
    with pytest.raises(IllegalActionError, match="game is over"):
        game.play("e7e5")
    with pytest.raises(IllegalActionError, match="nothing to take back"):
        Game("standard").undo()


def test_pgn_export_reads_back_in_python_chess() -> None:
    game = played()
    pgn = to_pgn(game, {"White": "Ann", "Black": "Bob"})
    assert "5. O-O f6" in pgn
    parsed = chess.pgn.read_game(io.StringIO(pgn))
    assert parsed is not None and parsed.headers["White"] == "Ann"
    assert [m.uci() for m in parsed.mainline_moves()] == MOVES


def test_pgn_of_a_finished_game_has_its_result() -> None:
    pgn = to_pgn(played("f2f3 e7e5 g2g4 d8h4".split()))
    assert pgn.rstrip().endswith("0-1") and '[Result "0-1"]' in pgn
