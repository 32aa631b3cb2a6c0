"""The tracker settles in seconds, not frames: the shared scholar's-mate video (20 frames/s)
fed at 5, 6.7, 10, 20 and 30 frames a second gives the same 7 moves, and a first frame held
while the camera adjusts its exposure does not spoil the start picture.

Before: settling counted frames (3 still frames, a check every 4), so the same video at 6.7 or
5 frames/s gave 0 moves, and holding its first frame for 15 frames or more gave 0 moves."""

from __future__ import annotations

from typing import Any

import pytest

from referee.app.vision_track import Tracker
from tests.vision import variations as V
from tests.vision.conftest import VIDEO
from vision.geometry import parse_corners

FPS = 20.0  # the shared video's own rate


@pytest.fixture(scope="module")
def frames() -> list[Any]:
    if not VIDEO.is_file():
        pytest.skip("shared vision data not present")
    return V.video_frames(VIDEO)


def _played(frames: list[Any], order: list[int], fps: float) -> tuple[list[str], Tracker]:
    """Feed ``frames[order[k]]`` at time k / fps."""
    tracker = Tracker(parse_corners(V.SCHOLAR_CORNERS))
    for k, i in enumerate(order):
        tracker.step(frames[i], k / fps)
    return [p.text for p in tracker.game.played], tracker


@pytest.mark.parametrize("every", [2, 3, 4])
def test_slower_camera_same_moves(frames: list[Any], every: int) -> None:
    """Every 2nd, 3rd, 4th frame: 10, 6.7 and 5 frames a second of the same scene."""
    moves, tracker = _played(frames, list(range(0, len(frames), every)), FPS / every)
    assert moves == V.SCHOLAR_MOVES
    assert tracker.frames == len(range(0, len(frames), every))


def test_faster_camera_same_moves(frames: list[Any]) -> None:
    """30 frames a second: each frame shown 1.5 times on average (repeated frames)."""
    order = [int(k * FPS / 30.0) for k in range(int(len(frames) * 30.0 / FPS))]
    moves, _ = _played(frames, order, 30.0)
    assert moves == V.SCHOLAR_MOVES


def test_run_uses_the_frame_rate(frames: list[Any]) -> None:
    """:meth:`Tracker.run` times frames by the rate it is given (vision-track: the video's)."""
    tracker = Tracker(parse_corners(V.SCHOLAR_CORNERS))
    list(tracker.run(frames[::3], FPS / 3))
    assert [p.text for p in tracker.game.played] == V.SCHOLAR_MOVES


@pytest.mark.parametrize("hold", [15, 40])
def test_held_first_frame(frames: list[Any], hold: int) -> None:
    """The first frame (the camera still adjusting its exposure) held for 0.75 s or 2 s
    before the video plays: the start picture is taken anew from a settled start."""
    moves, tracker = _played(frames, [0] * hold + list(range(len(frames))), FPS)
    assert moves == V.SCHOLAR_MOVES
    assert tracker.corrections == 0
