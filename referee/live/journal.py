"""The game journal: every action written to disk as it happens, so a crash loses nothing.

A journal is a JSON-lines file. The first line is the game's header (variant, options, seed,
start position if any); each further line is one applied action in canonical NOTATION.md text
(or an adjudication, or ``{"takeback": 1}``: the line before it was taken back by the arbiter),
with the chess clock's times for White and Black after it (``"clock": [w, b]``, seconds) when
the game has a clock, so that a resumed game goes on with the times it had.
Every line is flushed and fsync'd before the referee goes on, so after a power cut the file
holds every action that was announced. A last line cut short by the power
cut is dropped when the journal is read (the action was never confirmed); anything else that is
not a valid line is an error naming the line.

The journal keeps secrets (burial squares) because it is the referee's own memory: keep it on
the referee's machine, like the game record.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from referee.rules.errors import RecordError, RefereeError
from referee.rules.game import ADJUDICATE, Game, Played
from referee.rules.jsontext import loads, read_text
from referee.rules.records import game_from, start_position

FORMAT = "gravekeeper-journal/1"


class Journal:
    """Appends a game's actions to ``path``; use :func:`open_journal` to create or resume."""

    def __init__(self, path: Path, handle: IO[str],
                 resumed_clock: tuple[float, float] | None = None) -> None:
        self.path = path
        self._handle = handle
        self._failed = False
        #: the clock's times (White, Black) after the last action of a resumed game, if kept
        self.resumed_clock = resumed_clock
        #: the clock's times now (the runner sets it when the game has a clock)
        self.clock_times: Callable[[], tuple[float, float]] | None = None

    def write(self, played: Played) -> None:
        """Record one applied action (durably: flushed and fsync'd), with the clock's times
        after it."""
        if played.action.kind == ADJUDICATE:
            line: dict[str, Any] = {"adjudicate": played.action.value, "reason": played.text}
        else:
            line = {"action": played.text}
        if self.clock_times is not None:
            line["clock"] = [round(float(t), 3) for t in self.clock_times()]
        self._append(line)

    def take_back(self) -> None:
        """Record that the last action was taken back (an arbiter's decision); reading the
        journal undoes it again."""
        self._append({"takeback": 1})

    def _append(self, data: dict[str, Any]) -> None:
        """Write one line durably.

        Raises:
            RecordError: the line could not be written (disk full, device gone); the journal
                still holds every line before it, so the game can be resumed from it.
        """
        if self._failed:
            raise RecordError(f"{self.path}: the journal could not be written before")
        try:
            self._handle.write(json.dumps(data) + "\n")
            self._handle.flush()
            os.fsync(self._handle.fileno())
        except OSError as err:
            self._failed = True
            raise RecordError(f"cannot write the journal {self.path}: {err.strerror or err} "
                              "(it holds every action before this one)") from None

    def close(self) -> None:
        """Close the file (idempotent; after a failed write, quietly)."""
        if not self._handle.closed:
            try:
                self._handle.close()
            except OSError:
                if not self._failed:
                    raise


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
        resumed, clocks = _read(path)
        if (resumed.variant.name, resumed.variant.options, resumed.seed) != (
                game.variant.name, game.variant.options, game.seed):
            raise RecordError(f"{path}: this journal is of another game "
                              f"({resumed.variant.name}, seed {resumed.seed}); give the same "
                              "--variant, --options and --seed to resume it, or name another "
                              "--journal")
        _drop_torn_tail(path)
        last = clocks[-1] if clocks else None
        return Journal(path, path.open("a", encoding="utf-8"), last), resumed
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
    return _read(Path(path))[0]


def _read(path: Path) -> tuple[Game, list[tuple[float, float] | None]]:
    """The journal's game, and the clock's times kept after each of its actions."""
    lines = _lines(path)
    way_out = "delete the file or name another --journal to start a new game"
    if not lines:
        if read_text(path, RecordError).strip():
            raise RecordError(f"{path}: the journal's header (line 1) was cut short, so no game "
                              f"was recorded in it; {way_out}")
        raise RecordError(f"{path}: empty journal; {way_out}")
    header = _parse(path, 1, lines[0])
    if header.get("format") != FORMAT:
        raise RecordError(f"{path}: line 1 is not a {FORMAT} header")
    try:
        start = header.get("start")
        game = game_from(_field(header, "variant", str), _field(header, "options", dict, {}),
                         _field(header, "seed", int),
                         _field(header, "start", str) if start is not None else None)
    except (RefereeError, ValueError) as err:
        raise RecordError(f"{path}: line 1: bad header: {err}") from None
    clocks: list[tuple[float, float] | None] = []
    for number, text in enumerate(lines[1:], 2):
        entry = _parse(path, number, text)
        _replay_line(game, path, number, entry)
        if "takeback" in entry:
            del clocks[-1:]
        else:
            clocks.append(_clock(path, number, entry))
    return game, clocks


def _clock(path: Path, number: int, entry: dict[str, Any]) -> tuple[float, float] | None:
    """The clock's times kept on a line (None: none kept)."""
    times = entry.get("clock")
    if times is None:
        return None
    if not (isinstance(times, list) and len(times) == 2
            and all(isinstance(t, int | float) and not isinstance(t, bool) and 0 <= t < 1e7
                    for t in times)):
        raise RecordError(f"{path}: line {number}: 'clock' must be two numbers of seconds "
                          "(White, Black)")
    return float(times[0]), float(times[1])


def _field(data: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
    """``data[key]`` if it is of type ``kind`` (``default`` when absent and given)."""
    if key not in data and default is not None:
        return default
    if key not in data:
        raise RecordError(f"no {key!r}")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RecordError(f"{key!r} must be {_KINDS[kind]}, not {json.dumps(value)[:40]}")
    return value


_KINDS: dict[type, str] = {str: "a string", dict: "an object", int: "an integer"}


def _replay_line(game: Game, path: Path, number: int, entry: dict[str, Any]) -> None:
    try:
        if "takeback" in entry:
            game.undo()
        elif "adjudicate" in entry:
            game.adjudicate(_field(entry, "adjudicate", str),
                            _field(entry, "reason", str, "adjudicated"))
        else:
            game.play(_field(entry, "action", str))
    except RefereeError as err:
        raise RecordError(f"{path}: line {number}: does not replay: {err}") from None


def _lines(path: Path) -> list[str]:
    """The complete lines of the file; a last line without its newline was torn by a crash."""
    text = read_text(path, RecordError)
    lines = text.split("\n")
    return [line for line in lines[:-1] if line.strip()]  # lines[-1] is "" or the torn tail


def _drop_torn_tail(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if text and not text.endswith("\n"):
        path.write_text(text[: text.rfind("\n") + 1], encoding="utf-8")


def _parse(path: Path, number: int, text: str) -> dict[str, Any]:
    try:
        data = loads(text, RecordError)
    except RecordError as err:
        raise RecordError(f"{path}: line {number}: {err}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: line {number}: expected a JSON object")
    return data
