"""Ghost Chess: options, geometry, turn order, positions, outcomes, events, drawing, playouts."""

from __future__ import annotations

import io
import math
import time

import pytest

from referee.app.play import TerminalGame
from referee.rules.errors import IllegalActionError, OptionError, RecordError
from referee.rules.events import Announcement, Placed, Prompt, Removed
from referee.rules.game import Game
from referee.rules.pieces import BLACK, WHITE
from referee.rules.records import GameRecord, record_of, replay
from referee.rules.variants import make_variant
from referee.rules.variants.ghost import Ghost, GhostState
from tests.playout import (
    assert_position_round_trip,
    assert_record_round_trip,
    playout_games,
    random_game,
)

QUEEN_GHOST = ["e2e4", "e7e5", "g1f3", "d8h4", "f3h4"]  # Black's queen ghost lands on i4


def game_after(moves: list[str], options: dict[str, object] | None = None) -> Game:
    game = Game("ghost", options)
    for text in moves:
        game.play(text)
    return game


def ghost_state(game: Game) -> GhostState:
    assert isinstance(game.state, GhostState)
    return game.state


# ---------------------------------------------------------------------------- options, ring


def test_option_defaults_follow_rulings() -> None:
    assert Ghost().options == {
        "ghost.edge_ring": "full", "ghost.two_sided_edges": "bottom,left",
        "ghost.custom_cells": [], "ghost.spawn_capture_friendly": False,
        "ghost.bishop_diagonal_edge_to_edge": True, "ghost.knight_edge_L": False,
        "ghost.far_row_promotes": True,
    }


@pytest.mark.parametrize("options", [
    {"ghost.edge_ring": "round"},
    {"ghost.edge_ring": ["a0", "e5"]},          # e5 is a board square, not a ring cell
    {"ghost.edge_ring": ["z0"]},                # corners do not exist
    {"ghost.edge_ring": "custom"},              # custom needs ghost.custom_cells
    {"ghost.custom_cells": "a0,q7"},
    {"ghost.two_sided_edges": "bottom,bottom"},
    {"ghost.two_sided_edges": "bottom,left,top"},
    {"ghost.two_sided_edges": "bottom,middle"},
    {"ghost.knight_edge_L": "yes"},
    {"ghost.edge": "full"},
])
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        make_variant("ghost", options)


def ring_names(variant: Ghost) -> list[str]:
    return [variant.layout.name(sq) for sq in variant.ring]


def test_ring_sizes_and_names() -> None:
    full = Ghost()
    assert len(full.ring) == 32
    assert set(ring_names(full)) == ({f"{f}{r}" for f in "abcdefgh" for r in "09"}
                                     | {f"{c}{r}" for c in "zi" for r in "12345678"})
    two = Ghost({"ghost.edge_ring": "two_sided"})
    assert ring_names(two) == [f"{f}0" for f in "abcdefgh"] + [f"z{r}" for r in range(1, 9)]
    top_right = Ghost({"ghost.edge_ring": "two_sided", "ghost.two_sided_edges": ["right", "top"]})
    assert top_right.options["ghost.two_sided_edges"] == "top,right"
    assert ring_names(top_right) == [f"{f}9" for f in "abcdefgh"] + [f"i{r}" for r in range(1, 9)]


def test_custom_ring_forms_agree_and_are_normalised() -> None:
    as_list = Ghost({"ghost.edge_ring": ["Z5", "d0", "d0", "a9"]})
    as_text = Ghost({"ghost.edge_ring": "custom:z5,d0,a9"})
    as_key = Ghost({"ghost.edge_ring": "custom", "ghost.custom_cells": ["a9", "z5", "d0"]})
    assert as_list.options["ghost.edge_ring"] == ["d0", "a9", "z5"]
    assert ring_names(as_list) == ring_names(as_text) == ring_names(as_key) == ["d0", "a9", "z5"]


def test_first_spawn_tier_is_the_perpendicular_projection() -> None:
    """RULINGS 2.8 #3/#4: the nearest cells are the projections, at most two of them."""
    variant = Ghost()
    for sq in variant.board_squares:
        _p, x, y = variant.ext.coords(sq)
        projections = {(x, 0): y, (x, 9): 9 - y, (0, y): x, (9, y): 9 - x}
        best = min(projections.values())
        expected = {variant.ext.at("ext", *c) for c, d in projections.items() if d == best}
        tiers = variant.tables.tiers(sq)
        assert set(tiers[0]) == expected and len(tiers[0]) <= 2
        distances = [math.dist((x, y), variant.ext.coords(t[0])[1:]) for t in tiers]
        assert distances == sorted(distances) and len(set(distances)) == len(distances)
        assert sorted(c for t in tiers for c in t) == sorted(variant.ring)


# ---------------------------------------------------------------------------- turn order


def test_pending_spawn_turn_order() -> None:
    """The capturer keeps the turn while the owner chooses; the turn passes after the choice."""
    game = game_after(["e2e4", "d7d5", "e4d5"])
    st = ghost_state(game)
    assert (st.turn, st.to_act, st.fullmove) == (WHITE, BLACK, 2)
    assert st.pending and game.variant.layout.name(st.pending_from) == "d5"
    game.play("spawn=d9")
    st = ghost_state(game)
    assert (st.turn, st.to_act, st.fullmove, st.pending) == (BLACK, BLACK, 2, 0)
    # Black captures, White chooses, and only then does the move number advance.
    game = game_after(["e2e4", "d7d5", "g1f3", "d5e4"])
    st = ghost_state(game)
    assert (st.turn, st.to_act, st.fullmove) == (BLACK, WHITE, 2)
    game.play("spawn=e0")
    assert (game.state.turn, game.state.to_act, game.state.fullmove) == (WHITE, WHITE, 3)


def test_only_spawn_choices_while_pending() -> None:
    game = game_after(["e2e4", "d7d5", "e4d5"])
    with pytest.raises(IllegalActionError, match="spawn"):
        game.play("e7e5")
    assert {a.kind for a in game.legal()} == {"spawn"}


def test_in_check_while_pending_reports_the_chooser() -> None:
    """Bxc6+ takes a pawn whose owner must choose c9 or z6 while in check: in_check speaks of
    the chooser, who moves right after choosing (the capturer cannot be in check)."""
    game = game_after(["e2e4", "d7d5", "f1b5", "c7c6", "b5c6"])
    assert game.state.turn == WHITE and game.state.to_act == BLACK
    assert game.variant.in_check(game.state)
    game.play("spawn=z6")
    assert game.state.turn == BLACK and game.variant.in_check(game.state)


# ---------------------------------------------------------------------------- ghost moves


def legal_texts(variant: Ghost, position: str) -> set[str]:
    state = variant.from_position(position)
    return {variant.format_action(a) for a in variant.legal_actions(state)}


def test_ghost_capture_that_uncovers_a_check_is_illegal() -> None:
    """A ghost's board capture must not leave its own king in check from living pieces: the
    black knight on c1 shields White's king from the rook on a1."""
    legal = legal_texts(Ghost(), "4k3/8/8/8/8/8/8/r1n1K3 Rz1 w - - 0 1 - -")
    assert {"z1a1", "z1i1", "z1z2", "z1z8"} <= legal
    assert not {"z1c1", "z1a0", "z1b1"} & legal  # a rook does not turn the corner


def test_in_check_only_captures_that_parry_or_take_the_king() -> None:
    """In check, ring moves are illegal; the ghost may take the checker or the enemy king."""
    legal = legal_texts(Ghost(), "4k3/8/8/8/8/8/4r3/4K3 Qe0 w - - 0 1 - -")
    assert legal == {"e1d1", "e1f1", "e1e2", "e0e2", "e0e8"}
    legal = legal_texts(Ghost(), "4k3/8/8/8/n7/8/4r3/4K3 Qz4 w - - 0 1 - -")
    assert legal == {"e1d1", "e1f1", "e1e2"}  # z4xa4 does not parry the check
    variant = Ghost()
    state = variant.from_position("4k3/8/8/8/8/8/4r3/4K3 Qe0 w - - 0 1 - -")
    after = variant.apply(state, variant.parse_action("e0e8", state))
    assert variant.outcome(after).result == "1-0" and variant.legal_actions(after) == []


def test_ghost_capturing_a_rook_at_home_removes_castling_rights() -> None:
    variant = Ghost()
    state = variant.from_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    state = variant.from_position(variant.position(state).replace(" - w", " Qi8 w"))
    after = variant.apply(state, variant.parse_action("i8h8", state))
    assert variant.position(after).split()[3] == "KQq"


def test_ghost_pawn_promotion_on_its_column() -> None:
    variant = Ghost()
    state = variant.from_position("4k3/8/8/8/8/8/8/4K3 Pz7,pi2 w - - 0 1 - -")
    legal = {variant.format_action(a) for a in variant.legal_actions(state)}
    assert {"z7z8q", "z7z8r", "z7z8b", "z7z8n"} <= legal and "z7z8" not in legal
    after = variant.apply(state, variant.parse_action("z7z8n", state))
    assert variant.piece_letter(after.board[variant.layout.square("z8")]) == "N"
    legal = {variant.format_action(a) for a in variant.legal_actions(after)}
    assert {"i2i1q", "i2i1n"} <= legal


# ---------------------------------------------------------------------------- outcomes


def test_insufficient_material_only_without_ghosts() -> None:
    variant = Ghost()
    bare = variant.from_position("8/8/4k3/8/8/4K3/8/8 w - - 0 1")
    assert variant.outcome(bare).reason == "insufficient material"
    haunted = variant.from_position("8/8/4k3/8/8/4K3/8/8 nb9 w - - 0 1 - -")
    assert variant.outcome(haunted).result == "*"


def test_ghost_moves_count_for_repetition_and_fifty_moves() -> None:
    variant = Ghost()
    game = Game(variant, state=variant.from_position("4k3/8/8/8/8/8/8/R3K3 nb9,Ra0 w - - 0 1 - -"))
    for text in ["a0b0", "b9c9", "b0a0", "c9b9", "a0b0", "b9c9", "b0a0"]:
        game.play(text)
        assert game.outcome.result == "*"
    game.play("c9b9")
    assert game.outcome.reason == "threefold repetition"
    near = variant.from_position("4k3/8/8/8/8/8/8/R3K3 nb9,Ra0 w - - 99 80 - -")
    after = variant.apply(near, variant.parse_action("a0b0", near))
    assert after.halfmove == 100 and variant.outcome(after).reason == "fifty-move rule"
    take = variant.from_position("4k3/8/8/8/8/8/8/R3K3 nb0,Ra0 w - - 99 80 - -")
    after = variant.apply(take, variant.parse_action("a0b0", take))
    assert after.halfmove == 0 and variant.outcome(after).result == "*"


def test_checkmate_by_living_pieces() -> None:
    game = game_after(["f2f3", "e7e5", "g2g4", "d8h4"])
    assert game.outcome.reason == "checkmate" and game.outcome.result == "0-1"


# ---------------------------------------------------------------------------- positions


def test_position_text_round_trips_ghosts_pending_and_removed() -> None:
    game = game_after(["e2e4", "d7d5", "e4d5", "spawn=d9", "d8d5", "spawn=z5", "b1c3", "a7a6",
                       "c3d5"])
    variant = game.variant
    text = variant.position(game.state)
    assert text.split()[1:] == ["pd9,Pz5", "w", "KQkq", "-", "0", "4", "q@d5", "-"]
    again = variant.from_position(text)
    assert variant.position(again) == text
    assert variant.position_key(again) == variant.position_key(game.state)
    assert sorted(variant.legal_actions(again)) == sorted(variant.legal_actions(game.state))
    game.play("spawn=z5")
    assert variant.position(game.state).split()[-1] == "P"
    assert variant.position(game.state) == variant.position(variant.from_position(
        variant.position(game.state)))


def test_plain_fen_and_seven_fields_are_accepted() -> None:
    variant = Ghost()
    start = variant.position(variant.initial_state())
    assert start == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR - w KQkq - 0 1 - -"
    seven = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR Qa0 w KQkq - 0 1"
    assert variant.position(variant.from_position(seven)) == seven + " - -"


@pytest.mark.parametrize("text", [
    "8/8/8/8/8/8/8/8 w - -",
    "4k3/8/8/8/8/8/8/4K3 Qe4 w - - 0 1 - -",     # a ghost on a board square
    "4k3/8/8/8/8/8/8/4K3 Ka0 w - - 0 1 - -",     # kings never become ghosts
    "4k3/8/8/8/8/8/8/4K3 Xa0 w - - 0 1 - -",
    "4k3/8/8/8/8/8/8/4K3 - x - - 0 1 - -",
    "4k3/8/8/8/8/8/8/4K3 - w KQx - 0 1 - -",
    "4k3/8/8/8/8/8/8/4K3 - w - - 0 1 P@d5 -",    # pending piece of the side to move
    "4k3/8/8/8/8/8/8/4K3 - w - - 0 1 p@d0 -",    # captured on a ring cell
    "4k3/8/8/8/8/8/8/4K3 - w - - 0 1 p@d5 Y",
    "4k3/8/8/8/8/8/8/4K3 Qa9 w - - 0 1 - -",      # a9 does not exist on a two-sided ring
])
def test_bad_positions_are_refused(text: str) -> None:
    variant = Ghost({"ghost.edge_ring": "two_sided"})
    with pytest.raises(RecordError):
        variant.from_position(text)


def test_record_round_trip_keeps_options_and_choices() -> None:
    options = {"ghost.edge_ring": ["d9", "z5", "e0"], "ghost.far_row_promotes": False}
    game = game_after(["e2e4", "d7d5", "e4d5", "spawn=z5", "d8d5", "spawn=d9"], options)
    loaded = replay(GameRecord.from_json(record_of(game).to_json()))
    assert loaded.action_texts() == game.action_texts()
    assert loaded.variant.position(loaded.state) == game.variant.position(game.state)


# ---------------------------------------------------------------------------- events and output


def test_events_tell_what_happened() -> None:
    game = game_after(QUEEN_GHOST[:-1])
    placed = [e for e in game.play("f3h4").events if isinstance(e, Placed)]
    assert [e.text for e in placed] == ["Ghost black queen appears on i4"]
    events = game_after(["e2e4", "d7d5"]).play("e4d5").events
    prompt = [e for e in events if isinstance(e, Prompt)]
    assert prompt[0].colour == BLACK and prompt[0].options == ("spawn=d9", "spawn=z5")
    game = game_after(QUEEN_GHOST)
    texts = [e.text for e in game.play("i4h4").events]
    assert "Ghost black queen vanishes" in texts and "Ghost white knight appears on i4" in texts
    game = game_after(QUEEN_GHOST + ["b8c6", "f1e2", "g8f6", "e1f1"])
    events = game.play("i4f1").events
    assert any(isinstance(e, Announcement) and e.text == "Ghost takes the king" for e in events)
    assert events[-1].text == "a ghost captured the king - 0-1"
    game = game_after(["e2e4", "d7d5", "e4d5", "c7c6", "d5c6"], {"ghost.edge_ring": ["d9"]})
    removed = [e for e in game.played[-1].events if isinstance(e, Removed)]
    assert removed[0].reason == "no ghost cell"


def test_illegal_ghost_moves_say_why() -> None:
    game = game_after(QUEEN_GHOST)
    with pytest.raises(IllegalActionError, match="only to capture"):
        game.play("i4g4")
    with pytest.raises(IllegalActionError, match="no ghost"):
        game.play("i1i2")
    game = game_after(QUEEN_GHOST + ["b8c6", "f1e2", "g8f6", "e1f1", "a7a6", "h4f5", "a6a5",
                                     "f5d6"])
    with pytest.raises(IllegalActionError, match="out of check"):
        game.play("i4i5")


def test_render_draws_the_ring_with_its_ghosts() -> None:
    game = game_after(["e2e4", "d7d5", "e4d5"])
    text = game.variant.render(game.state)
    lines = text.splitlines()
    assert lines[0].split() == ["z", "a", "b", "c", "d", "e", "f", "g", "h", "i"]
    assert lines[1].split() == ["9"] + [":"] * 8 + ["9"]
    assert "Waiting: black places the ghost of its pawn captured on d5" in text
    game.play("spawn=z5")
    assert game.variant.render(game.state).splitlines()[5].split()[:2] == ["5", "p"]
    two = Game("ghost", {"ghost.edge_ring": "two_sided"})
    rows = two.variant.render(two.state).splitlines()
    assert rows[1].split() == ["9", "9"] and rows[2].split()[1] == ":"  # no top row, left column


def test_play_command_shows_ghosts_and_choices() -> None:
    out = io.StringIO()
    TerminalGame(Game("ghost"), out).run(io.StringIO("e2e4\nd7d5\ne4d5\nspawn=z5\nquit\n"))
    text = out.getvalue()
    assert "Black chooses: spawn=d9 spawn=z5" in text
    assert "Ghost black pawn appears on z5" in text


def test_view_lists_ring_ghosts_and_pending_spawn() -> None:
    game = game_after(["e2e4", "d7d5", "e4d5", "spawn=d9", "d8d5"])
    data = game.variant.view(game.state, None)
    assert data["ghosts"] == {"d9": "p"} and len(data["ring"]) == 32
    assert data["pending_spawn"] == {"piece": "P", "captured_on": "d5"}


# ---------------------------------------------------------------------------- playouts


PLAYOUT_CHUNKS = 8  # the games split into chunks that the xdist workers share


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(PLAYOUT_CHUNKS))
def test_random_playouts(chunk: int) -> None:
    """Random games never raise or stall; every state and each game survive round trips."""
    games = playout_games(1000)
    seeds = range(chunk, games, PLAYOUT_CHUNKS)
    variant = Ghost()
    started = time.process_time()
    finished = 0
    for seed in seeds:
        game = random_game(variant, seed, on_state=assert_position_round_trip)
        assert_record_round_trip(game)
        finished += game.outcome.result != "*"
    assert finished >= len(seeds) // 2  # ghosts take kings: most random games end
    print(f"{len(seeds)} ghost playouts in {time.process_time() - started:.1f} s CPU")
