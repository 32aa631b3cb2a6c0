"""The game store: every game, every action as applied, players and results, in SQLite.

Why SQLite in WAL mode with ``synchronous=FULL``: each applied action is one committed
transaction before the pages hear of it, so a ``kill -9`` (or a power cut) at any moment loses
nothing that was announced, and ``serve`` resumes the game by replaying its actions through the
rules. The store keeps secrets (burial squares, assignments): it is the referee's own memory,
like the journal, and is only read back by the referee itself and by the record after the game.

One :class:`GameStore` belongs to one thread (the live game's owner thread); SQLite
connections are not shared between threads here.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.rules.errors import RecordError, RefereeError
from referee.rules.game import ADJUDICATE, Game, Played

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    started REAL NOT NULL,
    result TEXT NOT NULL DEFAULT '*',
    reason TEXT NOT NULL DEFAULT '',
    ended REAL,
    clock_white REAL,
    clock_black REAL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    value TEXT NOT NULL DEFAULT '',
    actor INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS players (
    game_id INTEGER NOT NULL REFERENCES games(id),
    colour TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game_id, colour)
);
CREATE TABLE IF NOT EXISTS flags (
    game_id INTEGER NOT NULL REFERENCES games(id),
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, name)
);
"""


@dataclass(frozen=True)
class StoredGame:
    """One row of ``games``."""

    id: int
    variant: str
    options: dict[str, Any]
    seed: int
    result: str
    reason: str
    clock: tuple[float, float] | None = None


class GameStore:
    """The SQLite file ``path`` (created with its tables when missing).

    Raises:
        RecordError: the file is not a Gravekeeper store (or not SQLite at all).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as err:
            raise RecordError(f"{path}: not a usable game store ({err})") from None

    def close(self) -> None:
        """Close the file (everything is already committed)."""
        self.db.close()

    # ------------------------------------------------------------------ games

    def latest_open(self, variant: str, options: dict[str, Any]) -> StoredGame | None:
        """The last unfinished game of this variant with these options, if any."""
        row = self.db.execute(
            "SELECT id, variant, options, seed, result, reason, clock_white, clock_black "
            "FROM games WHERE variant = ? "
            "AND options = ? AND result = '*' ORDER BY id DESC LIMIT 1",
            (variant, _canon(options))).fetchone()
        return None if row is None else _stored(row)

    def game(self, game_id: int) -> StoredGame:
        """One game by id (raises RecordError when there is none)."""
        row = self.db.execute("SELECT id, variant, options, seed, result, reason, clock_white, "
                              "clock_black FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise RecordError(f"no game {game_id} in {self.path}")
        return _stored(row)

    def new_game(self, variant: str, options: dict[str, Any], seed: int) -> StoredGame:
        """Start a game row (and its two players) in one transaction."""
        with self.db:
            self.db.execute("BEGIN")
            cur = self.db.execute("INSERT INTO games (variant, options, seed, started) "
                                  "VALUES (?, ?, ?, ?)",
                                  (variant, _canon(options), seed, time.time()))
            game_id = int(cur.lastrowid or 0)
            for colour in ("white", "black"):
                self.db.execute("INSERT INTO players (game_id, colour, name) VALUES (?, ?, ?)",
                                (game_id, colour, colour.capitalize()))
        return self.game(game_id)

    def players(self, game_id: int) -> dict[str, str]:
        """colour -> name."""
        rows = self.db.execute("SELECT colour, name FROM players WHERE game_id = ?",
                               (game_id,)).fetchall()
        return {str(c): str(n) for c, n in rows}

    def set_player(self, game_id: int, colour: str, name: str) -> None:
        """Name the player of ``colour`` (``white`` or ``black``)."""
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO players (game_id, colour, name) "
                            "VALUES (?, ?, ?)", (game_id, colour, name))

    def paused(self, game_id: int) -> bool:
        """Whether the arbiter paused the game's clock (kept across a restart)."""
        row = self.db.execute("SELECT value FROM flags WHERE game_id = ? AND name = 'paused'",
                              (game_id,)).fetchone()
        return row is not None and row[0] == "1"

    def set_paused(self, game_id: int, paused: bool) -> None:
        """Keep the arbiter's pause (or its end)."""
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO flags (game_id, name, value) "
                            "VALUES (?, 'paused', ?)", (game_id, "1" if paused else "0"))

    # ------------------------------------------------------------------ actions

    def append(self, game_id: int, played: Played,
               clock: tuple[float, float] | None = None) -> None:
        """Commit one applied action (and the result, when it ended the game, and the clock's
        times for White and Black after it, when there is a clock)."""
        value = played.action.value if played.action.kind == ADJUDICATE else ""
        with self.db:
            self.db.execute("BEGIN")
            n = self.db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM actions WHERE game_id = ?",
                                (game_id,)).fetchone()[0]
            self.db.execute("INSERT INTO actions (game_id, n, kind, text, value, actor, at) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (game_id, n, played.action.kind, played.text, value, played.actor,
                             time.time()))
            self._result(game_id, played)
            if clock is not None:
                self.db.execute("UPDATE games SET clock_white = ?, clock_black = ? WHERE id = ?",
                                (clock[0], clock[1], game_id))

    def _result(self, game_id: int, played: Played) -> None:
        from referee.rules.events import GameEnded

        for event in played.events:
            if isinstance(event, GameEnded):
                self.db.execute("UPDATE games SET result = ?, reason = ?, ended = ? WHERE id = ?",
                                (event.result, event.reason, time.time(), game_id))

    def save_clock(self, game_id: int, clock: tuple[float, float]) -> None:
        """Keep the clock's times (after an arbiter's change, and every few seconds)."""
        with self.db:
            self.db.execute("UPDATE games SET clock_white = ?, clock_black = ? WHERE id = ?",
                            (clock[0], clock[1], game_id))

    def drop_last(self, game_id: int) -> bool:
        """Take back the last stored action (and reopen the game). False when there is none."""
        with self.db:
            self.db.execute("BEGIN")
            n = self.db.execute("SELECT MAX(n) FROM actions WHERE game_id = ?",
                                (game_id,)).fetchone()[0]
            if n is None:
                return False
            self.db.execute("DELETE FROM actions WHERE game_id = ? AND n = ?", (game_id, n))
            self.db.execute("UPDATE games SET result = '*', reason = '', ended = NULL "
                            "WHERE id = ?", (game_id,))
        return True

    def replay(self, stored: StoredGame) -> Game:
        """The game rebuilt from its stored actions through the rules.

        Raises:
            RecordError: a stored action is no longer legal (the store was edited by hand).
        """
        game = Game(stored.variant, stored.options, seed=stored.seed)
        rows = self.db.execute("SELECT n, kind, text, value FROM actions WHERE game_id = ? "
                               "ORDER BY n", (stored.id,)).fetchall()
        for n, kind, text, value in rows:
            try:
                if kind == ADJUDICATE:
                    game.adjudicate(str(value), str(text))
                else:
                    game.play(str(text))
            except RefereeError as err:
                raise RecordError(f"{self.path}: game {stored.id} action {n} ({kind}) cannot "
                                  f"be replayed: {err}") from None
        return game


def _canon(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def _stored(row: tuple[Any, ...]) -> StoredGame:
    clock = (float(row[6]), float(row[7])) if row[6] is not None and row[7] is not None else None
    return StoredGame(int(row[0]), str(row[1]), json.loads(row[2]), int(row[3]), str(row[4]),
                      str(row[5]), clock)
