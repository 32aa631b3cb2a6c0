"""Die Chess random playouts: never raise, never stall, round trips, the generator stays private.

``GRAVEKEEPER_PLAYOUTS`` sets the number of games with default options (250 by default, 1,000
with ``GRAVEKEEPER_LONG=1``); each other option set plays a tenth of that.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.rules.events import visible_to
from referee.rules.game import Game
from referee.rules.variants import make_variant
from tests.playout import assert_position_round_trip, play_many, playout_games, random_game

GAMES = playout_games(1000)


def check_state(game: Game) -> None:
    """Position round trip, and nothing any audience gets shows the generator state."""
    assert_position_round_trip(game)
    variant, state = game.variant, game.state
    secrets = (f"{state.rng:016x}", str(state.rng))
    last = game.played[-1] if game.played else None
    for viewer in (1, 2, None):
        shown = [variant.view(state, viewer)]
        if last is not None:
            shown.append([vars(e) for e in last.events if visible_to(e, viewer)])
        text = json.dumps(shown)
        assert not any(s in text for s in secrets)
    assert not any(s in variant.position(state, private=False) for s in secrets)


def play(options: dict[str, Any], games: int | range) -> dict[str, int]:
    return play_many(make_variant("die", options), games, check_state)


CHUNKS = 8  # the default games split into chunks that the xdist workers share


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_playouts_with_default_options(chunk: int) -> None:
    seeds = range(chunk, GAMES, CHUNKS)
    endings = play({}, seeds)
    assert sum(endings.values()) == len(seeds)
    if len(seeds) >= 100:  # the games really end in each way the rules give
        assert {"the white king die was captured", "the black king die was captured",
                "100 turns without a capture", "threefold repetition"} <= set(endings)


@pytest.mark.slow
@pytest.mark.parametrize("options", [
    {"die.roll_source": "rng"},
    {"die.allow_move_then_roll": True, "die.max_rolls_per_turn": 2},
    {"die.promotion_optional": False, "die.promote_on_rolled_pawn_last_rank": True,
     "die.promotion_allows_king": False},
    {"die.respawn_conflict": "next_square", "die.no_capture_draw_plies": None,
     "die.repetition_draw": False, "die.face_map": "KQRBNP"},
], ids=["rng", "move-then-roll", "promotion", "misc"])
def test_playouts_with_other_options(options: dict[str, Any]) -> None:
    endings = play(options, max(1, GAMES // 10))
    assert sum(endings.values()) == max(1, GAMES // 10)


def test_same_seed_same_game() -> None:
    for options in ({}, {"die.roll_source": "rng"}):
        variant = make_variant("die", options)
        first = random_game(variant, 77).action_texts()
        assert random_game(variant, 77).action_texts() == first
