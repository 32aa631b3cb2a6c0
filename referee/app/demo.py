"""``gravekeeper demo --variant V``: a demonstration game through the whole physical path.

A scripted "player" plays the variant's curated showcase (referee/app/showcases: the
variant's signature within a few turns; random legal actions, seeded, with ``--random``) and
carries the actions out by hand on the simulated sensor board (``sim://``: the reference
firmware behind a real pseudo-terminal). The board's events travel through the firmware bridge
to move inference and the referee, whose
updates drive the LEDs (on the simulated board, over the protocol) and a display (luma's dummy
device). Each step prints the board, the LED map and the display text; ``--capture DIR`` also
writes them as PNG pictures. Off-board choices (a Zombie burial, a Masquerade assignment) are
made as a player would on a phone. The session (sensor, referee, LEDs, display, event pump) is
:mod:`referee.app.runner`'s, the same as ``watch`` and ``run`` use.

``gravekeeper demo SENSOR_URL`` shows the same for a game played elsewhere, as ``watch`` and
``serve`` take any sensor: a camera (``camera:///path/game.mp4``, ``camera://0``), a DGT
board, an event file. Nobody plays on a simulated board then: each action the referee makes
of what the sensor sees is printed with the LED map (mock LEDs) and the display text, until
the stream ends or Ctrl-C. Why: the camera referee's LEDs and display could otherwise only be
seen on a rig's hardware.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from referee.app.errors import CommandParser, fail, float_in, int_in, whole_number
from referee.app.runner import Pump, SessionSettings, open_session
from referee.app.showcase import ActionSource, check_showcase, scripted_source
from referee.live.physical import Step, physical_steps
from referee.live.session import Referee, Update
from referee.rules import actions as A
from referee.rules.game import Game
from referee.rules.pieces import COLOUR_NAMES

#: How long the demo's hands wait for the board to be quiet before going on (seconds).
QUIET_S = 0.35
CATCH_UP_S = 5.0  # longest wait for the referee to judge a turn's last move
WAIT_MS = 300  # a pause this long in hand steps waits for the referee's answer
PATTERN_MARKS = {"STEADY": "o", "SLOW_BLINK": "*", "FAST_BLINK": "!", "PULSE": "~"}


class DemoPrinter:
    """Prints each shown update (board, LED map, display text) and optionally writes it as
    PNG pictures; called by the session's :class:`~referee.app.runner.HardwareOutput`."""

    def __init__(self, game: Game, out: TextIO, capture: Path | None) -> None:
        self.game = game
        self.out = out
        self.names = [game.variant.layout.name(sq) for sq in range(game.variant.layout.size)]
        self.capture: Any = None
        if capture is not None:
            from referee.app.capture import StepCapture
            from referee.app.present import picture_spots
            self.capture = StepCapture(capture, picture_spots(game.variant.layout))
        self.step = 0

    def __call__(self, update: Update, shown: Any) -> None:
        self.step += 1
        if self.capture is not None:
            self.capture.write(shown, f"{self.step}: {update.text}")
        self._print(update, shown)

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
    """Picks actions for both sides (from ``source``) and carries them out on the simulated board.

    ``source`` decides WHAT is played (a showcase script, or random legal actions); the rest of
    the demo decides HOW (hand steps on the simulated board, the referee, the outputs).
    """

    def __init__(self, variant: str, options: dict[str, Any], seed: int, noise: bool,
                 source: ActionSource | None = None) -> None:
        self.truth = Game(variant, options, seed=seed)
        self.rng = random.Random(seed)
        self.noise = noise
        self.source = source if source is not None else random_source(self.rng)
        self.notes: list[str] = []
        self.done = False

    def _next(self) -> A.Action | None:
        if self.done:
            return None
        picked = self.source(self.truth)
        if picked is None:
            self.done = True
            return None
        action, note = picked
        if note:
            self.notes.append(note)
        return action

    def turn(self) -> tuple[list[A.Action], Any] | None:
        """The actions of the next turn (a move and the physical choices that go with it), or
        None when the source has nothing more to play."""
        before = self.truth.state
        first = self._next()
        if first is None:
            return None
        turn = [first]
        self.truth.play(first)
        while (self.truth.outcome.result == "*" and self.truth.state.to_act == before.to_act
               and self.truth.legal() and self._made_on_board_choice(self.truth.legal()[0])):
            action = self._next()
            if action is None:
                break
            turn.append(action)
            self.truth.play(action)
        return turn, before

    def _made_on_board_choice(self, action: A.Action) -> bool:
        """Whether ``action`` is a choice of square made by putting a piece down (a Hell home)."""
        return action.kind in self.truth.variant.placing_kinds

    def off_board_choice(self) -> str | None:
        """A choice the game waits for that is made off the board, or None."""
        legal = self.truth.legal()
        kinds = self.truth.variant.kinds
        if (self.truth.outcome.result == "*" and legal
                and kinds[legal[0].kind].done_by in A.OFF_BOARD):
            action = self._next()
            if action is None:
                return None
            text = self.truth.variant.format_action(action)
            self.truth.play(action)
            return text
        return None


def random_source(rng: random.Random) -> ActionSource:
    """An :data:`ActionSource` of random legal actions (``--random``), forever."""
    def next_action(game: Game) -> tuple[A.Action, str] | None:
        legal = game.legal()
        return (rng.choice(legal), "") if legal else None
    return next_action


def showcase_source(variant: str, options: dict[str, Any] | None = None,
                    seed: int = 1) -> ActionSource:
    """The curated showcase of ``variant`` (referee/app/showcases/VARIANT.txt) as a source,
    checked first against the engine with ``options``.

    Raises:
        RefereeError: no such variant or showcase, or the showcase does not fit ``options``.
    """
    return scripted_source(check_showcase(variant, options, seed))


def perform(sim: Any, game: Game, steps: list[Step], pump: Pump) -> None:
    """Carry out hand steps on the simulated board (buttons only once the board settled)."""
    name = game.variant.layout.name
    for step in steps:
        if step.gap_ms >= WAIT_MS and step.kind in ("lift", "place"):
            pump.until_quiet(QUIET_S)  # the hand waits for the referee (a refused capture)
        if step.kind == "lift":
            sim.lift(name(step.square))
        elif step.kind == "place":
            sim.place(name(step.square))
        elif step.kind == "die":
            pump.until_quiet(QUIET_S)
            sim.roll(int(step.value))
        else:
            pump.until_quiet(QUIET_S)
            sim.press(step.value)


def run_demo(variant: str, options: dict[str, Any], seed: int, turns: int, out: TextIO,
             capture: Path | None = None, pace: float = 0.0, noise: bool = False,
             firmware: str = "python", source: ActionSource | None = None) -> Game:
    """Play up to ``turns`` turns through the simulated board; returns the referee's game.

    ``firmware`` is the board's (``sim://``'s option): ``python``, or ``micropython`` for
    ``pico_main.py`` on the real interpreter. ``source`` picks the actions
    (:func:`showcase_source` or :func:`random_source`; random by default)."""
    player = Player(variant, options, seed, noise, source)
    game = Game(variant, options, seed=seed)
    occupied = [game.variant.layout.name(sq) for sq, p in enumerate(game.state.board) if p]
    url = f"sim://?variant={variant}&start={','.join(occupied) or 'empty'}&firmware={firmware}"
    printer = DemoPrinter(game, out, capture)
    settings = SessionSettings(variant=variant, options=options, seed=seed, leds="board",
                               display="dummy")
    with open_session(url, game, settings, on_shown=printer) as session:
        referee, pump = session.referee, session.pump
        pump.until_quiet(QUIET_S)  # the board's first snapshot
        referee.start()
        for _ in range(turns):
            _private_choices(player, referee, out)
            if player.truth.outcome.result != "*":
                break
            picked = player.turn()
            _say_notes(player, out)
            if picked is None:
                break
            actions, before = picked
            steps = physical_steps(player.truth.variant, before, actions, player.rng,
                                   noise=noise)
            perform(session.sensor.simulator, game, steps, pump)  # type: ignore[attr-defined]
            pump.until_quiet(QUIET_S)
            _catch_up(pump, game, player.truth)
            _private_choices(player, referee, out)
            if pace:
                time.sleep(pace)  # only so that a person can follow the demo
    return game


def _catch_up(pump: Pump, game: Game, truth: Game) -> None:
    """Pump until the referee has played as many actions as the hand made (at most
    CATCH_UP_S): a slow board (the MicroPython firmware on a busy machine) can be quiet for
    QUIET_S before its last events, and the demo's last move was then never judged."""
    deadline = time.monotonic() + CATCH_UP_S
    while len(game.played) < len(truth.played) and time.monotonic() < deadline and pump.step():
        pass


def _say_notes(player: Player, out: TextIO) -> None:
    for note in player.notes:
        out.write(f">>> {note}\n")
    player.notes.clear()


def _private_choices(player: Player, referee: Referee, out: TextIO) -> None:
    while (text := player.off_board_choice()) is not None:
        _say_notes(player, out)
        referee.private_action(text)


def run_sensor_demo(url: str, variant: str, options: dict[str, Any], seed: int, out: TextIO,
                    capture: Path | None = None) -> Game:
    """The demo's steps (board, LED map, display text; PNGs in ``capture``) for the game the
    sensor at ``url`` sees, until its stream ends or Ctrl-C / SIGTERM; returns the game."""
    from referee.app.watch import stop_requests

    game = Game(variant, options, seed=seed)
    printer = DemoPrinter(game, out, capture)
    settings = SessionSettings(variant=variant, options=options, seed=seed, leds="mock",
                               display="dummy")
    with open_session(url, game, settings, on_shown=printer) as session, \
            stop_requests() as stopped:
        session.referee.start()
        session.pump.run(stop=stopped)
    return game


#: More turns than any game lasts (the demo stops when the game ends anyway).
MAX_TURNS = 2000
TURNS = 24  # the demo's own board plays this many turns unless told otherwise
#: What only the demo's own simulated board does: refused beside a sensor URL.
OWN_BOARD_ONLY = ("turns", "pace", "noise", "firmware", "random")


def demo_main(argv: list[str]) -> int:
    """``gravekeeper demo [--variant V] [--random] [--turns N] [--seed N] [--capture DIR]``"""
    from referee.app.cli import _options

    parser = CommandParser(prog="gravekeeper demo")
    parser.add_argument("url", nargs="?", metavar="SENSOR_URL",
                        help="referee what this sensor sees (camera://..., dgt://..., "
                        "replay://...) instead of playing on the simulated board")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--options", help="variant options as a JSON object")
    parser.add_argument("--seed", type=whole_number, default=1)
    parser.add_argument("--turns", type=int_in(0, MAX_TURNS),
                        help=f"at most this many turns ({TURNS})")
    parser.add_argument("--capture", type=Path, help="write LED and display PNGs here")
    parser.add_argument("--pace", type=float_in(0.0, 60.0),
                        help="seconds to pause per turn (0)")
    parser.add_argument("--noise", action="store_true", help="add switch bounce and brushes")
    parser.add_argument("--firmware", choices=("python", "micropython"),
                        help="the simulated board runs the firmware's logic in this process "
                        "(python, the default), or pico_main.py on MicroPython's Unix port")
    parser.add_argument("--random", action="store_true",
                        help="random legal moves instead of the variant's showcase")
    args = parser.parse_args(argv)
    if args.capture is not None and args.capture.exists() and not args.capture.is_dir():
        return fail("gravekeeper demo", f"--capture {args.capture}: exists and is not a folder")
    options = _options(args.options)
    if args.url is not None:
        given = [f"--{name}" for name in OWN_BOARD_ONLY
                 if getattr(args, name) is not None and getattr(args, name) is not False]
        if given:
            return fail("gravekeeper demo", f"{' and '.join(given)}: only for the demo's own "
                        "simulated board, not with a sensor URL")
        if args.url.startswith("sim:"):
            return fail("gravekeeper demo", f"{args.url[:60]}: nobody plays on a simulated "
                        "board given as a URL: run `gravekeeper demo` without one")
        game = run_sensor_demo(args.url, args.variant, options, args.seed, sys.stdout,
                               args.capture)
    else:
        source = None if args.random else showcase_source(args.variant, options, args.seed)
        game = run_demo(args.variant, options, args.seed,
                        TURNS if args.turns is None else args.turns, sys.stdout, args.capture,
                        args.pace or 0.0, args.noise, args.firmware or "python", source)
    end = game.outcome
    print(f"=== {len(game.played)} actions refereed; result {end.result} {end.reason}".rstrip())
    print("=== moves: " + " ".join(game.public_action_texts()))
    return 0
