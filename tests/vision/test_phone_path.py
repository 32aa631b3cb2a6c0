"""The phone camera test's pictures, replayed without a browser (docs/vision.md, Limits).

Why: the real-Chromium test (tests/serve/test_camera_page.py) sometimes settled the white queen
on g4 on her way from d1 to h5, more often when the machine was starved of CPU. Recorded and
replayed, the cause was not the frames' timing: the same pictures the fake camera plays (the
shared video from its frame 2, every 2nd frame, 480x360, through I420, JPEG quality 0.8, the
start held 3 s), timed exactly 0.1 s apart, settled on g4 too. In the video the queen stops for
about 0.2 s over g4 in the player's fingers, and the motion threshold had grown to three times
a noise floor learnt from hands moving slowly (the held start's exact repeats do not count).
The floor is now learnt from the median square's difference, which a hand does not raise.
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


def test_phone_pictures_at_10_frames_a_second(phone_frames: list[Any]) -> None:
    corners = np.float32(parse_corners(V.SCHOLAR_CORNERS)) * SCALE
    tracker = Tracker(corners)
    for k, frame in enumerate(phone_frames):
        tracker.step(frame, k * 0.1)
    assert [p.text for p in tracker.game.played] == V.SCHOLAR_MOVES
