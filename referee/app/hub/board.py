"""A board's side of the hub: its public game, published to the event's MQTT broker.

:func:`public_game` makes the one public picture of a game that leaves the board: the variant's
regions (for drawing), the squares as a spectator sees them (``Variant.view(state, None)``), the
public action texts (``Variant.public_action_text``), players, clock and status. It is built
from the rules' spectator view, so a secret never gets into it in the first place.

:class:`BoardPublisher` sends it. Why it keeps its own account of what the broker confirmed
(PUBACK) instead of trusting the MQTT client's queue: a board that loses the network keeps
refereeing, and when the network returns every action the broker never confirmed is sent
again, in order, followed by the retained state (which lists every move, so even a broker that
lost its queue loses nothing). The hub de-duplicates by (board, game, n). Nothing connects
until :meth:`BoardPublisher.start`.

Why stopping waits only briefly: the game is already in the board's own store (``serve``) or
journal, and a new publisher sends every action of its game from the first, so whatever the
broker had not confirmed when the board stopped goes on its next start. Waiting longer for a
broker that is away would only delay the stop.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from referee.app.hub.connection import LinkState, paho_client, refusal
from referee.app.hub.schema import MqttUrl, check_board_id, encode
from referee.rules.game import ADJUDICATE, Game
from referee.rules.pieces import COLOUR_NAMES


def layout_picture(game: Game) -> list[dict[str, Any]]:
    """The variant's regions as plain data: name and ``[square, plane, x, y]`` cells."""
    return [{"name": region.name,
             "cells": [[cell.text, cell.plane, cell.x, cell.y] for cell in region.cells]}
            for region in game.variant.layout.regions]


def public_moves(game: Game) -> list[tuple[str, str]]:
    """Every action played so far as everyone may see it, with who made it (adjudications
    are the result, not actions)."""
    variant = game.variant
    return [(COLOUR_NAMES.get(p.actor, "white"), variant.public_action_text(p.action))
            for p in game.played if p.action.kind != ADJUDICATE]


def public_game(game: Game, *, game_id: str, status: str = "playing",
                players: Mapping[str, str] | None = None,
                clock: Mapping[str, Any] | None = None,
                spectator_url: str | None = None) -> dict[str, Any]:
    """The public picture of ``game`` (see the module docstring); safe for any audience."""
    view = game.variant.view(game.state, None)
    sides, moves = zip(*public_moves(game), strict=True) if game.played else ((), ())
    outcome = game.outcome
    return {
        "game": game_id,
        "variant": game.variant.name,
        "title": getattr(game.variant, "title", game.variant.name),
        "layout": layout_picture(game),
        "view": view,
        "moves": list(moves),
        "sides": list(sides),
        "last": moves[-1] if moves else None,
        "to_act": COLOUR_NAMES.get(game.state.to_act, "white"),
        "result": outcome.result,
        "reason": outcome.reason,
        "status": "finished" if outcome.result != "*" else status,
        "players": dict(players or {"white": "White", "black": "Black"}),
        "clock": dict(clock) if clock else None,
        "spectator_url": spectator_url,
    }


class MqttClient(Protocol):
    """The part of ``paho.mqtt.client.Client`` the publisher uses (swappable in tests)."""

    def will_set(self, topic: str, payload: bytes, qos: int, retain: bool) -> Any: ...
    def connect_async(self, host: str, port: int, keepalive: int) -> Any: ...
    def loop_start(self) -> Any: ...
    def loop_stop(self) -> Any: ...
    def disconnect(self) -> Any: ...
    def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> Any: ...


class BoardPublisher:
    """Publishes one board's public game (see the module docstring). Thread-safe."""

    def __init__(self, url: MqttUrl, board: str, *,
                 client_factory: Callable[[MqttUrl, str], Any] = paho_client,
                 clock: Callable[[], float] = time.time, heartbeat: float = 10.0,
                 say: Callable[[str], None] | None = None) -> None:
        self.url = url
        self.link = LinkState(lambda problem: (say or _stderr)(
            f"hub {url.safe()}: {problem}; the board goes on refereeing and retrying, and "
            "sends what the hub missed when the broker answers"), tls=url.tls)
        self.heartbeat = heartbeat
        self._stopping = threading.Event()
        self.board = check_board_id(board)
        self._factory = client_factory
        self._clock = clock
        self._lock = threading.Lock()
        self._client: Any = None
        self._connected = False
        self._snapshot: dict[str, Any] | None = None
        self._join: dict[str, str] | None = None
        self._game = ""
        self._acked = 0            # actions 1..acked of the current game are confirmed
        self._sent = 0             # actions 1..sent handed to the client on this connection
        self._confirmed: set[int] = set()
        self._in_flight: dict[int, tuple[str, int]] = {}  # mid -> (game, n)
        self._acks: deque[int] = deque()  # mids the broker confirmed, not yet counted
        self._times: dict[int, float] = {}  # n -> when the action was first seen
        self.on_command: Callable[[dict[str, Any]], None] | None = None

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Connect in the background (and keep reconnecting); returns at once."""
        client = self._factory(self.url, f"gravekeeper-board-{self.url.event}-{self.board}")
        client.will_set(self._topic("status"), encode({"board": self.board,
                                                      "status": "offline"}), 1, True)
        client.on_connect = self._on_connect
        client.on_connect_fail = self.link.on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        self._client = client
        client.connect_async(self.url.host, self.url.port, 15)
        client.loop_start()
        threading.Thread(target=self._beat, name=f"hub-heartbeat-{self.board}",
                         daemon=True).start()

    def _beat(self) -> None:
        """Say "online" every ``heartbeat`` seconds: a hub marks a board that stays silent for
        three beats offline, which a last will cannot do when the broker itself restarted."""
        while not self._stopping.wait(self.heartbeat):
            with self._lock:
                if self._connected and self._client is not None:
                    self._send("status", {"board": self.board, "status": "online",
                                          "t": self._clock()}, retain=True)

    def stop(self, drain: float = 2.0) -> None:
        """Give the broker up to ``drain`` seconds to confirm what it has not confirmed yet
        (only while it is connected, or still answering the first attempt: a board stopping
        right after its last move), then say "offline" (retained) and disconnect. Anything
        still unconfirmed goes on the next start (see the module docstring)."""
        deadline = time.monotonic() + drain
        while self._client is not None and time.monotonic() < deadline and (
                not self.link.settled or (self._connected and self.pending)):
            if self._stopping.wait(0.02):
                break
        self._stopping.set()
        with self._lock:
            client, self._client = self._client, None
        if client is None:
            return
        try:
            info = client.publish(self._topic("status"), encode(
                {"board": self.board, "status": "offline", "t": self._clock()}), 1, True)
            if self._connected and hasattr(info, "wait_for_publish"):
                info.wait_for_publish(max(deadline - time.monotonic(), 0.5))
        except (RuntimeError, ValueError, OSError):
            pass
        client.disconnect()
        client.loop_stop()

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def pending(self) -> int:
        """Actions of the current game the broker has not confirmed yet."""
        with self._lock:
            self._take_acks()
            moves = self._snapshot["moves"] if self._snapshot else []
            return len(moves) - self._acked

    # ------------------------------------------------------------------ what the board says

    def publish(self, snapshot: dict[str, Any]) -> None:
        """The game's new public picture (from :func:`public_game`): new actions and state."""
        with self._lock:
            self._take_acks()
            old = self._snapshot
            if snapshot["game"] != self._game:
                self._game, self._acked, self._sent = snapshot["game"], 0, 0
                self._confirmed.clear()
                self._times.clear()
            elif old is not None:
                common = _common_prefix(old["moves"], snapshot["moves"])
                self._acked = min(self._acked, common)   # a take-back: resend from there
                self._sent = min(self._sent, common)
                self._confirmed = {n for n in self._confirmed if n <= common}
            now = self._clock()
            for n in range(1, len(snapshot["moves"]) + 1):
                self._times.setdefault(n, now)
            for n in [n for n in self._times if n > len(snapshot["moves"])]:
                del self._times[n]
            self._snapshot = snapshot
            if self._connected:
                self._flush()

    def publish_join(self, urls: Mapping[str, str]) -> None:
        """The player-page URLs, retained for the hub's arbiter page only."""
        with self._lock:
            self._join = dict(urls)
            if self._connected:
                self._send("join", {"board": self.board, "urls": self._join}, retain=True)

    # ------------------------------------------------------------------ inside (lock held)

    def _topic(self, kind: str) -> str:
        return self.url.topic(self.board, kind)

    def _send(self, kind: str, message: dict[str, Any], *, retain: bool) -> Any:
        return self._client.publish(self._topic(kind), encode(message), 1, retain)

    def _flush(self) -> None:
        """Send the actions not yet handed over on this connection, then the state."""
        snap = self._snapshot
        if snap is None or self._client is None:
            return
        moves = snap["moves"]
        for n in range(self._sent + 1, len(moves) + 1):
            info = self._send("actions", {"board": self.board, "game": snap["game"], "n": n,
                                          "text": moves[n - 1], "variant": snap["variant"],
                                          "t": self._times.get(n, self._clock())}, retain=False)
            self._in_flight[info.mid] = (snap["game"], n)
        self._sent = len(moves)
        self._send("state", {"board": self.board, "t": self._clock(), **snap}, retain=True)

    # ------------------------------------------------------------------ paho callbacks

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any = None) -> None:
        if getattr(reason, "is_failure", False):
            self.link.failed(refusal(reason))
            return
        self.link.ok()
        with self._lock:
            self._take_acks()
            self._connected = True
            self._sent = self._acked   # whatever was not confirmed goes again, in order
            self._in_flight.clear()
            client.publish(self._topic("status"), encode(
                {"board": self.board, "status": "online", "t": self._clock()}), 1, True)
            client.subscribe(self._topic("control"), 1)
            if self._join is not None:
                self._send("join", {"board": self.board, "urls": self._join}, retain=True)
            self._flush()

    # paho calls these two holding its own locks, so they must never wait for ours (paho's
    # publish(), called with our lock held, takes paho's lock: the other order deadlocks).

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any = None) -> None:
        self._connected = False
        if not self._stopping.is_set():
            self.link.on_disconnect(reason)

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any = None,
                    properties: Any = None) -> None:
        self._acks.append(mid)

    def _take_acks(self) -> None:
        """Count the broker's confirmations received since the last call (lock held)."""
        while self._acks:
            sent = self._in_flight.pop(self._acks.popleft(), None)
            if sent is None or sent[0] != self._game:
                continue
            self._confirmed.add(sent[1])
            while self._acked + 1 in self._confirmed:
                self._acked += 1

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        from referee.app.hub.schema import HubError, decode

        handler = self.on_command
        if handler is None:
            return
        try:
            handler(decode(message.payload))
        except HubError:
            return


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _stderr(line: str) -> None:
    sys.stderr.write(f"gravekeeper: {line}\n")
    sys.stderr.flush()
