"""``--hub mqtt://HOST:PORT/EVENT``: one board's link to the club hub, for ``watch``, ``run`` and
``serve`` alike.

After every change the game's public picture (:func:`referee.app.hub.board.public_game`, built
from the rules' spectator view) goes to the broker; a ``serve`` board also sends its player
pages' URLs once, on the ``join`` topic only the hub's arbiter page shows. Arbiter commands
from the hub arrive on the board's ``control`` topic as the ops of ``serve``'s arbiter page
(:func:`arbiter_op`); ``watch`` and ``run`` run them on the referee's public API
(:func:`run_on_referee`), ``serve`` through its own arbiter page's path. Secrets never leave the
board: the hub is a spectator.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from referee.app.hub.board import BoardPublisher, public_game
from referee.app.hub.schema import HubError, check_board_id, parse_mqtt_url
from referee.rules.errors import RefereeError
from referee.rules.pieces import BLACK, WHITE

if TYPE_CHECKING:
    from referee.live.session import Referee, Update
    from referee.rules.game import Game

#: hub command -> the arbiter page's op
OPS: Final = {"pause": "pause", "resume": "resume", "takeback": "takeback",
              "adjudicate": "adjudicate", "add_time": "add_time", "confirm_board": "board_set"}
#: update / status kinds shown as "waiting for a correction" on the dashboard
CORRECTION: Final = ("correction", "problem", "illegal")
COLOURS: Final = {"white": WHITE, "black": BLACK}


def arbiter_op(message: Mapping[str, Any]) -> dict[str, Any] | None:
    """A hub command as the arbiter page's command body (None: not a command)."""
    op = OPS.get(str(message.get("command")))
    if op is None:
        return None
    body: dict[str, Any] = {"op": op}
    if isinstance(message.get("result"), str):
        body["result"] = message["result"]
    if op == "add_time":
        body["colour"], body["seconds"] = message.get("side"), message.get("seconds")
    return body


def run_on_referee(referee: Referee, body: Mapping[str, Any]) -> bool:
    """Run an arbiter op on ``referee`` (thread-safe: the referee locks); False when it is
    refused (nothing to take back, a bad result, no clock...)."""
    op = body.get("op")
    try:
        if op == "pause":
            referee.pause("arbiter")
        elif op == "resume":
            referee.resume("arbiter")
        elif op == "takeback":
            referee.take_back()
        elif op == "adjudicate":
            referee.adjudicate(str(body.get("result")), "arbiter's decision")
        elif op == "board_set":
            referee.board_set()
        elif op == "add_time":
            seconds = body.get("seconds")
            if body.get("colour") not in COLOURS or not isinstance(seconds, int | float) \
                    or isinstance(seconds, bool) or not 0 < seconds <= 3600:
                return False
            referee.add_time(COLOURS[str(body["colour"])], float(seconds))
        else:
            return False
    except (RefereeError, ValueError):
        return False
    return True


def status_of(kind: str, paused: bool = False) -> str:
    """The dashboard's status for the last update (or status) ``kind``."""
    if paused:
        return "paused"
    return "correction" if kind in CORRECTION else "playing"


class HubLink:
    """Publishes one board's game to the hub (see the module docstring).

    Raises (from the constructor):
        RefereeError: a bad hub URL or board id (one line for the command to print).
    """

    def __init__(self, url: str, board: str | None, game_id: str | None = None, *,
                 urls: Mapping[str, str] | None = None,
                 say: Callable[[str], None] | None = None) -> None:
        try:
            name = check_board_id(board or socket.gethostname().split(".")[0])
            self.publisher = BoardPublisher(parse_mqtt_url(url), name, say=say)
        except HubError as err:
            raise RefereeError(str(err)) from None
        self.game_id = f"{name}-{game_id or int(time.time())}"
        self.urls = dict(urls or {})

    @property
    def board(self) -> str:
        return self.publisher.board

    def start(self, on_command: Callable[[dict[str, Any]], None] | None = None) -> None:
        """Connect (in the background); ``on_command`` gets the hub's arbiter commands as
        the arbiter page's command bodies."""
        if on_command is not None:
            def command(message: dict[str, Any]) -> None:
                body = arbiter_op(message)
                if body is not None:
                    on_command(body)
            self.publisher.on_command = command
        self.publisher.start()
        if "white" in self.urls and "black" in self.urls:
            self.publisher.publish_join({"white": self.urls["white"],
                                         "black": self.urls["black"]})

    def publish(self, game: Game, status: str = "playing", *,
                clock: Mapping[str, Any] | None = None,
                players: Mapping[str, str] | None = None) -> None:
        """The game's public picture now."""
        self.publisher.publish(public_game(game, game_id=self.game_id, status=status,
                                           clock=clock, players=players,
                                           spectator_url=self.urls.get("spectator")))

    def close(self) -> None:
        self.publisher.stop()


class RefereeHubOutput:
    """``watch`` and ``run``: a subscriber publishing the game after every update; the hub's
    arbiter commands run on the referee (call :meth:`start` once the referee exists)."""

    def __init__(self, link: HubLink, game: Game) -> None:
        self.link = link
        self.game = game
        self.paused = False

    def start(self, referee: Referee) -> None:
        def command(body: dict[str, Any]) -> None:
            run_on_referee(referee, body)

        self.link.start(command)
        self.link.publish(self.game)

    def __call__(self, update: Update) -> None:
        if update.kind in ("paused", "resumed") and update.text == "arbiter":
            self.paused = update.kind == "paused"
        self.link.publish(self.game, status_of(update.kind, self.paused))

    def close(self) -> None:
        self.link.close()
