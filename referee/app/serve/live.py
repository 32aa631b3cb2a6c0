"""The one live game of ``gravekeeper serve``: the shared session, driven by one owner thread.

``serve`` runs the same session as ``watch``, ``demo`` and ``run`` (:mod:`referee.app.runner`:
one pump, one mapping of updates to LEDs, display, clock and buttons). What it adds is thin:

* the game store as the referee's recorder (:class:`StoreRecorder`): every action is committed
  to SQLite before any subscriber (LEDs, pages) hears of it, and a take-back drops it first;
* a subscriber that turns every update into per-audience JSON snapshots for the pages;
* commands from the pages, run through the referee's public API (take back, the board is set,
  adjudicate, pause, add time, a promotion piece, an off-board choice, the phone's buttons).

Why one owner thread: the pump (sensor events, ticks, Pi buttons) and the pages' commands are
taken in one order on one thread, so a command is checked and applied against the same game
(a player's choice is never judged against a position the pump has moved on from). The
asyncio side only queues commands and awaits their replies. The store belongs to this thread.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.errors import BridgeError
from referee.app.runner import Session
from referee.app.serve.joincodes import JoinCodes
from referee.app.serve.store import GameStore, StoredGame
from referee.app.serve.views import (
    AUDIENCES,
    VIEWER,
    Situation,
    build_view,
    choices_for,
)
from referee.live.session import ARBITER, Update
from referee.rules.errors import RecordError, RefereeError
from referee.rules.game import Game, Played
from referee.rules.pgn import game_pgn
from referee.rules.pieces import BLACK, COLOUR_NAMES, WHITE

Publish = Callable[[dict[str, str]], None]
RESULTS = ("1-0", "0-1", "1/2-1/2")
COLOURS = {"white": WHITE, "black": BLACK}
#: The longest player name the arbiter may give.
NAME_CHARS = 40


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


class StoreRecorder:
    """The game store as the referee's recorder (``referee.live.session.Recorder``): each
    action with the clock's times after it, in one transaction; a take-back drops it."""

    def __init__(self, store: GameStore, game_id: int,
                 clock_times: Callable[[], tuple[float, float] | None]) -> None:
        self.store = store
        self.game_id = game_id
        self.clock_times = clock_times

    def write(self, played: Played) -> None:
        self.store.append(self.game_id, played, self.clock_times())

    def take_back(self) -> None:
        if not self.store.drop_last(self.game_id):
            raise RecordError(f"game {self.game_id} has no stored action to take back")


class LiveGame:
    """Runs ``session`` with commands from the pages (see the module docstring).

    Args:
        store: the game store (used only from the owner thread after :meth:`start`).
        stored: the game row played (resumed when it already has actions).
        session: the opened session (its referee records to a :class:`StoreRecorder`).
        publish: called on the owner thread with audience -> JSON text after every change.
        join_codes: the player pages' QR codes on the board's display (None: no display).
    """

    def __init__(self, store: GameStore, stored: StoredGame, session: Session,
                 publish: Publish, join_codes: JoinCodes | None = None) -> None:
        self.store = store
        self.stored = stored
        self.session = session
        self.referee = session.referee
        self.game: Game = session.referee.game
        self.clock = session.clock
        self.publish = publish
        self.join_codes = join_codes
        self.situation = Situation(game_id=stored.id, players=store.players(stored.id))
        self.situation.paused = store.paused(stored.id)
        self.referee.subscribe(self._on_update)
        self.queue: queue.Queue[Command] = queue.Queue()
        self.seq = 0
        self.views: dict[str, str] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._clock_saved = 0.0

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        """Start the owner thread."""
        self._thread = threading.Thread(target=self._own, name="live-game", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the owner thread (the store holds everything already)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)

    def submit(self, role: str, body: dict[str, Any]) -> Future[dict[str, Any]]:
        """Queue a page's command; the future gives the reply or raises CommandError."""
        command = Command(role, body)
        self.queue.put(command)
        return command.done

    def hub_command(self, body: dict[str, Any]) -> None:
        """An arbiter command from the club hub: run as the arbiter page's (reply unused)."""
        self.submit("arbiter", body)

    def _own(self) -> None:
        if self.game.played:
            self._note(f"resumed game {self.stored.id} after {len(self.game.played)} actions")
        self.referee.start()  # the clock of the side to move; no increment given
        output = self.session.output
        if self.game.played and output is not None:
            output.show_game()  # a resumed game: its markers, last move and turn at once
        if self.situation.paused:  # an arbiter's pause outlives a restart
            self.referee.pause(ARBITER)
        self._refresh()
        pump = self.session.pump
        streaming = True
        while not self._stop.is_set():
            if streaming:
                streaming = self._guard(pump.step)
                if not streaming:
                    self._note("the sensor stream ended")
                    self._refresh()
            self._commands(wait=0.0 if streaming else pump.tick_s)
            if self.join_codes is not None:
                self.join_codes.idle()
            self._keep_clock(every=5.0)
        self._keep_clock(every=0.0)

    def _guard(self, step: Callable[[], bool]) -> bool:
        """One pump step; a failing sensor link or a bad step is noted, never fatal."""
        try:
            return step()
        except BridgeError as err:
            self._note(f"sensor: {err}")
            self.situation.link = str(err)
            self._refresh()
            self._stop.wait(0.5)
        except RefereeError as err:
            self._note(f"internal: {err}")
            self._refresh()
        return True

    def _commands(self, wait: float) -> None:
        try:
            command = self.queue.get(timeout=wait) if wait else self.queue.get_nowait()
        except queue.Empty:
            return
        while True:
            self._command(command)
            try:
                command = self.queue.get_nowait()
            except queue.Empty:
                return

    # ------------------------------------------------------------------ outputs

    def _on_update(self, update: Update) -> None:
        situation = self.situation
        if update.kind == "note":
            self._note(update.text)
        elif update.kind == "takeback":
            self._note(f"arbiter: {update.text}")
            situation.status_kind = "takeback"
            situation.status_text = f"the arbiter {update.text}: set the board"
        elif update.kind in ("paused", "resumed"):
            if update.text == ARBITER:  # the arbiter's page, or a flag fall taken back
                paused = update.kind == "paused"
                if paused != situation.paused:
                    self.store.set_paused(self.stored.id, paused)  # kept across a restart
                situation.paused = paused
        elif update.kind == "clock":
            self._note(f"arbiter: {update.text}")
        else:
            situation.status_kind, situation.status_text = update.kind, update.text
        if update.kind == "link":
            situation.link = update.text
        if update.kind == "prompt" and update.options and not update.default:
            situation.promotion = tuple(o or "-" for o in update.options)
        elif update.kind in ("action", "takeback", "ended"):
            situation.promotion = ()
        if update.kind == "action":
            situation.draw_offer = None
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
        times = self.clock_times()
        now = time.monotonic()
        if times is not None and now - self._clock_saved >= every:
            self.store.save_clock(self.stored.id, times)
            self._clock_saved = now

    def clock_times(self) -> tuple[float, float] | None:
        """White's and Black's time left now (None without a clock)."""
        return None if self.clock is None else self.clock.times()

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
        except (RefereeError, ValueError) as err:
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
            return {"pgn": game_pgn(self.game, {
                "Event": "Gravekeeper game", "Site": "Gravekeeper", "Round": str(self.stored.id),
                "White": self.situation.players.get("white", "?"),
                "Black": self.situation.players.get("black", "?")})}
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
        if op in ("button", "promote"):
            if self.game.state.to_act != colour:
                raise CommandError(403, f"it is not {name}'s choice now")
            if op == "promote":
                piece = body.get("piece")
                if not isinstance(piece, str) or len(piece) > 1:
                    raise CommandError(400, "promote needs a piece letter")
                if not self.situation.promotion or not self.referee.promote(piece):
                    raise CommandError(409, "no promotion to that piece waits now")
                return {"ok": True}
            button = body.get("name")
            if button not in ("back", "confirm"):
                raise CommandError(400, "button must be back or confirm")
            self.session.pump.press(str(button))
            return {"ok": True}
        if not live:
            raise CommandError(409, "the game is over")
        if op == "resign":
            self.referee.adjudicate("0-1" if colour == WHITE else "1-0", f"{name} resigned")
            return {"ok": True}
        if op == "draw":
            other = COLOUR_NAMES[BLACK if colour == WHITE else WHITE]
            if self.situation.draw_offer == other:
                self.referee.adjudicate("1/2-1/2", "draw agreed")
            else:
                self.situation.draw_offer = name
            return {"ok": True}
        if op == "decline":
            self.situation.draw_offer = None
            return {"ok": True}
        raise CommandError(403 if op in ARBITER_OPS else 400, f"unknown player op {op!r}")

    def _arbiter(self, op: str, body: dict[str, Any]) -> dict[str, Any]:
        if op in ("pause", "resume", "add_time") and self.clock is None:
            raise CommandError(409, "this game has no clock")
        if op in ("pause", "resume"):
            paused = op == "pause"
            self.store.set_paused(self.stored.id, paused)
            if paused:
                self.referee.pause(ARBITER)
            else:
                self.referee.resume(ARBITER)
        elif op == "add_time":
            colour, seconds = body.get("colour"), body.get("seconds")
            if colour not in COLOURS or not isinstance(seconds, int | float) \
                    or isinstance(seconds, bool) or not 0 < seconds <= 3600:
                raise CommandError(400, "add_time needs colour white/black and 1..3600 seconds")
            self.referee.add_time(COLOURS[str(colour)], float(seconds))
        elif op == "takeback":
            if not self.game.played:
                raise CommandError(409, "nothing to take back")
            self.referee.take_back()
        elif op == "adjudicate":
            result, reason = body.get("result"), body.get("reason", "arbiter's decision")
            if result not in RESULTS or not isinstance(reason, str) or len(reason) > 200:
                raise CommandError(400, "adjudicate needs result 1-0, 0-1 or 1/2-1/2")
            if self.game.outcome.result != "*":
                raise CommandError(409, "the game is already over")
            self.referee.adjudicate(str(result), reason or "arbiter's decision")
        elif op == "board_set":
            self._note("arbiter: the board is set")
            self.referee.board_set()
        elif op == "names":
            self._names(body)
        elif op == "show_qr":
            if self.join_codes is None:
                raise CommandError(409, "this board has no display")
            self.join_codes.request()
        else:
            raise CommandError(400, f"unknown arbiter op {op!r}")
        if op in ("pause", "resume", "add_time"):
            self._keep_clock(every=0.0)
        return {"ok": True}

    def _names(self, body: dict[str, Any]) -> None:
        names = {c: body.get(c) for c in COLOURS if body.get(c) is not None}
        if not names or not all(isinstance(n, str) and 0 < len(n.strip()) <= NAME_CHARS
                                and n.isprintable() for n in names.values()):
            raise CommandError(400, f"names needs white and/or black: 1..{NAME_CHARS} "
                                    "printable characters")
        for colour, text in names.items():
            self.store.set_player(self.stored.id, colour, str(text).strip())
        self.situation.players = self.store.players(self.stored.id)
        self._note("arbiter: players " + ", ".join(
            f"{c} {self.situation.players[c]}" for c in COLOURS))


ARBITER_OPS = ("pause", "resume", "add_time", "takeback", "adjudicate", "board_set", "names",
               "show_qr")


def role_viewer(role: str) -> int | None:
    """The colour a role sees as (None for spectator and arbiter)."""
    return VIEWER.get(role)
