"""The camera says once when it sees the board from low down (``referee.app.camera``,
``LOW_VIEW_DEG``): the people at the board can raise it before the game goes on.

Why: from low down pieces hide the squares behind them, and moves the picture cannot tell
apart are guessed (docs/vision.md: 43 real games, the only ones a still camera lost were seen
at 35 degrees). The elevation comes from the board's corners alone
(:func:`vision.geometry.view_elevation`)."""

from __future__ import annotations

import contextlib
import csv
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.app.camera import LOW_VIEW_DEG
from referee.rules.game import Game
from tests.vision import variations as V
from vision.geometry import view_elevation
from vision.sources import read_image

EXE = str(Path(sys.executable).with_name("gravekeeper"))
SHAPE = (720, 960)  # the rendered photos' (height, width)


def _low_note(elevation: int) -> str:
    return (f"the camera sees the board from low down (about {elevation} degrees above the "
            "table): pieces hide the squares behind them, so some moves cannot be told apart; "
            "raise it to 60 degrees or more (from above is best)")


@pytest.mark.parametrize(("azimuth", "elevation"), [(0.0, 35.0), (180.0, 45.0), (90.0, 50.0),
                                                    (180.0, 60.0)])
def test_the_view_s_elevation_from_the_corners(azimuth: float, elevation: float) -> None:
    """The camera's own, from a player's side or the h-file's."""
    found = view_elevation(V.camera_corners(V.orbit_camera(azimuth, elevation)), SHAPE)
    assert found is not None and abs(found - elevation) <= 0.5, found
    assert (found < LOW_VIEW_DEG) == (elevation < LOW_VIEW_DEG)


def test_no_real_photo_is_taken_for_a_low_view(data: Path) -> None:
    """The shared photos (webcams over the board, phones from a player's side) are all seen
    from 50 degrees or more, or from so nearly above that the picture cannot tell."""
    with (data / "photos" / "labels.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        shape = read_image(data / row["file"]).shape
        found = view_elevation(json.loads(row["corners_a8_h8_h1_a1"]), shape)
        assert found is None or found >= LOW_VIEW_DEG, (row["file"], found)


def test_watch_says_once_that_the_camera_sees_the_board_from_low_down(tmp_path: Path) -> None:
    """``watch camera://FOLDER`` as a real process: photos from White's side 35 degrees up give
    one note, before the moves; from 60 degrees up, none. The moves are followed either way."""
    moves = V.random_game(4, seed=3)
    for elevation, note in ((35.0, [f"# note: {_low_note(35)}"]), (60.0, [])):
        camera = V.orbit_camera(0.0, elevation)
        folder = V.write_folder(tmp_path / f"{elevation:g}", V.rendered_game(moves, camera, 3))
        corners = ",".join(f"{v:.2f}" for v in V.camera_corners(camera).ravel())
        proc = subprocess.run([EXE, "watch", f"camera://{folder}?fast=1&corners={corners}"],
                              capture_output=True, text=True, timeout=120, check=False)
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        assert [line for line in lines if "low down" in line] == note, lines
        assert [line for line in lines if not line.startswith("#")] == moves
        if note:
            assert lines.index(note[0]) < lines.index(moves[0])


def test_the_phone_says_so_too() -> None:
    """A phone (``phone://``) held low: the same note, once, among its events, and the
    camera page's status line says it while the phone stays low."""
    from firmware_bridge.errors import SensorTimeout
    from firmware_bridge.events import Notice
    from referee.app.phone import PhoneSensor

    camera = V.orbit_camera(0.0, 35.0)
    pictures = V.rendered_game(V.random_game(2, seed=3), camera, 3)
    flat = ",".join(f"{v:.2f}" for v in V.camera_corners(camera).ravel())
    now = [0.0]
    with PhoneSensor(f"phone://?corners={flat}", Game("standard"),
                     clock=lambda: now[0]).open() as sensor:
        sensor.page_connected(SHAPE[1], SHAPE[0])
        for k, picture in enumerate(pictures * 2):
            now[0] += 0.5
            assert sensor.offer(picture, None, now[0])
            deadline = time.monotonic() + 20
            while sensor.state().frames <= k:
                assert time.monotonic() < deadline, "the frame was not judged"
                time.sleep(0.002)
            assert sensor.state().detail == _low_note(35)
        notes = []
        with contextlib.suppress(SensorTimeout):  # every event read
            for event in sensor.events(0.5):
                if isinstance(event, Notice):
                    notes.append(event.text)
    assert [n for n in notes if "low down" in n] == [_low_note(35)]
