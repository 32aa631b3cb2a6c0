"""A piece pushed within its square is not a move (referee/app/vision_track.py, ``pushed``).

Why: a square that changed and that no legal move explains vetoes every candidate. Players
knock the pieces next to the one they put down, and put pieces down off-centre; the square
then looks changed. In photo games (one frame per position, pieced from the real video's
squares) where every move knocked a neighbour aside by up to 15 % of a square, the tracker
lost the game after 1 to 20 moves in each of 5 games; now it follows them. A piece that came
from the next square, or a square a piece left, is never taken for a push."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from referee.app.vision_track import Tracker
from tests.vision import variations as V
from tests.vision.conftest import VIDEO
from vision.change import change_map, pushed, threshold
from vision.geometry import parse_corners


@pytest.fixture(scope="module")
def start() -> Any:
    if not VIDEO.is_file():
        pytest.skip("shared vision data not present")
    frames = V.video_frames(VIDEO)
    return V.warp_jittered(frames[2], np.random.default_rng(0), 0.0)


def _index(square: str) -> int:
    return (int(square[1]) - 1) * 8 + "abcdefgh".index(square[0])


def test_a_pushed_piece_is_found_and_an_arrival_is_not(start: Any) -> None:
    """The start position with the knight on g1 pushed 8 px (of 60) right and 6 px down: g1 is
    pushed; after 1. Nf3 the knight's arrival on f3 is not (nor g1, which it left)."""
    from referee.rules.game import Game

    knocked = V.push_square(start, 7, 6, 8.0, 6.0)
    change = change_map(start, knocked)
    tau = threshold(change)
    assert change[_index("g1")] > tau  # changed: without this, it would veto a move
    occupied = np.zeros(64, dtype=bool)
    occupied[_index("g1")] = True
    assert pushed(start, knocked, change, tau, occupied)[_index("g1")]

    game = Game("standard")
    game.play("g1f3")
    after = V.compose(game.variant.fen(game.state).split()[0], start)
    change = change_map(start, after)
    occupied = np.ones(64, dtype=bool)
    found = pushed(start, after, change, threshold(change), occupied)
    assert not found[_index("f3")] and not found[_index("g1")]


@pytest.mark.parametrize("seed", [1, 2])
def test_photo_game_with_pieces_knocked(start: Any, seed: int) -> None:
    """30 plies, one photo per position, every move knocking a neighbour of the square it
    lands on by up to 15 % of a square each way: the game is followed exactly (before: lost
    after 14 and 20 moves)."""
    moves = V.random_game(30, seed)
    tracker = Tracker(parse_corners(V.FULL), stills=True)
    for image in V.pushed_game(moves, start, seed, push=1.0, shift=0.15):
        tracker.step(image)
    assert [p.text for p in tracker.game.played] == moves
