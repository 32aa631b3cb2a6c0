"""The one live session (referee/app/runner.py): what watch, demo and run share.

Pi buttons (gpiozero's mock pins) and board buttons meet in the referee; the chess clock's
flag ends the game by the variant's rule; promotion prompts reach the display with their
pieces; ``gravekeeper run`` takes everything from the rig file.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.rig import parse_rig
from referee.app.cli import main
from referee.app.runner import HardwareOutput, SessionSettings, open_session
from referee.live.session import Referee, Update
from referee.rules.game import Game
from referee.rules.pieces import BLACK, WHITE

EVENTS = Path(__file__).resolve().parents[1] / "events"
GRAVEKEEPER = Path(sys.executable).with_name("gravekeeper")


@pytest.fixture
def mock_pins() -> Iterator[Any]:
    """gpiozero's MockFactory as the default pin factory."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


def test_pi_buttons_and_board_buttons_meet_in_the_referee(mock_pins: Any) -> None:
    """A roll on a Pi pin and a roll on the board's button are the same input."""
    rig = parse_rig('name = "die"\n[[module]]\nname = "main"\n[buttons]\nroll = 4\n'
                    '[gpio_buttons]\nroll = 13\n[leds]\nkind = "mock"\n[display]\n'
                    'kind = "dummy"\n', source="test-rig")
    game = Game("die", {"die.roll_source": "rng"}, seed=6)
    start = ",".join(game.variant.layout.name(sq) for sq, p in enumerate(game.state.board) if p)
    settings = SessionSettings(variant="die", options={"die.roll_source": "rng"}, seed=6)
    with open_session(f"sim://?start={start}", game, settings, rig=rig) as session:
        session.pump.until_quiet(0.3)
        session.referee.start()
        mock_pins.pin(13).drive_low()  # pressed (pull-up): the Pi's roll button
        mock_pins.pin(13).drive_high()
        session.pump.until_quiet(0.3)
        assert [p.text for p in game.played] == ["roll=2"]
        assert session.output is not None and session.output.leds is not None


class FakeClock:
    """A GameClock whose flag falls for ``colour`` at the first poll."""

    def __init__(self, colour: int) -> None:
        self.colour = colour
        self.stopped = False

    def start(self, colour: int = WHITE) -> None: ...
    def press(self, colour: int) -> bool:
        return True

    def pause(self, reason: str, since: float | None = None) -> None: ...
    def resume(self, reason: str) -> None: ...
    def link_changed(self, state: str, last_heard: float | None = None) -> None: ...

    def stop(self) -> None:
        self.stopped = True

    def poll(self) -> FakeClock | None:
        return self


@pytest.mark.parametrize(("black_pieces", "result"), [("all", "0-1"), ("king", "1/2-1/2"),
                                                       ("king+knight", "1/2-1/2")])
def test_a_flag_fall_is_a_draw_when_the_opponent_cannot_mate(black_pieces: str,
                                                             result: str) -> None:
    game = Game("standard")
    state = game.state.copy()
    state.ply = 0
    for sq, piece in enumerate(state.board):
        letter = game.variant.piece_letter(piece) if piece else ""
        keep = {"all": True, "king": letter == "k", "king+knight": letter in ("k", "n")}
        if letter.islower() and not keep[black_pieces]:
            state.clear(sq)
    if black_pieces == "king+knight":  # one knight only
        state.clear(game.variant.layout.square("g8"))
    updates: list[Update] = []
    clock = FakeClock(WHITE)  # White's flag falls
    referee = Referee(Game("standard", state=state), [updates.append], clock=clock)
    referee.tick(1000)
    assert referee.game.outcome.result == result
    assert updates[-1].kind == "ended" and clock.stopped
    assert game.variant.can_mate(state, WHITE)
    assert game.variant.can_mate(state, BLACK) == (black_pieces == "all")


def test_watch_clock_flag_falls_in_real_time() -> None:
    """--clock 0.01 (0.6 s each): White moves at once, Black never does; Black loses."""
    proc = subprocess.run([str(GRAVEKEEPER), "watch", "replay:///dev/stdin", "--realtime",
                           "--clock", "0.01"], input="0 lift e2\n100 place e4\n2500 lift a7\n",
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert "e2e4" in proc.stdout.splitlines()
    assert "# ended: black's flag fell - 1-0" in proc.stdout
    assert "result 1-0 (black's flag fell)" in proc.stdout


class Shown:
    """A display or LED player that keeps what it was shown."""

    def __init__(self) -> None:
        self.shown: list[Any] = []

    def show(self, item: Any) -> None:
        self.shown.append(item)

    def close(self) -> None: ...


def test_a_promotion_prompt_shows_the_pieces_on_the_display() -> None:
    game = Game("standard")
    display, leds = Shown(), Shown()
    output = HardwareOutput(game, leds, display)
    output(Update("prompt", "Promote to? R B N Q (confirm / back)", game.state,
                  options=("R", "B", "N", "Q")))
    screen = display.shown[-1]
    assert screen.lines == ("Promote to?",) and screen.options == ("R", "B", "N", "Q")
    assert screen.selected == 0 and leds.shown


def test_run_takes_everything_from_the_rig(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    events = EVENTS / "standard" / "opening-with-mess.events"
    rig = tmp_path / "board.toml"
    rig.write_text(f'sensor = "replay://{events}?speed=0"\n[[module]]\nname = "main"\n'
                   '[leds]\nkind = "mock"\n[display]\nkind = "dummy"\n'
                   '[game]\nvariant = "standard"\nclock = "5+3"\n')
    assert main(["run", "--rig", str(rig)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if not line.startswith("#")] == \
        "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7".split()
    rig.write_text('[[module]]\nname = "main"\n[game]\nvariant = "standard"\n')
    assert main(["run", "--rig", str(rig)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no sensor" in err and "Traceback" not in err
    rig.write_text('sensor = "sim://"\n[[module]]\nname = "main"\n[game]\ncolour = 1\n')
    assert main(["run", "--rig", str(rig)]) == 2
    assert "game.colour: unknown key" in capsys.readouterr().err


def test_watch_drives_the_rig_hardware_and_says_so_when_it_cannot(
        capsys: pytest.CaptureFixture[str]) -> None:
    events = EVENTS / "standard" / "opening-with-mess.events"
    start = time.monotonic()
    assert main(["watch", f"replay://{events}", "--rig", "standard", "--leds", "mock",
                 "--display", "dummy", "--clock", "5+3"]) == 0
    assert time.monotonic() - start < 30
    assert "result 1-0 (checkmate)" in capsys.readouterr().out
    # the built-in rig names WS2812 LEDs, which this machine does not have
    assert main(["watch", f"replay://{events}", "--rig", "standard"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(("rig_text", "waits"), [
    ('[buttons]\nconfirm = 2\nback = 3\n', True),          # the board's buttons choose
    ('', False),                                            # nobody can choose: the default
])
def test_a_promotion_waits_when_the_rig_has_buttons(rig_text: str, waits: bool) -> None:
    rig = parse_rig(f'name = "standard"\n[[module]]\nname = "main"\n{rig_text}'
                    '[leds]\nkind = "mock"\n[display]\nkind = "dummy"\n', source="test-rig")
    game = Game("standard")
    with open_session("sim://", game, SessionSettings(), rig=rig) as session:
        assert session.referee.promotion_default is not waits
        assert session.referee.inference.promotion_default is not waits
    phones = SessionSettings(phones=True, leds="mock", display="dummy")
    with open_session("sim://", Game("standard"), phones) as session:
        assert session.referee.promotion_default is False  # serve: the phones choose


def test_nobody_to_choose_a_promotion_is_said_on_the_display() -> None:
    game = Game("standard")
    display = Shown()
    output = HardwareOutput(game, None, display)
    output(Update("prompt", "Promote to? Q R B N", game.state, options=("Q", "R", "B", "N"),
                  default="Q"))
    screen = display.shown[-1]
    assert "no buttons" in screen.lines[0] and screen.options == ("Q",)
