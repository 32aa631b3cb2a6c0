"""``gravekeeper demo --variant V``: a demonstration game through the whole physical path.

A scripted "player" picks random legal actions (seeded) and carries them out by hand on the
simulated sensor board (``sim://``: the reference firmware behind a real pseudo-terminal). The
board's events travel through the firmware bridge to move inference and the referee, whose
updates drive the LEDs (on the simulated board, over the protocol) and a display (luma's dummy
device). Each step prints the board, the LED map and the display text; ``--capture DIR`` also
writes them as PNG pictures. Off-board choices (a Zombie burial, a Masquerade assignment) are
made as a player would on a phone.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from firmware_bridge import open_sensor
from firmware_bridge.errors import SensorTimeout
from firmware_bridge.sensor import Sensor
from referee.app.errors import CommandParser, fail, float_in, int_in, whole_number
from referee.live.physical import Step, physical_steps
from referee.live.session import Referee, Update
from referee.rules import actions as A
from referee.rules.game import Game
from referee.rules.pieces import COLOUR_NAMES

OFF_BOARD = (A.BURY, A.ASSIGN, A.PROMOTE)
PHYSICAL_CHOICES = (A.HOME, A.SPAWN, A.DROP)
PATTERN_MARKS = {"STEADY": "o", "SLOW_BLINK": "*", "FAST_BLINK": "!", "PULSE": "~"}


class DemoOutputs:
    """The referee's outputs in the demo: LEDs, display, text and optional pictures."""

    def __init__(self, game: Game, sensor: Sensor, out: TextIO, capture: Path | None) -> None:
        from hardware.display.backends import open_display
        from hardware.leds.factory import open_player
        from referee.app.present import Presenter

        self.game = game
        self.out = out
        self.names = [game.variant.layout.name(sq) for sq in range(game.variant.layout.size)]
        self.presenter = Presenter()
        self.leds = open_player("board", sink=sensor, squares=self.names)
        self.display = open_display("dummy")
        self.capture: Any = None
        if capture is not None:
            from referee.app.capture import StepCapture
            self.capture = StepCapture(capture, self.names)
        self.step = 0

    def close(self) -> None:
        """Turn the LEDs off and release the display."""
        self.leds.close()
        self.display.close()

    def __call__(self, update: Update) -> None:
        shown = self._present(update)
        if shown is None:
            return
        self.leds.show(shown.scene)
        self.display.show(shown.screen)
        self.step += 1
        if self.capture is not None:
            self.capture.write(shown, f"{self.step}: {update.text}")
        self._print(update, shown)

    def _present(self, update: Update) -> Any:
        from hardware.display import screen as screens
        from referee.app.present import Presentation

        name = self.game.variant.layout.name
        if update.kind == "action":
            return self.presenter.update(update.events, turn=update.state.to_act)
        if update.problem is not None:
            return self.presenter.problem(update.text, [name(s) for s in update.problem.to_empty],
                                          [name(s) for s in update.problem.to_fill])
        if update.correction is not None:
            return self.presenter.correction([name(s) for s in update.correction.to_empty],
                                             [name(s) for s in update.correction.to_fill])
        if update.kind == "prompt":
            scene = self.presenter.update([], turn=update.state.to_act).scene
            return Presentation(scene, screens.prompt(update.state.to_act, update.text))
        return None

    def _print(self, update: Update, shown: Any) -> None:
        who = ""
        if update.played is not None:
            who = f"{COLOUR_NAMES[update.played.actor]}: "
        label = "" if update.kind == "action" else f"[{update.kind}] "
        lines = [f"--- step {self.step}: {label}{who}{update.text}"]
        if update.kind == "action":
            lines.append(self.game.variant.render(update.state, None))
        lit = sorted(shown.scene.lights.items())
        leds = " ".join(f"{sq}{PATTERN_MARKS.get(light.pattern.name, '?')}" for sq, light in lit)
        lines.append(f"LEDs: {leds or '(dark)'}   (o steady, * slow blink, ! fast, ~ pulse)")
        screen = shown.screen
        lines.append("Display: " + " | ".join([screen.title, *screen.lines]))
        self.out.write("\n".join(lines) + "\n")
        self.out.flush()


class Player:
    """Picks actions for both sides and carries them out on the simulated board."""

    def __init__(self, variant: str, options: dict[str, Any], seed: int, noise: bool) -> None:
        self.truth = Game(variant, options, seed=seed)
        self.rng = random.Random(seed)
        self.noise = noise

    def turn(self) -> tuple[list[A.Action], Any]:
        """The actions of the next turn (a move and the physical choices that go with it)."""
        before = self.truth.state
        turn = [self.rng.choice(self.truth.legal())]
        self.truth.play(turn[0])
        while (self.truth.outcome.result == "*" and self.truth.state.to_act == before.to_act
               and self.truth.legal() and self.truth.legal()[0].kind in PHYSICAL_CHOICES):
            turn.append(self.rng.choice(self.truth.legal()))
            self.truth.play(turn[-1])
        return turn, before

    def off_board_choice(self) -> str | None:
        """A choice the game waits for that is made off the board, or None."""
        legal = self.truth.legal()
        if self.truth.outcome.result == "*" and legal and legal[0].kind in OFF_BOARD:
            text = self.truth.variant.format_action(self.rng.choice(legal))
            self.truth.play(text)
            return text
        return None


def drain(sensor: Sensor, referee: Referee, start: float, quiet: float = 0.35) -> None:
    """Feed the sensor's events to the referee until the board has been quiet a while."""
    while True:
        try:
            event = sensor.get(timeout=quiet)
        except SensorTimeout:
            referee.tick(int((time.monotonic() - start) * 1000) + 1000)
            return
        if event is None:
            return
        referee.feed(event)


def perform(sim: Any, game: Game, steps: list[Step], sensor: Sensor, referee: Referee,
            start: float) -> None:
    """Carry out hand steps on the simulated board (buttons only once the board settled)."""
    name = game.variant.layout.name
    for step in steps:
        if step.kind == "lift":
            sim.lift(name(step.square))
        elif step.kind == "place":
            sim.place(name(step.square))
        elif step.kind == "die":
            drain(sensor, referee, start)
            sim.roll(int(step.value))
        else:
            drain(sensor, referee, start)
            sim.press(step.value)


def run_demo(variant: str, options: dict[str, Any], seed: int, turns: int, out: TextIO,
             capture: Path | None = None, pace: float = 0.0, noise: bool = False) -> Game:
    """Play ``turns`` turns through the simulated board; returns the referee's game."""
    player = Player(variant, options, seed, noise)
    game = Game(variant, options, seed=seed)
    occupied = [game.variant.layout.name(sq) for sq, p in enumerate(game.state.board) if p]
    url = f"sim://?variant={variant}&start={','.join(occupied) or 'empty'}"
    with open_sensor(url) as sensor:
        outputs = DemoOutputs(game, sensor, out, capture)
        referee = Referee(game, [outputs])
        start = time.monotonic()
        try:
            drain(sensor, referee, start)  # the board's first snapshot
            referee.start()
            for _ in range(turns):
                _private_choices(player, referee)
                if player.truth.outcome.result != "*":
                    break
                actions, before = player.turn()
                steps = physical_steps(player.truth.variant, before, actions, player.rng,
                                       noise=noise)
                perform(sensor.simulator, game, steps, sensor, referee, start)  # type: ignore[attr-defined]
                drain(sensor, referee, start)
                _private_choices(player, referee)
                if pace:
                    time.sleep(pace)  # only so that a person can follow the demo
        finally:
            outputs.close()
    return game


def _private_choices(player: Player, referee: Referee) -> None:
    while (text := player.off_board_choice()) is not None:
        referee.private_action(text)


#: More turns than any game lasts (the demo stops when the game ends anyway).
MAX_TURNS = 2000


def demo_main(argv: list[str]) -> int:
    """``gravekeeper demo [--variant V] [--turns N] [--seed N] [--capture DIR]``"""
    from referee.app.cli import _options

    parser = CommandParser(prog="gravekeeper demo")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--options", help="variant options as a JSON object")
    parser.add_argument("--seed", type=whole_number, default=1)
    parser.add_argument("--turns", type=int_in(0, MAX_TURNS), default=24)
    parser.add_argument("--capture", type=Path, help="write LED and display PNGs here")
    parser.add_argument("--pace", type=float_in(0.0, 60.0), default=0.0,
                        help="seconds to pause per turn")
    parser.add_argument("--noise", action="store_true", help="add switch bounce and brushes")
    args = parser.parse_args(argv)
    if args.capture is not None and args.capture.exists() and not args.capture.is_dir():
        return fail("gravekeeper demo", f"--capture {args.capture}: exists and is not a folder")
    game = run_demo(args.variant, _options(args.options), args.seed, args.turns, sys.stdout,
                    args.capture, args.pace, args.noise)
    end = game.outcome
    print(f"=== {len(game.played)} actions refereed; result {end.result} {end.reason}".rstrip())
    print("=== moves: " + " ".join(game.action_texts()))
    return 0
