"""Masquerade Chess against an independent model built on python-chess (RULINGS.md §6).

The model reads the engine's private position text, lists legal actions with python-chess's
pseudo-legal pawn and piece moves, its own castling test and python-chess attack tables for
the plausible filter, and decides attempts with python-chess attack tables for σ(X). The tests
compare legal sets and results after every action of seeded random games, and perft counts.
"""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest

from referee.rules.events import CaptureAttempt
from referee.rules.game import Game
from referee.rules.perft import perft
from referee.rules.variants import make_variant
from tests.perftfile import PERFT_DIR, PerftCase, read_perft_file

LETTER_TYPE = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
               "N": chess.KNIGHT}


def parse_sigma(text: str) -> dict[int, int]:
    """``KR,QK,RN,BB,NQ`` -> {piece type: capture pattern type}."""
    return {LETTER_TYPE[p[0]]: LETTER_TYPE[p[1]] for p in text.split(",")}


def pattern_attacks(board: chess.Board, pattern: int, sq: int) -> int:
    """Squares (bitboard) the capture ``pattern`` reaches from ``sq`` on ``board``."""
    occ = board.occupied
    if pattern == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[sq]
    if pattern == chess.KING:
        return chess.BB_KING_ATTACKS[sq]
    rook = (chess.BB_RANK_ATTACKS[sq][occ & chess.BB_RANK_MASKS[sq]]
            | chess.BB_FILE_ATTACKS[sq][occ & chess.BB_FILE_MASKS[sq]])
    bishop = chess.BB_DIAG_ATTACKS[sq][occ & chess.BB_DIAG_MASKS[sq]]
    return {chess.ROOK: rook, chess.BISHOP: bishop, chess.QUEEN: rook | bishop}[pattern]


def model_legal(board: chess.Board, promoted: set[int], opts: dict[str, Any]) -> set[str]:
    """Legal actions of the side to move (play phase)."""
    us = board.turn
    out: set[str] = set()
    them_mask = board.occupied_co[not us]
    for move in board.generate_pseudo_legal_moves():
        piece = board.piece_at(move.from_square)
        assert piece is not None
        if board.is_castling(move):
            continue
        if piece.piece_type == chess.PAWN or not board.piece_at(move.to_square):
            out.add(move.uci())
    true_normal = opts.get("masq.promoted_capture") == "true_normal"
    for sq in chess.scan_forward(board.occupied_co[us] & ~board.pawns):
        if true_normal and sq in promoted:
            piece = board.piece_at(sq)
            assert piece is not None
            hits = pattern_attacks(board, piece.piece_type, sq) & them_mask
        elif opts.get("masq.attempt_filter") == "any":
            hits = them_mask
        else:
            hits = (pattern_attacks(board, chess.QUEEN, sq)
                    | pattern_attacks(board, chess.KNIGHT, sq)) & them_mask
        out.update(chess.square_name(sq) + chess.square_name(t) for t in chess.scan_forward(hits))
    rank = 0 if us == chess.WHITE else 7
    king = chess.square(4, rank)
    if board.piece_at(king) == chess.Piece(chess.KING, us):
        for rook_file, between, to_file in ((7, (5, 6), 6), (0, (1, 2, 3), 2)):
            has_right = (board.has_kingside_castling_rights(us) if rook_file == 7
                         else board.has_queenside_castling_rights(us))
            if has_right and not any(board.piece_at(chess.square(f, rank)) for f in between):
                out.add(chess.square_name(king) + chess.square_name(chess.square(to_file, rank)))
    if not out and opts.get("masq.no_move", "pass") == "pass":
        out.add("pass")
    return out


def model_attempt_succeeds(board: chess.Board, move: chess.Move, sigma: dict[int, int],
                           promoted: set[int], opts: dict[str, Any]) -> bool:
    piece = board.piece_at(move.from_square)
    assert piece is not None
    pattern = piece.piece_type if (opts.get("masq.promoted_capture") == "true_normal"
                                   and move.from_square in promoted) \
        else sigma[piece.piece_type]
    reach = pattern_attacks(board, pattern, move.from_square)
    return bool(reach & chess.BB_SQUARES[move.to_square])


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"masq.attempt_filter": "any"},
    {"masq.promoted_capture": "true_normal"},
    {"masq.assignment": "random"},
    {"masq.no_move": "draw", "masq.fifty_move": False},
]


def play_checked(opts: dict[str, Any], seed: int, max_plies: int = 220) -> None:
    """One random game; the model checks every legal set and every capture outcome."""
    variant = make_variant("masquerade", opts)
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    board: chess.Board | None = None
    sigma: dict[bool, dict[int, int]] = {}
    promoted: set[int] = set()
    while game.outcome.result == "*" and len(game.played) < max_plies:
        fields = variant.position(game.state).split()
        if fields[6] == "-" or fields[7] == "-":
            game.play(rng.choice(game.legal()))
            continue
        if board is None:
            board = chess.Board(" ".join(fields[:6]))
            sigma = {chess.WHITE: parse_sigma(fields[6]), chess.BLACK: parse_sigma(fields[7])}
        assert board.board_fen() == fields[0] and board.turn == (fields[1] == "w")
        legal = model_legal(board, promoted, opts)
        assert set(game.legal_texts()) == legal, (seed, game.action_texts()[-5:], fields)
        played = game.play(rng.choice(game.legal()))
        if played.text == "pass":
            board.push(chess.Move.null())
            continue
        move = chess.Move.from_uci(played.text)
        piece = board.piece_at(move.from_square)
        assert piece is not None
        target = board.piece_at(move.to_square)
        attempts = [e for e in played.events if isinstance(e, CaptureAttempt)]
        if target and (piece.piece_type != chess.PAWN) and not (
                opts.get("masq.promoted_capture") == "true_normal"
                and move.from_square in promoted):
            ok = model_attempt_succeeds(board, move, sigma[board.turn], promoted, opts)
            assert [e.succeeded for e in attempts] == [ok], (seed, played.text)
            if not ok:
                board.push(chess.Move.null())
                continue
        else:
            assert not attempts
        promoted.discard(move.to_square)
        if move.from_square in promoted:
            promoted.discard(move.from_square)
            promoted.add(move.to_square)
        if move.promotion:
            promoted.add(move.to_square)
        board.push(move)


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(
    f"{k[5:]}={v}" for k, v in o.items()) or "defaults")
def test_legal_sets_and_attempts_match_the_model(opts: dict[str, Any]) -> None:
    for seed in range(25):
        play_checked(opts, seed)


def model_perft(board: chess.Board, sigma: dict[bool, dict[int, int]], depth: int) -> int:
    legal = model_legal(board, set(), {})
    if depth == 1:
        return len(legal)
    total = 0
    for text in legal:
        child = board.copy(stack=False)
        move = chess.Move.from_uci(text) if text != "pass" else chess.Move.null()
        piece = board.piece_at(move.from_square) if text != "pass" else None
        if piece and piece.piece_type != chess.PAWN and board.piece_at(move.to_square) and \
                not model_attempt_succeeds(board, move, sigma[board.turn], set(), {}):
            move = chess.Move.null()
        child.push(move)
        if not (child.king(chess.WHITE) is not None and child.king(chess.BLACK) is not None):
            continue  # the king was captured: the game is over, nothing follows
        total += model_perft(child, sigma, depth - 1)
    return total


GOLDEN = read_perft_file(PERFT_DIR / "masquerade.perft")


@pytest.mark.parametrize("case", [c for c in GOLDEN if len(c.moves) >= 2],
                         ids=lambda c: c.id)
def test_golden_perft_counts_match_the_model(case: PerftCase) -> None:
    """The golden file's play-phase numbers (which the engine must reproduce,
    tests/test_perft_files.py) are what the python-chess model counts."""
    game = Game("masquerade", case.options)
    for text in case.moves:
        game.play(text)
    fields = game.variant.position(game.state).split()
    board = chess.Board(" ".join(fields[:6]))
    sigma = {chess.WHITE: parse_sigma(fields[6]), chess.BLACK: parse_sigma(fields[7])}
    assert {d: model_perft(board, sigma, d) for d in case.counts} == case.counts


def test_golden_setup_counts_are_the_hand_counts() -> None:
    by_id = {c.id: c.counts for c in GOLDEN}
    assert by_id["start"] == {1: 120, 2: 120 * 120, 3: 120 * 120 * 20}
    assert by_id["black-assigns"] == {1: 120, 2: 120 * 20, 3: 120 * 20 * 20}


def test_setup_counts_by_hand() -> None:
    """120 assignments for Black's pieces, then 120 for White's, then 20 opening moves."""
    game = Game("masquerade")
    assert perft(game.variant, game.state, 1) == 120
    assert perft(game.variant, game.state, 2) == 120 * 120
    game.play("assign=black:KK,QQ,RR,BB,NN")
    assert perft(game.variant, game.state, 2) == 120 * 20
