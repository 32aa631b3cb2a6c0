"""The game journal: every action written to disk as it happens, so a crash loses nothing.

A journal is a JSON-lines file. The first line is the game's header (variant, options, seed,
start position if any); each further line is one applied action in canonical NOTATION.md text
(or an adjudication). Every line is flushed and fsync'd before the referee goes on, so after a
power cut the file holds every action that was announced. A last line cut short by the power
cut is dropped when the journal is read (the action was never confirmed); anything else that is
not a valid line is an error naming the line.

The journal keeps secrets (burial squares) because it is the referee's own memory: keep it on
the referee's machine, like the game record.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

from referee.rules.errors import RecordError, RefereeError
from referee.rules.game import ADJUDICATE, Game, Played
from referee.rules.records import game_from, start_position

FORMAT = "gravekeeper-journal/1"


class Journal:
    """Appends a game's actions to ``path``; use :func:`open_journal` to create or resume."""

    def __init__(self, path: Path, handle: IO[str]) -> None:
        self.path = path
        self._handle = handle

    def write(self, played: Played) -> None:
        """Record one applied action (durably: flushed and fsync'd)."""
        if played.action.kind == ADJUDICATE:
            line: dict[str, Any] = {"adjudicate": played.action.value, "reason": played.text}
        else:
            line = {"action": played.text}
        self._append(line)

    def _append(self, data: dict[str, Any]) -> None:
        self._handle.write(json.dumps(data) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        """Close the file (idempotent)."""
        if not self._handle.closed:
            self._handle.close()


def open_journal(path: str | Path, game: Game) -> tuple[Journal, Game]:
    """The journal at ``path`` and the game to play on.

    If the file exists and holds a game, that game is resumed (``game`` only has to be of the
    same variant, options and seed); otherwise a new journal is started for ``game``.

    Raises:
        RecordError: the file is not a journal, belongs to another game, or an action in it
            does not replay (the line is named).
    """
    path = Path(path)
    if path.exists() and path.stat().st_size > 0:
        resumed = read_journal(path)
        if (resumed.variant.name, resumed.variant.options, resumed.seed) != (
                game.variant.name, game.variant.options, game.seed):
            raise RecordError(f"{path}: this journal is of another game "
                              f"({resumed.variant.name}, seed {resumed.seed})")
        _drop_torn_tail(path)
        return Journal(path, path.open("a", encoding="utf-8")), resumed
    journal = Journal(path, path.open("w", encoding="utf-8"))
    header: dict[str, Any] = {"format": FORMAT, "variant": game.variant.name,
                              "options": game.variant.options, "seed": game.seed}
    start = start_position(game)
    if start is not None:
        header["start"] = start
    journal._append(header)
    for played in game.played:
        journal.write(played)
    return journal, game


def read_journal(path: str | Path) -> Game:
    """Replay a journal into a game (every action checked again).

    Raises:
        RecordError: naming the line that is wrong.
    """
    path = Path(path)
    lines = _lines(path)
    if not lines:
        raise RecordError(f"{path}: empty journal")
    header = _parse(path, 1, lines[0])
    if header.get("format") != FORMAT:
        raise RecordError(f"{path}: line 1 is not a {FORMAT} header")
    try:
        start = header.get("start")
        game = game_from(str(header["variant"]), header.get("options") or {},
                         int(header["seed"]), str(start) if start else None)
    except (KeyError, TypeError, ValueError, RefereeError) as err:
        raise RecordError(f"{path}: line 1: bad header: {err}") from None
    for number, text in enumerate(lines[1:], 2):
        _replay_line(game, path, number, _parse(path, number, text))
    return game


def _replay_line(game: Game, path: Path, number: int, entry: dict[str, Any]) -> None:
    try:
        if "adjudicate" in entry:
            game.adjudicate(str(entry["adjudicate"]), str(entry.get("reason", "adjudicated")))
        else:
            game.play(str(entry["action"]))
    except (KeyError, RefereeError) as err:
        raise RecordError(f"{path}: line {number}: does not replay: {err}") from None


def _lines(path: Path) -> list[str]:
    """The complete lines of the file; a last line without its newline was torn by a crash."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return [line for line in lines[:-1] if line.strip()]  # lines[-1] is "" or the torn tail


def _drop_torn_tail(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if text and not text.endswith("\n"):
        path.write_text(text[: text.rfind("\n") + 1], encoding="utf-8")


def _parse(path: Path, number: int, text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{path}: line {number}: not JSON ({err.msg})") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: line {number}: expected a JSON object")
    return data
