"""``serve --hub mqtt://HOST:PORT/EVENT``: this board's public game, published to the event's hub.

After every change the live game's public picture (:func:`referee.app.hub.board.public_game`,
built from the rules' spectator view) goes to the broker; the player pages' URLs go once, on the
``join`` topic only the hub's arbiter page shows. Arbiter commands from the hub arrive on the
board's ``control`` topic and are run exactly like the board's own arbiter page's. Secrets never
leave the board: the hub is a spectator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from referee.app.hub.board import BoardPublisher, public_game
from referee.app.hub.schema import parse_mqtt_url

if TYPE_CHECKING:
    from referee.app.serve.live import LiveGame

#: hub command -> the arbiter page's op
OPS: Final = {"pause": "pause", "resume": "resume", "takeback": "takeback",
              "adjudicate": "adjudicate", "add_time": "add_time", "confirm_board": "board_set"}
#: the live game's status kinds shown as "waiting for a correction" on the dashboard
CORRECTION: Final = ("correction", "problem", "illegal")


class HubLink:
    """Publishes one ``serve``'s game to the hub (see the module docstring)."""

    def __init__(self, url: str, board: str, urls: dict[str, str]) -> None:
        self.publisher = BoardPublisher(parse_mqtt_url(url), board)
        self.urls = urls
        self.live: LiveGame | None = None

    def attach(self, live: LiveGame) -> None:
        """Start publishing ``live`` (its owner thread calls :meth:`update` after changes)."""
        self.live = live
        self.publisher.on_command = self._command
        self.publisher.start()
        self.publisher.publish_join({"white": self.urls["white"], "black": self.urls["black"]})

    def update(self) -> None:
        live = self.live
        if live is None:
            return
        situation = live.situation
        status = "correction" if situation.status_kind in CORRECTION else "playing"
        if situation.paused:
            status = "paused"
        self.publisher.publish(public_game(
            live.game, game_id=f"{self.publisher.board}-{live.stored.id}", status=status,
            clock=situation.clock, players=situation.players,
            spectator_url=self.urls["spectator"]))

    def _command(self, message: dict[str, Any]) -> None:
        live, op = self.live, OPS.get(str(message.get("command")))
        if live is None or op is None:
            return
        body: dict[str, Any] = {"op": op}
        if isinstance(message.get("result"), str):
            body["result"] = message["result"]
        if op == "add_time":
            body["colour"], body["seconds"] = message.get("side"), message.get("seconds")
        live.submit("arbiter", body)

    def close(self) -> None:
        self.publisher.stop()
