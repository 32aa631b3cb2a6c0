"""The demo's showcases: each variant's signature really happens, through the whole physical
path (simulated board over a pty, bridge, inference, referee, LEDs, display) at full speed, and
everything the display says about them fits the supported screens.

The checks read the referee's game events, not the printed text: a showcase that stops showing
what it claims (a rule changed, a script went stale) fails here.
"""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final

import pytest

from hardware.display.render import fits, text_fits
from hardware.display.screen import ScreenKind
from referee.app.demo import run_demo, showcase_source
from referee.app.present import Presenter
from referee.app.showcase import load_showcase, parse_showcase, showcase_variants
from referee.rules.events import (
    Announcement,
    CaptureAttempt,
    Captured,
    GameEvent,
    Marker,
    Moved,
    Placed,
    Prompt,
    Removed,
    visible_to,
)
from referee.rules.game import Game
from referee.rules.variants import VARIANTS

RING: Final = ("0", "9")


def _events(game: Game) -> list[GameEvent]:
    return [e for p in game.played for e in p.events]


def _of(game: Game, kind: type[GameEvent]) -> list[GameEvent]:
    return [e for e in _events(game) if isinstance(e, kind)]


def _is_ring(square: str) -> bool:
    return square[1:] in RING or square[:1] in ("z", "i")


def _standard(game: Game) -> None:
    kings = [e for e in _of(game, Moved) if isinstance(e, Moved) and e.piece == "K"]
    assert any(abs(ord(e.frm[0]) - ord(e.to[0])) == 2 for e in kings), "no castling"
    rooks = [e for e in _of(game, Moved) if isinstance(e, Moved) and e.piece == "R"]
    assert [(e.frm, e.to) for e in rooks] == [("h1", "f1")], "castling's rook not told"
    assert _of(game, Captured), "no capture"
    assert any(game.variant.in_check(s) for s in _states(game)), "no check"
    assert game.outcome.reason == "checkmate"


def _deadmans(game: Game) -> None:
    tombs = [e for e in _of(game, Marker) if isinstance(e, Marker) and e.added]
    assert tombs and all(e.marker == "tombstone" for e in tombs)
    homes = [p for p in game.played if p.action.kind == "home"]
    prompts = [e for e in _of(game, Prompt) if isinstance(e, Prompt) and e.kind == "home"]
    assert homes and all(len(e.options) > 1 for e in prompts), "no Hell home to choose"
    assert any(isinstance(e, Placed) and e.square.startswith("hell:")
               for p in homes for e in p.events)
    assert any(isinstance(e, Placed) and e.reason == "resurrection" for e in _events(game))


def _ghost(game: Game) -> None:
    spawns = [e for e in _of(game, Placed) if isinstance(e, Placed) and e.reason == "ghost"]
    assert spawns and all(_is_ring(e.square) for e in spawns)
    ghost_moves = [e for e in _of(game, Moved) if isinstance(e, Moved) and _is_ring(e.frm)]
    assert any(_is_ring(e.to) for e in ghost_moves), "no ghost move along the ring"
    gone = [e for e in _of(game, Removed) if isinstance(e, Removed)]
    assert any(e.reason == "ghost capture" for e in gone), "no ghost capture"


def _die(game: Game) -> None:
    assert sum(p.action.kind == "roll" for p in game.played) >= 3
    assert _of(game, Captured)
    assert any(isinstance(e, Placed) and e.reason == "respawn" for e in _events(game))


def _zombie(game: Game) -> None:
    burials = [p for p in game.played if p.action.kind == "bury"]
    assert burials and all(not visible_to(e, None) for p in burials for e in p.events
                           if isinstance(e, Marker))
    assert any(isinstance(e, Placed) and e.reason == "zombie" for e in _events(game))
    assert any(isinstance(e, Removed) and e.reason == "rot" for e in _events(game))


def _masquerade(game: Game) -> None:
    assert [p.action.kind for p in game.played[:2]] == ["assign", "assign"]
    tries = [e for e in _of(game, CaptureAttempt) if isinstance(e, CaptureAttempt)]
    assert any(not e.succeeded for e in tries), "no failed attempt"
    # A success that the piece's own pattern could not make: the secret one did.
    won = [e for e in tries if e.succeeded]
    assert any(e.frm[0] == e.to[0] for e in won), "no capture by a secret pattern"


def _afterlife(game: Game) -> None:
    placed = [e for e in _of(game, Placed) if isinstance(e, Placed)]
    assert any(e.square == "limbo" for e in placed)
    assert any(e.square.startswith("hours:") for e in placed)
    assert any(e.square.startswith("hall:") for e in placed)


SIGNATURES: Final[dict[str, Callable[[Game], None]]] = {
    "standard": _standard, "deadmans": _deadmans, "ghost": _ghost, "die": _die,
    "zombie": _zombie, "masquerade": _masquerade, "afterlife": _afterlife,
}


def _states(game: Game) -> list[object]:
    out, state = [], game.state
    while state is not None:
        out.append(state)
        state = state.parent
    return out


def test_every_variant_has_a_showcase() -> None:
    assert showcase_variants() == sorted(VARIANTS) == sorted(SIGNATURES)


@pytest.mark.parametrize("variant", sorted(SIGNATURES))
def test_showcase_is_legal_and_shows_the_signature(variant: str) -> None:
    SIGNATURES[variant](_engine_game(variant))


@pytest.mark.parametrize("variant", sorted(SIGNATURES))
def test_showcase_through_the_demo(variant: str) -> None:
    out = io.StringIO()
    game = run_demo(variant, {}, seed=1, turns=24, out=out, source=showcase_source(variant))
    text = out.getvalue()
    assert "[problem]" not in text
    assert game.action_texts() == _engine_game(variant).action_texts()
    SIGNATURES[variant](game)
    notes = [line for line in text.splitlines() if line.startswith(">>> ")]
    assert len(notes) == sum(bool(s.note) for s in load_showcase(variant))
    displays = [line for line in text.splitlines() if line.startswith("Display: ")]
    if variant == "zombie":  # whose turn shows even when the referee has news
        assert any("to move | No zombie" in line for line in displays)
    if variant == "deadmans":  # the capture stays on the display after the Hell home
        assert any("goes to Hell" in line and "xd5" in line for line in displays)


def _engine_game(variant: str) -> Game:
    game = Game(variant, seed=1)
    for item in load_showcase(variant):
        game.play(item.text)  # raises, naming the action, when a script goes stale
    return game


@pytest.mark.parametrize("variant", sorted(SIGNATURES))
def test_every_showcase_screen_fits_oled_and_lcd(variant: str) -> None:
    game = Game(variant, seed=1)
    presenter = Presenter()
    for item in load_showcase(variant):
        played = game.play(item.text)
        shown = presenter.update(played.events, turn=game.state.to_act,
                                 check=game.variant.in_check(game.state))
        screen = shown.screen
        assert fits(screen, 128, 64), (item.text, screen)
        assert text_fits(screen, 20, 4), (item.text, screen)
        said = " ".join(screen.lines)
        news = [e for e in played.events if isinstance(e, (Announcement, Placed, Removed))
                and visible_to(e, None) and e.text]
        if screen.kind is ScreenKind.ANNOUNCEMENT:  # (a prompt or the end says more)
            assert not news or any(e.text in said for e in news), (item.text, screen)
        assert screen.kind is not ScreenKind.TURN or not news, (item.text, screen)


def test_notes_and_comments_parse() -> None:
    script = parse_showcase("# title\n\ne2e4 e7e5  # both\nroll=2\n")
    assert [(s.text, s.note) for s in script] == [("e2e4", "both"), ("e7e5", ""),
                                                  ("roll=2", "")]


def _demo(*args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("gravekeeper")
    return subprocess.run([str(exe), "demo", *args], capture_output=True, text=True,
                          timeout=240)


def test_the_demo_command_plays_the_showcase_and_keeps_secrets() -> None:
    out = _demo("--variant", "zombie", "--pace", "0")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    shown = [line for line in out.stdout.splitlines()
             if line.startswith(("Display: ", ">>> ", "--- step"))]
    assert any("rots" in line for line in shown) and any("rises" in line for line in shown)
    assert not any("bury=d5" in line or "under d5" in line for line in shown)
    assert "=== 11 actions refereed" in out.stdout


def test_the_demo_command_random_and_bad_input() -> None:
    out = _demo("--variant", "ghost", "--random", "--turns", "2", "--pace", "0")
    assert out.returncode == 0 and "=== 2 actions refereed" in out.stdout
    bad = _demo("--variant", "nope", "--pace", "0")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    unfit = _demo("--variant", "die", "--options", '{"die.roll_source": "rng"}', "--pace", "0")
    assert unfit.returncode == 2 and "does not fit these options" in unfit.stderr
    assert "use --random" in unfit.stderr and unfit.stderr.count("\n") == 1
