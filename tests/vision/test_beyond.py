"""What the camera sees beyond the board's edges: the heads of the far rank's pieces.

Seen from a player's side, a piece on the far rank stands over the table beyond the board,
and the pieces in front of it hide its square. A move from there may change no square of
the board at all; the picture beyond the edge tells it (``Decoder._beyond``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from referee.app.vision_track import Tracker
from referee.rules.game import Game
from tests.vision import variations as V
from vision.geometry import beyond, halo_cells

EXE = str(Path(sys.executable).with_name("gravekeeper"))


def test_a_piece_on_the_far_rank_is_seen_beyond_the_board() -> None:
    """From White's side 35 degrees up, a queen on d8 is seen over the table beyond d8 (and
    more of it than a pawn there), a queen on d1 over nothing beyond the board; from straight
    above the camera's place is unknown, and so is what it sees there."""
    camera = V.orbit_camera(0.0, 35.0)
    seen = beyond(V.camera_corners(camera), (720, 960), (0.9, 1.55))
    assert seen is not None
    cells = halo_cells()
    past_d8 = cells.index((3, 8))
    d8, d1 = 59, 3
    pawn, queen = seen
    assert queen[d8, past_d8] > 0.5 and queen[d8].sum() > pawn[d8].sum()
    assert queen[d1].sum() == 0.0
    assert all(queen[d8, i] == 0.0 for i, (f, r) in enumerate(cells) if r < 8)
    flat = np.float32([[100, 100], [500, 100], [500, 500], [100, 500]])
    assert beyond(flat, (600, 600), (0.9,)) is None


def _track(pictures: list[np.ndarray], camera: V.Camera) -> list[str]:
    tracker = Tracker(V.camera_corners(camera), stills=True)
    return [m.text for im in pictures for m in tracker.step(im)]


def test_vision_track_prints_a_move_seen_only_beyond_the_board(tmp_path: Path) -> None:
    """Photos from White's side, 35 degrees up, as a folder through ``vision-track``: the
    queen d8-c7 leaves d8 behind the d7 pawn and stands on c7 behind the c6 pawn. No square
    of the board changed; only the table beyond d8 and c8, where her head was and is.
    Before, the move was not seen and a later photo was explained by the bishop f8-g7 in its
    place (7 of 12 moves printed right)."""
    camera = V.orbit_camera(0.0, 35.0)
    moves = V.random_game(12, seed=9)
    assert moves[7] == "d8c7"
    folder = V.write_folder(tmp_path / "photos", V.rendered_game(moves, camera, 9))
    corners = json.dumps(np.asarray(V.camera_corners(camera)).tolist())
    proc = subprocess.run([EXE, "vision-track", str(folder), "--corners", corners],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert [ln for ln in proc.stdout.splitlines() if not ln.startswith("#")] == moves


def test_a_hand_beyond_the_board_is_no_move() -> None:
    """The same position photographed again with a hand on the table beyond d8, just where
    the queen's head is seen: the queen d8-c7 would have changed the table beyond c8 too, so
    no move is made (a change beyond the board speaks only for a move that explains it)."""
    camera = V.orbit_camera(0.0, 35.0)
    moves = V.random_game(7, seed=9)
    pictures = V.rendered_game(moves, camera, 9)
    hand = pictures[-1].copy()
    centre = V._project(camera, [[3.5, 8.9, 0.0]])[0]
    cv2.ellipse(hand, (int(centre[0]), int(centre[1])), (22, 14), 0.0, 0.0, 360.0,
                (120, 150, 200), -1, cv2.LINE_AA)
    assert _track([*pictures, hand], camera) == moves


def test_a_knight_behind_its_pawns_is_told_from_a_pawn_by_its_head() -> None:
    """Photos from a hand at White's side (each up to 10 degrees round and 5 up or down):
    a knight b8-c6 leaves b8 behind the a7 and b7 pawns, and the pawn c7-c6 would leave c7
    hidden behind itself. On the board both change c6 alone; the knight's head was seen
    beyond b8. Before, c7-c6 was taken (1 of 12 moves)."""
    rng = np.random.default_rng(5)
    moves = V.random_game(12, seed=5)
    assert moves[1] == "b8c6"
    cameras = [V.orbit_camera(rng.uniform(-10.0, 10.0), 45.0 + rng.uniform(-5.0, 5.0))
               for _ in range(len(moves) + 1)]
    game, draw = Game("standard"), np.random.default_rng(5)
    pictures = [V.render(game, cameras[0], draw)]
    for move, camera in zip(moves, cameras[1:], strict=True):
        game.play(move)
        pictures.append(V.render(game, camera, draw))
    assert _track(pictures, cameras[0]) == moves


def _on_a_cloth(picture: np.ndarray, camera: V.Camera) -> np.ndarray:
    """``picture`` with the plain table round the board (the render's background colour)
    replaced by a checked cloth of 17-pixel checks."""
    rows, cols = np.indices(picture.shape[:2])
    cloth = np.where((((rows // 17) + (cols // 17)) % 2 == 0)[..., None],
                     np.array([40, 60, 150], np.uint8), np.array([200, 190, 170], np.uint8))
    board = np.zeros(picture.shape[:2], np.uint8)
    cv2.fillConvexPoly(board, np.round(V.camera_corners(camera)).astype(np.int32), 1)
    table = (np.abs(picture.astype(int) - [70, 85, 95]).max(axis=2) < 30) & (board == 0)
    out = picture.copy()
    out[table] = cloth[table]
    return out


def test_a_patterned_table_says_nothing() -> None:
    """On a checked cloth the table's colour is no one colour: what the table beyond the
    board looks like tells nothing (``halo_bare`` gives None), and the game is followed as
    by the board alone (photos from White's side, 45 degrees up)."""
    from vision.change import halo_bare, halo_picture

    camera = V.orbit_camera(0.0, 45.0)
    moves = V.random_game(12, seed=4)
    plain = V.rendered_game(moves, camera, 4)
    corners = V.camera_corners(camera)
    table = np.zeros(len(halo_cells()), dtype=bool)
    table[[i for i, (f, r) in enumerate(halo_cells()) if r < 0]] = True  # beyond rank 1
    assert halo_bare(halo_picture(plain[0], corners), table) is not None
    cloth = [_on_a_cloth(im, camera) for im in plain]
    assert halo_bare(halo_picture(cloth[0], corners), table) is None
    assert _track(cloth, camera) == moves


def test_a_piece_in_front_uncovers_a_taller_one_behind() -> None:
    """Photos from White's side, 35 degrees up: the queen d8-c7 (seen beyond the board),
    then the white bishop c6-b5 uncovers her on c7 (c7 changes by 23 thresholds). The
    bishop in front hid her, however tall she is: c7 must change with the bishop's move.
    Before, a square under a piece as tall as the one seen over it need not change, and
    c6-b5 with the queen's c7-b7 was as likely as c6-b5 alone (13 of 16 moves)."""
    camera = V.orbit_camera(0.0, 35.0)
    moves = V.random_game(16, seed=15)
    assert moves[13:15] == ["d8c7", "c6b5"]
    assert _track(V.rendered_game(moves, camera, 15), camera) == moves
