"""Dead Man's Chess: set-up positions for the rules the scenarios cannot reach, the text forms,
the terminal drawing, and random playouts with save/load round trips.

The scenarios (tests/scenarios/deadmans/) show each ruling from the start position; the
reference referee (test_deadmans_reference.py) checks the legal lists move by move.
"""

from __future__ import annotations

import io
from typing import Any

import pytest

from referee.app.play import TerminalGame
from referee.rules.errors import IllegalActionError, OptionError, RecordError
from referee.rules.events import Captured, GameEvent, Marker, Placed, Prompt, Removed
from referee.rules.game import Game
from referee.rules.variants import make_variant
from referee.rules.variants.deadmans import START, DeadMans
from tests.playout import (
    assert_position_round_trip,
    assert_record_round_trip,
    playout_games,
    random_game,
)

EMPTY = "8/8/8/8/8/8/8/8"


def game_at(position: str, options: dict[str, Any] | None = None) -> Game:
    variant = make_variant("deadmans", options)
    return Game(variant, state=variant.from_position(position))


def legal(game: Game) -> set[str]:
    return set(game.legal_texts())


# ---------------------------------------------------------------------------- notation, text


def test_start_position_text_round_trips() -> None:
    variant = make_variant("deadmans")
    state = variant.initial_state()
    assert variant.position(state) == START
    assert variant.position(variant.from_position(START)) == START
    assert len(variant.legal_actions(state)) == 20


def test_square_names_and_action_forms() -> None:
    game = game_at(f"4k3/8/8/8/8/8/8/4K3 {EMPTY} w - - - 0 1")
    variant = game.variant
    assert variant.layout.square("earth:e4") == variant.layout.square("e4")
    assert variant.layout.name(variant.layout.square("hell:d1")) == "hell:d1"
    rise = game.parse("hell:d1xhell:d7@d5")
    assert variant.format_action(rise) == "hell:d1-hell:d7@d5"
    promo = game.parse("hell:b7-hell:a8=q@e8")
    assert (promo.promo, variant.format_action(promo)) == ("Q", "hell:b7-hell:a8=Q@e8")
    assert variant.format_action(game.parse("earth:e1-earth:e2")) == "e1e2"


def test_home_choice_may_name_the_square_without_hell_prefix() -> None:
    game = Game("deadmans")
    for text in ("e2e4", "d7d5", "e4d5"):
        game.play(text)
    assert game.parse("home=d7") == game.parse("home=hell:d7")
    game.play("home=d7")
    assert game.variant.piece_letter(game.state.board[game.variant.layout.square("hell:d7")]) == "p"


@pytest.mark.parametrize("text", [
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",                                  # a FEN: no Hell field
    f"4k3/8/8/8/8/8/8/4K3 {EMPTY} x - - - 0 1",                       # side
    f"4k3/8/8/8/8/8/8/4K3 {EMPTY} w KZ - - 0 1",                      # castling
    f"4k3/8/8/8/8/8/8/4K3 {EMPTY} w - - hell:e4 0 1",                 # tombstone in Hell
    "4k3/8/8/8/8/8/8/4K3 8/8/8/8/8/8/8/4K3 w - - - 0 1",             # a king in Hell
    f"4k3/8/8/8/8/8/8/4K3 {EMPTY} w - - - 0 1 choose=w/N/hell:b1",    # one home is no choice
    f"4k3/8/8/8/8/8/8/4K3 {EMPTY} w - - - 0 1 ids=e4:e",              # no piece on e4
    f"4k3/8/8/8/8/8/8/4K3 {EMPTY} w - - - 0 1 colour=red",            # unknown field
    f"4k3/8/8/8/8/8/8/4K3 {EMPTY} w - - - 0 1 removed=x",             # not a piece letter
    f"4k3/8/8/8/8/8/8/4K9 {EMPTY} w - - - 0 1",                       # rank too long
])
def test_bad_positions_are_refused(text: str) -> None:
    with pytest.raises(RecordError):
        make_variant("deadmans").from_position(text)


def test_position_keeps_identities_pending_choice_and_removed() -> None:
    options = {"dmc.pawn_home": "original_file", "dmc.promoted_home": "pawn"}
    game = game_at("4k3/8/8/3P4/8/2N5/8/Q3K3 r7/8/8/8/8/8/P7/8 b - - c3 0 1 "
                   "ids=d5:e,a1:c+,hell:a2:-", options)
    game.play("hell:a8-hell:a2@c3")
    text = game.variant.position(game.state)
    assert text.split()[8:] == ["choose=w/N/hell:b1,hell:g1", "ids=a1:c+,d5:e", "removed=P"]
    again = game.variant.from_position(text)
    assert game.variant.position(again) == text
    assert game.variant.position_key(again) == game.variant.position_key(game.state)
    assert sorted(game.variant.legal_actions(again)) == sorted(game.legal())


# ---------------------------------------------------------------------------- rules


def test_stalemate_needs_no_move_on_either_board() -> None:
    blocked = game_at("k7/8/1Q6/8/8/8/8/7K 8/p7/P7/8/8/8/8/8 b - - - 0 1")
    assert blocked.legal() == [] and blocked.outcome.reason == "stalemate"
    assert blocked.outcome.result == "1/2-1/2"
    free = game_at("k7/8/1Q6/8/8/8/8/7K 8/p7/8/8/8/8/8/8 b - - - 0 1")
    assert free.outcome.result == "*"
    assert legal(free) == {"hell:a7-hell:a6", "hell:a7-hell:a5"}


def test_a_resurrection_can_parry_mate_by_killing_or_blocking() -> None:
    game = game_at("4R1k1/5ppp/8/8/8/8/8/4K3 1n6/8/2P5/8/8/8/8/8 b - - e8,f8 0 1")
    assert game.variant.in_check(game.state)
    assert legal(game) == {"hell:b8-hell:c6@e8", "hell:b8-hell:c6@f8"}
    game.play("hell:b8-hell:c6@e8")
    # White, the dead rook's owner, picks its home; the turn passes to White only after that.
    assert (game.state.turn, game.state.to_act) == (2, 1)
    assert legal(game) == {"home=hell:a1", "home=hell:h1"}
    game.play("home=hell:h1")
    assert (game.state.turn, game.state.to_act) == (1, 1)
    mated = game_at("4R1k1/5ppp/8/8/8/8/8/4K3 1n6/8/8/8/8/8/8/8 b - - e8,f8 0 1")
    assert (mated.outcome.result, mated.outcome.reason) == ("1-0", "checkmate")


def test_a_resurrection_can_checkmate() -> None:
    game = game_at("6k1/5ppp/8/8/8/8/8/4K3 Q7/1p6/8/8/8/8/8/8 w - - e8 0 1")
    game.play("hell:a8-hell:b7@e8")
    assert (game.outcome.result, game.outcome.reason) == ("1-0", "checkmate")


def test_no_hell_move_answers_a_double_check() -> None:
    game = game_at("4k3/8/3N4/8/8/8/8/4RK2 1n6/8/2P5/8/8/8/8/8 b - - e7,d6 0 1")
    moves = game.legal()
    assert moves and all(game.variant.layout.name(a.frm) == "e8" for a in moves)


def test_dead_position_only_when_hell_is_empty() -> None:
    bare = game_at(f"4k3/8/8/8/8/8/8/4K2B {EMPTY} w - - d4 0 1")
    assert (bare.outcome.result, bare.outcome.reason) == ("1/2-1/2", "insufficient material")
    haunted = game_at("4k3/8/8/8/8/8/8/4K2B 8/8/8/8/8/8/8/1N6 w - - d4 0 1")
    assert haunted.outcome.result == "*"


def test_original_file_home_blocked_by_own_piece_annihilates() -> None:
    position = "3qk3/8/8/3P4/8/8/8/4K3 8/8/8/8/8/8/4N3/8 b - - - 0 1 ids=d5:e"
    game = game_at(position, {"dmc.pawn_home": "original_file"})
    game.play("d8d5")
    assert game.variant.expectation(game.state, "tombstones") == ["d5"]
    assert [game.variant.piece_letter(p) for p in game.state.removed] == ["P"]
    assert game.state.to_act == 1
    by_death = game_at(position, {"dmc.pawn_home": "same_file_as_death"})
    by_death.play("d8d5")
    assert by_death.state.removed == ()
    assert by_death.variant.piece_letter(by_death.state.board[64 + 8 + 3]) == "P"  # hell:d2


def test_a_pawn_with_no_original_file_may_use_any_vacant_home() -> None:
    game = game_at("3qk3/8/8/3P4/8/8/8/4K3 8/8/8/8/8/8/4N3/8 b - - - 0 1 ids=d5:-",
                   {"dmc.pawn_home": "original_file"})
    game.play("d8d5")
    assert legal(game) == {f"home=hell:{f}2" for f in "abcdfgh"}


def test_promoted_piece_returning_as_a_pawn() -> None:
    options = {"dmc.promoted_home": "pawn", "dmc.pawn_home": "original_file"}
    blocked = game_at("3qk3/8/8/3Q4/8/8/8/4K3 8/8/8/8/8/8/4n3/8 b - - - 0 1 ids=d5:e+", options)
    blocked.play("d8d5")
    assert [blocked.variant.piece_letter(p) for p in blocked.state.removed] == ["P"]
    free = game_at(f"3qk3/8/8/3Q4/8/8/8/4K3 {EMPTY} b - - - 0 1 ids=d5:e+", options)
    free.play("d8d5")
    text = free.variant.position(free.state)
    assert text.split()[1] == "8/8/8/8/8/8/4P3/8" and "ids" not in text  # a plain e-pawn again


def test_home_chooser_capturer_after_a_resurrection_kill() -> None:
    position = "4k3/8/8/8/8/2N5/8/4K3 r7/8/8/8/8/8/P7/8 b - - c3 0 1"
    owner = game_at(position)
    owner.play("hell:a8-hell:a2@c3")
    assert (owner.state.turn, owner.state.to_act) == (2, 1)
    capturer = game_at(position, {"dmc.home_chooser": "capturer"})
    capturer.play("hell:a8-hell:a2@c3")
    assert (capturer.state.turn, capturer.state.to_act) == (2, 2)
    capturer.play("home=hell:b1")
    assert (capturer.state.turn, capturer.state.to_act) == (1, 1)
    assert capturer.variant.expectation(capturer.state, "tombstones") == ["c3"]


def test_kill_without_tombstone_option() -> None:
    game = game_at("4k3/8/8/8/8/2N5/8/4K3 r7/8/8/8/8/8/P7/8 b - - c3 0 1",
                   {"dmc.resurrection_kill_leaves_tombstone": False})
    game.play("hell:a8-hell:a2@c3")
    assert game.variant.expectation(game.state, "tombstones") == []


def test_a_hell_move_keeps_castling_rights_and_en_passant_lives_one_move() -> None:
    game = game_at("r3k2r/8/8/8/8/8/8/R3K2R 8/8/8/8/8/8/1P6/1n6 w KQkq - - 0 1")
    game.play("hell:b2-hell:b4")
    assert game.variant.position(game.state).split()[3:5] == ["KQkq", "hell:b3"]
    assert "hell:b1-hell:c3" in legal(game)
    game.play("e8g8")
    assert game.variant.position(game.state).split()[3:5] == ["KQ", "-"]


def test_pawn_on_its_first_rank_steps_once_and_on_its_second_rank_twice() -> None:
    game = game_at(f"4k3/8/8/8/8/8/8/2P1K3 {EMPTY} w - - - 0 1")
    assert {"c1c2"} <= legal(game) and "c1c3" not in legal(game)
    game.play("c1c2")
    game.play("e8d8")
    assert {"c2c3", "c2c4"} <= legal(game)


def test_illegal_reasons() -> None:
    game = Game("deadmans")
    for text in ("e2e4", "d7d5", "e4d5", "home=hell:d7", "d8d5", "home=hell:e2", "d1g4", "c8g4"):
        game.play(text)
    reasons = {}
    for text in ("hell:d1-hell:d7@e4", "hell:d1-hell:d2@d5", "hell:d1-d5", "c2-c3@d5"):
        with pytest.raises(IllegalActionError) as err:
            game.play(text)
        reasons[text] = str(err.value)
    assert "no tombstone on e4" in reasons["hell:d1-hell:d7@e4"]
    assert "captures in Hell" in reasons["hell:d1-hell:d2@d5"]
    assert "resurrecting" in reasons["hell:d1-d5"]
    assert "captures in Hell" in reasons["c2-c3@d5"]
    with pytest.raises(IllegalActionError, match="home"):
        Game("deadmans").play("home=hell:a7")


def test_events_of_a_resurrection_kill_in_physical_order() -> None:
    game = Game("deadmans")
    for text in ("e2e4", "d7d5", "e4d5", "home=hell:d7", "d8d5", "home=hell:e2", "d1g4", "c8g4"):
        game.play(text)
    events: tuple[GameEvent, ...] = game.play("hell:d1-hell:d7@d5").events
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["Moved", "Captured", "Removed", "Placed", "Marker", "Captured", "Marker",
                     "Placed"]
    assert isinstance(events[3], Placed) and events[3].square == "d5"
    assert isinstance(events[5], Captured) and events[5].piece == "q"
    assert isinstance(events[6], Marker) and events[6].added
    assert isinstance(events[7], Placed) and events[7].square == "hell:d8"
    assert isinstance(events[2], Removed)
    start = Game("deadmans")
    for text in ("e2e4", "d7d5"):
        start.play(text)
    prompt = [e for e in start.play("e4d5").events if isinstance(e, Prompt)]
    assert prompt and prompt[0].colour == 2 and len(prompt[0].options) == 8


def test_view_shows_tombstones_and_the_pending_choice() -> None:
    game = Game("deadmans")
    for text in ("e2e4", "d7d5", "e4d5"):
        game.play(text)
    view = game.variant.view(game.state, None)
    assert view["tombstones"] == ["d5"]
    assert view["choice"]["colour"] == "black" and len(view["choice"]["homes"]) == 8


def test_options_are_checked() -> None:
    with pytest.raises(OptionError):
        make_variant("deadmans", {"dmc.pawn_home": "nearest"})
    with pytest.raises(OptionError):
        make_variant("deadmans", {"dmc.hell": True})
    assert isinstance(make_variant("deadmans", {"dmc.fifty_move": False}), DeadMans)


def test_play_draws_earth_and_hell_side_by_side_with_tombstones() -> None:
    out = io.StringIO()
    TerminalGame(Game("deadmans"), out).run(io.StringIO("e2e4\nd7d5\ne4d5\nhome=hell:d7\n"))
    screen = out.getvalue().splitlines()
    last = max(i for i, line in enumerate(screen) if "Earth" in line)
    header, rank7, rank5 = screen[last], screen[last + 2], screen[last + 4]
    assert "Hell" in header and header.index("Hell") > header.index("Earth") + 20
    assert rank5.startswith("5  .  .  .  P+")
    assert rank7.split()[13] == "p"  # hell:d7, right of the Earth board
    assert any(line.startswith("Tombstones (+): d5") for line in screen)


# ---------------------------------------------------------------------------- playouts

PLAYOUT_GAMES = playout_games(1000)
CHUNKS = 10
OTHER_OPTIONS: list[dict[str, Any]] = [
    {"dmc.promote_before_resurrect": False, "dmc.pawn_resurrect_first_rank": "forbid"},
    {"dmc.home_chooser": "capturer", "dmc.pawn_home": "original_file",
     "dmc.promoted_home": "pawn"},
    {"dmc.pawn_home": "same_file_as_death", "dmc.bishop_home": "any_vacant",
     "dmc.hell_pawn_double_step": False, "dmc.resurrection_kill_leaves_tombstone": False},
]


def check_state(game: Game) -> None:
    if game.outcome.result == "*":
        assert game.legal(), game.action_texts()
    assert_position_round_trip(game)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts_never_stall_and_round_trip(chunk: int) -> None:
    """1,000 games with the default options (and 60 more with others) to a finish or 300 plies:
    no exception, a legal action whenever the game is on, and every state survives a
    position round trip; every finished game survives a record round trip."""
    variant = make_variant("deadmans")
    plies = 0
    for seed in range(chunk, PLAYOUT_GAMES, CHUNKS):
        game = random_game(variant, seed, on_state=check_state)
        assert_record_round_trip(game)
        plies += len(game.played)
    for options in OTHER_OPTIONS:
        for seed in range(2):
            game = random_game(make_variant("deadmans", options), 5000 + chunk * 2 + seed,
                               on_state=check_state)
            assert_record_round_trip(game)
    assert plies > (PLAYOUT_GAMES // CHUNKS) * 50


def test_a_choice_action_is_the_only_kind_legal_while_a_home_is_pending() -> None:
    game = Game("deadmans")
    for text in ("e2e4", "d7d5", "e4d5"):
        game.play(text)
    assert {a.kind for a in game.legal()} == {"home"}
