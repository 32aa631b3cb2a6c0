"""The one live game of ``gravekeeper serve``: a thread that owns the :class:`Referee`.

Why one owner thread: the referee, its game and the store are plain objects that are not
thread-safe. Sensor events (from a reader thread) and commands from the web pages (from the
asyncio loop) are put on one queue; the owner thread takes them in order, applies them, writes
every applied action to the store before anyone hears of it, and hands finished per-audience
JSON snapshots to ``publish`` (which the web side forwards to its loop). This is the thin
adapter between the web service and the live session; the sensor pump mirrors
``referee.app.watch.run`` so that it can move to a shared runner without changing the pages.
"""

from __future__ import annotations

import functools
import json
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, cast

from firmware_bridge.errors import BridgeError, SensorTimeout
from firmware_bridge.events import Button
from firmware_bridge.sensor import Sensor
from hardware.clock import ChessClock
from referee.app.serve.leds import BoardLedOutput
from referee.app.serve.store import GameStore, StoredGame
from referee.app.serve.views import (
    AUDIENCES,
    VIEWER,
    Situation,
    build_view,
    choices_for,
)
from referee.live.session import ILLEGAL_POSITION, GameClock, Referee, Update
from referee.rules.errors import RefereeError
from referee.rules.pgn import game_pgn
from referee.rules.pieces import BLACK, COLOUR_NAMES, WHITE

Publish = Callable[[dict[str, str]], None]
RESULTS = ("1-0", "0-1", "1/2-1/2")
COLOURS = {"white": WHITE, "black": BLACK}


class CommandError(Exception):
    """A refused command: ``code`` is the HTTP-like status (400 bad, 403 forbidden, 409 now)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Command:
    """A request from a page: ``role`` (white/black/arbiter) and the JSON ``body``."""

    role: str
    body: dict[str, Any]
    done: Future[dict[str, Any]] = field(default_factory=Future)


class LiveGame:
    """Runs the game from ``sensor`` with commands from the pages (see the module docstring).

    Args:
        store: the game store (used only from the owner thread after :meth:`start`).
        stored: the game row to play (resumed when it already has actions).
        publish: called on the owner thread with audience -> JSON text after every change.
        clock: an optional chess clock the referee drives.
    """

    def __init__(self, store: GameStore, stored: StoredGame, sensor: Sensor, publish: Publish,
                 *, clock: ChessClock | None = None, settle_ms: int = 150,
                 leds: bool = True) -> None:
        self.store = store
        self.stored = stored
        self.sensor = sensor
        self.publish = publish
        self.clock = clock
        self.game = store.replay(stored)
        self.situation = Situation(game_id=stored.id)
        # FlagFell's colour is a frozen field, GameClock's FlagLike a plain attribute: same shape.
        self.leds = BoardLedOutput(sensor, self.game) if leds else None
        outputs: list[Callable[[Update], None]] = [self._on_update]
        if self.leds is not None:
            outputs.append(self.leds)
        self.referee = Referee(self.game, outputs, settle_ms=settle_ms,
                               clock=cast(GameClock, clock))
        self.queue: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.seq = 0
        self.views: dict[str, str] = {}
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._t0 = time.monotonic()
        self._replaying = False
        self.settle_ms = settle_ms
        self._clock_saved = 0.0

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        """Start the owner and the sensor reader threads."""
        self._threads = [threading.Thread(target=self._own, name="live-game", daemon=True),
                         threading.Thread(target=self._read, name="sensor", daemon=True)]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        """Stop both threads (the store holds everything already)."""
        self._stop.set()
        self.queue.put(("stop", None))
        for thread in self._threads:
            thread.join(timeout=3)
        if self.leds is not None:
            self.leds.close()

    def submit(self, role: str, body: dict[str, Any]) -> Future[dict[str, Any]]:
        """Queue a page's command; the future gives the reply or raises CommandError."""
        command = Command(role, body)
        self.queue.put(("command", command))
        return command.done

    def _now_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def _read(self) -> None:
        while not self._stop.is_set():
            try:
                event = self.sensor.get(timeout=0.1)
            except SensorTimeout:
                continue
            except BridgeError as err:
                self.queue.put(("link", str(err)))
                time.sleep(0.5)
                continue
            if event is None:
                self.queue.put(("end", None))
                return
            self.queue.put(("event", event))

    def _own(self) -> None:
        if self.game.played:
            self._note(f"resumed game {self.stored.id} after {len(self.game.played)} actions")
        self.referee.start()
        if self.clock is not None and self.game.played and self.game.state.turn != WHITE:
            self.clock.press(WHITE)  # a resumed game: the side to move runs, not White
        self._refresh()
        # MoveInference.tick counts a tick as activity, so the board is judged only when two
        # ticks are at least settle_ms apart: tick at that pace, not faster.
        period = self.settle_ms / 1000
        while True:
            try:
                kind, item = self.queue.get(timeout=period)
            except queue.Empty:
                self._guard(lambda: self.referee.tick(self._now_ms()))
                self._keep_clock(every=5.0)
                continue
            if kind == "stop":
                self._keep_clock(every=0.0)
                return
            if kind == "event":
                self._guard(functools.partial(self.referee.feed, item))
            elif kind == "command":
                self._command(item)
            elif kind == "link":
                self._note(f"sensor: {item}")
                self._refresh()
            elif kind == "end":
                self._guard(self.referee.finish)
                self._note("the sensor stream ended")
                self._refresh()

    def _guard(self, step: Callable[[], None]) -> None:
        try:
            step()
        except RefereeError as err:  # never let one bad step stop the game
            self._note(f"internal: {err}")
            self._refresh()

    # ------------------------------------------------------------------ outputs

    def _on_update(self, update: Update) -> None:
        if update.played is not None and not self._replaying:
            # committed before it is shown
            self.store.append(self.stored.id, update.played, self._clock_times())
        if update.kind == "note":
            self._note(update.text)
        else:
            self.situation.status_kind, self.situation.status_text = update.kind, update.text
        if update.kind == "link":
            self.situation.link = update.text
        if update.kind == "action":
            self.situation.draw_offer = None
        self._refresh()

    def _note(self, text: str) -> None:
        self.situation.notes.append(text)
        del self.situation.notes[:-50]

    def _refresh(self) -> None:
        self.seq += 1
        self.situation.at = round(time.time(), 4)
        self.situation.clock = self._clock_data()
        self.views = {a: json.dumps(build_view(self.game, a, self.situation, self.seq))
                      for a in AUDIENCES}
        self.publish(self.views)

    def _keep_clock(self, every: float) -> None:
        """Store the clock's times when ``every`` seconds passed since they were last stored
        (a crash loses at most that much thinking time)."""
        times = self._clock_times()
        now = time.monotonic()
        if times is not None and now - self._clock_saved >= every:
            self.store.save_clock(self.stored.id, times)
            self._clock_saved = now

    def _clock_times(self) -> tuple[float, float] | None:
        if self.clock is None:
            return None
        return self.clock.remaining(WHITE), self.clock.remaining(BLACK)

    def _clock_data(self) -> dict[str, Any] | None:
        clock = self.clock
        if clock is None:
            return None
        running = clock.running
        return {"white": round(clock.remaining(WHITE), 2),
                "black": round(clock.remaining(BLACK), 2),
                "running": COLOUR_NAMES[running] if running is not None else None,
                "paused": list(clock.paused)}

    # ------------------------------------------------------------------ commands

    def _command(self, command: Command) -> None:
        try:
            reply = self._run(command.role, command.body)
        except CommandError as err:
            self._refresh()
            command.done.set_exception(err)
        except RefereeError as err:
            self._refresh()
            command.done.set_exception(CommandError(409, str(err)))
        else:
            self._refresh()  # the pages have the new snapshot before the sender has its reply
            command.done.set_result(reply)

    def _run(self, role: str, body: dict[str, Any]) -> dict[str, Any]:
        op = body.get("op")
        if not isinstance(op, str):
            raise CommandError(400, "no op")
        if role in COLOURS:
            return self._player(COLOURS[role], op, body)
        if role == "arbiter":
            return self._arbiter(op, body)
        if role == "reader" and op == "pgn":
            stored = self.store.players(self.stored.id)
            return {"pgn": game_pgn(self.game, {
                "Event": "Gravekeeper game", "Site": "Gravekeeper", "Round": str(self.stored.id),
                "White": stored.get("white", "?"), "Black": stored.get("black", "?")})}
        raise CommandError(403, "spectators cannot act")

    def _player(self, colour: int, op: str, body: dict[str, Any]) -> dict[str, Any]:
        name = COLOUR_NAMES[colour]
        live = self.game.outcome.result == "*"
        if op == "act":
            text = body.get("action")
            if not isinstance(text, str):
                raise CommandError(400, "act needs an action text")
            if self.game.state.to_act != colour:
                raise CommandError(403, f"it is not {name}'s choice now")
            if text not in choices_for(self.game, colour):
                raise CommandError(409, "not one of your choices now")
            if self.referee.private_action(text) is None:
                raise CommandError(409, "the referee refused that choice")
            return {"ok": True}
        if op == "button":
            button = body.get("name")
            if button not in ("back", "confirm"):
                raise CommandError(400, "button must be back or confirm")
            if self.game.state.to_act != colour:
                raise CommandError(403, f"it is not {name}'s choice now")
            self.referee.feed(Button(self._now_ms(), str(button)))
            return {"ok": True}
        if not live:
            raise CommandError(409, "the game is over")
        if op == "resign":
            self._end("0-1" if colour == WHITE else "1-0", f"{name} resigned")
            return {"ok": True}
        if op == "draw":
            other = COLOUR_NAMES[BLACK if colour == WHITE else WHITE]
            if self.situation.draw_offer == other:
                self._end("1/2-1/2", "draw agreed")
            else:
                self.situation.draw_offer = name
            return {"ok": True}
        if op == "decline":
            self.situation.draw_offer = None
            return {"ok": True}
        raise CommandError(403 if op in ARBITER_OPS else 400, f"unknown player op {op!r}")

    def _end(self, result: str, reason: str) -> None:
        played = self.game.adjudicate(result, reason)
        if self.clock is not None:
            self.clock.stop()
        self.store.append(self.stored.id, played, self._clock_times())
        self.situation.status_kind, self.situation.status_text = "ended", f"{reason} - {result}"

    def _arbiter(self, op: str, body: dict[str, Any]) -> dict[str, Any]:
        clock = self.clock
        if op in ("pause", "resume", "add_time") and clock is None:
            raise CommandError(409, "this game has no clock")
        if op == "pause":
            assert clock is not None
            clock.pause("arbiter")
            self.situation.paused = True
        elif op == "resume":
            assert clock is not None
            clock.resume("arbiter")
            self.situation.paused = False
        elif op == "add_time":
            assert clock is not None
            colour, seconds = body.get("colour"), body.get("seconds")
            if colour not in COLOURS or not isinstance(seconds, int | float) \
                    or isinstance(seconds, bool) or not 0 < seconds <= 3600:
                raise CommandError(400, "add_time needs colour white/black and 1..3600 seconds")
            clock.add_time(COLOURS[str(colour)], float(seconds))
        elif op == "takeback":
            self._take_back()
        elif op == "adjudicate":
            result, reason = body.get("result"), body.get("reason", "arbiter's decision")
            if result not in RESULTS or not isinstance(reason, str) or len(reason) > 200:
                raise CommandError(400, "adjudicate needs result 1-0, 0-1 or 1/2-1/2")
            if self.game.outcome.result != "*":
                raise CommandError(409, "the game is already over")
            self._end(str(result), reason or "arbiter's decision")
        elif op == "board_set":
            # The arbiter says the pieces stand as the game says: judge the board against the
            # game anew; what still differs comes back as the referee's correction.
            self._note("arbiter: the board is set")
            self.situation.status_kind, self.situation.status_text = "good", "the board is set"
            self.referee._handle(self.referee.inference.resync(self.game.state))
            if self.clock is not None:
                self.clock.resume(ILLEGAL_POSITION)
        else:
            raise CommandError(400, f"unknown arbiter op {op!r}")
        if op in ("pause", "resume", "add_time"):
            self._keep_clock(every=0.0)
        return {"ok": True}

    def _take_back(self) -> None:
        """Take back the last stored action: the store first, then the game is rebuilt."""
        if not self.store.drop_last(self.stored.id):
            raise CommandError(409, "nothing to take back")
        self.stored = self.store.game(self.stored.id)
        game = self.store.replay(self.stored)
        # The referee keeps its outputs; its game and the inference's expectation follow.
        self.game = game
        self.referee.game = game
        self.situation.status_kind = "takeback"
        self.situation.status_text = "the arbiter took back the last action: set the board"
        self._note("arbiter: took back the last action")
        # What must change on the board now goes out as the referee's own correction update
        # (Referee has no public take-back yet; its decision handler is the one place that
        # turns inference decisions into updates, clock pauses included).
        self.referee._handle(self.referee.inference.resync(game.state))


ARBITER_OPS = ("pause", "resume", "add_time", "takeback", "adjudicate", "board_set")


def role_viewer(role: str) -> int | None:
    """The colour a role sees as (None for spectator and arbiter)."""
    return VIEWER.get(role)
