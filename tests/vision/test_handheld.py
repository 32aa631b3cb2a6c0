"""A camera held in the hand: the shared scholar's-mate video seen through a smooth random walk
of the camera (up to about half a square of translation, 3 degrees of rotation, 3 % of scale,
a little perspective) plus per-frame jitter (:func:`tests.vision.variations.handheld`).

With the stabiliser (``Tracker(stabilise=True)``, :mod:`vision.stabilise`) the corners follow
the board in every frame and the 7 moves come out exactly; with the corners fixed (the tracker
as it was, re-finding the board only after a bump) the same frames give no move at all, so the
walk is large enough for the test to prove something."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from firmware_bridge.errors import BadSensorUrl
from referee.app.camera import CameraSensor
from referee.app.phone import phone_options
from referee.app.vision_track import Tracker, place_by_position
from referee.rules.game import Game
from tests.long import nightly, nightly_only
from tests.vision import variations as V
from tests.vision.conftest import VIDEO
from vision.geometry import parse_corners
from vision.locate import locate_board
from vision.stabilise import Stabiliser

FPS = 20.0  # the shared video's own rate

#: More hand-held walks with ``GRAVEKEEPER_LONG=1`` (the nightly run): each costs a whole video.
LONG_SEEDS = nightly(2, 4, 5, 6)


@pytest.fixture(scope="module")
def frames() -> list[Any]:
    if not VIDEO.is_file():
        pytest.skip("shared vision data not present")
    return V.video_frames(VIDEO)


def _follow(frames: list[Any], truth: list[Any], stabilise: bool) -> tuple[list[str], Tracker,
                                                                           float]:
    """The moves, the tracker and the worst corner error (px) over the frames."""
    tracker = Tracker(truth[0], stabilise=stabilise)
    worst = 0.0
    for k, frame in enumerate(frames):
        tracker.step(frame, k / FPS)
        worst = max(worst, float(np.abs(tracker.corners - truth[k]).max()))
    return [p.text for p in tracker.game.played], tracker, worst


@pytest.mark.parametrize("seed", nightly(1, *LONG_SEEDS))
def test_handheld_camera_is_followed(frames: list[Any], seed: int) -> None:
    """The hand-held walks alone (by default seed 1's is followed bumped as well, in
    test_bumped_while_handheld_is_found_again: the same frames up to the bump)."""
    shaken, truth = V.handheld(frames, seed)
    excursion = max(float(np.abs(t - truth[0]).max()) for t in truth)
    assert excursion > 30.0  # the board wanders by most of a square (46 px) in the picture
    moves, tracker, worst = _follow(shaken, truth, stabilise=True)
    assert moves == V.SCHOLAR_MOVES
    assert tracker.game.outcome.result == "1-0"
    assert worst < 6.0  # corners within an eighth of a square in every frame
    assert tracker.stabiliser is not None and tracker.stabiliser.fits > 0.9 * len(frames)


@pytest.mark.parametrize("seed", [3, *LONG_SEEDS])
def test_handheld_phone_like(frames: list[Any], seed: int) -> None:
    """As a phone page sends it: every 2nd frame (10 frames/s) recompressed as JPEG quality 75.
    Before the tracker stopped healing a lifted piece's square (``NUDGE``), JPEG at 75 lost
    the queen's move on seeds 1-3; at 10 frames/s the queen may first settle on g4 on her
    way to h5, and is then taken back (seed 3)."""
    shaken, truth = V.handheld(frames, seed)
    tracker = Tracker(truth[0], stabilise=True)
    for k in range(0, len(shaken), 2):
        ok, jpg = cv2.imencode(".jpg", shaken[k], [cv2.IMWRITE_JPEG_QUALITY, 75])
        assert ok
        tracker.step(cv2.imdecode(jpg, cv2.IMREAD_COLOR), k / FPS)
    assert [p.text for p in tracker.game.played] == V.SCHOLAR_MOVES


@nightly_only
def test_without_stabilisation_the_moves_are_lost(frames: list[Any]) -> None:
    """Without stabilisation the game is lost. The first moves may still be read by the
    classifier alone when no start picture can be compared with (``_first_moves``: 4 of 7,
    before it none); they are the game's, never others."""
    shaken, truth = V.handheld(frames, 1)
    moves, _, worst = _follow(shaken, truth, stabilise=False)
    assert worst > 30.0
    assert moves != V.SCHOLAR_MOVES and moves == V.SCHOLAR_MOVES[:len(moves)]


def test_bumped_while_handheld_is_found_again(frames: list[Any]) -> None:
    """The hand-held camera also bumped (3 degrees, 35 x 20 px in one frame, frame 160 on):
    the stabiliser refuses the jump (more than 0.4 square) once, and the corners are carried
    at once by how the whole picture moved since the last frame it took (before: lost after
    LOST refused frames, 7 frames more than 6 px off, then found again). Up to the bump these
    are test_handheld_camera_is_followed's frames (seed 1), checked the same way here."""
    shaken, truth = V.handheld(frames, 1)
    assert max(float(np.abs(t - truth[0]).max()) for t in truth) > 30.0  # most of a square
    m = V.bump_matrix(3.0, (35.0, -20.0))
    for k in range(160, len(shaken)):
        shaken[k] = V.bump(shaken[k], 3.0, (35.0, -20.0))
        truth[k] = cv2.perspectiveTransform(truth[k].reshape(-1, 1, 2).astype(np.float64),
                                            m).reshape(4, 2)
    tracker = Tracker(truth[0], stabilise=True)
    worst = 0.0
    for k, frame in enumerate(shaken):
        tracker.step(frame, k / FPS)
        worst = max(worst, float(np.abs(tracker.corners - truth[k]).max()))
    assert [p.text for p in tracker.game.played] == V.SCHOLAR_MOVES
    assert tracker.game.outcome.result == "1-0"
    assert tracker.stabiliser is not None and tracker.stabiliser.refused >= 1
    assert tracker.stabiliser.fits > 0.9 * len(frames)
    assert worst < 6.0  # no frame left off the board
    assert float(np.abs(tracker.corners - truth[-1]).max()) < 3.0


def test_fixed_camera_stabilised_is_unchanged(frames: list[Any]) -> None:
    """On the real (tripod) video the stabiliser keeps the corners within a tenth of a square
    (46 px; within 1 px but while the camera's exposure settles in the first frames and under a
    sudden change of light near the end), hands over the board and pieces moving
    notwithstanding, and the moves are the same."""
    corners = parse_corners(V.SCHOLAR_CORNERS)
    moves, tracker, worst = _follow(frames, [corners] * len(frames), stabilise=True)
    assert moves == V.SCHOLAR_MOVES
    assert worst < 4.6


def test_refuses_a_covered_board() -> None:
    """A fit is refused (the corners kept) when most of the board is covered, and after
    LOST refusals in a row the stabiliser says it is lost; new corners start it again."""
    rng = np.random.default_rng(0)
    board = np.kron((np.indices((8, 8)).sum(axis=0) % 2) * 150 + 50, np.ones((40, 40)))
    image = np.full((480, 480), 120, np.uint8)
    image[80:400, 80:400] = board.astype(np.uint8)
    corners = np.float32([[80, 80], [400, 80], [400, 400], [80, 400]])
    stab = Stabiliser(corners)
    stab.track(image)
    covered = image.copy()
    covered[60:420, 60:360] = rng.integers(0, 255, (360, 300))  # an arm over most of it
    for _ in range(8):
        assert np.array_equal(stab.track(covered), corners)
    assert stab.lost and stab.refused == 8
    stab.reset(corners + 1.0)
    assert not stab.lost
    moved = np.roll(image, (2, 3), axis=(0, 1))  # the camera moved by 3, 2 px
    got = stab.track(moved)
    assert np.abs(got - (corners + np.float32([3, 2]))).max() < 0.5


def test_stabilise_options() -> None:
    """``camera://...?stabilise=1`` (default off), ``phone://`` on unless ``stabilise=0``,
    read with the one URL grammar: a bad value is the same one-line error as any option."""
    assert not CameraSensor("camera:///a/b.avi", Game("standard")).stabilise
    assert CameraSensor("camera:///a/b.avi?stabilise=1", Game("standard")).stabilise
    assert phone_options("phone://") == (None, True)
    assert phone_options("phone://?stabilise=0&corners=0,0,9,0,9,9,0,9") == (
        "0,0,9,0,9,9,0,9", False)
    with pytest.raises(BadSensorUrl, match="stabilise=maybe"):
        CameraSensor("camera://0?stabilise=maybe", Game("standard"))
    with pytest.raises(BadSensorUrl, match="stabilise"):
        phone_options("phone://?stabilise=2")


def test_watch_and_vision_track_stabilise(frames: list[Any], tmp_path: Path) -> None:
    """The hand-held video written to a file (lossless FFV1): ``watch
    camera://...?stabilise=1&fast=1`` and ``vision-track --stabilise`` give the 7 moves (the
    same code)."""
    shaken, truth = V.handheld(frames, 1)
    video = tmp_path / "handheld.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"FFV1"), FPS / 4,
                             (shaken[0].shape[1], shaken[0].shape[0]))
    for f in shaken[::4]:  # every 4th frame, 5 frames/s: a quarter of the time of a slow test
        writer.write(f)
    writer.release()
    corners = truth[0]
    flat = ",".join(f"{v:.2f}" for v in corners.reshape(-1))
    exe = str(Path(sys.executable).with_name("gravekeeper"))

    def run(*argv: str) -> list[str]:
        proc = subprocess.run([exe, *argv], capture_output=True, text=True, timeout=180,
                              check=False)
        assert proc.returncode == 0, proc.stderr
        return [line for line in proc.stdout.splitlines() if not line.startswith("#")]

    assert run("watch", f"camera://{video}?corners={flat}&fast=1&stabilise=1") == \
        V.SCHOLAR_MOVES
    as_json = json.dumps(corners.round(2).tolist())
    assert run("vision-track", str(video), "--corners", as_json, "--stabilise") == \
        V.SCHOLAR_MOVES
    # Without --stabilise (measured, seed 2, every frame: e2e4 b8c6 d1h5 a8b8 f1c4 b8a8) is
    # left to test_without_stabilisation_the_moves_are_lost (in-process, cheaper).


def test_phone_page_corners_follow_the_hand(frames: list[Any]) -> None:
    """``phone://`` (stabilised by default): the corners the camera page draws follow the
    board as the phone moves in the hand, not where it was found (every 4th frame of the
    first 3 s, 5 frames a second, through the sensor's own thread)."""
    from referee.app.phone import PhoneSensor

    shaken, truth = V.handheld(frames, 1)
    h, w = shaken[0].shape[:2]
    given = ",".join(f"{v:.2f}" for v in truth[0].reshape(-1))
    worst = 0.0
    moved = 0.0
    with PhoneSensor(f"phone://?corners={given}", Game("standard")).open() as sensor:
        sensor.page_connected(w, h)
        for k in range(0, 60, 4):
            assert sensor.offer(shaken[k], k / FPS, sensor.now())
            deadline = time.monotonic() + 20
            while sensor.state().frames < k // 4 + 1:
                assert time.monotonic() < deadline, "the frame was not judged"
                time.sleep(0.01)
            drawn = np.float32(sensor.state().corners) * np.float32([w, h])
            worst = max(worst, float(np.abs(drawn - truth[k]).max()))
            moved = max(moved, float(np.abs(truth[k] - truth[0]).max()))
    assert moved > 8.0  # the phone did move (px)
    assert worst < 5.0  # the page's corners stayed on the board (a square is 46 px)


def test_corners_placed_on_the_page_are_not_overwritten(frames: list[Any]) -> None:
    """Corners the player places while a frame is being judged win over the tracker's (the
    frame's tracker still has the old ones): the overlay following the tracker must not put
    the old corners back."""
    from referee.app.phone import PhoneSensor

    h, w = frames[0].shape[:2]
    given = ",".join(f"{v:g}" for v in parse_corners(V.SCHOLAR_CORNERS).reshape(-1))
    with PhoneSensor(f"phone://?corners={given}", Game("standard")).open() as sensor:
        sensor.page_connected(w, h)
        assert sensor.offer(frames[0], 0.0, sensor.now())
        deadline = time.monotonic() + 20
        while sensor.tracker is None or sensor.state().frames < 1:
            assert time.monotonic() < deadline, "the frame was not judged"
            time.sleep(0.01)
        placed = [[0.3, 0.1], [0.8, 0.1], [0.8, 0.9], [0.3, 0.9]]
        sensor.set_corners(placed)  # the tracker still follows the old corners
        sensor._follow_corners((w, h))  # the end of a frame judged meanwhile
        assert sensor.offer(frames[1], 0.05, sensor.now())  # the next frame's tracker
        while sensor.state().frames < 2:
            assert time.monotonic() < deadline, "the frame was not judged"
            time.sleep(0.01)
        assert sensor.tracker is not None
        assert np.allclose(sensor.tracker.corners / np.float32([w, h]), placed, atol=0.01)


def test_a_hand_held_start_with_misread_colours_is_placed_by_its_pieces(
        frames: list[Any]) -> None:
    """The hand-held video's first frame (seed 3) found with no corners given: white pieces on
    dark squares read black, so the true window and one a file off matched the start position
    on 56 squares alike, and the one a file off was taken (47 px off; d2-d4 read for e2-e4).
    Counted by occupancy too, the true one is taken."""
    shaken, truth = V.handheld(frames, 3)
    placed = place_by_position(shaken[0], locate_board(shaken[0]), Game("standard"))
    assert float(np.abs(np.asarray(placed) - truth[0]).max()) < 8.0
