"""Secrets stay secret in every public output.

A Zombie burial square and a Masquerade assignment are known to their chooser and the
referee only. ``watch`` (stdout and stderr of the real process) and ``demo`` (its printed
steps, LED maps and display texts) are captured whole and searched for every secret; the
journal may keep them (it is the referee's private file) and must.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.app.demo import run_demo
from referee.rules import actions as A

EVENTS = Path(__file__).resolve().parents[1] / "events"
GRAVEKEEPER = Path(sys.executable).with_name("gravekeeper")
#: A burial or an assignment written out in any public form.
LEAK = re.compile(r"bury=(?:[a-z]+:)?[a-z][0-9]|assign=(?:white|black):[A-Z]{2},")
CASES = {
    "zombie": (EVENTS / "zombie" / "reveal-and-rot.events", "bury=b2 bury=b8 bury=e8"),
    "masquerade": (EVENTS / "masquerade" / "failed-attempt-goes-back.events",
                   "assign=black:KK,QQ,RR,BB,NN assign=white:KR,QK,RN,BB,NQ"),
}


def secret_parts(secret: str) -> list[str]:
    """The texts that would give ``secret`` away: the whole choice and what it chose."""
    value = secret.split("=", 1)[1]
    return [secret, value.split(":", 1)[1] if ":" in value and "," in value else secret]


@pytest.mark.parametrize("variant", sorted(CASES))
def test_watch_never_prints_a_secret(variant: str, tmp_path: Path) -> None:
    path, private = CASES[variant]
    journal = tmp_path / "game.journal"
    proc = subprocess.run([str(GRAVEKEEPER), "watch", f"replay://{path}", "--variant", variant,
                           "--private", private, "--journal", str(journal)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    public = proc.stdout + proc.stderr
    assert "(secret)" in public  # the choices were made, and shown without their content
    for secret in private.split():
        for part in secret_parts(secret):
            assert part not in public, (secret, part)
    assert not LEAK.search(public)
    kept = journal.read_text()
    assert all(secret in kept for secret in private.split())


@pytest.mark.parametrize(("variant", "seed", "turns"), [("masquerade", 1, 6), ("zombie", 1, 30)])
def test_demo_never_shows_a_secret(variant: str, seed: int, turns: int) -> None:
    out = io.StringIO()
    game = run_demo(variant, {}, seed=seed, turns=turns, out=out)
    secrets = [p.text for p in game.played
               if p.action.kind in game.variant.kinds_done_by(A.SECRET)]
    assert secrets, "the demo made no secret choice: pick another seed"
    text = out.getvalue()
    for secret in secrets:
        for part in secret_parts(secret):
            assert part not in text, (secret, part)
    assert not LEAK.search(text)
    # the display never names a burial square, and no LED lights up for one
    for secret in secrets:
        if secret.startswith("bury="):
            square = secret.split("=", 1)[1]
            for block in text.split("--- step")[1:]:
                if "bury=(secret)" in block.splitlines()[0]:
                    lines = block.splitlines()
                    display = next(line for line in lines if line.startswith("Display:"))
                    leds = next(line for line in lines if line.startswith("LEDs:"))
                    assert square not in display.split(), (secret, display)
                    assert not re.search(rf"\b{square}[o*!~]", leds), (secret, leds)
