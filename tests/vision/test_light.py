"""The light of two pictures of the board made alike before they are compared
(``_balanced``, ``_match_light``): fitted on the same pixels of both, so the pieces that moved
do not move the mapping, and a photo that clipped its light squares changes none of them."""

from __future__ import annotations

import numpy as np
import pytest

from referee.app.vision_track import Tracker
from tests.vision import variations as V
from vision.change import change_map, threshold

SQUARES = "abcdefgh"


def _named(change: np.ndarray, tau: float) -> set[str]:
    return {SQUARES[i % 8] + str(i // 8 + 1) for i in np.flatnonzero(change[:64] > tau)}


def test_a_move_of_dark_pixels_leaves_the_unmoved_pieces_unchanged() -> None:
    """A black king's capture c8xc7 seen from White's side at 45 degrees (an engine game,
    bench/vision_games.py game 35): more dark pixels than the photo before, so matching the
    two histograms moved their dark end, and the black rook and pawn on h3 and h2, which had
    not moved, changed by 44 (b8 by 8.6): the next move was refused as a hand there (121 of
    130 moves). Fitted on the pixels paired, only c7 and c8 changed."""
    fen = "2k5/1PP5/K7/8/8/7r/7p/7R b - - 0 61"
    camera = V.orbit_camera(0.0, 45.0)
    photos = V.rendered_game(["c8c7"], camera, 35, fen=fen)
    tracker = Tracker(V.camera_corners(camera), stills=True, game=V.game_from(fen))
    change = change_map(tracker.warp(photos[0]), tracker.warp(photos[1]))
    assert _named(change, threshold(change)) == {"c7", "c8"}


@pytest.mark.parametrize("gain", [0.7, 1.3, 1.5])
def test_a_photo_at_another_exposure_changes_no_square(gain: float) -> None:
    """The same position photographed at another exposure: brighter, a twelfth of the
    pixels clip at 255. Through one gain the clipped light squares came out darker than in
    the reference (changed by 14.5), and matching histograms left 12.9 and 18.3; a clipped
    level says only that the pixel is at least so light, and where the reference is lighter
    still the two agree (``_uncensored``)."""
    fen = "2k5/2P5/KP6/8/8/7r/7p/7R w - - 4 61"
    camera = V.orbit_camera(0.0, 45.0)
    photo = V.rendered_game([], camera, 35, fen=fen)[0]
    other = np.clip(photo.astype(np.float64) * gain, 0, 255).astype(np.uint8)
    tracker = Tracker(V.camera_corners(camera), stills=True, game=V.game_from(fen))
    change = change_map(tracker.warp(photo), tracker.warp(other))
    assert not _named(change, threshold(change))
