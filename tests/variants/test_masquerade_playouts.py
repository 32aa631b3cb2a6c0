"""Masquerade Chess random playouts: never raise, never stall, round trips, and the leak walk
of :mod:`tests.variants.test_masquerade_leaks` after every action of every game.

``GRAVEKEEPER_PLAYOUTS`` sets the number of games with default options (250 by default, 1,000
with ``GRAVEKEEPER_LONG=1``); each other option set plays a tenth of that.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules.game import Game
from referee.rules.variants import make_variant
from tests.playout import assert_position_round_trip, play_many, playout_games, random_game
from tests.variants.test_masquerade_leaks import check_leaks

GAMES = playout_games(1000)


def check_state(game: Game) -> None:
    assert_position_round_trip(game)
    check_leaks(game)


def play(options: dict[str, Any], games: int | range) -> dict[str, int]:
    return play_many(make_variant("masquerade", options), games, check_state)


CHUNKS = 8  # the default games split into chunks that the xdist workers share


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_playouts_with_default_options(chunk: int) -> None:
    seeds = range(chunk, GAMES, CHUNKS)
    endings = play({}, seeds)
    assert sum(endings.values()) == len(seeds)
    if len(seeds) >= 100:  # the games really end in each way the rules give
        assert {"the white king was captured", "the black king was captured"} <= set(endings)


@pytest.mark.slow
@pytest.mark.parametrize("options", [
    {"masq.assignment": "random"},
    {"masq.attempt_filter": "any", "masq.promoted_capture": "true_normal"},
    {"masq.castle_ignores_attacks": False, "masq.no_move": "draw",
     "masq.repetition_draw": True, "masq.fifty_move": False},
], ids=["random", "any-true-normal", "castling-draws"])
def test_playouts_with_other_options(options: dict[str, Any]) -> None:
    endings = play(options, max(1, GAMES // 10))
    assert sum(endings.values()) == max(1, GAMES // 10)


def test_same_seed_same_game() -> None:
    variant = make_variant("masquerade", {"masq.assignment": "random"})
    first = random_game(variant, 5)
    again = random_game(variant, 5)
    assert again.action_texts() == first.action_texts()
    assert variant.position(again.state) == variant.position(first.state)
