"""SAN read against our engine's legal actions: every SAN that python-chess writes for a legal
move of a random standard game names exactly that move, and the SAN-ish reading of the
variants with chess men finds their moves (and only legal ones)."""

from __future__ import annotations

import random

import chess
import pytest

from referee.rules.errors import NotationError
from referee.rules.game import Game
from referee.rules.san import looks_like_san, parse_san, speaks_san
from referee.rules.variants import make_variant


@pytest.mark.parametrize("seed", range(6))
def test_every_python_chess_san_names_that_move(seed: int) -> None:
    rng = random.Random(seed)
    game, board = Game("standard"), chess.Board()
    for _ in range(80):
        if board.is_game_over():
            break
        ours = {game.variant.format_action(a): a for a in game.legal()}
        assert sorted(ours) == sorted(m.uci() for m in board.legal_moves)
        for move in board.legal_moves:
            san = board.san(move)
            assert parse_san(san, game.variant, game.state) == ours[move.uci()], san
        move = rng.choice(list(board.legal_moves))
        board.push(move)
        game.play(move.uci())


def test_disambiguation_promotion_and_errors() -> None:
    game = Game("standard")
    for text in "e4 d5 exd5 Nf6 c4 c6 dxc6 Qa5 cxb7 Qb6".split():
        game.play(parse_san(text, game.variant, game.state))
    variant, state = game.variant, game.state
    assert variant.format_action(parse_san("bxa8=Q", variant, state)) == "b7a8q"
    assert variant.format_action(parse_san("bxc8N+", variant, state)) == "b7c8n"
    with pytest.raises(NotationError, match="promotion piece"):
        parse_san("bxa8", variant, state)
    with pytest.raises(NotationError, match="no legal pawn move to e5"):
        parse_san("e5", variant, state)
    game = Game("standard")
    for text in "Nf3 Nf6 Nc3 Nc6 Nd4 Nd5".split():
        game.play(parse_san(text, game.variant, game.state))
    with pytest.raises(NotationError, match="ambiguous: the N on c3, d4"):
        parse_san("Nb5", game.variant, game.state)
    assert game.variant.format_action(parse_san("Ndb5", game.variant, game.state)) == "d4b5"
    assert game.variant.format_action(parse_san("N3b5", game.variant, game.state)) == "c3b5"


def test_variants_with_chess_men_read_san() -> None:
    assert not speaks_san(make_variant("afterlife", None))
    assert all(speaks_san(make_variant(v, None)) for v in
               ("standard", "deadmans", "ghost", "die", "zombie", "masquerade"))
    dead = Game("deadmans")
    for text in ("e4", "d5", "exd5"):
        dead.play(parse_san(text, dead.variant, dead.state))
    assert dead.legal()[0].kind == "home"  # the Hell home comes next, in NOTATION.md form
    die = Game("die")
    die.play("roll=2")
    assert die.variant.format_action(parse_san("Nb3", die.variant, die.state)) == "a1b3"
    masq = Game("masquerade", {"masq.assignment": "random"}, seed=3)
    for text in ("e4", "e5", "Nf3", "Nc6"):
        masq.play(parse_san(text, masq.variant, masq.state))
    assert masq.variant.format_action(parse_san("Nxe5", masq.variant, masq.state)) == "f3e5"
    assert looks_like_san("O-O-O+") and looks_like_san("Qh4#") and not looks_like_san("spawn=a0")
