"""Standard chess on our engine, with python-chess as the oracle."""

from __future__ import annotations

import random

import chess
import pytest

from referee.rules.actions import Action
from referee.rules.game import Game
from referee.rules.perft import perft
from referee.rules.variants import make_variant
from tests.playout import assert_position_round_trip, assert_record_round_trip, playout_games

VARIANT = make_variant("standard")

# The well-known hard positions (chessprogramming.org perft suite and Martin Sedlak's list of
# special cases), then positions from seeded random games below.
HARD_POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p2/4P1P1/8/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",          # en passant would expose the king
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",         # en passant discovered check
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",        # en passant capture gives check
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",             # short castling gives check
    "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",             # long castling gives check
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",  # castling rights lost by capture
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",   # castling through check refused
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",          # promotion with capture out of check
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",        # discovered check
    "4k3/1P6/8/8/8/8/K7/8 w - - 0 1",             # promotion gives check
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",              # under-promotion gives check
    "K1k5/8/P7/8/8/8/8/8 w - - 0 1",              # self stalemate
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",             # stalemate and checkmate by promotion
    "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",          # double check
]


def random_positions(count: int, seed: int) -> list[str]:
    """Middle-game positions from seeded random python-chess games."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = chess.Board()
        for _ in range(rng.randrange(10, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            out.append(board.fen())
    return out


POSITIONS = HARD_POSITIONS + random_positions(8, seed=2)


def oracle_perft(board: chess.Board, depth: int) -> int:
    """python-chess perft that, like ours, stops where the game ends by rule.

    Our referee ends the game automatically on insufficient material, the 50-move rule and
    threefold repetition (a board has no arbiter to claim them from).
    """
    if depth == 0:
        return 1
    if (board.is_insufficient_material() or board.halfmove_clock >= 100
            or board.is_repetition(3)):
        return 0
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += oracle_perft(board, depth - 1)
        board.pop()
    return total


def test_at_least_25_positions() -> None:
    assert len(POSITIONS) >= 25


@pytest.mark.parametrize("fen", POSITIONS)
def test_perft_depth_3_equals_python_chess(fen: str) -> None:
    state = VARIANT.from_position(fen)
    assert perft(VARIANT, state, 3) == oracle_perft(chess.Board(fen), 3)


def as_move(action: Action) -> chess.Move:
    # Our 8x8 square index (rank * 8 + file) is python-chess's square numbering.
    promo = chess.Piece.from_symbol(action.promo).piece_type if action.promo else None
    return chess.Move(action.frm, action.to, promo)


def outcome_of(board: chess.Board) -> str:
    if board.is_checkmate():
        return "0-1" if board.turn == chess.WHITE else "1-0"
    if (board.halfmove_clock >= 100 or board.is_insufficient_material()
            or board.is_stalemate() or board.is_repetition(3)):
        return "1/2-1/2"
    return "*"


def play_and_compare(seed: int, max_plies: int = 300) -> int:
    rng = random.Random(seed)
    game = Game(VARIANT, seed=seed)
    board = chess.Board()
    for ply in range(max_plies):
        ours = game.legal()
        if game.outcome.result != "*" or not ours:
            assert game.outcome.result == outcome_of(board), (seed, ply, board.fen())
            assert VARIANT.fen(game.state) == board.fen(en_passant="fen"), (seed, ply)
            return ply
        assert outcome_of(board) == "*", (seed, ply, board.fen())
        assert {as_move(a) for a in ours} == set(board.legal_moves), (seed, board.fen())
        assert len(ours) == len(set(ours))
        assert VARIANT.in_check(game.state) == board.is_check()
        if ply % 10 == 0:
            assert VARIANT.fen(game.state) == board.fen(en_passant="fen"), (seed, ply)
        action = rng.choice(ours)
        game.play(action)
        board.push(as_move(action))
    return max_plies


PLAYOUT_GAMES = playout_games(2000, "GRAVEKEEPER_PLAYOUTS_STANDARD")
CHUNKS = 8  # so that parallel test workers share the 2,000 games


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts_match_python_chess_at_every_ply(chunk: int) -> None:
    seeds = range(chunk, PLAYOUT_GAMES, CHUNKS)
    plies = sum(play_and_compare(seed) for seed in seeds)
    assert plies > len(seeds) * 50  # the games really were played


def test_playout_states_round_trip() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        game = Game(VARIANT, seed=seed)
        while game.outcome.result == "*" and len(game.played) < 120:
            game.play(rng.choice(game.legal()))
            assert_position_round_trip(game)
        assert_record_round_trip(game)


def test_checkmate_stalemate_and_draws() -> None:
    mate = Game(VARIANT)
    for move in "f2f3 e7e5 g2g4 d8h4".split():
        mate.play(move)
    assert mate.outcome.result == "0-1" and mate.outcome.reason == "checkmate"
    assert mate.legal() == []
    stalemate = Game(VARIANT, state=VARIANT.from_position("k7/8/1Q6/8/8/8/8/7K b - - 0 1"))
    assert stalemate.outcome.result == "1/2-1/2" and stalemate.outcome.reason == "stalemate"
    bare = Game(VARIANT, state=VARIANT.from_position("k7/8/8/8/8/8/8/6NK w - - 0 1"))
    assert bare.outcome.reason == "insufficient material"
    fifty = Game(VARIANT, state=VARIANT.from_position("k7/8/8/8/8/8/8/R6K w - - 99 80"))
    fifty.play("a1a2")
    assert fifty.outcome.reason == "fifty-move rule"
    rep = Game(VARIANT)
    for move in "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1".split():
        rep.play(move)
        assert rep.outcome.result == "*"
    rep.play("f6g8")
    assert rep.outcome.reason == "threefold repetition"


def test_draw_rules_can_be_switched_off() -> None:
    variant = make_variant("standard", {"standard.fifty_move": False,
                                        "standard.repetition_draw": False})
    game = Game(variant, state=variant.from_position("k7/8/8/8/8/8/8/R6K w - - 99 80"))
    game.play("a1a2")
    assert game.outcome.result == "*"


def test_castling_rights_en_passant_and_promotion_are_applied() -> None:
    game = Game(VARIANT, state=VARIANT.from_position(
        "r3k2r/pPpp1ppp/8/3Pp3/8/8/8/R3K2R w KQkq e6 0 1"))
    game.play("d5e6")
    assert VARIANT.fen(game.state).startswith("r3k2r/pPpp1ppp/4P3/8/")
    assert "e8c8" not in game.legal_texts()  # c8 is attacked by the b7 pawn
    game.play("e8g8")
    assert game.variant.piece_letter(game.state.board[61]) == "r"  # the rook went to f8
    game.play("b7a8n")
    assert game.variant.piece_letter(game.state.board[56]) == "N"
