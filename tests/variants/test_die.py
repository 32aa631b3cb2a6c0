"""Die Chess rules (RULINGS.md §3): turns, rolls, move allowance, promotion, respawn, draws."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import pytest

from referee.rules.errors import IllegalActionError, NotationError, OptionError, RecordError
from referee.rules.events import PUBLIC, Announcement, Captured, Placed
from referee.rules.game import Game
from referee.rules.records import GameRecord, record_of, replay
from referee.rules.variants import make_variant
from referee.rules.variants.die import Die, DieState


def game(*actions: str, seed: int = 0, **options: Any) -> Game:
    """A Die Chess game with ``die.<key>`` options (underscored keys), after ``actions``."""
    g = Game("die", {f"die.{k}": v for k, v in options.items()}, seed=seed)
    for text in actions:
        g.play(text)
    return g


def expect(g: Game, key: str) -> Any:
    return g.variant.expectation(g.state, key)


def legal(g: Game) -> set[str]:
    return set(g.legal_texts())


def test_start_each_side_has_one_pawn_die_and_the_exact_legal_set() -> None:
    g = game()
    assert g.variant.position(g.state, private=False) == "Pa1:0 ph8:0 w - 0 1"
    assert expect(g, "faces") == {"white": "P", "black": "P"}
    assert expect(g, "moves_left") == {"white": 2, "black": 2}
    assert legal(g) == {"a1a2", "pass"} | {f"roll={n}" for n in range(1, 7)}


def test_a_move_ends_the_turn_and_counts_against_the_allowance() -> None:
    g = game("a1a2")
    assert g.state.to_act == 2 and expect(g, "moves_left") == {"white": 1, "black": 2}
    g.play("pass")
    g.play("a2a3")
    g.play("pass")
    assert "a3a4" not in legal(g) and "roll=1" in legal(g)
    with pytest.raises(IllegalActionError, match="roll first"):
        g.play("a3a4")
    g.play("roll=1")  # the same face again still resets c (RULINGS §3.4)
    assert expect(g, "moves_left")["white"] == 2 and "a3a4" in legal(g)


@pytest.mark.parametrize(("pips", "face", "limit"), [
    (1, "P", 2), (2, "N", 2), (3, "B", 2), (4, "R", 1), (5, "Q", 1), (6, "K", 1)])
def test_move_allowance_per_face(pips: int, face: str, limit: int) -> None:
    g = game(f"roll={pips}")
    assert expect(g, "faces")["white"] == face
    assert expect(g, "moves_left")["white"] == limit


def test_after_a_roll_the_player_moves_or_passes_but_does_not_roll_again() -> None:
    g = game("roll=3")
    assert g.state.to_act == 1
    assert not any(t.startswith("roll") for t in legal(g)) and "pass" in legal(g)
    with pytest.raises(IllegalActionError, match="roll"):
        g.play("roll=2")
    g.play("a1c3")
    assert g.state.to_act == 2


def test_sliders_are_blocked_only_by_the_enemy_die() -> None:
    g = game("roll=5", "a1a8", "roll=5")
    # Black's queen on h8 sees along rank 8 up to the white die on a8 (and takes it there),
    # and the whole long diagonal, now empty.
    queen = {t for t in legal(g) if t.startswith("h8")}
    assert len(queen) == 7 + 7 + 7 and {"h8a8", "h8b8", "h8a1"} <= queen
    g.play("h8a8")
    assert g.variant.position(g.state, private=False) == "Pa1:0 qa8:1 w - 0 2"


def test_pawn_face_moves_one_step_forward_and_captures_diagonally_forward() -> None:
    g = game()
    assert "a1a3" not in legal(g) and "a1b2" not in legal(g)  # no double step (§3.3)
    g = game("roll=5", "a1g7", "pass", "roll=1")  # white pawn-faced die on g7, black on h8
    assert {"g7h8", "g7h8q", "g7g8", "g7g8q"} <= legal(g) and "g7f8" not in legal(g)
    g = game("roll=4", "a1h1", "pass", "roll=4", "h1h7", "pass", "roll=1")
    assert legal(g) == {"pass"}  # the enemy die straight ahead blocks a pawn face


def test_black_pawn_face_moves_down_the_board() -> None:
    g = game("pass")
    assert "h8h7" in legal(g) and "h8h9" not in legal(g)


def test_promotion_is_optional_and_may_choose_the_king_by_default() -> None:
    g = game("roll=5", "a1a7", "pass", "roll=1")
    assert {"a7a8", "a7a8n", "a7a8b", "a7a8r", "a7a8q", "a7a8k"} <= legal(g)
    g.play("a7a8r")
    # Promotion keeps c: the pawn move counted 1, and a rook allows 1 (RULINGS §3.8 #9).
    assert expect(g, "faces")["white"] == "R"
    assert expect(g, "moves_left")["white"] == 0


def test_promotion_to_a_two_move_face_keeps_the_counter() -> None:
    g = game("roll=5", "a1a7", "pass", "roll=1", "a7a8n")
    assert expect(g, "moves_left")["white"] == 1


def test_promotion_options() -> None:
    g = game("roll=5", "a1a7", "pass", "roll=1", promotion_optional=False,
             promotion_allows_king=False)
    assert {t for t in legal(g) if t.startswith("a7")} == {"a7a8n", "a7a8b", "a7a8r", "a7a8q"}


def test_a_pawn_rolled_on_the_far_rank_is_stuck_by_default() -> None:
    g = game("roll=5", "a1a8", "pass", "roll=1")
    assert legal(g) == {"pass"}
    g.play("pass")
    g.play("pass")
    assert "roll=2" in legal(g)


def test_a_pawn_rolled_on_the_far_rank_may_promote_in_place_with_the_option() -> None:
    g = game("roll=5", "a1a8", "pass", "roll=1", promote_on_rolled_pawn_last_rank=True)
    assert {"a8a8n", "a8a8q", "a8a8k", "pass"} <= legal(g)
    g.play("a8a8q")
    assert expect(g, "faces")["white"] == "Q" and g.state.to_act == 2
    # The turn's move slot was used; c was 0 after the roll and is kept.
    assert expect(g, "moves_left")["white"] == 1


def test_compulsory_in_place_promotion_leaves_nothing_else() -> None:
    g = game("roll=5", "a1a8", "pass", "roll=1", promote_on_rolled_pawn_last_rank=True,
             promotion_optional=False)
    assert legal(g) == {"a8a8n", "a8a8b", "a8a8r", "a8a8q", "a8a8k"}


def test_capture_restarts_the_die_pawn_up_on_its_start_square() -> None:
    g = game("roll=5", "a1e5", "roll=5", "h8e5")
    # Black's queen took White's queen on e5: White restarts pawn-up on a1 with c = 0.
    assert g.variant.position(g.state, private=False) == "Pa1:0 qe5:1 w - 0 2"


def test_respawn_conflict_next_dark_square_and_next_square() -> None:
    g = game("roll=5", "a1h8")
    assert expect(g, "faces") == {"white": "Q", "black": "P"}
    assert g.variant.position(g.state, private=False).startswith("Qh8:1 pf8:0")
    g = game("roll=5", "a1h8", respawn_conflict="next_square")
    assert g.variant.position(g.state, private=False).startswith("Qh8:1 pg8:0")
    g = game("pass", "roll=5", "h8a1")
    assert g.variant.position(g.state, private=False).startswith("Pc1:0 qa1:1")


def test_capture_events_are_public() -> None:
    g = game("roll=5")
    played = g.play("a1h8")
    kinds = [type(e) for e in played.events]
    assert Captured in kinds and Placed in kinds
    assert all(e.audience == PUBLIC for e in played.events)
    assert any("restarts pawn-up on f8" in e.text for e in played.events)


def test_capturing_the_king_face_wins_and_removes_the_die() -> None:
    g = game("roll=5", "a1h8", "roll=6", "pass", "roll=5", "h8f8")
    assert g.outcome.result == "1-0"
    assert expect(g, "faces") == {"white": "Q", "black": "K"}
    assert g.variant.position(g.state, private=False).startswith("Qf8:1 kx")
    assert g.legal() == []


def test_no_check_a_king_face_may_step_next_to_the_enemy() -> None:
    g = game("roll=5", "a1f6", "roll=6")  # black king-faced on h8, white queen on f6
    assert {"h8g8", "h8h7", "h8g7"} <= legal(g)
    assert not g.variant.in_check(g.state)


def test_no_capture_draw_counts_turns_not_actions() -> None:
    g = game("roll=1", "a1a2", "roll=1", "h8h7", "pass", no_capture_draw_plies=4,
             repetition_draw=False)
    assert g.state.halfmove == 3 and g.outcome.result == "*"
    g.play("roll=2")
    assert g.outcome.result == "*"  # the roll is part of the fourth turn
    g.play("pass")
    assert g.outcome.result == "1/2-1/2"


def test_no_capture_draw_can_be_switched_off() -> None:
    g = game(*["pass"] * 130, no_capture_draw_plies=None, repetition_draw=False)
    assert g.outcome.result == "*"


def test_threefold_repetition_includes_counters_and_turn_progress() -> None:
    g = game("pass", "pass", "pass")
    assert g.outcome.result == "*"
    g.play("pass")
    assert g.outcome.result == "1/2-1/2" and "repetition" in g.outcome.reason
    g = game("pass", "pass", "pass", "pass", repetition_draw=False)
    assert g.outcome.result == "*"
    # A roll to the same face repeats the position too (c = 0 again, same turn progress).
    g = game("roll=1", "pass", "pass", "roll=1", "pass", "pass")
    assert g.outcome.result == "1/2-1/2"
    # Counters and the turn's progress are part of the position.
    variant = g.variant
    start, rolled, moved = game().state, game("roll=1").state, game("a1a2", "pass").state
    assert variant.position_key(start) != variant.position_key(rolled)
    back = game("a1a2", "pass", "roll=4", "a2a1", "pass").state  # on a1 again as a rook
    assert variant.position_key(moved) != variant.position_key(back)


def test_move_then_roll_option() -> None:
    g = game("a1a2", allow_move_then_roll=True)
    assert g.state.to_act == 1 and legal(g) == {"pass"} | {f"roll={n}" for n in range(1, 7)}
    g.play("roll=4")
    assert g.state.to_act == 2  # the roll used the last roll: the turn ends
    g = game("roll=4", "a1a5", allow_move_then_roll=True)
    assert g.state.to_act == 2  # roll then move: both used
    g = game("a1a2", "pass", allow_move_then_roll=True)
    assert g.state.to_act == 2


def test_max_rolls_per_turn() -> None:
    g = game("roll=1", "roll=2", max_rolls_per_turn=2)
    assert g.state.to_act == 1 and not any(t.startswith("roll") for t in legal(g))
    with pytest.raises(IllegalActionError, match="2 roll"):
        g.play("roll=3")


def test_roll_by_face_letter_and_face_map() -> None:
    g = game()
    assert g.parse("roll=Q") == g.parse("roll=5") and g.parse("roll=k") == g.parse("roll=6")
    for bad in ("roll=7", "roll=12", "roll=X", "roll=PP"):
        with pytest.raises(NotationError):
            g.parse(bad)
    g = game("roll=1", face_map="KQRBNP")
    assert expect(g, "faces")["white"] == "K"
    assert game(face_map={"1": "N", "2": "P", "3": "B", "4": "R", "5": "Q", "6": "K"}
                ).parse("roll=P").value == "2"
    for bad_map in ("PPBRQK", "PNBRQ", 7):
        with pytest.raises(OptionError):
            make_variant("die", {"die.face_map": bad_map})


def test_bare_roll_in_physical_mode_uses_the_seeded_generator_and_records_the_face() -> None:
    faces = []
    for _ in range(2):
        g = game(seed=11)
        played = g.play("roll")
        assert played.text.startswith("roll=") and played.text != "roll="
        faces.append(played.text)
        assert isinstance(played.events[0], Announcement)
        assert "referee rolls" in played.events[0].text
    assert faces[0] == faces[1]
    assert "roll" not in legal(game())  # the legal set lists the six faces only


def test_every_roll_draws_so_a_record_replays_to_the_same_generator_state() -> None:
    g = game("roll", "pass", "roll=3", "pass", "roll", seed=5)
    again = replay(GameRecord.from_json(record_of(g).to_json()))
    assert again.variant.position(again.state) == g.variant.position(g.state)
    assert "rng:" in g.variant.position(g.state)


def test_rng_mode_lists_only_the_bare_roll_and_ignores_a_written_face() -> None:
    g = game(roll_source="rng", seed=3)
    assert legal(g) == {"a1a2", "roll", "pass"}
    first = g.play("roll").text
    g2 = game(roll_source="rng", seed=3)
    written = "roll=6" if first != "roll=6" else "roll=1"
    # A written face is a request to roll: the generator decides (nobody can choose a face
    # or probe the next roll), and the record keeps the face it gave.
    assert g2.variant.is_legal(g2.state, g2.parse(written))
    assert g2.play(written).text == first
    again = replay(GameRecord.from_json(record_of(g).to_json()))
    assert again.action_texts() == [first]


def test_same_seed_same_game_with_referee_rolls() -> None:
    def run(seed: int) -> list[str]:
        g = game(roll_source="rng", seed=seed)
        for _ in range(60):
            if g.outcome.result != "*":
                break
            g.play("roll" if "roll" in legal(g) else sorted(legal(g))[0])
        return g.action_texts()
    assert run(8) == run(8)
    assert run(8) != run(9)


def test_views_and_public_position_never_show_the_generator() -> None:
    g = game("roll", "pass", "roll", seed=21)
    state = g.state
    secret = {f"{state.rng:016x}", str(state.rng)}
    variant = g.variant
    for viewer in (1, 2, None):
        text = json.dumps(variant.view(state, viewer))
        assert not any(s in text for s in secret)
    assert not any(s in variant.position(state, private=False) for s in secret)
    for played in g.played:
        assert not any(s in json.dumps(asdict(e)) for e in played.events for s in secret)
    # The view is the same whatever the generator holds: it cannot depend on it.
    assert isinstance(state, DieState)
    other = state.copy()
    other.rng ^= 0xDEADBEEF
    other.ply = state.ply
    for viewer in (1, 2, None):
        assert variant.view(other, viewer) == variant.view(state, viewer)


def test_view_holds_faces_counters_and_turn_progress() -> None:
    g = game("roll=5")
    view = g.variant.view(g.state, None)
    assert view["dice"]["white"] == {"square": "a1", "face": "Q", "counter": 0,
                                     "moves_left": 1}
    assert view["turn_progress"] == {"rolls": 1, "moved": False}


def test_position_round_trip_and_errors() -> None:
    variant = make_variant("die")
    assert isinstance(variant, Die)
    g = game("roll=5", "a1h8", "roll=6", seed=4)
    text = variant.position(g.state)
    back = variant.from_position(text)
    assert variant.position(back) == text
    assert variant.position_key(back) == variant.position_key(g.state)
    for bad in ("", "Pa1:0 ph8:0 w - 0", "Pa1:0 Ph8:0 w - 0 1", "Pa1:0 pa1:0 w - 0 1",
                "Pz9:0 ph8:0 w - 0 1", "Pa1:0 ph8:0 x - 0 1", "Pa1:0 ph8:0 w q 0 1",
                "Px px w - 0 1", "Pa1:0 ph8:0 w - 0 1 rng:zz"):
        with pytest.raises(RecordError):
            variant.from_position(bad)


def test_render_shows_both_dice() -> None:
    text = game("roll=4").variant.render(game("roll=4").state)
    assert "White die: rook on a1, 1 move(s) before a roll" in text
    assert "Black die: pawn on h8" in text


def test_no_castling_in_die_chess() -> None:
    with pytest.raises(NotationError):
        game().parse("O-O")
