"""The camera sees the regions beyond the 8x8 board: a printed ring round it, a second board.

Games with pieces leaving the board and coming back, one frame per position, pieced from the
real squares of the shared video (tests/vision/regions.py), run through ``vision-track`` and
``watch camera://`` as real processes: the record must be exactly the game played.
"""

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

from referee.app.vision_view import view_of
from referee.rules.actions import Action
from referee.rules.game import Game
from tests.vision import regions as R
from tests.vision.variations import write_folder

EXE = str(Path(sys.executable).with_name("gravekeeper"))
FIRST = R.corners_at(R.S, R.S)
SECOND = R.corners_at(2 * R.S + R.SIZE, R.S)


def _off_board(game: Game, action: Action) -> bool:
    """Whether ``action`` starts or ends on a square beyond the main 8x8 board."""
    layout = game.variant.layout
    main = layout.region(layout.square("a1"))
    return any(sq >= 0 and layout.region(sq) != main for sq in (action.frm, action.to))


def _frames(variant: str, moves: list[str], start: Any, seed: int) -> list[Any]:
    game = Game(variant, seed=seed)
    view = view_of(game.variant)
    rng = np.random.default_rng(seed)

    def picture() -> Any:
        if view.blocks:
            prefix = game.variant.layout.name(view.blocks[0].squares[0]).rpartition(":")[0]
            return R.jitter(R.two_boards(game, start, prefix + ":"), rng)
        return R.jitter(R.ring_board(game, start, rng), rng)

    frames = [picture()]
    for move in moves:
        game.play(move)
        frames.append(picture())
    return frames


def _track(folder: Path, variant: str, *extra: str) -> list[str]:
    proc = subprocess.run([EXE, "vision-track", str(folder), "--corners", json.dumps(FIRST),
                           "--variant", variant, *extra],
                          capture_output=True, text=True, timeout=180, check=False)
    assert proc.returncode == 0, proc.stderr
    return [line for line in proc.stdout.splitlines() if not line.startswith("#")]


def _game(variant: str, plies: int, seed: int) -> list[str]:
    moves = R.random_game(variant, plies, seed, _off_board)
    game = Game(variant, seed=seed)
    off = 0
    for move in moves:
        off += _off_board(game, game.parse(move))
        game.play(move)
    assert off >= 8, "the generated game must leave the board often"
    return moves


def test_view_of_the_variants() -> None:
    ring = view_of(Game("ghost").variant)
    assert ring.size == 64 + 32 and ring.looks[64:] == ("border",) * 32 and not ring.blocks
    second = view_of(Game("deadmans").variant)
    assert second.size == 128 and len(second.blocks) == 1 and not second.ring
    assert view_of(Game("standard").variant).plain


def test_ghosts_into_and_out_of_the_ring(data: Path, tmp_path: Path) -> None:
    """Pieces captured become ghosts on the printed ring, move along it and jump back in:
    each decoded from both its ends, exactly, through vision-track as a process."""
    start = R.real_start(data / "videos" / "scholarsmate.avi")
    moves = _game("ghost", 45, 2)
    folder = write_folder(tmp_path / "ghost", _frames("ghost", moves, start, 2))
    assert _track(folder, "ghost") == moves


def test_second_board_found_beside_the_first(data: Path, tmp_path: Path) -> None:
    """Dead Man's Chess on two boards side by side: captured pieces go to their homes on the
    second board (found in the first frame), move there and resurrect: exactly."""
    start = R.real_start(data / "videos" / "scholarsmate.avi")
    moves = _game("deadmans", 40, 1)
    folder = write_folder(tmp_path / "two", _frames("deadmans", moves, start, 1))
    assert _track(folder, "deadmans") == moves


def test_second_board_moves_with_the_first(data: Path, tmp_path: Path) -> None:
    """Dead Man's on two boards photographed one by one in the hand (each photo of both boards
    turned up to 4 degrees about its centre, scaled up to 5 %, moved up to 25 px: the boards'
    corners up to about a square from where they were): the second board, found beside the
    first in the first photo, is carried with the first from photo to photo (one table: one
    homography), and the game is followed exactly (before: the second board stayed where it
    was first seen)."""
    start = R.real_start(data / "videos" / "scholarsmate.avi")
    moves = _game("deadmans", 30, 1)
    rng = np.random.default_rng(5)
    pad = R.S
    photos = []
    for k, frame in enumerate(_frames("deadmans", moves, start, 1)):
        photo = cv2.copyMakeBorder(frame, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                   value=R.TABLE_BGR)
        if k:
            h, w = photo.shape[:2]
            m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-4.0, 4.0),
                                        1.0 + rng.uniform(-0.05, 0.05))
            m[:, 2] += rng.uniform(-25.0, 25.0, 2)
            photo = cv2.warpAffine(photo, m, (w, h), borderMode=cv2.BORDER_CONSTANT,
                                   borderValue=R.TABLE_BGR)
        photos.append(photo)
    folder = write_folder(tmp_path / "hand", photos)
    first = [[x + pad, y + pad] for x, y in FIRST]
    proc = subprocess.run([EXE, "vision-track", str(folder), "--corners", json.dumps(first),
                           "--variant", "deadmans"],
                          capture_output=True, text=True, timeout=180, check=False)
    assert proc.returncode == 0, proc.stderr
    assert [line for line in proc.stdout.splitlines() if not line.startswith("#")] == moves


def test_watch_camera_second_board(data: Path, tmp_path: Path) -> None:
    """The same through ``watch camera://`` (the referee's own inference on the snapshots,
    the second board's corners given in the URL)."""
    start = R.real_start(data / "videos" / "scholarsmate.avi")
    moves = _game("deadmans", 24, 3)
    folder = write_folder(tmp_path / "two", _frames("deadmans", moves, start, 3))
    flat = ",".join(f"{v:g}" for point in FIRST for v in point)
    flat2 = ",".join(f"{v:g}" for point in SECOND for v in point)
    url = f"camera://{folder}?corners={flat}&corners2={flat2}&fast=1"
    proc = subprocess.run([EXE, "watch", url, "--variant", "deadmans", "--seed", "3"],
                          capture_output=True, text=True, timeout=180, check=False)
    assert proc.returncode == 0, proc.stderr
    assert [line for line in proc.stdout.splitlines() if not line.startswith("#")] == moves


@pytest.mark.parametrize("option", ["--corners2", None])
def test_second_board_missing(tmp_path: Path, option: str | None) -> None:
    """No second board in the picture: one line, exit 2 (bad corners: the same)."""
    folder = tmp_path / "one"
    folder.mkdir()
    import cv2

    cv2.imwrite(str(folder / "f0.png"), np.full((300, 300, 3), 90, np.uint8))
    extra = [option, "[[1,2]]"] if option else []
    proc = subprocess.run([EXE, "vision-track", str(folder), "--corners",
                           "[[0,0],[299,0],[299,299],[0,299]]", "--variant", "deadmans", *extra],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_watch_camera_without_a_second_board(tmp_path: Path) -> None:
    """camera:// for a variant with a second board, none in the picture: one line, exit 2."""
    folder = write_folder(tmp_path / "grey", [np.full((300, 300, 3), 90, np.uint8)] * 4)
    proc = subprocess.run([EXE, "watch", f"camera://{folder}?fast=1&corners=0,0,299,0,299,299,"
                           "0,299", "--variant", "deadmans"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "second board" in lines[0] and "corners2" in lines[0], lines


def test_phone_sees_the_second_board(data: Path) -> None:
    """``phone://`` (the camera page's frames, through the sensor's own thread) finds the
    second board beside the first and follows Dead Man's Chess on both: each position held
    0.6 s at 10 frames a second, as a phone on a tripod sends it."""
    from referee.app.phone import PhoneSensor

    start = R.real_start(data / "videos" / "scholarsmate.avi")
    moves = _game("deadmans", 24, 3)
    frames = _frames("deadmans", moves, start, 3)
    h, w = frames[0].shape[:2]
    flat = ",".join(f"{v:g}" for point in FIRST for v in point)
    now = [0.0]  # the sensor's clock: each frame arrives 0.1 s after the last
    with PhoneSensor(f"phone://?corners={flat}&stabilise=0", Game("deadmans", seed=3),
                     clock=lambda: now[0]).open() as sensor:
        sensor.page_connected(w, h)
        judged = 0
        for picture in frames:
            for _ in range(6):
                now[0] += 0.1
                assert sensor.offer(picture, None, now[0])
                judged += 1
                deadline = time.monotonic() + 20
                while sensor.state().frames < judged:
                    assert time.monotonic() < deadline, "the frame was not judged"
                    time.sleep(0.002)
        assert "second board" not in sensor.state().detail, sensor.state()
        assert list(sensor.history()) == moves
