"""Taking back a wrongly accepted move when later frames contradict it (a piece put down on one
square, photographed, then moved on to another), on one-frame-per-position games pieced from
the real video's squares."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from referee.app.vision_cli import track_main
from referee.app.vision_track import Tracker
from referee.rules.game import Game
from tests.vision import variations as V
from vision.geometry import parse_corners

EXE = str(Path(sys.executable).with_name("gravekeeper"))


def _with_detour(data: Path, seed: int, at: int) -> tuple[list[str], list[Any]]:
    """A random game whose move ``at`` is first seen put down on another legal square."""
    start = V.warp_jittered(V.video_frames(data / "videos" / "scholarsmate.avi")[2],
                            np.random.default_rng(0), 0.0)
    moves = V.random_game(20, seed)
    images = V.composite_game(moves, start, seed)
    game = Game("standard")
    for m in moves[:at]:
        game.play(m)
    wrong = next(t for t in game.legal_texts() if t[:2] == moves[at][:2] and t != moves[at])
    game.play(wrong)
    detour = V.compose(game.variant.fen(game.state).split()[0], start)
    return moves, images[:at + 1] + [detour] + images[at + 1:]


@pytest.mark.parametrize(("seed", "at"), [(3, 0), (5, 6)])
def test_wrong_move_is_taken_back(data: Path, seed: int, at: int) -> None:
    moves, images = _with_detour(data, seed, at)
    tracker = Tracker(parse_corners(V.FULL), stills=True)
    for im in images:
        tracker.step(im)
    assert tracker.corrections >= 1
    assert tracker.game.action_texts() == moves


def test_vision_track_prints_the_corrected_record(data: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """vision-track prints a move only once later frames can no longer take it back."""
    moves, images = _with_detour(data, 5, 6)
    folder = V.write_folder(tmp_path / "stills", images)
    assert track_main([str(folder), "--corners", json.dumps(V.FULL)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln for ln in lines if not ln.startswith("# ")] == moves


def test_a_transposition_keeps_the_record(data: Path) -> None:
    """Every frame at its own exposure; at ply 23 no continuation explains the frame, and
    from two decisions back the same three moves in another order would: the record played is
    kept (the picture cannot tell the orders apart), only the new move is added."""
    start = V.warp_jittered(V.video_frames(data / "videos" / "scholarsmate.avi")[2],
                            np.random.default_rng(0), 0.0)
    rng = np.random.default_rng(1)
    moves = V.random_game(26, 1)
    images = [V.perturb(im, "exposure", rng) for im in V.composite_game(moves, start, 1)]
    tracker = Tracker(parse_corners(V.FULL), stills=True)
    for im in images:
        tracker.step(im)
    assert tracker.game.action_texts() == moves


def test_watch_camera_takes_back_a_wrong_move_in_real_time(data: Path, tmp_path: Path) -> None:
    """The detour through ``gravekeeper watch camera://FOLDER?fps=4`` as a real process, in
    real time: the referee accepts the move first put down on the wrong square (the camera
    decoded it), the camera withdraws it when the next picture shows the piece moved on, the
    referee takes it back (the arbiter's take-back) and the corrected position is the real
    move: the record is the game played, with no problem on the way, and so are the printed
    action lines (a move's line waits until the camera can no longer take it back)."""
    moves, images = _with_detour(data, 5, 6)
    folder = V.write_folder(tmp_path / "stills", images)
    proc = subprocess.run(
        [EXE, "watch", f"camera://{folder}?corners=0,0,480,0,480,480,0,480&fps=4"],
        capture_output=True, text=True, timeout=180, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "# moves: " + " ".join(moves)
    game = Game("standard")
    for m in moves[:6]:
        game.play(m)
    wrong = next(t for t in game.legal_texts() if t[:2] == moves[6][:2] and t != moves[6])
    assert f"# takeback: took back {wrong}" in lines
    assert f"# seen: {wrong}" in lines  # said at once, as the camera first decoded it
    # the action lines are the game played: the withdrawn move's line was never printed
    assert [ln for ln in lines if not ln.startswith("#")] == moves
    assert not [ln for ln in lines if ln.startswith("# problem")]


def test_the_decoder_lists_the_position_it_is_in_after_a_take_back() -> None:
    """A take-back that replaces two moves by two others comes back to the same ply in another
    position: the decoder's candidates are those of the new position (they were cached per ply,
    and a hand-held one-photo-per-position game then tried to play a move from the old one)."""
    from referee.app.vision_decoder import Decoder

    game = Game("standard")
    decoder = Decoder(game)
    for m in ("e2e4", "e7e5"):
        game.play(m)
    before = {tuple(c.actions) for c in decoder.candidates()}
    game.undo()
    game.undo()
    for m in ("d2d4", "d7d5"):
        game.play(m)
    legal = set(game.legal_texts())
    firsts = {game.variant.format_action(c.actions[0]) for c in decoder.candidates()}
    assert firsts <= legal and "c4d5" not in legal
    assert "e4d5" not in firsts and before != {tuple(c.actions) for c in decoder.candidates()}


PROMOTING = "r3k3/1P4pp/8/8/8/8/6PP/4K3 w - - 0 1"


def _promotion_stills(data: Path, moves: list[str]) -> list[Any]:
    start = V.warp_jittered(V.video_frames(data / "videos" / "scholarsmate.avi")[2],
                            np.random.default_rng(0), 0.0)
    return V.composite_game(moves, start, 1, fen=PROMOTING)


@pytest.mark.parametrize("moves", ["b7b8n e8e7 g2g3 e7e6 h2h3 a8a2 b8c6",
                                   "b7b8q e8d7 b8b1 d7c6 b1e4",
                                   "b7a8r e8d7 a8a1 d7c6 a1a6"])
def test_an_under_promotion_is_told_by_how_the_piece_moves(data: Path, moves: str) -> None:
    """A camera sees a white piece on b8, not which: the queen is taken and the other pieces
    kept as alternatives, and the first move only a knight can make (b8-c6) puts the knight
    in its place; a queen's or a rook's moves, which the queen could make too, leave the
    queen (a rook that only moves as a rook stays a queen: no picture tells them apart).
    Before, a knight's move two decisions later was found by taking back (``_retract``), and
    a later one, as here, lost the game."""
    played = moves.split()
    game = Game(Game("standard").variant, state=Game("standard").variant.from_position(PROMOTING))
    tracker = Tracker(np.asarray(V.FULL, dtype=np.float32), stills=True, game=game)
    for im in _promotion_stills(data, played):
        tracker.step(im)
    queen = [played[0][:4] + "q"] + played[1:]
    assert [p.text for p in tracker.game.played] == (played if "n" in played[0] else queen)


def test_vision_track_prints_the_knight_a_pawn_became(data: Path, tmp_path: Path) -> None:
    """``vision-track`` prints the corrected record: the promotion to a knight, then the
    moves after it."""
    moves = "b7a8n e8d7 a8b6 d7c6 g2g3 g7g6".split()
    folder = V.write_folder(tmp_path / "stills", _promotion_stills(data, moves))
    proc = subprocess.run([EXE, "vision-track", str(folder), "--corners", json.dumps(V.FULL),
                           "--fen", PROMOTING], capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert [ln for ln in proc.stdout.splitlines() if not ln.startswith("#")] == moves
