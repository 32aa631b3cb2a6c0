"""Game records: what is needed to reproduce a game exactly, as JSON.

A record holds the variant, its options, the seed and every action in canonical notation (a
bare ``roll`` is stored with the face it produced). Loading replays the actions through the
rules, so a record that was tampered with is refused at the first illegal action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, TypeVar

from referee.rules.errors import RecordError, RefereeError
from referee.rules.game import Game
from referee.rules.jsontext import loads

FORMAT = "gravekeeper-record/1"
T = TypeVar("T")


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
        data = loads(text, RecordError)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a {FORMAT} document")
        if "variant" not in data:
            raise RecordError("bad record field: no 'variant'")
        return cls(_typed(data, "variant", str, ""), _typed(data, "options", dict, {}),
                   _typed(data, "seed", int, 0), tuple(_texts(data.get("actions", []))),
                   _typed(data, "start", str, None), _typed(data, "result", str, "*"),
                   _typed(data, "reason", str, ""))


def _typed(data: dict[str, Any], key: str, kind: type[T], default: T | None) -> Any:
    value = data.get(key, default)
    if value is default or (isinstance(value, kind) and not isinstance(value, bool)):
        return value
    raise RecordError(f"bad record field: {key!r} must be {_KIND_NAMES[kind]}, "
                      f"not {json.dumps(value)[:40]}")


def _texts(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError("bad record field: 'actions' must be a list of strings")
    return value


_KIND_NAMES: dict[type, str] = {str: "a string", dict: "an object", int: "an integer"}


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
