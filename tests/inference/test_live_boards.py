"""``gravekeeper watch`` as a real process on real pseudo-terminals, in real time, with the
default settings: our simulated board (the reference firmware behind a pty, opened as
``serial://``) and the DGT emulator (opened as ``dgt://``). A person's hands are played with
pauses of 100-300 ms inside a move and 0.3-0.8 s between moves, so the board is judged by the
live loop's ticks, never by the end of a stream.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware_bridge.dgt_sim import DgtBoardEmulator
from firmware_bridge.rig import builtin_rig
from firmware_bridge.sim import STANDARD_START, SimulatedBoard
from referee.app.watch import READY_LINE
from referee.live.physical import physical_steps
from referee.rules.game import Game
from tests.processes import finish

GRAVEKEEPER = Path(sys.executable).with_name("gravekeeper")
#: A short game with a castling and captures.
GAME = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 c4f7 e8f7"


def hands(variant: str, moves: str, seed: int) -> Iterator[tuple[float, str, str, str]]:
    """(pause before, lift/place, square, piece letter) for each hand movement of ``moves``."""
    rng = random.Random(seed)
    game = Game(variant)
    for text in moves.split():
        before = game.state
        played = game.play(text)
        steps = physical_steps(game.variant, before, [played.action], rng,
                               within_ms=(100, 300))
        first = True
        for step in steps:
            pause = rng.uniform(0.3, 0.8) if first else step.gap_ms / 1000
            first = False
            yield pause, step.kind, game.variant.layout.name(step.square), step.letter


def watch(url: str, play: Callable[[], None], *args: str) -> list[str]:
    """Run ``gravekeeper watch URL`` while ``play()`` moves the pieces; its output lines."""
    proc = subprocess.Popen([str(GRAVEKEEPER), "watch", url, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # the board is connected and has sent its first board
        assert first.strip() == READY_LINE, first
        play()
        time.sleep(1.0)  # the last move settles
        proc.send_signal(signal.SIGINT)
        out, err = finish(proc, timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    return [first.rstrip("\n"), *out.splitlines()]


def test_watch_follows_our_board_in_real_time() -> None:
    board = SimulatedBoard(builtin_rig("standard"), start=STANDARD_START).start()
    try:
        def play() -> None:
            for pause, kind, square, _ in hands("standard", GAME, seed=7):
                time.sleep(pause)
                (board.lift if kind == "lift" else board.place)(square, wait=False)

        lines = watch(f"serial://{board.port_path}", play, "--variant", "standard")
    finally:
        board.stop()
    assert [line for line in lines if not line.startswith("#")] == GAME.split()
    assert not [line for line in lines if line.startswith("# problem")]


def test_watch_follows_a_dgt_board_in_real_time() -> None:
    board = DgtBoardEmulator().start()
    try:
        def play() -> None:
            for pause, kind, square, letter in hands("standard", GAME, seed=11):
                time.sleep(pause)
                if kind == "lift":
                    board.lift(square)
                else:
                    board.place(square, letter)

        lines = watch(f"dgt://{board.port_path}", play, "--variant", "standard")
    finally:
        board.stop()
    assert [line for line in lines if not line.startswith("#")] == GAME.split()
    assert not [line for line in lines if line.startswith("# problem")]


@pytest.mark.parametrize("seed", [3])
def test_hand_pauses_longer_than_settling_on_a_real_pty(seed: int) -> None:
    """A piece held in the air for 400-700 ms in the middle of each move is no false move."""
    board = SimulatedBoard(builtin_rig("standard"), start=STANDARD_START).start()
    moves = "e2e4 d7d5 e4d5 d8d5"
    try:
        def play() -> None:
            rng = random.Random(seed)
            for pause, kind, square, _ in hands("standard", moves, seed):
                time.sleep(pause + (rng.uniform(0.4, 0.7) if kind == "place" else 0))
                (board.lift if kind == "lift" else board.place)(square, wait=False)

        lines = watch(f"serial://{board.port_path}", play, "--variant", "standard")
    finally:
        board.stop()
    assert [line for line in lines if not line.startswith("#")] == moves.split()
    assert not [line for line in lines if line.startswith("# problem")]
