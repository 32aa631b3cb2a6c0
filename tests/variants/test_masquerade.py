"""Masquerade Chess rules (RULINGS.md §6): setup, attempts, known captures, castling, endings."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import pytest

from referee.rules.errors import IllegalActionError, RecordError
from referee.rules.events import PUBLIC, CaptureAttempt
from referee.rules.game import Game
from referee.rules.pieces import BLACK, WHITE
from referee.rules.records import GameRecord, record_of, replay
from referee.rules.variants import make_variant
from referee.rules.variants.masquerade import MasqState, Masquerade

NORMAL = "KK,QQ,RR,BB,NN"
EXAMPLE = "KR,QK,RN,BB,NQ"  # the SOURCE example


def at(fen: str, white: str = NORMAL, black: str = NORMAL, promoted: str = "-",
       **options: Any) -> Game:
    """A game from a position: ``white``/``black`` are the σ of White's/Black's pieces."""
    variant = make_variant("masquerade", {f"masq.{k}": v for k, v in options.items()})
    state = variant.from_position(f"{fen} {white} {black} {promoted}")
    return Game(variant, state=state)


def started(*actions: str, white: str = EXAMPLE, black: str = NORMAL) -> Game:
    g = Game("masquerade")
    g.play(f"assign=black:{black}")
    g.play(f"assign=white:{white}")
    for text in actions:
        g.play(text)
    return g


def legal(g: Game) -> set[str]:
    return set(g.legal_texts())


# ---------------------------------------------------------------------- setup


def test_setup_is_two_secret_assignments_white_first() -> None:
    g = Game("masquerade")
    assert g.state.to_act == WHITE
    assert len(legal(g)) == 120 and all(t.startswith("assign=black:") for t in legal(g))
    with pytest.raises(IllegalActionError):
        g.play(f"assign=white:{NORMAL}")  # White assigns Black's pieces, not its own
    g.play("assign=black:NN,BB,RR,QQ,KK")  # any row order is read
    assert g.state.to_act == BLACK and g.state.turn == WHITE
    assert len(legal(g)) == 120 and all(t.startswith("assign=white:") for t in legal(g))
    g.play(f"assign=white:{EXAMPLE}")
    assert g.state.to_act == WHITE and len(legal(g)) == 20


def test_assignment_events_tell_the_permutation_to_its_chooser_only() -> None:
    g = Game("masquerade")
    played = g.play("assign=black:KN,QB,RQ,BK,NR")
    public = [e for e in played.events if e.audience == PUBLIC]
    secret = [e for e in played.events if e.audience != PUBLIC]
    assert public and all("KN,QB" not in json.dumps(asdict(e)) for e in public)
    assert [e.audience for e in secret] == [WHITE] and "KN,QB,RQ,BK,NR" in secret[0].text
    variant = g.variant
    assert variant.public_action_text(played.action) == "assign=black:(secret)"
    assert variant.public_action_text(played.action, BLACK) == "assign=black:(secret)"
    assert variant.public_action_text(played.action, WHITE) == "assign=black:KN,QB,RQ,BK,NR"
    assert variant.public_action_text(g.parse("assign=white:KK,QQ,RR,BB,NN"), BLACK) == \
        "assign=white:KK,QQ,RR,BB,NN"


def test_random_assignment_is_drawn_from_the_seed_and_play_starts_at_once() -> None:
    def sigmas(seed: int) -> str:
        g = Game("masquerade", {"masq.assignment": "random"}, seed=seed)
        assert g.state.to_act == WHITE and len(legal(g)) == 20
        return " ".join(g.variant.position(g.state).split()[6:8])
    assert sigmas(4) == sigmas(4)
    assert len({sigmas(s) for s in range(12)}) > 6
    g = Game("masquerade", {"masq.assignment": "random"}, seed=4)
    white, black = g.variant.position(g.state).split()[6:8]
    # Each player is shown the opponent's patterns, as if they had chosen them.
    assert g.variant.view(g.state, WHITE)["opponent_patterns"] == black
    assert g.variant.view(g.state, BLACK)["opponent_patterns"] == white


# ---------------------------------------------------------------------- attempts


def test_failed_attempt_moves_nothing_passes_the_turn_and_is_public() -> None:
    g = at("4k3/8/8/3p4/8/2N5/8/4K3 w - - 7 20", white="KK,QN,RR,BB,NQ")
    played = g.play("c3d5")
    attempt = [e for e in played.events if isinstance(e, CaptureAttempt)]
    assert len(attempt) == 1 and not attempt[0].succeeded and attempt[0].audience == PUBLIC
    assert (attempt[0].frm, attempt[0].to) == ("c3", "d5")
    fen = g.variant.position(g.state).split()
    assert fen[:6] == ["4k3/8/8/3p4/8/2N5/8/4K3", "b", "-", "-", "8", "20"]


def test_successful_attempt_captures() -> None:
    g = at("4k3/8/8/3p4/8/2N5/8/4K3 w - - 7 20")
    played = g.play("c3d5")
    assert [e.succeeded for e in played.events if isinstance(e, CaptureAttempt)] == [True]
    assert g.variant.position(g.state).split()[0] == "4k3/8/8/3N4/8/8/8/4K3"
    assert g.state.halfmove == 0


def test_the_matrix_row_is_the_piece_and_the_column_its_capture() -> None:
    # KR: the king captures like a rook, so it takes the pawn on e5 from e1 along the file.
    g = at("7k/8/8/4p3/8/8/8/4K3 w - - 0 1", white=EXAMPLE)
    assert "e1e5" in legal(g)  # plausible: a rook/queen line reaches it
    g.play("e1e5")
    assert g.variant.position(g.state).split()[0] == "7k/8/8/4K3/8/8/8/8"


def test_both_rooks_share_their_type_pattern() -> None:
    g = at("4k3/8/8/p6p/8/8/8/R3K2R w - - 0 1", white="KK,QQ,RB,BR,NN")
    g.play("a1a5")  # rook with a bishop's capture: fails on the file
    g.play("e8e7")
    g.play("h1h5")  # the other rook fails the same way
    assert g.variant.position(g.state).split()[0] == "8/4k3/8/p6p/8/8/8/R3K2R"


def test_attempt_filter_plausible_and_any() -> None:
    fen = "4k3/8/7p/8/8/2N5/8/4K3 w - - 0 1"
    assert "c3h6" not in legal(at(fen))  # no K/Q/R/B/N pattern reaches h6 from c3
    assert "c3h6" in legal(at(fen, attempt_filter="any"))
    g = at(fen, white="KK,QQ,RR,BB,NN", attempt_filter="any")
    played = g.play("c3h6")
    assert [e.succeeded for e in played.events if isinstance(e, CaptureAttempt)] == [False]


def test_the_plausible_filter_does_not_depend_on_sigma() -> None:
    fen = "r3k3/8/2p5/8/3p4/2N5/8/4K3 w - - 0 1"
    sets = {frozenset(legal(at(fen, white=w))) for w in (NORMAL, EXAMPLE, "KN,QB,RQ,BK,NR")}
    assert len(sets) == 1


def test_own_pieces_are_never_targets() -> None:
    g = started()
    assert not any(t in legal(g) for t in ("b1d2", "d1d2", "a1a2", "e1f1"))


def test_pawns_capture_normally_including_en_passant_without_an_attempt() -> None:
    g = at("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", white=NORMAL)
    played = g.play("d5e6")
    assert not any(isinstance(e, CaptureAttempt) for e in played.events)
    assert g.variant.position(g.state).split()[0] == "4k3/8/4P3/8/8/8/8/4K3"
    g = at("4k3/8/8/8/3p4/8/2P5/4K3 w - - 0 1")
    g.play("c2c4")
    assert "d4c3" in legal(g)


def test_a_failed_attempt_ends_the_en_passant_chance() -> None:
    g = at("k7/8/8/8/5p2/8/4P3/1n2K3 w - - 0 1")
    g.play("e2e4")
    assert "f4e3" in legal(g) and g.variant.position(g.state).split()[3] == "e3"
    played = g.play("b1e1")  # a knight on a queen line to the king: plausible, and fails
    assert [e.succeeded for e in played.events if isinstance(e, CaptureAttempt)] == [False]
    assert g.variant.position(g.state).split()[3] == "-"


# ---------------------------------------------------------------------- no check, king capture


def test_no_check_the_king_may_step_into_attack() -> None:
    g = at("4k3/8/8/8/8/8/r7/4K3 w - - 0 1")
    assert {"e1d2", "e1e2", "e1f2"} <= legal(g)
    assert not g.variant.in_check(g.state)


def test_capturing_the_king_wins() -> None:
    g = at("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1")
    g.play("e2e8")
    assert g.outcome.result == "1-0" and g.legal() == []
    g = at("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", white="KK,QQ,RB,BR,NN")
    g.play("e2e8")
    assert g.outcome.result == "*" and g.state.to_act == BLACK


def test_a_lone_king_can_still_capture_the_other_king() -> None:
    g = at("8/8/8/8/8/3k4/8/3K4 w - - 0 1", white="KR,QQ,RK,BB,NN")
    assert "d1d3" in legal(g)
    g.play("d1d3")
    assert g.outcome.result == "1-0"


# ---------------------------------------------------------------------- castling


def test_castling_ignores_attacks_by_default() -> None:
    fen = "4kr2/8/8/8/8/8/8/4K2R w K - 0 1"
    assert "e1g1" in legal(at(fen))
    g = at(fen)
    g.play("e1g1")
    assert g.variant.position(g.state).split()[0] == "4kr2/8/8/8/8/8/8/5RK1"


def test_castling_through_a_sigma_attacked_square_with_attacks_on() -> None:
    fen = "4kr2/8/8/8/8/8/8/4K2R w K - 0 1"
    assert "e1g1" not in legal(at(fen, castle_ignores_attacks=False))
    # Black's rook captures like a bishop: f1 is not attacked, castling is fine.
    assert "e1g1" in legal(at(fen, black="KK,QQ,RB,BR,NN", castle_ignores_attacks=False))
    # Out of check stays allowed (SOURCE: "A king may castle out of check").
    assert "e1g1" in legal(at("4r1k1/8/8/8/8/8/8/4K2R w K - 0 1",
                              castle_ignores_attacks=False))


def test_legal_list_is_public_unless_castling_depends_on_attacks() -> None:
    g = started()
    assert g.variant.legal_is_public(g.state)
    g2 = at("4k3/8/8/8/8/8/8/4K2R w K - 0 1", castle_ignores_attacks=False)
    assert not g2.variant.legal_is_public(g2.state)


# ---------------------------------------------------------------------- promotion


def test_promoted_piece_uses_sigma_of_its_new_type_by_default() -> None:
    g = at("7k/1P6/8/8/8/8/8/1r2K3 w - - 0 1", white="KK,QN,RR,BB,NQ")
    g.play("b7b8q")
    g.play("h8g7")
    played = g.play("b8b1")  # a queen that captures like a knight
    assert [e.succeeded for e in played.events if isinstance(e, CaptureAttempt)] == [False]


def test_promoted_piece_captures_normally_with_true_normal() -> None:
    fen = "7k/1P6/2p5/8/8/8/8/1r2K3 w - - 0 1"
    g = at(fen, white="KK,QN,RR,BB,NQ")
    g.play("b7b8q")
    g.play("h8h7")
    assert {"b8b1", "b8c6"} <= legal(g)  # attempts by any plausible pattern
    g = at(fen, white="KK,QN,RR,BB,NQ", promoted_capture="true_normal")
    g.play("b7b8q")
    assert g.variant.position(g.state).split()[8] == "b8"
    g.play("h8h7")
    # Its captures are known moves, like a pawn's: only what a queen really reaches.
    assert "b8b1" in legal(g) and "b8c6" not in legal(g)
    played = g.play("b8b1")
    assert not any(isinstance(e, CaptureAttempt) for e in played.events)
    assert g.variant.position(g.state).split()[0] == "8/7k/2p5/8/8/8/8/1Q2K3"


# ---------------------------------------------------------------------- endings by rule

FORTRESS = "KQRRBBQQ/PPPPPPPP/8/8/8/8/8/4k3 w - - 0 1"  # White has nothing possible


def test_nothing_possible_means_pass() -> None:
    g = at(FORTRESS)
    assert legal(g) == {"pass"}
    g.play("pass")
    assert g.state.to_act == BLACK and g.outcome.result == "*"


def test_nothing_possible_is_a_draw_with_the_option() -> None:
    g = at(FORTRESS, no_move="draw")
    assert g.outcome.result == "1/2-1/2" and g.legal() == []


def _shuffle_with_failed_attempts(g: Game, times: int) -> None:
    for _ in range(times):
        for text in ("c3d5", "h8g8", "c3d5", "g8h8"):
            g.play(text)


def test_repetition_is_off_by_default_and_on_with_the_option() -> None:
    fen = "7k/8/8/3p4/8/2N5/8/K7 w - - 0 1"
    g = at(fen, white="KK,QN,RR,BB,NQ")
    _shuffle_with_failed_attempts(g, 3)
    assert g.outcome.result == "*"
    g = at(fen, white="KK,QN,RR,BB,NQ", repetition_draw=True)
    _shuffle_with_failed_attempts(g, 2)
    assert g.outcome.result == "1/2-1/2" and "repetition" in g.outcome.reason


def test_failed_attempts_count_for_the_fifty_move_rule() -> None:
    fen = "7k/8/8/3p4/8/2N5/8/K7 w - - 99 60"
    g = at(fen, white="KK,QN,RR,BB,NQ")
    g.play("c3d5")
    assert g.outcome.result == "1/2-1/2" and "fifty" in g.outcome.reason
    g = at(fen, white="KK,QN,RR,BB,NQ", fifty_move=False)
    g.play("c3d5")
    assert g.outcome.result == "*"


# ---------------------------------------------------------------------- knowledge and views


def test_deductions_follow_public_attempts() -> None:
    g = at("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", white="KK,QN,RR,BB,NQ")
    g.play("c3d5")  # fails: only the knight pattern reaches d5 from c3, so σ(N) is not N
    variant = g.variant
    assert isinstance(variant, Masquerade) and isinstance(g.state, MasqState)
    # Rows K Q R B N; columns K Q R B N.
    assert variant.deductions(g.state, WHITE) == {
        "K": "?????", "Q": "?????", "R": "?????", "B": "?????", "N": "????X"}
    assert variant.deductions(g.state, BLACK)["N"] == "?????"
    g = at("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1")
    g.play("c3d5")  # succeeds: σ(N) is N, so no other piece has the knight pattern
    assert variant.deductions(g.state, WHITE) == {
        "K": "????X", "Q": "????X", "R": "????X", "B": "????X", "N": "XXXXO"}


def test_views_show_each_player_only_what_they_may_know() -> None:
    g = started("e2e4", white=EXAMPLE, black="KN,QB,RQ,BK,NR")
    variant = g.variant
    white, black, spectator = (variant.view(g.state, v) for v in (WHITE, BLACK, None))
    assert white["opponent_patterns"] == "KN,QB,RQ,BK,NR"
    assert black["opponent_patterns"] == EXAMPLE
    assert EXAMPLE not in json.dumps(white) and "KN,QB,RQ,BK,NR" not in json.dumps(black)
    assert EXAMPLE not in json.dumps(spectator)
    assert "KN,QB,RQ,BK,NR" not in json.dumps(spectator)
    assert set(white["deductions"]) == {"white"} and set(spectator["deductions"]) == {
        "white", "black"}
    assert "opponent_patterns" not in spectator


def test_render_shows_the_viewers_knowledge_only() -> None:
    g = started(white=EXAMPLE, black="KN,QB,RQ,BK,NR")
    assert "KN,QB,RQ,BK,NR" in g.variant.render(g.state, WHITE)
    assert EXAMPLE not in g.variant.render(g.state, WHITE)
    shared = g.variant.render(g.state, None)
    assert EXAMPLE not in shared and "KN,QB" not in shared


def test_illegal_reasons_never_depend_on_sigma() -> None:
    fen = "4k3/8/7p/8/8/2N5/8/4K3 w - - 0 1"
    reasons = set()
    for white in (NORMAL, EXAMPLE):
        g = at(fen, white=white)
        with pytest.raises(IllegalActionError) as err:
            g.play("c3h6")
        reasons.add(str(err.value))
    assert len(reasons) == 1 and "plausible" in reasons.pop()


# ---------------------------------------------------------------------- positions and records


def test_position_private_and_public_forms() -> None:
    g = started("e2e4")
    variant = g.variant
    private, public = variant.position(g.state), variant.position(g.state, private=False)
    assert EXAMPLE in private and "rng:" in private
    assert public.split()[6:] == ["?", "?", "-"] and "rng:" not in public
    again = variant.from_position(private)
    assert variant.position(again) == private
    with pytest.raises(RecordError, match="public"):
        variant.from_position(public)
    fresh = variant.from_position(variant.position(Game("masquerade").state))
    assert fresh.to_act == WHITE and len(variant.legal_actions(fresh)) == 120
    half = Game("masquerade")
    half.play(f"assign=black:{NORMAL}")
    loaded = variant.from_position(variant.position(half.state))
    assert loaded.to_act == BLACK


@pytest.mark.parametrize("bad", [
    "8/8/8/8/8/8/8/8 w - - 0 1 KK",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1 KK,QQ,RR,BB,NX KK,QQ,RR,BB,NN -",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1 KK,QQ,RR,BB,NN - -",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1 KK,QQ,RR,BB,NN KK,QQ,RR,BB,NN z9",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1 KK,QQ,RR,BB,NN KK,QQ,RR,BB,NN - rng:xyz",
])
def test_bad_positions_are_refused(bad: str) -> None:
    with pytest.raises(RecordError):
        make_variant("masquerade").from_position(bad)


def test_records_keep_the_secret_assignments_and_replay() -> None:
    g = started("e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "a7a6", "c3d5")
    record = record_of(g)
    assert "assign=white:" + EXAMPLE in record.actions
    loaded = replay(GameRecord.from_json(record.to_json()))
    assert loaded.variant.position(loaded.state) == g.variant.position(g.state)
