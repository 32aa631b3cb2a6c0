"""The demo plays through the whole physical path (simulated board over a pty, bridge,
inference, referee, LEDs, display) and the referee ends with exactly the player's game."""

from __future__ import annotations

import io
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
