"""``gravekeeper watch SENSOR_URL --variant V [--rig FILE] [--clock 5+3]``: referee a game from
a sensor, driving what the rig names (LEDs, display, Pi buttons) and a chess clock
(:mod:`referee.app.runner` wires it all).

Prints every recognised action on its own line in canonical NOTATION.md form as soon as it is
certain. Everything else (illegal moves, unknown positions, corrections, prompts, the closing
summary) is printed on lines starting with ``# `` so that the action lines can be read as a
plain move list.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import TextIO

from firmware_bridge.errors import BridgeError
from firmware_bridge.rig import Rig, load_rig
from hardware.clock import ChessClock
from hardware.errors import HardwareError
from referee.app.errors import CommandParser, fail, whole_number
from referee.app.runner import (
    SessionSettings,
    add_live_arguments,
    open_session,
    parse_time_control,
)
from referee.live.journal import Journal, open_journal
from referee.live.session import Referee, Update
from referee.rules.errors import RefereeError
from referee.rules.game import Game

#: Printed once a live sensor is open and has sent its first board (not for ``replay://``).
READY_LINE = "# link: sensor ready"


class TextOutput:
    """A subscriber that writes updates as watch lines.

    Why the wait: a camera may take back a move it decoded (a later picture shows the piece
    moved on; :attr:`referee.app.camera.CameraSensor.unsure`). An action line printed at once
    would stay in the move list, so while the sensor still doubts an action its line waits and
    a ``# seen:`` line says it at once; :meth:`flush` prints it when the sensor is sure (or
    the stream ended), and a take-back of a line not printed drops it.
    """

    def __init__(self, out: TextIO, game: Game | None = None,
                 unsure: Callable[[], tuple[int, int]] | None = None) -> None:
        self.out = out
        self.game = game
        self.unsure = unsure
        self._held: list[tuple[int, str]] = []  # (index in the game's history, line)

    def __call__(self, update: Update) -> None:
        if update.kind == "action" and self.game is not None and self.unsure is not None:
            self._held.append((len(self.game.played) - 1, update.text))
            self._write(f"# seen: {update.text}")
            # a game over (a mate) takes no more moves: its lines are printed now
            self.flush(every=self.game.outcome.result != "*")
            return
        if update.kind == "takeback" and self.game is not None and self._held \
                and self._held[-1][0] == len(self.game.played):
            self._held.pop()  # the action taken back: its line was never printed
        self._write(update.text if update.kind == "action" else f"# {update.kind}: {update.text}")
        if update.kind == "ended":
            self.flush(every=True)

    def flush(self, every: bool = False) -> None:
        """Print the held action lines the sensor no longer doubts (``every``: all of them)."""
        start, end = self.unsure() if self.unsure is not None and not every else (0, 0)
        while self._held and not start <= self._held[0][0] < end:
            self._write(self._held.pop(0)[1])

    def _write(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``gravekeeper watch``."""
    parser = CommandParser(prog="gravekeeper watch")
    parser.add_argument("url", help="sensor URL: replay://FILE, sim://..., serial://..., dgt://...")
    parser.add_argument("--seed", type=whole_number, default=0)
    add_live_arguments(parser)
    parser.add_argument("--clock-confirm", action="store_true",
                        help="recognise a move only when its player presses the clock")
    parser.add_argument("--private", default="",
                        help="off-board choices to use in order (e.g. 'bury=b2 bury=e8')")
    parser.add_argument("--realtime", action="store_true",
                        help="replay files at their own pace instead of as fast as possible")
    parser.add_argument("--journal", help="write every action here at once; if the file "
                        "already holds this game, resume it (after a crash or power cut)")
    return parser


def watch_main(argv: list[str]) -> int:
    """Entry point; returns the exit status (2 for bad arguments or an unusable sensor)."""
    from referee.app.cli import _options

    args = build_parser().parse_args(argv)
    try:
        settings = SessionSettings(
            variant=args.variant, options=_options(args.options), seed=args.seed,
            settle_ms=args.settle, clock_confirm=args.clock_confirm,
            private=tuple(args.private.split()), time_control=args.clock,
            hardware=bool(args.rig or args.leds or args.display), leds=args.leds,
            display=args.display)
        rig = load_rig(args.rig) if args.rig else None
    except (RefereeError, BridgeError) as err:
        print(f"gravekeeper watch: {err}", file=sys.stderr)
        return 2
    return run_live(args.url, settings, rig, args.journal, realtime=args.realtime,
                    hub=args.hub, board=args.board, command="watch")


def run_live(url: str, settings: SessionSettings, rig: Rig | None, journal_path: str | None,
             *, realtime: bool = False, command: str = "watch", hub: str | None = None,
             board: str | None = None) -> int:
    """Referee a game from the sensor at ``url`` until its stream ends (or Ctrl-C), printing
    watch lines (and publishing the public game to a club ``hub``, docs/hub.md); returns the
    exit status. Shared by ``watch`` and ``run``."""
    from referee.app.hub.link import HubLink, RefereeHubOutput

    journal = None
    publisher = None
    try:
        game = Game(settings.variant, settings.options, seed=settings.seed)
        if journal_path:
            journal, game = open_journal(journal_path, game)
        if hub:
            publisher = RefereeHubOutput(HubLink(hub, board), game)
    except (RefereeError, BridgeError, OSError) as err:
        return fail(f"gravekeeper {command}", err)
    out = TextOutput(sys.stdout, game)
    if game.played:
        out.out.write(f"# resumed from {journal_path} after {len(game.played)} actions\n")
    options = {"speed": 1.0 if realtime else 0.0} if url.startswith("replay:") else {}
    referee = None
    status = 0
    try:
        subscribers: list[Callable[[Update], None]] = [out]
        if publisher is not None:
            subscribers.append(publisher)
        with open_session(url, game, settings, rig=rig, subscribers=subscribers, journal=journal,
                          sensor_options=options, clock=_resumed_clock(settings, journal)
                          ) as session:
            referee = session.referee
            if journal is not None and session.clock is not None:
                journal.clock_times = session.clock.times
            if hasattr(session.sensor, "unsure"):  # a camera: its doubted moves' lines wait
                out.unsure = _doubts(session.sensor)
                session.pump.idle.append(out.flush)
            if not url.startswith("replay:"):
                # the sensor is open and synced: a person (or a script) may start playing now
                out.out.write(READY_LINE + "\n")
                out.out.flush()
            if publisher is not None:
                publisher.start(referee)  # the hub's arbiter commands run on the referee
            referee.start()
            try:
                with stop_requests() as stopped:
                    session.pump.run(stop=stopped)
            except KeyboardInterrupt:
                pass
    except (BridgeError, HardwareError, RefereeError, ValueError) as err:
        # the sensor, a device or the journal failed: the game so far is still summed up below
        status = fail(f"gravekeeper {command}", err)
    finally:
        out.flush(every=True)  # nothing is doubted once the stream ended
        if journal is not None:
            journal.close()
        if publisher is not None:
            publisher.close()
    if referee is not None:
        summary(referee, sys.stdout)
    return status


def _resumed_clock(settings: SessionSettings, journal: Journal | None) -> ChessClock | None:
    """The clock of a game resumed from ``journal`` with the times it kept (None: a new
    clock, or none, as the settings say)."""
    if journal is None or journal.resumed_clock is None or not settings.time_control:
        return None
    return ChessClock.resumed(parse_time_control(settings.time_control), *journal.resumed_clock)


@contextlib.contextmanager
def stop_requests() -> Iterator[Callable[[], bool]]:
    """Ctrl-C and SIGTERM (``kill``, systemd stopping ``run``) end the game between two steps of
    the pump: the lines still held are printed and the game summed up. Why not raise at once:
    an exception raised wherever the main thread stands lost a held line that was being printed
    (a busy machine, a ``kill`` while a move's line was written). A second signal raises at once
    (a pump that does not come back). Only the main thread can take signals."""
    asked: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return

    def ask(signum: int, frame: FrameType | None) -> None:
        if asked:
            raise KeyboardInterrupt
        asked.append(signum)

    previous = {sig: signal.signal(sig, ask) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield lambda: bool(asked)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _doubts(camera: object) -> Callable[[], tuple[int, int]]:
    """What a camera doubts now (``CameraSensor.unsure``: set on the camera's thread, read
    on the game's)."""
    def unsure() -> tuple[int, int]:
        start, end = getattr(camera, "unsure", (0, 0))
        return int(start), int(end)
    return unsure


def summary(referee: Referee, out: TextIO) -> None:
    """The closing lines: counts, result, final position (secret choices hidden)."""
    game = referee.game
    end = game.outcome
    result = f"{end.result} ({end.reason})" if end.result != "*" else "* (game goes on)"
    out.write(f"# summary: {referee.stats.actions} actions, {referee.stats.problems} problems, "
              f"result {result}\n")
    out.write(f"# moves: {' '.join(game.public_action_texts())}\n")
