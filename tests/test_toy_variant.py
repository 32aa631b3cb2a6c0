"""An eighth variant touches only its own module and a registry line.

The toy variant (tests/toy/variant.py) is named in ``GRAVEKEEPER_VARIANTS`` (the registry line,
given through the environment so that no registry is mutated) and run through the real
commands as subprocesses: ``check`` (a scenario), ``perft``, ``watch replay://`` (an event file
whose clock press the variant alone calls ``wait``), then its LED picture, drawn from the
layout it declares.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from referee.rules.errors import UnknownVariantError
from referee.rules.events import Moved
from referee.rules.variants import EXTRA_VARIANTS_ENV, VARIANTS, known_variants, make_variant

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "toy"
ENTRY = "toy=tests.toy.variant:Toy"


def gravekeeper(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, EXTRA_VARIANTS_ENV: ENTRY, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", "from referee.app.cli import main; "
                           "raise SystemExit(main())", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(EXTRA_VARIANTS_ENV, ENTRY)
    monkeypatch.syspath_prepend(str(ROOT))


def test_check_runs_the_toy_scenario() -> None:
    done = gravekeeper("check", str(TOY / "toy.json"))
    assert (done.returncode, done.stdout.strip()) == (0, "1 passed, 0 failed"), done.stderr


def test_perft_counts_the_toy_moves() -> None:
    # rook b1: a1 b2 b3 b4(x); king c1: b2 c2 d1 d2; drop on a1 or d1; wait = 11
    assert gravekeeper("perft", "--variant", "toy", "1").stdout.strip() == "11"
    total = gravekeeper("perft", "--variant", "toy", "3").stdout.strip()
    lines = gravekeeper("perft", "--variant", "toy", "--divide", "3").stdout.split("\n")
    assert int(total) == sum(int(line.split(": ")[1]) for line in lines if ": " in line) > 11


def test_watch_replays_a_toy_event_file() -> None:
    path = TOY / "moves-wait-drop.events"
    expect = next(line.split(":", 1)[1].split() for line in path.read_text().splitlines()
                  if line.startswith("# expect:"))
    done = gravekeeper("watch", f"replay://{path}", "--variant", "toy")
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stdout.splitlines() if not line.startswith("#")] == expect
    assert "# problem:" not in done.stdout


def test_the_led_picture_draws_the_toy_layout(toy: None, tmp_path: Path) -> None:
    from hardware.leds.picture import CELL, render_scene
    from referee.app.capture import StepCapture
    from referee.app.present import Presenter, picture_spots

    variant = make_variant("toy")
    spots = picture_spots(variant.layout)
    assert {s.panel for s in spots.values()} == {"Board", "Pen"} and len(spots) == 18
    shown = Presenter().update([Moved("R b1-b3", piece="R", frm="b1", to="b3")], turn=2)
    image = render_scene(shown.scene, spots)
    blank = render_scene(shown.scene.__class__(), spots)
    assert image.width == blank.width > 5 * CELL  # two panels side by side
    assert image.height > blank.height  # and a legend line for the lit squares
    led_path, _ = StepCapture(tmp_path, spots).write(shown, "b1b3")
    with Image.open(led_path) as written:
        assert written.size[0] == image.width


def test_what_the_toy_says_of_itself_reaches_the_leds_help_and_rigs(toy: None) -> None:
    """The knowledge that used to be typed outside the variants (the LED legend of a choice,
    the help lines, which region prefix is not written) works for a variant nobody knew."""
    from firmware_bridge.rig import parse_rig
    from referee.app.present import Presenter
    from tests.toy.variant import DROP

    variant = make_variant("toy")
    shown = Presenter().update([DROP.prompt("White: drop the pawn", 1, ("drop=a1", "drop=d1"))],
                               turn=1)
    assert {sq: shown.scene[sq].reason for sq in ("a1", "d1")} == {"a1": "pawn from pen",
                                                                  "d1": "pawn from pen"}
    assert variant.help().splitlines() == [k.help for k in variant.action_kinds] + [
        "resign, draw: resign, or agree a draw"]
    rig = parse_rig('implicit_regions = ["board"]\n[[module]]\nname = "main"\nwidth = 4\n'
                    'height = 4\nregion = "board"\n[[module]]\nname = "pen"\nkind = "strip"\n'
                    'cells = ["pen:a1", "pen:b1"]\n')
    assert rig.squares == frozenset(variant.layout.name(i) for i in range(variant.layout.size))


def test_a_toy_marker_reaches_the_leds_picture_and_display(toy: None, tmp_path: Path) -> None:
    """The toy's own marker kind (a stake under a dropped pawn, dim yellow) is drawn by the
    presenter from what the variant declares: its arrival blinks, then it stays under later
    scenes until the pawn is taken, and the display tells the drop."""
    from hardware.leds.picture import render_scene
    from hardware.leds.scene import Colour, Pattern
    from referee.app.capture import StepCapture
    from referee.app.present import Presenter, picture_spots
    from referee.rules.events import GameEvent
    from referee.rules.notation import parse_action
    from tests.toy.variant import STAKE

    variant = make_variant("toy")
    assert variant.marker_kinds == (STAKE,)
    state, presenter = variant.initial_state(), Presenter()
    shown = []
    for text in ("b1b3", "drop=a4", "b3a3", "c4d4", "a3a4"):
        events: list[GameEvent] = []
        action = parse_action(text, variant, state)
        assert action in variant.legal_actions(state), text
        state = variant.apply(state, action, events)
        shown.append(presenter.update(events, turn=state.to_act))
    dropped = shown[1]
    assert dropped.scene["a4"].reason == "pawn dropped here"
    assert dropped.scene["a4"].pattern is Pattern.SLOW_BLINK
    assert dropped.scene["a4"].colour == Colour.YELLOW
    assert "pawn dropped on a4" in dropped.screen.lines
    later = shown[2].scene["a4"]  # a background layer under the next move
    assert (later.reason, later.pattern, later.colour) == ("staked pawn", Pattern.STEADY,
                                                          Colour.YELLOW)
    assert shown[3].scene["a4"].reason == "staked pawn"
    assert shown[4].scene["a4"].reason == "last move: to"  # the rook took the pawn
    assert presenter.markers["stake"] == frozenset()  # and its stake went with it
    spots = picture_spots(variant.layout)
    image = render_scene(shown[2].scene, spots)
    unstaked = render_scene(shown[2].scene.without(["a4"]), spots)
    assert image.height > unstaked.height  # a legend line of its own for the stake
    led_path, display_path = StepCapture(tmp_path, spots).write(shown[2], "b3a3")
    with Image.open(led_path) as written:
        assert written.width == image.width and written.height > image.height  # + title
    assert display_path.exists()


def test_the_toy_is_known_only_through_the_environment(toy: None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert "toy" not in VARIANTS and known_variants()["toy"] == "tests.toy.variant:Toy"
    assert make_variant("toy").help().splitlines()[1].startswith("drop=SQUARE")
    monkeypatch.setenv(EXTRA_VARIANTS_ENV, "toy=tests.toy.variant")
    with pytest.raises(UnknownVariantError, match="name=module:Class"):
        known_variants()
    monkeypatch.delenv(EXTRA_VARIANTS_ENV)
    with pytest.raises(UnknownVariantError):
        make_variant("toy")


def test_no_package_names_the_toy() -> None:
    """Adding it touched nothing outside its own files (the registry line is the variable)."""
    for package in ("referee", "hardware", "firmware_bridge", "vision"):
        for path in (ROOT / package).rglob("*.py"):
            assert "toy" not in path.read_text(encoding="utf-8").lower(), path


@pytest.mark.parametrize("entry", ["toy=no.such:Toy", "toy=referee.rules.state:State",
                                   "toy=referee.rules.state:Nope", "toy"])
def test_a_bad_extra_variant_is_one_line_and_exit_2(entry: str) -> None:
    env = {**os.environ, EXTRA_VARIANTS_ENV: entry}
    done = subprocess.run([sys.executable, "-c", "from referee.app.cli import main; "
                           "raise SystemExit(main())", "perft", "--variant", "toy", "1"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
