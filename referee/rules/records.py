"""Game records: what is needed to reproduce a game exactly, as JSON.

A record holds the variant, its options, the seed and every action in canonical notation (a
bare ``roll`` is stored with the face it produced). Loading replays the actions through the
rules, so a record that was tampered with is refused at the first illegal action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from referee.rules.errors import RecordError, RefereeError
from referee.rules.game import Game

FORMAT = "gravekeeper-record/1"


@dataclass(frozen=True)
class GameRecord:
    """A game as data: ``start`` is a position text when the game did not begin at the start."""

    variant: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    actions: tuple[str, ...] = ()
    start: str | None = None
    result: str = "*"
    reason: str = ""

    def to_json(self) -> str:
        """The record as a JSON document."""
        data: dict[str, Any] = {
            "format": FORMAT, "variant": self.variant, "options": self.options,
            "seed": self.seed, "actions": list(self.actions), "result": self.result,
            "reason": self.reason,
        }
        if self.start is not None:
            data["start"] = self.start
        return json.dumps(data, indent=1)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read a record (raises RecordError naming the problem)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise RecordError(f"not JSON: {err}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a {FORMAT} document")
        try:
            return cls(str(data["variant"]), dict(data.get("options") or {}),
                       int(data.get("seed", 0)), tuple(str(a) for a in data.get("actions", [])),
                       data.get("start"), str(data.get("result", "*")),
                       str(data.get("reason", "")))
        except (KeyError, TypeError, ValueError) as err:
            raise RecordError(f"bad record field: {err}") from None


def start_position(game: Game) -> str | None:
    """The position text ``game`` began from, or None when that is the variant's own start for
    the game's seed (what a record or a journal header stores as ``start``)."""
    start = game.variant.position(game.start)
    return None if game.variant.position(game.variant.initial_state(game.seed)) == start else start


def game_from(variant: str, options: dict[str, Any], seed: int, start: str | None) -> Game:
    """A new game as a record or a journal header describes it, before any action.

    Raises:
        RefereeError: an unknown variant, bad options or a bad start position.
    """
    game = Game(variant, options, seed)
    if start is not None:
        game = Game(game.variant, seed=seed, state=game.variant.from_position(start))
    return game


def record_of(game: Game) -> GameRecord:
    """The record of ``game`` so far."""
    return GameRecord(game.variant.name, dict(game.variant.options), game.seed,
                      tuple(game.action_texts()), start_position(game), game.outcome.result,
                      game.outcome.reason)


def replay(record: GameRecord) -> Game:
    """The game a record describes, every action checked again.

    Raises:
        RecordError: the variant/options are bad or an action is not legal where it stands.
    """
    try:
        game = game_from(record.variant, record.options, record.seed, record.start)
        for text in record.actions:
            game.play(text)
        if record.result != "*" and game.outcome.result == "*":  # ended off the board
            game.adjudicate(record.result, record.reason or "adjudicated")
    except RefereeError as err:
        raise RecordError(f"record does not replay: {err}") from None
    return game
