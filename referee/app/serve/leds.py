"""The board's LEDs under ``serve``: the referee's public updates as LED scenes.

Why a subscriber of its own: the web pages and the LEDs hear the same updates in the same order
on the game thread, so a choice made on a phone (a burial, an assignment) or an arbiter's take
back reaches the LEDs at once. It goes through :class:`referee.app.present.Presenter`, which
drops every event a spectator may not see, so the LEDs never show a secret.
"""

from __future__ import annotations

from typing import Any

from referee.live.session import Update
from referee.rules.game import Game


class BoardLedOutput:
    """Shows updates on the LEDs of ``sensor`` (when it has LEDs; else it does nothing)."""

    def __init__(self, sensor: Any, game: Game) -> None:
        self.player: Any = None
        self.error = ""
        self.names = game.variant.layout.name
        if not getattr(sensor, "supports_leds", False):
            return
        from hardware.leds.factory import open_player
        from referee.app.present import Presenter

        squares = [self.names(sq) for sq in range(game.variant.layout.size)]
        self.presenter = Presenter()
        self.player = open_player("board", sink=sensor, squares=squares)

    def __call__(self, update: Update) -> None:
        if self.player is None:
            return
        name = self.names
        if update.kind in ("action", "ended"):
            shown = self.presenter.update(update.events, turn=update.state.to_act)
        elif update.problem is not None:
            shown = self.presenter.problem(update.text, [name(s) for s in update.problem.to_empty],
                                           [name(s) for s in update.problem.to_fill])
        elif update.correction is not None:
            shown = self.presenter.correction([name(s) for s in update.correction.to_empty],
                                              [name(s) for s in update.correction.to_fill])
        else:
            return
        try:
            self.player.show(shown.scene)
        except Exception as err:  # noqa: BLE001 - a lost board link must not stop the game
            self.error = str(err)

    def close(self) -> None:
        """Dark LEDs (the board itself stays open)."""
        if self.player is not None:
            self.player.close()
