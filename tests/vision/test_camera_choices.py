"""Choices the camera cannot see (a die roll, secret assignments) come from elsewhere.

Under ``serve`` a camera (``camera://`` here; ``phone://`` is the same sensor) follows the
referee's game: a roll or an assignment made on a player's page reaches the camera's copy of the
game, and the moves after it are decoded against it. Shown with ``serve`` as a real process, a
live MJPEG camera on loopback whose picture the test changes (real squares of the shared video),
and the players' choices sent over the pages' WebSocket. Under ``watch`` a die game without
anything to roll it is refused in one line; ``--private`` assignments are followed.
"""

from __future__ import annotations

import http.server
import json
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from websockets.sync.client import connect

from referee.rules import actions as A
from referee.rules.game import Game
from tests.serve.harness import launch, stop
from tests.vision import regions as R
from tests.vision.variations import compose, write_folder

EXE = str(Path(sys.executable).with_name("gravekeeper"))
FULL = "0,0,480,0,480,480,0,480"


class _Live(http.server.BaseHTTPRequestHandler):
    """An MJPEG camera showing whatever picture the test put up last, 10 frames a second."""

    picture: bytes = b""
    running = True

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.send_response(200)
        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        self.end_headers()
        try:
            while _Live.running:
                jpg = _Live.picture
                self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\n"
                                 + f"Content-Length: {len(jpg)}\r\n\r\n".encode() + jpg
                                 + b"\r\n")
                self.wfile.flush()
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args: Any) -> None:
        pass


def _show(img: Any) -> None:
    _Live.picture = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()


@contextmanager
def _camera() -> Iterator[int]:
    _Live.running = True
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Live)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        _Live.running = False
        server.shutdown()
        server.server_close()


def _moves(base: str) -> list[str]:
    with urllib.request.urlopen(base + "/api/game", timeout=5) as response:
        moves: list[str] = json.loads(response.read())["moves"]
    return moves


def _wait(base: str, count: int, timeout: float = 20.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while True:
        moves = _moves(base)
        if len(moves) >= count:
            return moves
        assert time.monotonic() < deadline, f"serve recognised only {moves}"
        time.sleep(0.1)


def _act(url: str, text: str) -> None:
    """A player's page chooses ``text`` (WebSocket ``act``)."""
    base, _, token = url.rpartition("/")
    ws_url = base.replace("http://", "ws://").rsplit("/", 1)[0] + f"/ws?token={token}"
    with connect(ws_url, open_timeout=5) as ws:
        ws.send(json.dumps({"op": "act", "action": text, "id": 1}))
        while True:
            message = json.loads(ws.recv(timeout=5))
            if message.get("type") == "reply":
                assert message["ok"], message
                return


@contextmanager
def _serving(variant: str, port: int, data: Path) -> Iterator[dict[str, str]]:
    url = f"camera://http://127.0.0.1:{port}/video.mjpg?corners={FULL}"
    args = [EXE, "serve", url, "--variant", variant, "--data", str(data), "--host",
            "127.0.0.1", "--port", "0", "--http"]
    proc, urls = launch(args)
    try:
        yield urls
    finally:
        stop(proc)


def _picture(game: Game, start: Any) -> Any:
    return compose(R.fen_of(game), start)


def test_die_rolled_on_the_page_then_moved_under_the_camera(data: Path, tmp_path: Path) -> None:
    start = R.real_start(data / "videos" / "scholarsmate.avi")
    truth = Game("die")
    _show(_picture(truth, start))
    with _camera() as port, _serving("die", port, tmp_path) as urls:
        base = urls["spectator"].rstrip("/")
        time.sleep(2.0)  # the start picture
        for text in ("a1a2", "h8h7"):  # the pawn face moves twice before a roll
            truth.play(text)
            _show(_picture(truth, start))
            assert _wait(base, len(truth.played)) == truth.action_texts()
        _act(urls["white"], "roll")  # on White's page: the referee rolls, the camera cannot see
        rolled = _wait(base, len(truth.played) + 1)[-1]
        before = truth.state
        truth.play(rolled)
        moves = [a for a in truth.legal() if a.kind == A.MOVE]
        # a move the die's new face allows and its old one did not, where there is one
        new = [a for a in moves if not truth.variant.is_legal(before, a)] or moves
        truth.play(new[0])
        _show(_picture(truth, start))
        assert _wait(base, len(truth.played)) == truth.action_texts()


def test_masquerade_assigned_on_the_pages_then_played_under_the_camera(
        data: Path, tmp_path: Path) -> None:
    start = R.real_start(data / "videos" / "scholarsmate.avi")
    truth = Game("masquerade")
    _show(_picture(truth, start))
    with _camera() as port, _serving("masquerade", port, tmp_path) as urls:
        base = urls["spectator"].rstrip("/")
        time.sleep(2.0)
        for colour, text in (("white", "assign=black:KK,QQ,RN,BB,NR"),
                             ("black", "assign=white:KK,QR,RQ,BN,NB")):
            _act(urls[colour], text)
            truth.play(text)
            _wait(base, len(truth.played))
        for text in ("e2e4", "d7d5", "e4d5", "d8d5"):  # a pawn's capture, the queen's (as Q)
            truth.play(text)
            _show(_picture(truth, start))
            moves = _wait(base, len(truth.played))
            assert moves[2:] == truth.action_texts()[2:]


def test_watch_camera_refuses_a_die_game_nothing_can_roll(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "f", [np.full((100, 100, 3), 90, np.uint8)])
    proc = subprocess.run([EXE, "watch", f"camera://{folder}?fast=1", "--variant", "die"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "serve" in lines[0] and "roll" in lines[0], proc.stderr


def test_watch_camera_follows_private_assignments(data: Path, tmp_path: Path) -> None:
    """``watch --private``: the assignments the camera cannot see are the referee's; the
    camera's copy takes them over and decodes the moves after them."""
    start, truth = _assigned_masquerade(data)
    frames = [_picture(truth, start)]
    moves = ["e2e4", "d7d5", "e4d5", "g8f6", "b1c3"]
    for text in moves:
        truth.play(text)
        frames.append(R.jitter(_picture(truth, start), np.random.default_rng(len(frames))))
    assert _watch_assigned(write_folder(tmp_path / "m", frames))[0] == moves


#: The Masquerade assignments of these tests, given to ``watch --private``.
PRIVATE = ("assign=black:KK,QQ,RN,BB,NR", "assign=white:KK,QR,RQ,BN,NB")


def _assigned_masquerade(data: Path) -> tuple[Any, Game]:
    """The video's real start picture, and a Masquerade game with PRIVATE assigned."""
    start = R.real_start(data / "videos" / "scholarsmate.avi")
    truth = Game("masquerade")
    for text in PRIVATE:
        truth.play(text)
    return start, truth


def _watch_assigned(folder: Path) -> tuple[list[str], str]:
    """``watch camera://FOLDER --private PRIVATE`` as a real process: the actions it printed
    (assignments left out) and its whole output."""
    proc = subprocess.run([EXE, "watch", f"camera://{folder}?corners={FULL}&fps=2",
                           "--variant", "masquerade", "--private", " ".join(PRIVATE)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if not line.startswith("#")]
    return [line for line in lines if not line.startswith("assign=")], proc.stdout


pytestmark = pytest.mark.usefixtures("data")


def test_a_failed_capture_attempt_under_the_camera(data: Path, tmp_path: Path) -> None:
    """Masquerade: a capture the rules turn down is made on the board, seen, recognised by
    the referee (the attempt), and its pieces put back; play goes on."""
    start, truth = _assigned_masquerade(data)
    frames = [_picture(truth, start)]
    for text in ("e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e4"):
        truth.play(text)
        frames.append(_picture(truth, start))
    before = truth.state
    truth.play("c3e4")  # the knight captures like a bishop: turned down
    assert truth.state.board == before.board
    ranks = R.fen_of(truth).split("/")  # rank 8 first
    assert ranks[4] == "4q3" and ranks[5] == "2N5"
    ranks[4] = "4N3"  # e4: the knight where the queen stood
    ranks[5] = "8"    # c3 empty
    frames.append(compose("/".join(ranks), start))
    frames.append(_picture(truth, start))  # both put back
    truth.play("e4e2")
    frames.append(_picture(truth, start))
    frames = [R.jitter(f, np.random.default_rng(k)) for k, f in enumerate(frames)]
    moves, out = _watch_assigned(write_folder(tmp_path / "m", frames))
    assert moves == truth.action_texts()[2:], out
    # (a camera's action line waits until it cannot take the action back: "# seen:" is when)
    after = out.split("\n# seen: c3e4\n", 1)[1]
    assert after.index("# good") < after.index("# seen: e4e2")  # the pieces put back were seen
