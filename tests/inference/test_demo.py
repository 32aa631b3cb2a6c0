"""The demo plays through the whole physical path (simulated board over a pty, bridge,
inference, referee, LEDs, display) and the referee ends with exactly the player's game."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from referee.app.demo import run_demo
from tests.inference.test_property import READY, implemented


@pytest.mark.parametrize("variant", [v for v in implemented() if v in READY])
def test_demo_referees_exactly_what_was_played(variant: str, tmp_path: Path) -> None:
    out = io.StringIO()
    game = run_demo(variant, {}, seed=3, turns=8, out=out, capture=tmp_path)
    text = out.getvalue()
    assert "[problem]" not in text and "internal" not in text
    assert [line.split(": ", 1)[1] for line in text.splitlines()
            if line.startswith("--- step") and "[" not in line] == \
        [f"{'white' if p.actor == 1 else 'black'}: {game.variant.public_action_text(p.action)}"
         for p in game.played]
    assert len(game.played) >= 8 or game.outcome.result != "*"
    assert text.count("--- step") >= len(game.played)
    assert "LEDs:" in text and "Display:" in text
    pictures = sorted(p.name for p in tmp_path.iterdir())
    assert "step-001-leds.png" in pictures and "step-001-display.png" in pictures


def test_demo_waits_for_a_slow_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board slower than the demo's quiet spell (the MicroPython firmware on a busy machine:
    its last events came after 0.35 s of quiet, and the demo's last move was never judged)
    is waited for until the referee has judged every move made. Here the quiet spell is cut
    to 1 ms, so every turn ends before its events arrive."""
    import referee.app.demo as demo

    monkeypatch.setattr(demo, "QUIET_S", 0.001)
    game = run_demo("standard", {}, seed=3, turns=6, out=io.StringIO())
    assert len(game.played) == 6


EXE = str(Path(sys.executable).with_name("gravekeeper"))
EVENTS = Path(__file__).resolve().parents[1] / "events" / "standard" / "castling-king-first.events"


def test_demo_of_a_sensor_url_shows_its_game_step_by_step() -> None:
    """``demo SENSOR_URL`` (as ``watch`` and ``serve`` take one): the game an event file
    records, each action with the board, the LED map and the display text."""
    proc = subprocess.run([EXE, "demo", f"replay://{EVENTS}"], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    lines = proc.stdout.splitlines()
    moves = "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1"
    assert lines[-1] == f"=== moves: {moves}"
    steps = [line for line in lines if line.startswith("--- step")]
    # the castling's rook comes after the king: a correction, then the board matches again
    assert [line.split(": ", 2)[2] for line in steps if ": [" not in line] == moves.split()
    assert sum(line.startswith("LEDs: ") for line in lines) == len(steps)
    assert sum(line.startswith("Display: ") for line in lines) == len(steps)


@pytest.mark.parametrize("argv,said", [
    (["camera://0", "--random"], "--random: only for the demo's own simulated board"),
    (["camera://0", "--turns", "0", "--pace", "1"],
     "--turns and --pace: only for the demo's own simulated board"),
    (["sim://?variant=standard"], "nobody plays on a simulated board given as a URL"),
    (["camera://9"], "camera://9: cannot open video source"),
])
def test_demo_of_a_sensor_url_answers_bad_arguments_in_one_line(argv: list[str],
                                                                 said: str) -> None:
    proc = subprocess.run([EXE, "demo", *argv], capture_output=True, text=True, timeout=60,
                          check=False)
    assert proc.returncode == 2 and said in proc.stderr, proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and not proc.stdout, proc.stdout
