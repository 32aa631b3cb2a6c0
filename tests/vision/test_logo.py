"""Printed logos near edge squares (issue 14: read as pieces by a single-photo classifier).

In the live tracker a mark printed on the board is part of the start picture, so only a change
counts: the shared video with a logo printed on h5 (an edge square the queen lands on and
leaves, hiding the logo while she stands there), on a4 and on h3 must give the same 7 moves,
through ``gravekeeper watch camera://`` as a real process, and at a slower camera's rate."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import pytest

from referee.app.vision_track import Tracker
from tests.vision import variations as V
from tests.vision.conftest import VIDEO
from vision.geometry import parse_corners

SQUARES = ("h5", "a4", "h3")
EMPTY_FRAME = 30  # the start position, settled: h5, a4 and h3 empty
CORNERS = "137,374,140,5,506,10,507,377"
EXE = str(Path(sys.executable).with_name("gravekeeper"))
# one worker would make the printed video once for both tests (--dist loadgroup; not at
# present: tests/test_suite_groups.py)
pytestmark = pytest.mark.xdist_group("logo")


@pytest.fixture(scope="module")
def printed() -> list[Any]:
    if not VIDEO.is_file():
        pytest.skip("shared vision data not present")
    frames = V.video_frames(VIDEO)
    empty = frames[EMPTY_FRAME]
    out = []
    for frame in frames:
        for square in SQUARES:
            frame = V.logo(frame, empty, square)
        out.append(frame)
    return out


def test_logo_squares_through_watch(tmp_path: Path, printed: list[Any]) -> None:
    video = tmp_path / "logo.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 20.0,
                             (printed[0].shape[1], printed[0].shape[0]))
    for frame in printed:
        writer.write(frame)
    writer.release()
    proc = subprocess.run([EXE, "watch", f"camera://{video}?corners={CORNERS}&fast=1"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    moves = [line for line in proc.stdout.splitlines() if not line.startswith("#")]
    assert moves == V.SCHOLAR_MOVES


def test_logo_squares_slow_camera(printed: list[Any]) -> None:
    """Every 3rd frame (6.7 frames a second) with the logos: the same moves."""
    tracker = Tracker(parse_corners(V.SCHOLAR_CORNERS))
    for k, frame in enumerate(printed[::3]):
        tracker.step(frame, k * 3 / 20.0)
    assert [p.text for p in tracker.game.played] == V.SCHOLAR_MOVES
