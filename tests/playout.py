"""Random playouts shared by the variant tests: play random legal actions and check each state.

A playout never raises, never stalls (an unfinished game always has a legal action), and every
state survives a position round trip; the finished game survives a record round trip.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

from referee.rules.game import Game
from referee.rules.records import GameRecord, record_of, replay
from referee.rules.variant import Variant
from referee.rules.variants import make_variant


def random_game(variant: Variant[Any] | str, seed: int, max_plies: int = 300,
                on_state: Callable[[Game], None] | None = None) -> Game:
    """Play uniformly random legal actions until the game ends or ``max_plies`` actions."""
    rng = random.Random(seed)
    game = Game(make_variant(variant) if isinstance(variant, str) else variant, seed=seed)
    if on_state:
        on_state(game)
    while game.outcome.result == "*" and len(game.played) < max_plies:
        legal = game.legal()
        assert legal, f"stall: no legal action at ply {len(game.played)} (seed {seed})"
        game.play(rng.choice(legal))
        if on_state:
            on_state(game)
    return game


def assert_position_round_trip(game: Game) -> None:
    """The current state written as a position and read back is the same position."""
    variant, state = game.variant, game.state
    text = variant.position(state)
    again = variant.from_position(text)
    assert variant.position(again) == text
    assert variant.position_key(again) == variant.position_key(state), text
    if state.halfmove == 0 or state.parent is None:  # repetition history is not in a position
        assert sorted(variant.legal_actions(again)) == sorted(variant.legal_actions(state)), text


def assert_record_round_trip(game: Game) -> None:
    """Saving the game and loading it again gives the same state, action for action."""
    record = record_of(game)
    loaded = replay(GameRecord.from_json(record.to_json()))
    assert loaded.action_texts() == game.action_texts()
    assert loaded.variant.position(loaded.state) == game.variant.position(game.state)
    assert loaded.outcome == game.outcome


def play_many(variant: Variant[Any], games: int | range, check_state: Callable[[Game], None],
              max_plies: int = 300) -> dict[str, int]:
    """Play ``games`` seeded random games (or the games of a range of seeds) with
    ``check_state`` after every action and a record round trip at the end; returns how many
    games ended for each reason."""
    endings: dict[str, int] = {}
    for seed in range(games) if isinstance(games, int) else games:
        game = random_game(variant, seed, max_plies=max_plies, on_state=check_state)
        assert_record_round_trip(game)
        endings[game.outcome.reason] = endings.get(game.outcome.reason, 0) + 1
    return endings


def playout_games(full: int, variable: str = "GRAVEKEEPER_PLAYOUTS") -> int:
    """How many random games a playout test plays: ``$variable`` when set; ``full`` with
    ``GRAVEKEEPER_LONG=1`` (the nightly run); a sixteenth of ``full`` otherwise (62 games of each
    variant, 125 of standard chess), so that the whole suite stays within its few minutes on
    two cores while the camera's tests grow (an eighth until the suite took six and a half)."""
    given = os.environ.get(variable)
    if given:
        return int(given)
    return full if os.environ.get("GRAVEKEEPER_LONG") else max(1, full // 16)
