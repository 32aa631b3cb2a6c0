"""The phone camera test's pictures, replayed without a browser: a known tracker limit.

Why: the real-Chromium test (tests/serve/test_camera_page.py) sometimes settles the white queen
on g4 on her way from d1 to h5, more often when the machine is starved of CPU. Recorded and
replayed (docs/vision.md, Limits), the cause is not the frames' timing: the same pictures the
fake camera plays (the shared video from its frame 2, every 2nd frame, 480x360, through I420,
JPEG quality 0.8, the start held 3 s), timed exactly 0.1 s apart, settle on g4 too. In the
video the queen stops for about 0.2 s over g4 in the player's fingers (motion 2.3 then 1.2
between frames), and the motion threshold has grown to three times the camera's noise floor
(about 4.7: the 10th percentile of the differences, learnt from a start where the only calm
frames are exact repeats, which do not count) above the 2.3 it would be. Whether that pause
is judged still depends on the JPEG noise: qualities 0.6, 0.9 and 1.0 give the 7 moves, 0.5,
0.7 and 0.8 do not; under load the page lowers the quality and the size, and it fails more.
Kept as a strict expected failure until the tracker tells a hand's pause from a put-down piece.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from referee.app.vision_track import Tracker
from tests.vision import variations as V
from tests.vision.conftest import VIDEO
from vision.geometry import parse_corners

SCALE = 0.75


@pytest.fixture(scope="module")
def phone_frames() -> list[Any]:
    if not VIDEO.is_file():
        pytest.skip("shared vision data not present")
    frames = V.video_frames(VIDEO)[2::2]
    frames = [frames[0]] * 30 + frames + [frames[-1]] * 60
    height, width = (round(d * SCALE) // 2 * 2 for d in frames[0].shape[:2])
    out = []
    for frame in frames:
        small = cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)
        i420 = cv2.cvtColor(small, cv2.COLOR_BGR2YUV_I420)
        bgr = cv2.cvtColor(i420, cv2.COLOR_YUV2BGR_I420)
        jpeg = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, 80])[1]
        out.append(cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
    return out


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="the queen's pause over g4 is judged settled (docs/vision.md, Limits)")
def test_phone_pictures_at_10_frames_a_second(phone_frames: list[Any]) -> None:
    corners = np.float32(parse_corners(V.SCHOLAR_CORNERS)) * SCALE
    tracker = Tracker(corners)
    for k, frame in enumerate(phone_frames):
        tracker.step(frame, k * 0.1)
    assert [p.text for p in tracker.game.played] == V.SCHOLAR_MOVES
